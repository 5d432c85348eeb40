// Segmented sort, the segments that fit one block: their classification and sorts.
//
//   1. classify (a thread per segment): its size class; segments of up to a tile are listed per
//      class (one atomic per warp and class: ballot, leader, shuffle);
//      a large segment counts its tiles (for merge.cuh's tile map) and raises the most merge
//      levels. Reads the offsets once, writes 4–12 bytes per segment.
//   2. up to 32 items: a group of W lanes per segment (W the least power of two ≥ its size, so a
//      warp sorts 32 / W segments at once), keys and values loaded by lane, (sort key, position)
//      ranked by the group's bitonic network (warp/warp_sort.cuh), keys and values shuffled from the
//      lane of their position. One read and one write of each item.
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
#include "parascan/warp/warp_match.cuh"
#include "parascan/warp/warp_sort.cuh"

namespace parascan::device::segmented {

/// lists[c · count + i]: the i-th listed segment of list c (list_of); tiles_of[s]: the tiles of
/// segment s if it is larger than a tile, else 0. `counts` must start zeroed.
template <class Segments>
__global__ void classify_kernel(Segments segments, std::int64_t count, int tile, unsigned* lists, std::int64_t* tiles_of,
                                class_counts* counts) {
  const int lane = threadIdx.x % 32;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  // Whole warps go round the loop together, so that every lane takes part in the ballots.
  for (std::int64_t s0 = static_cast<std::int64_t>(blockIdx.x) * blockDim.x; s0 < count; s0 += stride) {
    const std::int64_t s = s0 + threadIdx.x;
    const std::int64_t n = s < count ? segments.size_of(s) : 0;
    const int list = n == 0 ? -2 : list_of(n, tile);  // -1: larger than a tile
    if (s < count) tiles_of[s] = list == -1 ? (n + tile - 1) / tile : 0;
    if (list == -1) atomicMax(&counts->most_levels, merge_levels(n, tile));
    unsigned present = __ballot_sync(0xffffffffu, list >= 0) ? 0xffu : 0u;  // skip the loop for warps of none
    for (int c = 0; present != 0 && c < listed_classes; ++c) {
      const unsigned mask = __ballot_sync(0xffffffffu, list == c);
      if (mask == 0) continue;
      const int leader = __ffs(mask) - 1;
      unsigned base = 0;
      if (lane == leader) base = atomicAdd(&counts->listed[c], static_cast<unsigned>(__popc(mask)));
      base = __shfl_sync(0xffffffffu, base, leader);
      if (list == c) lists[c * count + base + __popc(mask & warp::lanemask_lt())] = static_cast<unsigned>(s);
    }
  }
}

/// values_dst[q] for the item that came from `from` (a position in the segment or run): moved from
/// values_src, or, without it, the position `base + from` (argsort).
template <class V>
__device__ __forceinline__ void move_value(const V* values_src, std::int64_t base, unsigned from, V* values_dst, std::int64_t q) {
  if constexpr (!std::is_same_v<V, no_values>) values_dst[q] = values_src ? values_src[from] : static_cast<V>(base + from);
}

/// Groups of Width lanes sort the segments first, first + 1, … of list log2 Width, one each: keys
/// and values loaded by lane, the (sort key, position) pairs sorted by the group's bitonic network,
/// keys and values taken from the lane of their position by a shuffle.
template <int Width, class U, class V, class Segments>
__device__ __forceinline__ void sort_groups(const U* keys_in, U* keys_out, const V* values_in, V* values_out,
                                            const Segments& segments, const segment_lists& lists, int k,
                                            unsigned listed, unsigned first, const sort_key<U>& key_of) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  const unsigned r = threadIdx.x % Width, i = first + (threadIdx.x % 32) / Width;
  const bool real = i < listed;
  const std::int64_t s = real ? lists.at(k, i) : 0;
  const std::int64_t begin = real ? segments.begin_of(s) : 0, n = real ? segments.size_of(s) : 0;
  const bool mine = r < n;
  const U raw = mine ? keys_in[begin + r] : U(0);
  [[maybe_unused]] std::conditional_t<has_values, V, char> value{};
  if constexpr (has_values) {
    if (mine) value = values_in ? values_in[begin + r] : static_cast<V>(r);
  }
  U key = mine ? key_of(raw) : key_of.mask;  // past the end: the largest, ranked last
  unsigned from = r;
  if constexpr (Width > 1) warp::bitonic_sort<Width>(key, from);
  const U out = warp::from_group_lane<Width>(raw, from);
  if constexpr (has_values) value = warp::from_group_lane<Width>(value, from);
  if (mine) {
    keys_out[begin + r] = out;
    if constexpr (has_values) values_out[begin + r] = value;
  }
}

