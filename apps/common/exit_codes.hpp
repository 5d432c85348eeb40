// Exit codes of every parascan tool (documented in README.md) and the exceptions that carry them.
#pragma once
#include <stdexcept>
#include <string>

namespace parascan::app {

enum exit_code : int {
  exit_ok = 0,
  exit_mismatch = 1,    ///< validation found a difference
  exit_bad_input = 2,   ///< unreadable or malformed input, bad option value, usage
  exit_cuda_error = 3,  ///< a CUDA call failed, including out of device memory
  exit_no_device = 4,   ///< no CUDA device, or none this build can run on
};

/// Bad input or options: exit code 2. The message names the file or option and the problem.
class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Validation found a mismatch: exit code 1.
class mismatch_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parascan::app
