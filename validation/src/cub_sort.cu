// cub::DeviceRadixSort references for every key type (keys) and for u32/u64 values (pairs).
#include <cub/device/device_radix_sort.cuh>
#include "parascan/validation/sort_check.hpp"

namespace parascan::validation {

template <class Key>
cudaError_t cub_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_in, Key* d_out, std::int64_t n,
                          int begin_bit, int end_bit, bool descending, cudaStream_t stream) {
  if (descending)
    return cub::DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, d_in, d_out, n, begin_bit, end_bit, stream);
  return cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_in, d_out, n, begin_bit, end_bit, stream);
}

template <class Key, class Value>
cudaError_t cub_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                           const Value* d_values_in, Value* d_values_out, std::int64_t n, int begin_bit, int end_bit,
                           bool descending, cudaStream_t stream) {
  if (descending)
    return cub::DeviceRadixSort::SortPairsDescending(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                                     n, begin_bit, end_bit, stream);
  return cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                         begin_bit, end_bit, stream);
}

#define PARASCAN_CUB_SORT(K)                                                                                  \
  template cudaError_t cub_sort_keys<K>(void*, std::size_t&, const K*, K*, std::int64_t, int, int, bool,     \
                                        cudaStream_t);                                                       \
  template cudaError_t cub_sort_pairs<K, std::uint32_t>(void*, std::size_t&, const K*, K*,                   \
                                                        const std::uint32_t*, std::uint32_t*, std::int64_t, \
                                                        int, int, bool, cudaStream_t);                      \
  template cudaError_t cub_sort_pairs<K, std::uint64_t>(void*, std::size_t&, const K*, K*,                   \
                                                        const std::uint64_t*, std::uint64_t*, std::int64_t, \
                                                        int, int, bool, cudaStream_t);
PARASCAN_CUB_SORT(std::uint8_t)
PARASCAN_CUB_SORT(std::int8_t)
PARASCAN_CUB_SORT(std::uint16_t)
PARASCAN_CUB_SORT(std::int16_t)
PARASCAN_CUB_SORT(std::uint32_t)
PARASCAN_CUB_SORT(std::int32_t)
PARASCAN_CUB_SORT(std::uint64_t)
PARASCAN_CUB_SORT(std::int64_t)
PARASCAN_CUB_SORT(float)
PARASCAN_CUB_SORT(double)

}  // namespace parascan::validation
