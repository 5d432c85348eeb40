// Segmented sort (segmented_sort.hpp): temporary storage and the launches. The kernels are in
// segmented_sort/. Include from a .cu file.
//
//   1. classify every segment on the device (small.cuh), listing the warp, small and tile classes
//   2. the warp, small and tile classes sorted, each by a persistent grid over its list (small.cuh)
//   3. segments larger than a tile (merge.cuh): the scan core's exclusive scan of their tile counts,
//      the tile map, the tile sorts into runs, then one launch per merge level
//   Every launch is sized on the host from what the host knows (segment count, n, or the rows'
//   length), never from device results, so the whole sort is stream-ordered and graph-capturable.
//   Rows of 2..32 items are sorted a thread a row (segmented_sort/thread_rows.cuh).
//   Rows of one length are all of one class, known on the host: only that class's launches run, and
//   rows of up to a tile need no classification. A few long rows go one by one through the
//   device-wide radix sort instead (sort_rows_one_by_one); other rows of at least four Onesweep tiles
//   take every row's digit passes in the same launches (onesweep/rows.cuh, sort_rows_onesweep).
#pragma once
#include <algorithm>
#include <cstdint>
#include "parascan/device/device_attribute.cuh"
#include "parascan/device/launch.cuh"
#include "parascan/device/onesweep/rows.cuh"
#include "parascan/device/segmented_sort/merge.cuh"
#include "parascan/device/segmented_sort/small.cuh"
#include "parascan/device/segmented_sort/thread_rows.cuh"
#include "parascan/ops.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/scan.hpp"
#include "parascan/segmented_sort.hpp"

namespace parascan::device::segmented {

/// The current device's SM count (asked once per device).
inline cudaError_t multiprocessors(std::int64_t& sms) {
  return remembered_attribute(cudaDevAttrMultiProcessorCount, -1, sms);
}

/// What the host knows of the segments: which classes can occur, and for segments larger than a tile
/// a bound on their tiles and merge levels.
struct plan {
  bool lists[listed_classes], large;
  std::int64_t tile_bound = 0;
  int level_bound = 0;
  plan(std::int64_t n, const segment_layout& seg, int tile) {
    const bool any = seg.count > 0;
    for (bool& c : lists) c = any && !seg.is_rows();
    const std::int64_t longest = seg.is_rows() ? seg.row_length : n;
    large = any && longest > tile;
    if (seg.is_rows() && any && seg.row_length > 0 && seg.row_length <= tile) lists[list_of(seg.row_length, tile)] = true;
    if (large) {
      const std::int64_t large_bound = std::min<std::int64_t>(seg.count, n / (tile + 1));
      tile_bound = seg.is_rows() ? seg.count * ((seg.row_length + tile - 1) / tile) : n / tile + large_bound + 1;
      level_bound = merge_levels(longest, tile);
    }
  }
  bool any_width() const {
    for (int k = 0; k < width_lists; ++k)
      if (lists[k]) return true;
    return false;
  }
};

/// Temporary storage, one computation for sizing and carving.
template <class U, class V>
struct temp_layout {
  std::size_t counts = 0, lists, tiles_of, first_tile, scan, tile_segment, splits, keys_temp, values_temp, total;
  temp_layout(std::int64_t n, const segment_layout& seg, const plan& p, std::size_t scan_bytes) {
    const std::size_t count = static_cast<std::size_t>(seg.count);
    const bool large = p.large;
    lists = align_up(sizeof(class_counts));
    tiles_of = lists + align_up(listed_classes * count * sizeof(unsigned));
    first_tile = tiles_of + align_up(count * sizeof(std::int64_t));
    scan = first_tile + (large ? align_up(count * sizeof(std::int64_t)) : 0);
    tile_segment = scan + (large ? align_up(scan_bytes) : 0);
    splits = tile_segment + (large ? align_up(static_cast<std::size_t>(p.tile_bound) * sizeof(unsigned)) : 0);
    keys_temp = splits + (large ? align_up(static_cast<std::size_t>(p.tile_bound) * sizeof(int2)) : 0);
    values_temp = keys_temp + (large ? align_up(static_cast<std::size_t>(n) * sizeof(U)) : 0);
    constexpr std::size_t value_bytes = std::is_same_v<V, no_values> ? 0 : sizeof(V);
    total = values_temp + (large ? align_up(static_cast<std::size_t>(n) * value_bytes) : 0);
  }
};

inline unsigned blocks_for(std::int64_t items, int per_block, std::int64_t most) {
  const std::int64_t b = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(b, most)));
}

