// Launch helpers shared by every device algorithm: temporary-storage alignment, the launch check,
// and programmatic dependent launch (a kernel may start while its predecessor in the stream finishes).
#pragma once
#include <cuda_runtime_api.h>
#include <atomic>
#include <cstddef>

namespace parascan::device {

inline constexpr std::size_t temp_alignment = 256;
inline std::size_t align_up(std::size_t b) { return (b + temp_alignment - 1) / temp_alignment * temp_alignment; }

/// The launch's error, and with `synchronous` the stream's (debug mode).
inline cudaError_t check_launch(cudaStream_t stream, bool synchronous) {
  cudaError_t e = cudaPeekAtLastError();
  if (e == cudaSuccess && synchronous) e = cudaStreamSynchronize(stream);
  return e;
}

/// Programmatic dependent launch (sm_90+; no-ops without it): a kernel lets the next one in the stream
/// be launched early, and the next one waits for this one's results before reading them.
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Whether the current device runs programmatic dependent launch (compute capability 9.0 and later),
/// asked of the runtime once per device: a scan at 2^20 takes a few microseconds, so its launches
/// avoid repeated attribute queries.
inline cudaError_t dependent_launch_available(bool& available) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return e;
  constexpr int remembered = 64;
  static std::atomic<signed char> known[remembered] = {};  // 0 not asked yet, 1 no, 2 yes
  if (device < remembered) {
    const signed char k = known[device].load(std::memory_order_relaxed);
    if (k != 0) {
      available = k == 2;
      return cudaSuccess;
    }
  }
  int major = 0;
  if ((e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) != cudaSuccess) return e;
  available = major >= 9;
  if (device < remembered) known[device].store(available ? 2 : 1, std::memory_order_relaxed);
  return cudaSuccess;
}

/// Launch `kernel` so that it may start while the previous kernel in the stream finishes (it must
/// call wait_for_previous_grid() before reading that kernel's output).
template <class... Params, class... Args>
cudaError_t launch_after_previous(bool overlap, void (*kernel)(Params...), unsigned grid, unsigned block,
                                  std::size_t smem, cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = overlap ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}

}  // namespace parascan::device