/// Every segment of up to 32 items: the jobs of the six group widths one after another, a job being
/// the 32 / Width segments a warp sorts at once.
template <class U, class V, class Segments>
__global__ void __launch_bounds__(256) warp_sort_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out,
                                                        Segments segments, segment_lists lists, sort_key<U> key_of) {
  unsigned jobs_before[width_lists + 1];
  jobs_before[0] = 0;
#pragma unroll
  for (int k = 0; k < width_lists; ++k) {
    const unsigned per_warp = 32u >> k;
    jobs_before[k + 1] = jobs_before[k] + (lists.listed(k) + per_warp - 1) / per_warp;
  }
  const unsigned warps = gridDim.x * (blockDim.x / 32);
  for (unsigned job = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; job < jobs_before[width_lists]; job += warps) {
    int k = 0;
    while (job >= jobs_before[k + 1]) ++k;
    const unsigned first = (job - jobs_before[k]) * (32u >> k), listed = lists.listed(k);
    switch (k) {
      case 0: sort_groups<1>(keys_in, keys_out, values_in, values_out, segments, lists, k, listed, first, key_of); break;
      case 1: sort_groups<2>(keys_in, keys_out, values_in, values_out, segments, lists, k, listed, first, key_of); break;
      case 2: sort_groups<4>(keys_in, keys_out, values_in, values_out, segments, lists, k, listed, first, key_of); break;
      case 3: sort_groups<8>(keys_in, keys_out, values_in, values_out, segments, lists, k, listed, first, key_of); break;
      case 4: sort_groups<16>(keys_in, keys_out, values_in, values_out, segments, lists, k, listed, first, key_of); break;
      default: sort_groups<32>(keys_in, keys_out, values_in, values_out, segments, lists, k, listed, first, key_of); break;
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

/// A block per segment of list `cls` (small or tile), looping over the list.
template <int Threads, int Items, class U, class V, class Segments>
__global__ void __launch_bounds__(Threads)
    listed_tile_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out, Segments segments,
                       segment_lists lists, int cls, sort_key<U> key_of) {
  __shared__ typename block::radix_sort<Threads, Items, U>::storage storage;
  const unsigned listed = lists.listed(cls);
  for (unsigned i = blockIdx.x; i < listed; i += gridDim.x) {
    const std::int64_t s = lists.at(cls, i);
    const std::int64_t begin = segments.begin_of(s), n = segments.size_of(s);
    sort_tile<Threads, Items>(keys_in + begin, values_in ? values_in + begin : nullptr, 0, static_cast<int>(n),
                              keys_out + begin, values_out + begin, key_of, storage);
  }
}

/// One block sorts the plain sort's one row of n ≤ Threads · Items keys at a shape of its own (the
/// one-block rows of device_radix_sort.cuh); its storage is dynamic shared memory, past 48 KB.
template <int Threads, int Items, class U, class V>
__global__ void __launch_bounds__(Threads)
    one_row_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out, int n, sort_key<U> key_of) {
  extern __shared__ __align__(16) unsigned char one_row_smem[];
  auto& storage = *reinterpret_cast<typename block::radix_sort<Threads, Items, U>::storage*>(one_row_smem);
  sort_tile<Threads, Items>(keys_in, values_in, 0, n, keys_out, values_out, key_of, storage);
}

/// After a keys-only sort of encoded floats whose −0.0 were taken for +0.0 (codec.ordered), the zeros of
/// the sorted tile (s.u.keys[L, L + Z)) given back their signs in input order, which is where the stable
/// sort of the keys, −0.0 equal to +0.0 (CUB's order), leaves them. zero / negative: bit j set where the
/// thread's warp-striped item j (warp_begin + j · 32 + lane) was ±0.0 / −0.0 before the sort. A zero's
/// place among the zeros: its warp's zeros before it (one ballot per row), then the earlier warps'
/// (one block exclusive sum); L by a binary search of the sorted keys. Only a row holding a −0.0 pays.
template <int Threads, int Items, class U, class Storage>
__device__ void give_zeros_their_signs(unsigned zero, unsigned negative, int n, const key_codec<U>& codec, Storage& s) {
  const unsigned lane = threadIdx.x % 32, lanes_before = (1u << lane) - 1;
  unsigned rank[Items], in_warp = 0;
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const unsigned row = __ballot_sync(0xffffffffu, (zero >> j) & 1u);
    rank[j] = in_warp + __popc(row & lanes_before);
    in_warp += __popc(row);
  }
  unsigned total = 0;
  const unsigned before = __shfl_sync(0xffffffffu, block::exclusive_sum<Threads>(lane == 0 ? in_warp : 0u, s.warp_totals, total), 0);
  int lo = 0, hi = n;  // L: the first sorted key not below +0.0's image
  while (lo < hi) {
    const int m = (lo + hi) / 2;
    if (s.u.keys[m] < codec.pos_zero) lo = m + 1;
    else hi = m;
  }
  __syncthreads();  // every search done before a zero is written
#pragma unroll
  for (int j = 0; j < Items; ++j)
    if ((zero >> j) & 1u) s.u.keys[lo + before + rank[j]] = (negative >> j) & 1u ? codec.neg_zero : codec.pos_zero;
  __syncthreads();
}

