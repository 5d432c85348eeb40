// Groups of Width lanes (2, 4, …, 32) each sort up to Width (key, index) pairs, one per lane, by a
// bitonic network of shuffles (Batcher 1968; log2 W · (log2 W + 1) / 2 compare-exchange steps of one
// shuffle pair each: 15 for a whole warp). The index breaks ties, so with each lane's own position as
// its index the sort is stable; lanes past the items hold the largest key and a larger index, and so
// end last.
#pragma once
#include <type_traits>

namespace parascan::warp {

/// Sorts (key, index) within each group of Width lanes, ascending by key then index; every lane of
/// the warp takes part and the pairs of a group must be distinct (distinct indices make them so).
/// Afterwards lane r of a group holds its group's r-th smallest pair.
template <int Width = 32, class K>
__device__ __forceinline__ void bitonic_sort(K& key, unsigned& index) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0, "Width: a power of two up to 32");
  using shuffled = std::conditional_t<(sizeof(K) > 4), unsigned long long, unsigned>;
  const unsigned lane = threadIdx.x % Width;  // the lane within its group
#pragma unroll
  for (unsigned size = 2; size <= Width; size <<= 1) {
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      const K other_key = static_cast<K>(__shfl_xor_sync(0xffffffffu, static_cast<shuffled>(key), stride));
      const unsigned other_index = __shfl_xor_sync(0xffffffffu, index, stride);
      const bool other_less = other_key < key || (other_key == key && other_index < index);
      const bool ascending = (lane & size) == 0;  // size Width: the whole group ascends
      const bool lower = (lane & stride) == 0;    // the lower lane of the pair keeps the smaller in an ascending run
      if (lower == ascending ? other_less : !other_less) {
        key = other_key;
        index = other_index;
      }
    }
  }
}

/// The value lane `from` of this lane's group of Width lanes holds (a gather after bitonic_sort).
template <int Width, class T>
__device__ __forceinline__ T from_group_lane(T value, unsigned from) {
  using shuffled = std::conditional_t<(sizeof(T) > 4), unsigned long long, unsigned>;
  shuffled bits = 0;
  memcpy(&bits, &value, sizeof(T));
  bits = __shfl_sync(0xffffffffu, bits, static_cast<int>(from), Width);
  T out;
  memcpy(&out, &bits, sizeof(T));
  return out;
}

}  // namespace parascan::warp
