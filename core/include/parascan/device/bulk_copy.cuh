// Bulk copies from global to shared memory (sm_90+: cp.async.bulk, completed on a shared-memory
// mbarrier): one thread starts the copy of a contiguous range, the block works on, and the threads
// wait on the barrier before they read the copied bytes. On older devices bulk_copy::available is
// false and callers take their own path (the functions compile to nothing there).
//
//   __shared__ bulk_copy ready;
//   if (threadIdx.x == 0) ready.start(dst, src, bytes);   // src, dst 16-byte aligned, bytes % 16 == 0
//   __syncthreads();                                       // the barrier's initialisation seen by all
//   ...
//   ready.wait();                                          // then dst holds the bytes
#pragma once
#include <cstdint>

namespace parascan::device {

struct bulk_copy {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static constexpr bool available = true;
#else
  static constexpr bool available = false;
#endif
  alignas(8) unsigned long long barrier;

  /// True when a copy from `src` of `bytes` may be started (16-byte aligned source and size).
  __device__ __forceinline__ static bool fits(const void* src, std::size_t bytes) {
    return available && (reinterpret_cast<std::uintptr_t>(src) & 15u) == 0 && bytes % 16 == 0;
  }

  /// One thread: the barrier initialised for one arrival, then the copy started on it.
  __device__ __forceinline__ void start(void* dst, const void* src, unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(to),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
#endif
  }

  /// Every thread that reads the copied bytes: returns once they have all arrived.
  __device__ __forceinline__ void wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
    unsigned done = 0;
    while (!done) {
      asm volatile(
          "{\n"
          "  .reg .pred p;\n"
          "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
          "  selp.u32 %0, 1, 0, p;\n"
          "}\n"
          : "=r"(done)
          : "r"(bar)
          : "memory");
    }
#endif
  }
};

}  // namespace parascan::device
