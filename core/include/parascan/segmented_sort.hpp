// Segmented and batched sort — host API: many independent sorts in one call, each segment of the
// keys sorted on its own (CUB's DeviceSegmentedSort shape, and rows of a matrix as NumPy's
// sort(axis=-1)).
//
//   segmented_sort_keys    keys_out[s] = keys_in[s] sorted, for every segment s
//   segmented_sort_pairs   the same, values moved with their keys
//   segmented_argsort      values_out[i] = the position within its segment that keys_out[i] came from
//                          (what numpy.argsort(axis=-1) and torch.sort(dim=-1).indices give)
//
// Segments: `segment_layout::offsets(count, d_begin, d_end)` (segment s is [d_begin[s], d_end[s]),
// device arrays of std::int64_t; an end before its begin is empty; segments must not overlap, and
// items in no segment are left unwritten in the outputs), or `segment_layout::rows(count, length)`
// (row r is [r · length, (r + 1) · length), no arrays). Key order, bit ranges, descending and
// stability are the radix sort's (radix_sort.hpp): ties keep input order.
//
// How (device/device_segmented_sort.cuh): each segment's size class is chosen on the device, and no
// call synchronises with the host or reads device memory from it, so a call can be captured in a CUDA
// graph and replayed on new data in the same buffers. Segments of ≤ 32 items are sorted by a warp
// (bitonic network), ≤ 512 by a block of 128 threads and ≤ a tile (4096 items; 2048 where a key
// and its value take more than 8 bytes) by a block of 256 (block radix sort in shared memory); larger segments are sorted
// tile by tile and the runs merged pairwise by merge path (a level per doubling), with every
// segment's levels in the same launches.
// Two-phase temporary storage as in scan.hpp; d_keys_out must not alias d_keys_in (nor values).
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include "parascan/radix_sort.hpp"

namespace parascan {

struct segment_layout {
  std::int64_t count = 0;              ///< segments (rows)
  const std::int64_t* begin = nullptr;  ///< device: first item of each segment (offsets form)
  const std::int64_t* end = nullptr;    ///< device: one past the last item of each segment
  std::int64_t row_length = -1;         ///< ≥ 0: rows of this length, begin/end unused
  static segment_layout offsets(std::int64_t count, const std::int64_t* d_begin, const std::int64_t* d_end) {
    return {count, d_begin, d_end, -1};
  }
  static segment_layout rows(std::int64_t count, std::int64_t length) { return {count, nullptr, nullptr, length}; }
  bool is_rows() const { return row_length >= 0; }
};

struct segmented_sort_options {
  int begin_bit = 0;
  int end_bit = -1;  ///< -1: every bit of the key
  bool descending = false;
  bool debug_synchronous = false;  ///< synchronise and check after every launch (tests)
};

/// Keys of 1, 2, 4 or 8 bytes as raw bits (`kind` says how they order); n: the length of the key
/// arrays (every segment lies in [0, n)).
template <class Bits>
cudaError_t segmented_sort_bits(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                                std::int64_t n, segment_layout segments, key_kind kind, segmented_sort_options options,
                                cudaStream_t stream = 0);
/// Values of 4 or 8 bytes as raw bits; d_values_in == nullptr: each value is the item's position
/// within its segment (argsort).
template <class Bits, class Value>
cudaError_t segmented_sort_bits_pairs(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                                      const Value* d_values_in, Value* d_values_out, std::int64_t n,
                                      segment_layout segments, key_kind kind, segmented_sort_options options,
                                      cudaStream_t stream = 0);

template <class Key>
cudaError_t segmented_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                std::int64_t n, segment_layout segments, segmented_sort_options options = {},
                                cudaStream_t stream = 0) {
  using bits = typename key_bits_of<Key>::type;
  return segmented_sort_bits<bits>(d_temp, temp_bytes, reinterpret_cast<const bits*>(d_keys_in),
                                   reinterpret_cast<bits*>(d_keys_out), n, segments, kind_of_key<Key>(), options, stream);
}

template <class Key, class Value>
cudaError_t segmented_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                                 const Value* d_values_in, Value* d_values_out, std::int64_t n, segment_layout segments,
                                 segmented_sort_options options = {}, cudaStream_t stream = 0) {
  static_assert(sizeof(Value) == 4 || sizeof(Value) == 8, "values of 4 or 8 bytes");
  using bits = typename key_bits_of<Key>::type;
  using value_bits = std::conditional_t<sizeof(Value) == 4, std::uint32_t, std::uint64_t>;
  return segmented_sort_bits_pairs<bits, value_bits>(
      d_temp, temp_bytes, reinterpret_cast<const bits*>(d_keys_in), reinterpret_cast<bits*>(d_keys_out),
      reinterpret_cast<const value_bits*>(d_values_in), reinterpret_cast<value_bits*>(d_values_out), n, segments,
      kind_of_key<Key>(), options, stream);
}

/// Index: std::int32_t, std::uint32_t, std::int64_t or std::uint64_t positions within each segment.
template <class Key, class Index>
cudaError_t segmented_argsort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                              Index* d_positions, std::int64_t n, segment_layout segments,
                              segmented_sort_options options = {}, cudaStream_t stream = 0) {
  return segmented_sort_pairs<Key, Index>(d_temp, temp_bytes, d_keys_in, d_keys_out, static_cast<const Index*>(nullptr),
                                          d_positions, n, segments, options, stream);
}

}  // namespace parascan
