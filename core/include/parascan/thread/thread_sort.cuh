// Thread-level sorting network: the (key, index) pairs a thread holds in registers, sorted by
// Batcher's bitonic network (Batcher 1968): P/2 · log2 P · (log2 P + 1) / 2 compare-exchanges
// (80 for P = 16, 240 for P = 32), every index a compile-time constant (fully unrolled), so the
// arrays stay in registers. The index breaks ties, so with each item's own position as its index
// the sort is stable.
#pragma once

namespace parascan::thread {

/// Sorts (key[i], index[i]) ascending by key, then index. P a power of two up to 64; the pairs must
/// be distinct (distinct indices make them so).
template <int P, class K>
__device__ __forceinline__ void bitonic_sort(K (&key)[P], unsigned (&index)[P]) {
  static_assert(P >= 1 && P <= 64 && (P & (P - 1)) == 0, "P: a power of two up to 64");
#pragma unroll
  for (int size = 2; size <= P; size <<= 1) {
#pragma unroll
    for (int stride = size / 2; stride > 0; stride >>= 1) {
#pragma unroll
      for (int i = 0; i < P; ++i) {
        const int j = i ^ stride;
        if (j > i) {
          const bool ascending = (i & size) == 0;  // size P: the whole array ascends
          const bool out_of_order = key[j] < key[i] || (key[j] == key[i] && index[j] < index[i]);
          if (out_of_order == ascending) {
            const K k = key[i];
            key[i] = key[j];
            key[j] = k;
            const unsigned x = index[i];
            index[i] = index[j];
            index[j] = x;
          }
        }
      }
    }
  }
}

}  // namespace parascan::thread
