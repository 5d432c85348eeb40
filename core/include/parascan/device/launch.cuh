// Launch helpers shared by every device algorithm: temporary-storage alignment, the launch check,
// programmatic dependent launch (a kernel may start while its predecessor in the stream finishes),
// and cooperative launch (every block of a grid resident at once, so that they may wait for each other).
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

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

/// Zeroes `count` words at `words` and lets the next kernel in the stream launch at once (it must
/// wait_for_previous_grid() before it reads or writes them). Launched plainly (`<<<>>>`), it starts
/// after everything before it in the stream has finished, so the next kernel may read that work's
/// results before its wait. In place of cudaMemsetAsync then a launch: a memset cannot let the next
/// kernel in early (the SAT's status: 6 µs at 8192², performance.md entry 15; the sort's, entry 69).
template <class Word>
__global__ void __launch_bounds__(256) clear_words_kernel(Word* words, std::int64_t count) {
  allow_next_grid();
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    words[i] = Word{};
}

/// Enqueues clear_words_kernel over `count` words (none: nothing enqueued), at most 1024 blocks of 256.
template <class Word>
cudaError_t clear_words(Word* words, std::int64_t count, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  const std::int64_t blocks = (count + 255) / 256;
  clear_words_kernel<Word><<<static_cast<unsigned>(blocks < 1024 ? blocks : 1024), 256, 0, stream>>>(words, count);
  return cudaPeekAtLastError();
}

namespace launch_detail {
/// A number per (kernel, `key`, current device), worked out by ask(device, value) the first time and
/// remembered (not after an error): the runtime's attribute and occupancy calls cost microseconds of
/// host time, as much as a small scan's kernel. Every such answer is kept here (kernel null: the
/// device's own); each caller's `ask` keeps its answers apart.
template <class Ask>
cudaError_t remembered(const void* kernel, int key, std::int64_t& value, Ask ask) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return e;
  static std::mutex guard;
  static std::map<std::tuple<const void*, int, int>, std::int64_t> known;
  const auto at = std::make_tuple(kernel, key, device);
  {
    std::lock_guard<std::mutex> lock(guard);
    if (const auto it = known.find(at); it != known.end()) {
      value = it->second;
      return cudaSuccess;
    }
  }
  if ((e = ask(device, value)) != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(guard);
  known[at] = value;
  return cudaSuccess;
}
}  // namespace launch_detail

/// Whether the current device runs programmatic dependent launch (compute capability 9.0 and later),
/// asked of the runtime once per device.
inline cudaError_t dependent_launch_available(bool& available) {
  std::int64_t yes = 0;
  const cudaError_t e = launch_detail::remembered(nullptr, 0, yes, [](int device, std::int64_t& value) {
    int major = 0;
    const cudaError_t a = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    value = major >= 9;
    return a;
  });
  available = yes != 0;
  return e;
}

namespace launch_detail {
template <class... Params, class... Args>
cudaError_t launch(cudaLaunchAttribute* attributes, unsigned count, void (*kernel)(Params...), unsigned grid,
                   unsigned block, std::size_t smem, cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = count;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}
}  // namespace launch_detail

/// Launch `kernel` so that it may start while the previous kernel in the stream finishes (it must
/// call wait_for_previous_grid() before reading that kernel's output).
template <class... Params, class... Args>
cudaError_t launch_after_previous(bool overlap, void (*kernel)(Params...), unsigned grid, unsigned block,
                                  std::size_t smem, cudaStream_t stream, Args... args) {
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  return launch_detail::launch(attribute, overlap ? 1 : 0, kernel, grid, block, smem, stream, args...);
}

/// Launch `kernel` cooperatively: all `grid` blocks are resident at once (the launch fails with
/// cudaErrorCooperativeLaunchTooLarge otherwise), so they may wait for each other
/// (cooperative_groups::this_grid().sync()). Check the fit first with resident_capacity().
template <class... Params, class... Args>
cudaError_t launch_cooperative(void (*kernel)(Params...), unsigned grid, unsigned block, cudaStream_t stream,
                               Args... args) {
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeCooperative;
  attribute[0].val.cooperative = 1;
  return launch_detail::launch(attribute, 1, kernel, grid, block, 0, stream, args...);
}

