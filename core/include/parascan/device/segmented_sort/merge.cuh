// Segmented sort, the segments larger than a tile: sorted runs of a tile each, then merged pairwise.
//
//   1. tile map (a thread per tile): the exclusive scan of every segment's tile count (the scan
//      core, device_segmented_sort.cuh) gives each large segment's first tile; tile t belongs to the
//      last segment whose first tile is ≤ t (binary search, once per sort). Tiles past the total
//      are marked unused, so the later launches can be sized on the host by a bound.
//   2. runs: a block per tile sorts it (small.cuh's sort_tile) into the segment's first buffer.
//   3. merge levels p = 0, 1, …: a block per output tile of C items merges two runs of C · 2^p
//      (merge path, Green, McColl & Bader 2012 / ModernGPU): two binary searches on the tile's
//      diagonals split the runs (a thread per tile, all tiles at once, in a launch before the
//      merge, as ModernGPU partitions), the block stages its slice of both in shared memory, each thread
//      finds its own diagonal there and merges Items items, and the block writes them out in order.
//      Ties take the left run first, so the merge is stable. A segment of m levels alternates between
//      its buffers so that level m − 1 writes the caller's output: its runs go to the output when m
//      is even, else to the temporary buffer. Blocks of segments with fewer levels return at once.
//   Traffic per level: keys and values read once and written once (plus two searches per tile).
#pragma once
#include <cstdint>
#include "parascan/device/segmented_sort/small.cuh"

