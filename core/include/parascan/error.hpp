// One error type for host code: a CUDA error turned into an exception carrying file:line and name.
#pragma once
#include <cuda_runtime_api.h>
#include <stdexcept>
#include <string>

namespace parascan {

class cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

inline void throw_on_cuda_error(cudaError_t code, const char* expr, const char* file, int line) {
  if (code == cudaSuccess) return;
  throw cuda_error(code, std::string(file) + ":" + std::to_string(line) + ": " + expr + " failed: " +
                             cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")");
}

}  // namespace parascan

/// Host code: throw parascan::cuda_error if a CUDA runtime call fails.
#define PARASCAN_CUDA_CHECK(expr) ::parascan::throw_on_cuda_error((expr), #expr, __FILE__, __LINE__)