namespace launch_detail {
/// Blocks of `kernel` (`threads` threads, `smem` bytes of dynamic shared memory each) that `device`
/// holds at once, asked of the runtime now: blocks per SM × SMs.
template <class... Params>
cudaError_t ask_resident_blocks(void (*kernel)(Params...), int threads, int smem, int device, std::int64_t& blocks) {
  int sms = 0, per_sm = 0;
  cudaError_t e;
  if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess) return e;
  if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem)) != cudaSuccess) return e;
  blocks = static_cast<std::int64_t>(per_sm) * sms;
  return cudaSuccess;
}
}  // namespace launch_detail

/// How many blocks of `kernel` (`threads` threads each, no dynamic shared memory) the current device
/// holds at once: blocks per SM × SMs, or 0 where the device cannot launch cooperatively. Asked of
/// the runtime once per kernel, block size and device.
template <class... Params>
cudaError_t resident_capacity(void (*kernel)(Params...), int threads, std::int64_t& capacity) {
  return launch_detail::remembered(reinterpret_cast<const void*>(kernel), threads, capacity,
                                   [&](int device, std::int64_t& value) {
    int cooperative = 0;
    cudaError_t e;
    if ((e = cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device)) != cudaSuccess) return e;
    if ((e = launch_detail::ask_resident_blocks(kernel, threads, 0, device, value)) != cudaSuccess) return e;
    if (cooperative == 0) value = 0;
    return cudaSuccess;
  });
}

/// How many blocks of `kernel` (`threads` threads, `smem` bytes of dynamic shared memory each) the
/// current device holds at once: blocks per SM × SMs. Asked of the runtime once per kernel, block size
/// and device (a kernel is asked with one `smem`).
template <class... Params>
cudaError_t resident_blocks(void (*kernel)(Params...), int threads, int smem, std::int64_t& blocks) {
  return launch_detail::remembered(reinterpret_cast<const void*>(kernel), threads, blocks,
                                   [&](int device, std::int64_t& value) {
    return launch_detail::ask_resident_blocks(kernel, threads, smem, device, value);
  });
}

/// One launch where it fits: when `wanted` and all `grid` blocks of `kernel` are resident at once,
/// launch it cooperatively and set `launched`; otherwise (or when fewer SMs are free to this process
/// than the device has, as under MPS: cudaErrorCooperativeLaunchTooLarge) leave `launched` false for
/// the caller's other path. The single-pass scan and selection use it (scan_resident_kernel,
/// select_tiles_kernel<..., true>).
template <class... Params, class... Args>
cudaError_t try_launch_resident(bool wanted, bool& launched, void (*kernel)(Params...), std::int64_t grid,
                                unsigned block, cudaStream_t stream, Args... args) {
  launched = false;
  if (!wanted) return cudaSuccess;
  std::int64_t capacity = 0;
  cudaError_t e = resident_capacity(kernel, static_cast<int>(block), capacity);
  if (e != cudaSuccess || grid > capacity) return e;
  e = launch_cooperative(kernel, static_cast<unsigned>(grid), block, stream, args...);
  if (e == cudaErrorCooperativeLaunchTooLarge) {
    (void)cudaGetLastError();
    return cudaSuccess;
  }
  launched = e == cudaSuccess;
  return e;
}

/// Lets `kernel` use `bytes` of dynamic shared memory (past the 48 KB default), set once per kernel,
/// size and device.
template <class... Params>
cudaError_t allow_dynamic_smem(void (*kernel)(Params...), int bytes) {
  std::int64_t done = 0;
  return launch_detail::remembered(reinterpret_cast<const void*>(kernel), bytes, done, [&](int, std::int64_t& value) {
    value = 1;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  });
}

}  // namespace parascan::device
