// A block sorts up to Threads · Items keys held in registers with Batcher's bitonic network, thread t
// holding keys t·Items … t·Items + Items − 1 (a blocked arrangement). Each compare-exchange stage runs
// where its partners lie: within a thread (stride < Items), across the lanes of a warp by one shuffle
// (stride < 32·Items, no barrier), or across warps through shared memory (two barriers). Not stable
// (keys that must keep an order carry it in their low bits). log2(n)·(log2(n) + 1)/2 stages for n keys;
// at n = 1024 with 2 keys a thread, 10 of the 55 stages touch shared memory. For small tiles in kernels
// whose block is wider than block::radix_sort takes: the top-k's finish_kernel (512 threads) orders a
// row's k (up to 2048) this way before writing them (device/topk/filter.cuh).
#pragma once

namespace parascan::block {

/// Sorts the first n keys of the block ascending: n a power of two ≤ Threads·Items (n ≤ 1: nothing to
/// do), key[j] of thread t is key t·Items + j; keys from n on are left as they are (and none of the first
/// n is compared with them). `s` holds n keys of shared memory. Every thread of the block calls it with
/// the same n and s (all lanes of every warp: the shuffles take the full mask).
template <int Threads, int Items, class T>
__device__ __forceinline__ void bitonic_sort(T (&key)[Items], unsigned n, T* s) {
  static_assert((Items & (Items - 1)) == 0, "Items: a power of two");
  const unsigned first = threadIdx.x * Items;
  // Key e's new value from itself and its partner's: the smaller where e is the lower of an ascending
  // pair or the upper of a descending one (ascending where bit `size` of e is clear).
  const auto keep = [](T mine, T other, unsigned e, unsigned size, unsigned stride) {
    const bool smaller = ((e & stride) == 0) == ((e & size) == 0);
    return smaller ? (other < mine ? other : mine) : (other > mine ? other : mine);
  };
  for (unsigned size = 2; size <= n; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      if (stride >= 32u * Items) {  // partners in other warps
        __syncthreads();             // every read of s by the previous such stage is done
#pragma unroll
        for (int j = 0; j < Items; ++j)
          if (first + j < n) s[first + j] = key[j];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < Items; ++j) {
          const unsigned e = first + j;
          if (e < n) key[j] = keep(key[j], s[e ^ stride], e, size, stride);
        }
      } else if (stride >= static_cast<unsigned>(Items)) {  // partners in other lanes of the warp
#pragma unroll
        for (int j = 0; j < Items; ++j) {
          const T other = __shfl_xor_sync(0xffffffffu, key[j], static_cast<int>(stride / Items));
          key[j] = keep(key[j], other, first + j, size, stride);
        }
      } else {  // partners in this thread
#pragma unroll
        for (int j = 0; j < Items; ++j) {
          if ((j & stride) != 0) continue;
          const int i = j | static_cast<int>(stride);
          const T a = key[j], b = key[i];
          if ((a > b) == (((first + j) & size) == 0)) {
            key[j] = b;
            key[i] = a;
          }
        }
      }
    }
  }
}

}  // namespace parascan::block
