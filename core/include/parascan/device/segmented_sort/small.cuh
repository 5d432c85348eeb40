// Segmented sort, the segments that fit one block: their classification and sorts.
//
//   1. classify (a thread per segment): its size class; segments of the warp, small and tile
//      classes are listed per class (one atomic per warp and class: ballot, leader, shuffle);
//      a large segment counts its tiles (for merge.cuh's tile map) and raises the most merge
//      levels. Reads the offsets once, writes 4–12 bytes per segment.
//   2. warp class: a warp per listed segment, its ≤ 32 keys ranked by a bitonic network of (sort key,
//      position) (warp/warp_sort.cuh), then keys and values gathered from their positions.
//   3. small and tile classes: a block per listed segment, its keys sorted with their positions by the
//      block radix sort (block/block_radix_sort.cuh), then gathered. The same tile sort writes the
//      sorted runs of a large segment (merge.cuh).
//   The kernels loop over their class's list (persistent grids sized on the host), so the sizes
//   chosen on the device need no copy to the host: the sort can be captured in a CUDA graph.
//   Traffic: keys (and values) read once to rank, once to gather (from L1/L2: a segment is at most a
//   tile), written once.
#pragma once
#include <cstdint>
#include "parascan/block/block_radix_sort.cuh"
#include "parascan/device/segmented_sort/segments.cuh"
#include "parascan/warp/warp_sort.cuh"

namespace parascan::device::segmented {

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

/// lists[c · count + i]: the i-th listed segment of class c (warp, small, tile); tiles_of[s]: the
/// tiles of segment s if large, else 0. `counts` must start zeroed.
template <class Segments>
__global__ void classify_kernel(Segments segments, std::int64_t count, int tile, unsigned* lists, std::int64_t* tiles_of,
                                class_counts* counts) {
  const int lane = threadIdx.x % 32;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  // Whole warps go round the loop together, so that every lane takes part in the ballots.
  for (std::int64_t s0 = static_cast<std::int64_t>(blockIdx.x) * blockDim.x; s0 < count; s0 += stride) {
    const std::int64_t s = s0 + threadIdx.x;
    const std::int64_t n = s < count ? segments.size_of(s) : 0;
    const int cls = n == 0 ? -1 : n <= warp_limit ? warp_class : n <= small_limit ? small_class : n <= tile ? tile_class : large_class;
    if (s < count) tiles_of[s] = cls == large_class ? (n + tile - 1) / tile : 0;
    if (cls == large_class) atomicMax(&counts->most_levels, merge_levels(n, tile));
#pragma unroll
    for (int c = 0; c < 3; ++c) {
      const unsigned mask = __ballot_sync(0xffffffffu, cls == c);
      if (mask == 0) continue;
      const int leader = __ffs(mask) - 1;
      unsigned base = 0;
      if (lane == leader) base = atomicAdd(&counts->listed[c], static_cast<unsigned>(__popc(mask)));
      base = __shfl_sync(0xffffffffu, base, leader);
      if (cls == c) lists[c * count + base + __popc(mask & lanemask_lt())] = static_cast<unsigned>(s);
    }
  }
}

/// values_dst[q] for the item that came from `from` (a position in the segment or run): moved from
/// values_src, or, without it, the position `base + from` (argsort).
template <class V>
__device__ __forceinline__ void move_value(const V* values_src, std::int64_t base, unsigned from, V* values_dst, std::int64_t q) {
  if constexpr (!std::is_same_v<V, no_values>) values_dst[q] = values_src ? values_src[from] : static_cast<V>(base + from);
}

template <class U, class V, class Segments>
__global__ void __launch_bounds__(256) warp_sort_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out,
                                                        Segments segments, std::int64_t count, const unsigned* lists,
                                                        const class_counts* counts, sort_key<U> key_of) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned listed = counts->listed[warp_class];
  const unsigned warps = gridDim.x * (blockDim.x / 32);
  for (unsigned w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; w < listed; w += warps) {
    const std::int64_t s = lists[warp_class * count + w];
    const std::int64_t begin = segments.begin_of(s), n = segments.size_of(s);
    U key = lane < n ? key_of(keys_in[begin + lane]) : key_of.mask;  // past the end: the largest, ranked last
    unsigned from = lane;
    warp::bitonic_sort(key, from);
    if (lane < n) {
      keys_out[begin + lane] = keys_in[begin + from];
      move_value(values_in ? values_in + begin : nullptr, 0, from, values_out + begin, lane);
    }
  }
}

/// One block sorts `n` ≤ Threads · Items items from keys_src into keys_dst (values alike; without
/// values_src the value is the position base + i of the item's source index i).
template <int Threads, int Items, class U, class V>
__device__ __forceinline__ void sort_tile(const U* keys_src, const V* values_src, std::int64_t base, int n, U* keys_dst,
                                          V* values_dst, const sort_key<U>& key_of,
                                          typename block::radix_sort<Threads, Items, U>::storage& s) {
  const int lane = threadIdx.x % 32, warp_begin = static_cast<int>(threadIdx.x / 32) * 32 * Items;
  U key[Items];
  unsigned index[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = warp_begin + j * 32 + lane;
    key[j] = i < n ? key_of(keys_src[i]) : key_of.mask;  // past the end: the largest, after every real key
    index[j] = static_cast<unsigned>(i);
  }
  block::radix_sort<Threads, Items, U>::sort(key, index, key_of.bits, s);
  for (int q = threadIdx.x; q < n; q += Threads) {
    const unsigned from = s.index[q];
    keys_dst[q] = keys_src[from];
    move_value(values_src, base, from, values_dst, q);
  }
}

/// A block per listed segment of class `cls` (small or tile), looping over the list.
template <int Threads, int Items, class U, class V, class Segments>
__global__ void __launch_bounds__(Threads)
    listed_tile_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out, Segments segments,
                       std::int64_t count, const unsigned* lists, const class_counts* counts, int cls, sort_key<U> key_of) {
  __shared__ typename block::radix_sort<Threads, Items, U>::storage storage;
  const unsigned listed = counts->listed[cls];
  for (unsigned i = blockIdx.x; i < listed; i += gridDim.x) {
    const std::int64_t s = lists[cls * count + i];
    const std::int64_t begin = segments.begin_of(s), n = segments.size_of(s);
    sort_tile<Threads, Items>(keys_in + begin, values_in ? values_in + begin : nullptr, 0, static_cast<int>(n),
                              keys_out + begin, values_out + begin, key_of, storage);
  }
}

}  // namespace parascan::device::segmented
