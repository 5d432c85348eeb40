// cub::DeviceRadixSort references for every key type (keys) and for u32/u64 values (pairs).
#include <cub/device/device_radix_sort.cuh>
#include "hashed.cuh"
#include "parascan/validation/sort_check.hpp"

namespace parascan::validation {


// The count is handed as `count` names (cub_count.hpp): the two forms differ in speed, not result.
template <class Key>
cudaError_t cub_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_in, Key* d_out, std::int64_t n,
                          int begin_bit, int end_bit, bool descending, cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    if (descending)
      return cub::DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, d_in, d_out, items, begin_bit, end_bit, stream);
    return cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_in, d_out, items, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value>
cudaError_t cub_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                           const Value* d_values_in, Value* d_values_out, std::int64_t n, int begin_bit, int end_bit,
                           bool descending, cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    if (descending)
      return cub::DeviceRadixSort::SortPairsDescending(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                       d_values_out, items, begin_bit, end_bit, stream);
    return cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, items,
                                           begin_bit, end_bit, stream);
  });
}

namespace {
template <class Key>
__global__ void fill_keys_kernel(Key* d, std::int64_t n, sort_input dist, std::uint64_t seed) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t j = dist == sort_input::all_equal ? 0
                            : dist == sort_input::runs    ? static_cast<std::uint64_t>(i) / 64
                                                          : static_cast<std::uint64_t>(i);
    std::uint64_t r = detail::hashed(j, seed);
    if (dist == sort_input::few_distinct) r &= detail::hashed(j, seed + 1) & detail::hashed(j, seed + 2);
    Key k;
    memcpy(&k, &r, sizeof(Key));
    d[i] = k;
  }
}
template <class I>
__global__ void fill_indices_kernel(I* d, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    d[i] = static_cast<I>(i);
}
template <class I>
cudaError_t fill_indices_of(I* d, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  const std::int64_t blocks = (n + 255) / 256;
  fill_indices_kernel<<<static_cast<unsigned>(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(d, n);
  return cudaPeekAtLastError();
}
}  // namespace

cudaError_t fill_indices(std::uint32_t* d, std::int64_t n, cudaStream_t stream) { return fill_indices_of(d, n, stream); }
cudaError_t fill_indices(std::uint64_t* d, std::int64_t n, cudaStream_t stream) { return fill_indices_of(d, n, stream); }

template <class Key>
cudaError_t fill_sort_keys(Key* d, std::int64_t n, sort_input dist, std::uint64_t seed, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  const std::int64_t blocks = (n + 255) / 256;
  fill_keys_kernel<<<static_cast<unsigned>(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(d, n, dist, seed);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess || dist != sort_input::sorted) return e;
  // Sorted: uniform keys sorted by CUB, back into d.
  Key* copy = nullptr;
  void* temp = nullptr;
  std::size_t bytes = 0;
  if ((e = cub_sort_keys<Key>(nullptr, bytes, d, d, n, 0, 8 * sizeof(Key), false, stream)) != cudaSuccess) return e;
  if ((e = cudaMallocAsync(&copy, static_cast<std::size_t>(n) * sizeof(Key), stream)) != cudaSuccess) return e;
  if ((e = cudaMallocAsync(&temp, bytes, stream)) == cudaSuccess) {
    e = cudaMemcpyAsync(copy, d, static_cast<std::size_t>(n) * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
    if (e == cudaSuccess) e = cub_sort_keys<Key>(temp, bytes, copy, d, n, 0, 8 * sizeof(Key), false, stream);
    const cudaError_t f = cudaFreeAsync(temp, stream);
    if (e == cudaSuccess) e = f;
  }
  const cudaError_t f = cudaFreeAsync(copy, stream);
  return e == cudaSuccess ? f : e;
}

#define PARASCAN_CUB_SORT(K)                                                                                  \
  template cudaError_t cub_sort_keys<K>(void*, std::size_t&, const K*, K*, std::int64_t, int, int, bool,     \
                                        cudaStream_t, cub_count);                                            \
  template cudaError_t cub_sort_pairs<K, std::uint32_t>(void*, std::size_t&, const K*, K*,                   \
                                                        const std::uint32_t*, std::uint32_t*, std::int64_t, \
                                                        int, int, bool, cudaStream_t, cub_count);           \
  template cudaError_t cub_sort_pairs<K, std::uint64_t>(void*, std::size_t&, const K*, K*,                   \
                                                        const std::uint64_t*, std::uint64_t*, std::int64_t, \
                                                        int, int, bool, cudaStream_t, cub_count);           \
  template cudaError_t fill_sort_keys<K>(K*, std::int64_t, sort_input, std::uint64_t, cudaStream_t);
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
