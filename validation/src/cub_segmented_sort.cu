// CUB's two segmented sorts as references and benchmark peers: cub::DeviceSegmentedSort (stable;
// segments binned into size classes, the bin sizes read back on the host) and
// cub::DeviceSegmentedRadixSort (a block per segment), keys or pairs, with offsets of either width.
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include "parascan/validation/segmented_sort_check.hpp"

namespace parascan::validation {

const char* to_string(cub_segmented which) {
  return which == cub_segmented::stable_sort ? "DeviceSegmentedSort" : "DeviceSegmentedRadixSort";
}

template <class Key, class Value, class Offset>
cudaError_t cub_segmented_sort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                               const Value* d_values_in, Value* d_values_out, std::int64_t n, std::int64_t segments,
                               const Offset* d_begin, const Offset* d_end, bool descending, cub_segmented which,
                               cudaStream_t stream) {
  const bool pairs = d_values_in != nullptr;
  if (which == cub_segmented::stable_sort) {
    using sort = cub::DeviceSegmentedSort;
    if (pairs)
      return descending ? sort::StableSortPairsDescending(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                                          n, segments, d_begin, d_end, stream)
                        : sort::StableSortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                                segments, d_begin, d_end, stream);
    return descending ? sort::StableSortKeysDescending(d_temp, temp_bytes, d_keys_in, d_keys_out, n, segments, d_begin, d_end,
                                                       stream)
                      : sort::StableSortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n, segments, d_begin, d_end, stream);
  }
  // DeviceSegmentedRadixSort counts items and segments with `int`.
  if (n > INT_MAX || segments > INT_MAX) return cudaErrorInvalidValue;
  using radix = cub::DeviceSegmentedRadixSort;
  const int items = static_cast<int>(n), count = static_cast<int>(segments), bits = static_cast<int>(8 * sizeof(Key));
  if (pairs)
    return descending ? radix::SortPairsDescending(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, items,
                                                   count, d_begin, d_end, 0, bits, stream)
                      : radix::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, items, count,
                                         d_begin, d_end, 0, bits, stream);
  return descending ? radix::SortKeysDescending(d_temp, temp_bytes, d_keys_in, d_keys_out, items, count, d_begin, d_end, 0,
                                                bits, stream)
                    : radix::SortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, items, count, d_begin, d_end, 0, bits, stream);
}

#define PARASCAN_CUB_SEGMENTED_SORT(K, V, O)                                                                     \
  template cudaError_t cub_segmented_sort<K, V, O>(void*, std::size_t&, const K*, K*, const V*, V*, std::int64_t, \
                                                   std::int64_t, const O*, const O*, bool, cub_segmented, cudaStream_t);
PARASCAN_CUB_SEGMENTED_SORT(float, std::uint32_t, int)
PARASCAN_CUB_SEGMENTED_SORT(float, std::uint32_t, std::int64_t)

}  // namespace parascan::validation
