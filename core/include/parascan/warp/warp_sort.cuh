// A warp sorts up to 32 (key, index) pairs, one per lane, by a bitonic network of shuffles
// (Batcher 1968; 15 compare-exchange steps of one shuffle pair each). The index breaks ties, so with
// each lane's own position as its index the sort is stable; lanes past the items hold the largest key
// and an index past 31, and so end last.
#pragma once
#include <type_traits>

namespace parascan::warp {

/// Sorts (key, index) across the warp's 32 lanes, ascending by key then index; every lane takes part
/// and the pairs must be distinct (distinct indices make them so). Afterwards lane l holds the l-th
/// smallest pair.
template <class K>
__device__ __forceinline__ void bitonic_sort(K& key, unsigned& index) {
  using shuffled = std::conditional_t<(sizeof(K) > 4), unsigned long long, unsigned>;
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned size = 2; size <= 32; size <<= 1) {
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      const K other_key = static_cast<K>(__shfl_xor_sync(0xffffffffu, static_cast<shuffled>(key), stride));
      const unsigned other_index = __shfl_xor_sync(0xffffffffu, index, stride);
      const bool other_less = other_key < key || (other_key == key && other_index < index);
      const bool ascending = (lane & size) == 0;  // size 32: the whole warp ascends
      const bool lower = (lane & stride) == 0;    // the lower lane of the pair keeps the smaller in an ascending run
      if (lower == ascending ? other_less : !other_less) {
        key = other_key;
        index = other_index;
      }
    }
  }
}

}  // namespace parascan::warp