namespace parascan::device::segmented {

constexpr unsigned unused_tile = 0xffffffffu;

/// tile_segment[t] for t < bound: the segment tile t belongs to, or unused_tile past the total.
/// (A template so that each translation unit may hold it.)
template <class Count>
__global__ void tile_map_kernel(const Count* first_tile, const Count* tiles_of, std::int64_t count, std::int64_t bound,
                                unsigned* tile_segment) {
  const Count total = count > 0 ? first_tile[count - 1] + tiles_of[count - 1] : 0;
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < bound;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (t >= total) {
      tile_segment[t] = unused_tile;
      continue;
    }
    std::int64_t lo = 0, hi = count;  // first s with first_tile[s] > t
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      if (first_tile[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    tile_segment[t] = static_cast<unsigned>(lo - 1);
  }
}

/// The buffers of a large segment with `levels` merge levels: after k levels its items are in the
/// output when levels − k is even.
template <class T>
struct level_buffers {
  T* out;
  T* temp;
  __device__ __forceinline__ T* after(int levels, int k) const { return ((levels - k) & 1) == 0 ? out : temp; }
};

/// Where a tile of a large segment lies.
struct tile_place {
  std::int64_t begin, n, first;  // the segment's first item and size; the tile's first item in it
  int levels;
};
template <class Segments>
__device__ __forceinline__ bool place_of(unsigned t, const unsigned* tile_segment, const std::int64_t* first_tile,
                                         const Segments& segments, int tile, tile_place& p) {
  const unsigned s = tile_segment[t];
  if (s == unused_tile) return false;
  p.begin = segments.begin_of(s);
  p.n = segments.size_of(s);
  p.first = (static_cast<std::int64_t>(t) - first_tile[s]) * tile;
  p.levels = merge_levels(p.n, tile);
  return true;
}

/// Step 2: each tile of a large segment sorted into the segment's buffer before level 0.
template <int Threads, int Items, class U, class V, class Segments>
__global__ void __launch_bounds__(Threads)
    run_sort_kernel(const U* keys_in, level_buffers<U> keys, const V* values_in, level_buffers<V> values,
                    Segments segments, const unsigned* tile_segment, const std::int64_t* first_tile, sort_key<U> key_of) {
  constexpr int tile = Threads * Items;
  __shared__ typename block::radix_sort<Threads, Items, U>::storage storage;
  tile_place p;
  if (!place_of(blockIdx.x, tile_segment, first_tile, segments, tile, p)) return;
  const std::int64_t at = p.begin + p.first;
  const int n = static_cast<int>(p.n - p.first < tile ? p.n - p.first : tile);
  sort_tile<Threads, Items>(keys_in + at, values_in ? values_in + at : nullptr, p.first, n, keys.after(p.levels, 0) + at,
                            values.after(p.levels, 0) + at, key_of, storage);
}

/// How many of a's items are among the first `diagonal` of the stable merge of a and b (a first on ties).
template <class U, class LoadA, class LoadB>
__device__ __forceinline__ int merge_path(LoadA load_a, int a_n, LoadB load_b, int b_n, int diagonal, const sort_key<U>& key_of) {
  int lo = diagonal > b_n ? diagonal - b_n : 0, hi = diagonal < a_n ? diagonal : a_n;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (key_of(load_a(mid)) <= key_of(load_b(diagonal - 1 - mid))) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// A level's output tile: its pair of runs and its diagonals in them (positions in the segment).
struct merge_tile {
  std::int64_t pair;  // the pair's first item in the segment
  int a_n, b_n, d0, d1;
  __device__ __forceinline__ merge_tile(const tile_place& p, int level, int tile) {
    const std::int64_t run = static_cast<std::int64_t>(tile) << level;
    pair = p.first / (2 * run) * (2 * run);
    a_n = static_cast<int>(p.n - pair < run ? p.n - pair : run);
    b_n = static_cast<int>(p.n - pair - a_n < run ? p.n - pair - a_n : run);
    d0 = static_cast<int>(p.first - pair);
    d1 = d0 + tile < a_n + b_n ? d0 + tile : a_n + b_n;
  }
};

/// Step 3a, level `level`: the splits of every tile at once (a thread per tile: two searches of the
/// runs in global memory), so that no merging block waits on them. splits[t] = items of run a among
/// the first d0 and the first d1 outputs of t's pair.
template <int Tile, class U, class Segments>
__global__ void merge_split_kernel(level_buffers<U> keys, Segments segments, const unsigned* tile_segment,
                                   const std::int64_t* first_tile, const class_counts* counts, std::int64_t bound,
                                   int level, sort_key<U> key_of, int2* splits) {
  if (level >= counts->most_levels) return;
  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < bound;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    tile_place p;
    if (!place_of(static_cast<unsigned>(t), tile_segment, first_tile, segments, Tile, p) || level >= p.levels) continue;
    const merge_tile m(p, level, Tile);
    const U* src = keys.after(p.levels, level) + p.begin + m.pair;
    const auto load_a = [&](int i) { return src[i]; };
    const auto load_b = [&](int i) { return src[m.a_n + i]; };
    splits[t] = make_int2(merge_path<U>(load_a, m.a_n, load_b, m.b_n, m.d0, key_of),
                          merge_path<U>(load_a, m.a_n, load_b, m.b_n, m.d1, key_of));
  }
}

/// Step 3b, level `level`: each output tile of a segment with more levels merged from its two runs.
template <int Threads, int Items, class U, class V, class Segments>
__global__ void __launch_bounds__(Threads)
    merge_level_kernel(level_buffers<U> keys, level_buffers<V> values, Segments segments, const unsigned* tile_segment,
                       const std::int64_t* first_tile, const class_counts* counts, int level, const int2* splits,
                       sort_key<U> key_of) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  constexpr int tile = Threads * Items;
  __shared__ U stage_keys[tile];
  __shared__ std::conditional_t<has_values, V, char> stage_values[has_values ? tile : 1];
  if (level >= counts->most_levels) return;
  tile_place p;
  if (!place_of(blockIdx.x, tile_segment, first_tile, segments, tile, p) || level >= p.levels) return;
  const merge_tile m(p, level, tile);
  const U* src = keys.after(p.levels, level) + p.begin + m.pair;
  const int2 split = splits[blockIdx.x];
  const int a0 = split.x, a1 = split.y, b0 = m.d0 - a0, b1 = m.d1 - a1, la = a1 - a0, lb = b1 - b0, n = m.d1 - m.d0;
  [[maybe_unused]] const V* vsrc = values.after(p.levels, level) + p.begin + m.pair;
  for (int i = threadIdx.x; i < n; i += Threads) {  // the tile's slices: a's, then b's
    const int from = i < la ? a0 + i : m.a_n + b0 + (i - la);
    stage_keys[i] = src[from];
    if constexpr (has_values) stage_values[i] = vsrc[from];
  }
  __syncthreads();
  // Each thread merges the Items outputs from its diagonal, from the staged slices.
  const int diagonal = static_cast<int>(threadIdx.x) * Items < n ? static_cast<int>(threadIdx.x) * Items : n;
  const auto staged_a = [&](int i) { return stage_keys[i]; };
  const auto staged_b = [&](int i) { return stage_keys[la + i]; };
  int ai = merge_path<U>(staged_a, la, staged_b, lb, diagonal, key_of);
  int bi = diagonal - ai;
  U out_key[Items];
  [[maybe_unused]] std::conditional_t<has_values, V, char> out_value[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const bool take_a = ai < la && (bi >= lb || key_of(stage_keys[ai]) <= key_of(stage_keys[la + bi]));
    const int from = take_a ? ai : la + bi;
    if (diagonal + j < n) {
      out_key[j] = stage_keys[from];
      if constexpr (has_values) out_value[j] = stage_values[from];
    }
    ai += take_a;
    bi += !take_a;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    if (diagonal + j < n) {
      stage_keys[diagonal + j] = out_key[j];
      if constexpr (has_values) stage_values[diagonal + j] = out_value[j];
    }
  }
  __syncthreads();
  U* dst = keys.after(p.levels, level + 1) + p.begin + m.pair + m.d0;
  [[maybe_unused]] V* vdst = values.after(p.levels, level + 1) + p.begin + m.pair + m.d0;
  for (int i = threadIdx.x; i < n; i += Threads) {
    dst[i] = stage_keys[i];
    if constexpr (has_values) vdst[i] = stage_values[i];
  }
}

}  // namespace parascan::device::segmented
