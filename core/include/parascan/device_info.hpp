// Finding and describing the CUDA device: "no device" is an error with a message, not a crash.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace parascan {

struct device_description {
  int id = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t global_memory_bytes = 0;
  int l2_bytes = 0;
  int driver_version = 0, runtime_version = 0;
};

/// True when at least one usable CUDA device is present (never throws).
bool cuda_device_available();
/// Select device `id` and describe it; throws no_cuda_device when there is none, or the build has no
/// code for it.
device_description select_device(int id);

class no_cuda_device : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parascan