template <class U, class V, class Segments>
cudaError_t run(void* d_temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out, const V* values_in, V* values_out,
                std::int64_t n, const segment_layout& seg, Segments segments, const sort_key<U>& key_of, bool sync,
                cudaStream_t stream) {
  using tiling = tiles<U, V>;
  constexpr int tile = tiling::size;
  const plan p(n, seg, tile);
  std::size_t scan_bytes = 0;
  cudaError_t e;
  if (p.large &&
      (e = exclusive_scan(nullptr, scan_bytes, static_cast<const std::int64_t*>(nullptr), static_cast<std::int64_t*>(nullptr),
                          seg.count, sum{}, std::int64_t(0), stream)) != cudaSuccess)
    return e;
  const temp_layout<U, V> layout(n, seg, p, scan_bytes);
  if (d_temp == nullptr) {
    temp_bytes = layout.total;
    return cudaSuccess;
  }
  if (temp_bytes < layout.total) return cudaErrorInvalidValue;
  if (seg.count == 0 || n == 0) return cudaSuccess;
  char* t = static_cast<char*>(d_temp);
  auto* counts = reinterpret_cast<class_counts*>(t + layout.counts);
  auto* lists = reinterpret_cast<unsigned*>(t + layout.lists);
  auto* tiles_of = reinterpret_cast<std::int64_t*>(t + layout.tiles_of);
  std::int64_t sms = 0;
  if ((e = multiprocessors(sms)) != cudaSuccess) return e;

  // 1. Classes (rows of up to a tile are all of one list, known here: no classification).
  const bool rows_listed = seg.is_rows() && !p.large;
  segment_lists listed{lists, seg.count, counts, -1};
  if (rows_listed) {
    listed.rows_list = list_of(seg.row_length, tile);
  } else {
    if ((e = cudaMemsetAsync(counts, 0, sizeof(class_counts), stream)) != cudaSuccess) return e;
    classify_kernel<<<blocks_for(seg.count, 256, 8 * sms), 256, 0, stream>>>(segments, seg.count, tile, lists, tiles_of, counts);
    if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  }
  // 2. Segments of one block or less; a warp per job (32 / W segments) where the grid allows.
  if (p.any_width()) {
    warp_sort_kernel<<<blocks_for(seg.count, 8, 1 << 20), 256, 0, stream>>>(keys_in, keys_out, values_in, values_out,
                                                                            segments, listed, key_of);
    if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  }
  if (p.lists[small_list]) {
    listed_tile_kernel<small_threads, small_items><<<blocks_for(seg.count, 1, 16 * sms), small_threads, 0, stream>>>(
        keys_in, keys_out, values_in, values_out, segments, listed, small_list, key_of);
    if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  }
  if (p.lists[tile_list]) {
    // Rows of one length take the smallest tile that holds them: a block sorts every slot of its tile,
    // padding too (experiments/short_row_tiles.cu, H100: one row of up to 1024 u32 keys 256 × 4 1.42×
    // CUB's single-tile sort against 0.82× at 256 × 16; up to 2048, 256 × 8 1.11–1.19×).
    const std::int64_t longest = seg.is_rows() ? seg.row_length : tile;
    const unsigned grid = blocks_for(seg.count, 1, 4 * sms);
    if (longest <= 256 * 4) {
      listed_tile_kernel<256, 4><<<grid, 256, 0, stream>>>(keys_in, keys_out, values_in, values_out, segments, listed,
                                                         tile_list, key_of);
    } else if (longest <= 256 * 8 && tiling::items > 8) {
      listed_tile_kernel<256, 8><<<grid, 256, 0, stream>>>(keys_in, keys_out, values_in, values_out, segments, listed,
                                                         tile_list, key_of);
    } else {
      listed_tile_kernel<tiling::threads, tiling::items><<<grid, tiling::threads, 0, stream>>>(
          keys_in, keys_out, values_in, values_out, segments, listed, tile_list, key_of);
    }
    if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  }
  if (!p.large) return cudaSuccess;
  // 3. Larger segments: tile map, runs, merge levels.
  auto* first_tile = reinterpret_cast<std::int64_t*>(t + layout.first_tile);
  auto* tile_segment = reinterpret_cast<unsigned*>(t + layout.tile_segment);
  if ((e = exclusive_scan(t + layout.scan, scan_bytes, static_cast<const std::int64_t*>(tiles_of), first_tile, seg.count,
                          sum{}, std::int64_t(0), stream)) != cudaSuccess)
    return e;
  tile_map_kernel<<<blocks_for(p.tile_bound, 256, 64 * sms), 256, 0, stream>>>(first_tile, tiles_of, seg.count, p.tile_bound,
                                                                             tile_segment);
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  const level_buffers<U> keys{keys_out, reinterpret_cast<U*>(t + layout.keys_temp)};
  const level_buffers<V> values{values_out, reinterpret_cast<V*>(t + layout.values_temp)};
  const unsigned grid = static_cast<unsigned>(p.tile_bound);
  run_sort_kernel<tiling::threads, tiling::items><<<grid, tiling::threads, 0, stream>>>(keys_in, keys, values_in, values,
                                                                                      segments, tile_segment, first_tile, key_of);
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  auto* splits = reinterpret_cast<int2*>(t + layout.splits);
  for (int level = 0; level < p.level_bound; ++level) {
    merge_split_kernel<tile><<<blocks_for(p.tile_bound, 128, 64 * sms), 128, 0, stream>>>(
        keys, segments, tile_segment, first_tile, counts, p.tile_bound, level, key_of, splits);
    if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
    merge_level_kernel<tiling::threads, tiling::items><<<grid, tiling::threads, 0, stream>>>(
        keys, values, segments, tile_segment, first_tile, counts, level, splits, key_of);
    if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  }
  return cudaSuccess;
}

