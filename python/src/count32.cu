// copy_count_to_int32 (calls.hpp): a selection's int64 count, left on the device, copied to int32 for a
// JAX select under jit without x64 (jax_ffi.cpp). The select pads its own output (select_*_padded).
#include <cuda_runtime_api.h>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace parascan::python {
namespace {

__global__ void count_to_int32_kernel(const std::int64_t* count, std::int32_t* count32) {
  *count32 = static_cast<std::int32_t>(*count);
}

}  // namespace

void copy_count_to_int32(std::uintptr_t count, std::uintptr_t count32, std::uintptr_t stream) {
  count_to_int32_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const std::int64_t*>(count), reinterpret_cast<std::int32_t*>(count32));
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw std::runtime_error(std::string("parascan: select's int32 count: ") + cudaGetErrorString(e));
}

}  // namespace parascan::python
