// Top-k of every row (topk.hpp): the kernel and the launches. Include from a .cu file.
//
//   1. topk_rows_kernel, a block of 512 per row: the row copied to shared memory when it fits (the
//      select then reads it there once per digit; otherwise from global memory, L2 for rows that stay
//      there), the k-th key found by block::radix_select over the order-preserving image of the keys
//      (complemented for the largest), the chosen keys and positions written in row order
//   2. sorted: the k of each row sorted by the segmented sort (rows of k; stable, so ties stay in
//      position order), from temporary storage into the outputs
// Launches are sized from rows, length and k alone: nothing is read back, the call is graph-capturable.
#pragma once
#include <climits>
#include <cstdint>
#include "parascan/block/block_radix_select.cuh"
#include "parascan/device/device_attribute.cuh"
#include "parascan/device/launch.cuh"
#include "parascan/device/radix_digits.cuh"
#include "parascan/segmented_sort.hpp"
#include "parascan/topk.hpp"

namespace parascan::device::topk_detail {

constexpr int threads = 512;

/// The image the select compares: CUB's key order, complemented when the largest are wanted.
template <class U>
struct ordered_key {
  key_kind kind;
  bool largest;
  __device__ __forceinline__ U operator()(U raw) const { return sort_detail::ordered_bits(raw, kind, largest); }
};

template <class U>
__global__ void __launch_bounds__(threads)
    topk_rows_kernel(const U* keys, std::int64_t length, std::int64_t k, key_kind kind, bool largest, bool cache,
                     U* out_keys, std::int64_t* out_indices) {
  using select = block::radix_select<threads, U>;
  __shared__ typename select::storage s;
  extern __shared__ __align__(16) unsigned char row_cache[];
  const std::int64_t row = blockIdx.x;
  const U* src = keys + row * length;
  const unsigned n = static_cast<unsigned>(length);
  if (cache) {
    U* c = reinterpret_cast<U*>(row_cache);
    for (unsigned i = threadIdx.x; i < n; i += threads) c[i] = src[i];
    __syncthreads();
    src = c;
  }
  const ordered_key<U> ordered{kind, largest};
  const auto r = select::select(s, src, n, static_cast<unsigned>(k), ordered);
  U* chosen_keys = out_keys + row * k;
  std::int64_t* chosen_at = out_indices + row * k;
  select::list(s, src, n, r, ordered, [&](unsigned rank, unsigned i) {
    chosen_keys[rank] = src[i];
    chosen_at[rank] = i;
  });
}

/// Shared memory a block may have on this device (opt-in), asked once per device.
inline cudaError_t block_smem_limit(std::int64_t& bytes) {
  return remembered_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, -3, bytes);
}

}  // namespace parascan::device::topk_detail

namespace parascan {

template <class Bits>
cudaError_t topk_bits(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys, std::int64_t rows, std::int64_t length,
                      std::int64_t k, key_kind kind, Bits* d_out_keys, std::int64_t* d_out_indices, topk_options options,
                      cudaStream_t stream) {
  using namespace device;
  if (rows < 0 || length < 0 || k < 0 || k > length || length > INT_MAX || rows > INT_MAX) return cudaErrorInvalidValue;
  const std::int64_t chosen = rows * k;
  const segment_layout layout = segment_layout::rows(rows, k);
  segmented_sort_options so;
  so.descending = options.largest;
  so.debug_synchronous = options.debug_synchronous;
  std::size_t sort_bytes = 0, keys_bytes = 0, indices_bytes = 0;
  cudaError_t e;
  if (options.sorted && chosen > 0) {
    e = segmented_sort_bits_pairs<Bits, std::uint64_t>(nullptr, sort_bytes, static_cast<const Bits*>(nullptr),
                                                       static_cast<Bits*>(nullptr),
                                                       static_cast<const std::uint64_t*>(nullptr),
                                                       static_cast<std::uint64_t*>(nullptr), chosen, layout, kind, so,
                                                       stream);
    if (e != cudaSuccess) return e;
    keys_bytes = align_up(static_cast<std::size_t>(chosen) * sizeof(Bits));
    indices_bytes = align_up(static_cast<std::size_t>(chosen) * sizeof(std::int64_t));
  }
  const std::size_t need = keys_bytes + indices_bytes + sort_bytes;
  if (d_temp == nullptr) {
    temp_bytes = need > 0 ? need : 1;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  if (chosen == 0) return cudaSuccess;

  char* temp = static_cast<char*>(d_temp);
  Bits* keys_out = options.sorted ? reinterpret_cast<Bits*>(temp) : d_out_keys;
  std::int64_t* indices_out = options.sorted ? reinterpret_cast<std::int64_t*>(temp + keys_bytes) : d_out_indices;

  std::int64_t smem_limit = 0;
  if ((e = topk_detail::block_smem_limit(smem_limit)) != cudaSuccess) return e;
  const auto kernel = topk_detail::topk_rows_kernel<Bits>;
  const std::int64_t row_bytes = length * static_cast<std::int64_t>(sizeof(Bits));
  const std::int64_t static_bytes = sizeof(typename block::radix_select<topk_detail::threads, Bits>::storage);
  const std::int64_t most = smem_limit - static_bytes - 1024;  // dynamic shared memory a block may take
  const bool cache = row_bytes > 0 && row_bytes <= most;
  const int dynamic = cache ? static_cast<int>(row_bytes) : 0;
  // The attribute is a ceiling: set once to the most any row takes (set per size, a smaller row's
  // call would lower it under a larger row's launch).
  if (cache && (e = allow_dynamic_smem(kernel, static_cast<int>(most))) != cudaSuccess) return e;
  kernel<<<static_cast<unsigned>(rows), topk_detail::threads, dynamic, stream>>>(d_keys, length, k, kind, options.largest,
                                                                                cache, keys_out, indices_out);
  if ((e = check_launch(stream, options.debug_synchronous)) != cudaSuccess) return e;
  if (!options.sorted) return cudaSuccess;
  return segmented_sort_bits_pairs<Bits, std::uint64_t>(temp + keys_bytes + indices_bytes, sort_bytes, keys_out,
                                                        d_out_keys, reinterpret_cast<const std::uint64_t*>(indices_out),
                                                        reinterpret_cast<std::uint64_t*>(d_out_indices), chosen, layout,
                                                        kind, so, stream);
}

}  // namespace parascan

#define PARASCAN_INSTANTIATE_TOPK(U)                                                                             \
  template cudaError_t parascan::topk_bits<U>(void*, std::size_t&, const U*, std::int64_t, std::int64_t,        \
                                              std::int64_t, parascan::key_kind, U*, std::int64_t*,              \
                                              parascan::topk_options, cudaStream_t);