/// Keys compared on every bit: the encoded key is the sort key and decodes back to the key, so no
/// position is ranked or gathered (block::radix_sort's keys-only form). Floats sort −0.0 as +0.0 (the
/// codec's ordered image, as the Onesweep compares them); where a −0.0 was read, the zeros get their
/// signs back in input order before the keys are written (give_zeros_their_signs).
template <int Threads, int Items, class U>
__global__ void __launch_bounds__(Threads) one_row_keys_kernel(const U* keys_in, U* keys_out, int n, key_codec<U> codec) {
  static_assert(Items <= 32, "one bit an item in the zero masks");
  using sorter = block::radix_sort<Threads, Items, U, false>;
  extern __shared__ __align__(16) unsigned char one_row_smem[];
  auto& storage = *reinterpret_cast<typename sorter::storage*>(one_row_smem);
  const int lane = threadIdx.x % 32, warp_begin = static_cast<int>(threadIdx.x / 32) * 32 * Items;
  const bool floating = codec.neg_zero != codec.pos_zero;
  U key[Items];
  unsigned zero = 0, negative = 0;
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = warp_begin + j * 32 + lane;
    const U e = i < n ? codec.encode(keys_in[i]) : static_cast<U>(~U(0));  // past the end: after every real key
    key[j] = codec.ordered(e);
    if (floating && i < n) zero |= unsigned(key[j] == codec.pos_zero) << j, negative |= unsigned(e == codec.neg_zero) << j;
  }
  sorter::sort(key, static_cast<int>(8 * sizeof(U)), storage);
  if (__syncthreads_or(negative != 0)) give_zeros_their_signs<Threads, Items>(zero, negative, n, codec, storage);
  for (int q = threadIdx.x; q < n; q += Threads) keys_out[q] = codec.decode(storage.u.keys[q]);
}

}  // namespace parascan::device::segmented
