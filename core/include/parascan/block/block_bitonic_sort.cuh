// A block sorts n keys in shared memory with Batcher's bitonic network: n a power of two, every stage
// n/2 compare-exchanges spread over the block's threads, log2(n)·(log2(n) + 1)/2 stages with a barrier
// each. Not stable (keys that must keep an order carry it in their low bits). For small tiles in
// kernels whose block is wider than block::radix_sort takes: the top-k's finish_kernel (512 threads)
// orders a row's k (up to 2048) this way before writing them (device/topk/filter.cuh). At n = 1024,
// 512 threads: 55 stages of one compare-exchange a thread.
#pragma once

namespace parascan::block {

/// Sorts s[0, n) ascending; n a power of two (n ≤ 1: nothing to do). Every thread of the block calls it
/// with the same s and n; begins and ends with a barrier.
template <int Threads, class T>
__device__ __forceinline__ void bitonic_sort(T* s, unsigned n) {
  __syncthreads();
  for (unsigned size = 2; size <= n; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      for (unsigned t = threadIdx.x; t < n / 2; t += Threads) {
        const unsigned i = 2 * t - (t & (stride - 1)), j = i + stride;  // the pair of t: bit `stride` of i clear
        const T a = s[i], b = s[j];
        if ((a > b) == ((i & size) == 0)) {  // ascending where bit `size` of i is clear, else descending
          s[i] = b;
          s[j] = a;
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace parascan::block
