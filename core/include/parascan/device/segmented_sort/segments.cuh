// Segmented sort, the shared pieces: where the segments lie, the key each item is compared by, the
// size classes and their tiles (device_segmented_sort.cuh puts them together).
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/device/radix_digits.cuh"
#include "parascan/segmented_sort.hpp"

namespace parascan::device::segmented {

using sort_detail::key_codec;
using sort_detail::no_values;

/// Segments given by begin and end offsets (CUB's shape); an end before its begin is an empty segment.
struct offset_segments {
  const std::int64_t* begin;
  const std::int64_t* end;
  __device__ __forceinline__ std::int64_t begin_of(std::int64_t s) const { return begin[s]; }
  __device__ __forceinline__ std::int64_t size_of(std::int64_t s) const {
    const std::int64_t n = end[s] - begin[s];
    return n > 0 ? n : 0;
  }
};
/// Rows of one length, one after another (a batch: no offset arrays).
struct row_segments {
  std::int64_t length;
  __device__ __forceinline__ std::int64_t begin_of(std::int64_t s) const { return s * length; }
  __device__ __forceinline__ std::int64_t size_of(std::int64_t) const { return length; }
};

/// What an item is compared by: bits [begin_bit, end_bit) of its key's order-preserving image (CUB's
/// order, radix_digits.cuh), as an unsigned that compares as the keys do. `bits` of them are
/// significant, from bit 0; zero bits: every key compares equal.
template <class U>
struct sort_key {
  key_codec<U> codec;
  int shift, bits;
  U mask;
  __host__ __device__ sort_key(key_kind kind, int begin_bit, int end_bit, bool descending)
      : codec(kind, descending), shift(end_bit > begin_bit ? begin_bit : 0), bits(end_bit > begin_bit ? end_bit - begin_bit : 0),
        mask(bits >= static_cast<int>(8 * sizeof(U)) ? static_cast<U>(~U(0)) : static_cast<U>((U(1) << bits) - 1u)) {}
  __device__ __forceinline__ U operator()(U raw) const {
    return static_cast<U>(static_cast<U>(codec.ordered(codec.encode(raw)) >> shift) & mask);
  }
};

/// The size classes: groups of W lanes of a warp sort segments of up to W items (W = 1, 2, 4, …, 32,
/// the least power of two that holds the segment, so a warp sorts 32 / W segments at once); one block
/// of 128 × 4 sorts those up to 512; one block of 256 × Items those up to a tile; larger segments are
/// sorted tile by tile by that block, then the sorted runs merged pairwise (merge.cuh). A tile holds
/// 4096 items when a key and its value (or its 4-byte position) take at most 8 bytes together, else
/// 2048, so that a tile's keys and values stay within 32 KB of shared memory.
/// The classes a segment can be listed in: lists 0–5 the group widths 1–32, then small, then tile.
constexpr int width_lists = 6, small_list = 6, tile_list = 7, listed_classes = 8;
constexpr int warp_limit = 32;
constexpr int small_threads = 128, small_items = 4, small_limit = small_threads * small_items;

/// The list of a segment of n ≥ 1 items that fits a tile: log2 of its group width for n ≤ 32.
__host__ __device__ __forceinline__ int list_of(std::int64_t n, int tile) {
  if (n <= warp_limit) {
    int k = 0;
    while ((std::int64_t(1) << k) < n) ++k;
    return k;
  }
  return n <= small_limit ? small_list : n <= tile ? tile_list : -1;
}

template <class U, class V>
struct tiles {
  static constexpr std::size_t value_bytes = std::is_same_v<V, no_values> ? 0 : sizeof(V);
  static constexpr int threads = 256;
  // The tile sort stages keys and 4-byte positions, the merge keys and values.
  static constexpr int items = sizeof(U) + (value_bytes > 4 ? value_bytes : 4) <= 8 ? 16 : 8;
  static constexpr int size = threads * items;
};

/// The merge levels of a segment of n > tile items: runs of tile << p are merged in level p, and
/// ⌈log2 ⌈n / tile⌉⌉ levels leave one run.
__host__ __device__ __forceinline__ int merge_levels(std::int64_t n, int tile) {
  int levels = 0;
  for (std::int64_t run = tile; run < n; run *= 2) ++levels;
  return levels;
}

/// Counters the classification fills (zeroed before it): per list the number of segments listed,
/// and the most merge levels any segment needs.
struct class_counts {
  unsigned listed[listed_classes];
  int most_levels;
};

/// The segments of each list: the classification's lists, or for rows (all of one list, known on
/// the host) every row in order, with no classification run.
struct segment_lists {
  const unsigned* lists;
  std::int64_t count;
  const class_counts* counts;
  int rows_list;  // ≥ 0: rows, all in this list
  __device__ __forceinline__ unsigned listed(int k) const {
    return rows_list >= 0 ? (k == rows_list ? static_cast<unsigned>(count) : 0u) : counts->listed[k];
  }
  __device__ __forceinline__ std::int64_t at(int k, unsigned i) const { return rows_list >= 0 ? i : lists[k * count + i]; }
};

}  // namespace parascan::device::segmented