/// A few long rows (at most few_rows, each of at least long_row items) are sorted one after another by
/// the device-wide radix sort, each of which fills the GPU on its own: for 1 × 2^24 f32 keys 0.45 ms
/// against 1.72 ms for tile runs and twelve merge levels (H100, docs/performance.md entry 32).
constexpr std::int64_t few_rows = 16, long_row = std::int64_t(1) << 18;

template <class U, class V>
cudaError_t sort_rows_one_by_one(void* d_temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out, const V* values_in,
                                 V* values_out, const segment_layout& seg, key_kind kind, const segmented_sort_options& o,
                                 cudaStream_t stream) {
  sort_options so;
  so.begin_bit = o.begin_bit;
  so.end_bit = o.end_bit;
  so.descending = o.descending;
  so.debug_synchronous = o.debug_synchronous;
  const std::int64_t len = seg.row_length;
  const auto row = [&](void* t, std::size_t& b, std::int64_t r) {
    const std::int64_t at = r * len;
    if constexpr (std::is_same_v<V, no_values>)
      return radix_sort_bits<U>(t, b, keys_in + at, keys_out + at, len, kind, so, stream);
    else
      return radix_sort_bits_pairs<U, V>(t, b, keys_in + at, keys_out + at, values_in ? values_in + at : nullptr,
                                         values_out + at, len, kind, so, stream);
  };
  if (d_temp == nullptr) return row(nullptr, temp_bytes, 0);
  for (std::int64_t r = 0; r < seg.count; ++r) {
    std::size_t b = temp_bytes;
    const cudaError_t e = row(d_temp, b, r);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

/// Rows long enough for several merge levels (onesweep::rows_take_onesweep): every row's digit passes
/// in the same launches (onesweep/rows.cuh), with the radix sort's second buffers.
template <class U, class V>
cudaError_t sort_rows_onesweep(void* d_temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out, const V* values_in,
                               V* values_out, const segment_layout& seg, key_kind kind, int end_bit,
                               const segmented_sort_options& o, cudaStream_t stream) {
  using policy = onesweep::rows_policy_t<U, V>;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  const int passes = (end_bit - o.begin_bit + onesweep::radix_bits - 1) / onesweep::radix_bits;
  const std::int64_t n = seg.count * seg.row_length;
  const std::size_t key_buf = align_up(static_cast<std::size_t>(n) * sizeof(U));
  const std::size_t value_buf = has_values ? align_up(static_cast<std::size_t>(n) * sizeof(V)) : 0;
  const std::size_t need =
      key_buf + value_buf + onesweep::rows_temp_bytes<policy, std::uint32_t>(seg.count, seg.row_length, passes);
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  char* t = static_cast<char*>(d_temp);
  U* key_temp = reinterpret_cast<U*>(t);
  V* value_temp = has_values ? reinterpret_cast<V*>(t + key_buf) : nullptr;
  const onesweep::pass_set ps{o.begin_bit, end_bit, passes, kind, o.descending};
  const onesweep::buffers<U, V> io{keys_in, keys_out, key_temp, values_in, values_out, value_temp};
  return onesweep::run_rows<policy, std::uint32_t>(t + key_buf + value_buf, io, seg.count, seg.row_length, ps, stream,
                                                   o.debug_synchronous);
}

/// Argsort into 8-byte positions of rows that take the Onesweep: the passes carry 4-byte positions and
/// the last pass writes them widened (onesweep::widening_buffers). Temporary storage: the keys' second
/// buffer, two 4-byte position buffers, the passes' counters.
template <class U, class V>
cudaError_t argsort_rows_through_4_bytes(void* d_temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out,
                                         V* positions, const segment_layout& seg, key_kind kind, int end_bit,
                                         const segmented_sort_options& o, cudaStream_t stream) {
  static_assert(sizeof(V) == 8);
  using policy = onesweep::rows_policy_t<U, std::uint32_t>;
  const int passes = (end_bit - o.begin_bit + onesweep::radix_bits - 1) / onesweep::radix_bits;
  const std::int64_t n = seg.count * seg.row_length;
  const std::size_t key_buf = align_up(static_cast<std::size_t>(n) * sizeof(U));
  const std::size_t position_buf = align_up(static_cast<std::size_t>(n) * sizeof(std::uint32_t));
  const std::size_t need =
      key_buf + 2 * position_buf + onesweep::rows_temp_bytes<policy, std::uint32_t>(seg.count, seg.row_length, passes);
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  char* t = static_cast<char*>(d_temp);
  auto* narrow = reinterpret_cast<std::uint32_t*>(t + key_buf);
  const onesweep::pass_set ps{o.begin_bit, end_bit, passes, kind, o.descending};
  const onesweep::widening_buffers<U, V> io{
      {keys_in, keys_out, reinterpret_cast<U*>(t), nullptr, narrow, narrow + position_buf / sizeof(std::uint32_t)},
      positions};
  return onesweep::run_rows<policy, std::uint32_t>(t + key_buf + 2 * position_buf, io, seg.count, seg.row_length, ps,
                                                   stream, o.debug_synchronous);
}

template <class U, class V>
cudaError_t sort(void* d_temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out, const V* values_in, V* values_out,
                 std::int64_t n, const segment_layout& seg, key_kind kind, const segmented_sort_options& o,
                 cudaStream_t stream) {
  const int key_bits = static_cast<int>(8 * sizeof(U));
  const int end_bit = o.end_bit < 0 ? key_bits : o.end_bit;
  if (n < 0 || seg.count < 0 || seg.count > static_cast<std::int64_t>(UINT32_MAX) - 1 || o.begin_bit < 0 ||
      end_bit > key_bits || o.begin_bit > end_bit)
    return cudaErrorInvalidValue;
  if (seg.is_rows() ? seg.count * seg.row_length > n : (seg.count > 0 && (seg.begin == nullptr || seg.end == nullptr)))
    return cudaErrorInvalidValue;
  const sort_key<U> key_of(kind, o.begin_bit, end_bit, o.descending);
  if (seg.is_rows() && seg.row_length >= 2 && seg.row_length <= thread_rows_max) {  // a thread a row
    if (d_temp == nullptr) {
      temp_bytes = 1;
      return cudaSuccess;
    }
    if (seg.count == 0) return cudaSuccess;
    launch_thread_rows(keys_in, keys_out, values_in, values_out, seg.count, static_cast<int>(seg.row_length), key_of,
                       stream);
    return check_launch(stream, o.debug_synchronous);
  }
  if (seg.is_rows() && seg.count > 0 && seg.count <= few_rows && seg.row_length >= long_row)
    return sort_rows_one_by_one(d_temp, temp_bytes, keys_in, keys_out, values_in, values_out, seg, kind, o, stream);
  if (seg.is_rows() && seg.count > 0 && end_bit > o.begin_bit &&
      onesweep::rows_take_onesweep<onesweep::rows_policy_t<U, V>>(
          seg.count, seg.row_length, (end_bit - o.begin_bit + onesweep::radix_bits - 1) / onesweep::radix_bits)) {
    if constexpr (sizeof(V) == 8 && !std::is_same_v<V, no_values>) {
      if (d_temp == nullptr) {  // a size query may be made without the values the call then gives: the larger
        std::size_t narrow = 0, wide = 0;
        cudaError_t e = argsort_rows_through_4_bytes(d_temp, narrow, keys_in, keys_out, values_out, seg, kind, end_bit,
                                                     o, stream);
        if (e == cudaSuccess)
          e = sort_rows_onesweep(d_temp, wide, keys_in, keys_out, values_in, values_out, seg, kind, end_bit, o, stream);
        temp_bytes = std::max(narrow, wide);
        return e;
      }
      if (values_in == nullptr)
        return argsort_rows_through_4_bytes(d_temp, temp_bytes, keys_in, keys_out, values_out, seg, kind, end_bit, o,
                                            stream);
    }
    return sort_rows_onesweep(d_temp, temp_bytes, keys_in, keys_out, values_in, values_out, seg, kind, end_bit, o, stream);
  }
  if (seg.is_rows())
    return run(d_temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, seg, row_segments{seg.row_length}, key_of,
               o.debug_synchronous, stream);
  return run(d_temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, seg, offset_segments{seg.begin, seg.end},
             key_of, o.debug_synchronous, stream);
}

}  // namespace parascan::device::segmented

namespace parascan {

template <class Bits>
cudaError_t segmented_sort_bits(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                                std::int64_t n, segment_layout segments, key_kind kind, segmented_sort_options options,
                                cudaStream_t stream) {
  using device::sort_detail::no_values;
  return device::segmented::sort<Bits, no_values>(d_temp, temp_bytes, d_keys_in, d_keys_out, nullptr, nullptr, n, segments,
                                                  kind, options, stream);
}

template <class Bits, class Value>
cudaError_t segmented_sort_bits_pairs(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                                      const Value* d_values_in, Value* d_values_out, std::int64_t n,
                                      segment_layout segments, key_kind kind, segmented_sort_options options,
                                      cudaStream_t stream) {
  return device::segmented::sort<Bits, Value>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                              segments, kind, options, stream);
}

}  // namespace parascan
