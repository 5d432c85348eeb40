// Definitions of the CUB references of cub_scan.hpp; include from a .cu file to add instantiations
// (tests do, for their own non-commutative operator).
#pragma once
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <type_traits>
#include <thrust/iterator/transform_iterator.h>
#include "parascan/validation/cub_scan.hpp"

namespace parascan::validation {

namespace detail {
template <class Out>
struct cast_to {
  template <class In>
  __host__ __device__ Out operator()(const In& x) const { return static_cast<Out>(x); }
};
/// The input as CUB should see it: the raw pointer when no conversion is needed (CUB vectorises loads
/// only through raw pointers), else a converting iterator.
template <class Out, class In>
auto as_out(const In* p) {
  if constexpr (std::is_same_v<In, Out>) return p;
  else return thrust::make_transform_iterator(p, cast_to<Out>{});
}
/// The operator as CUB should see it: our sum becomes cuda::std::plus, which CUB recognises and for
/// which it selects its tuned policies (a foreign functor gets the generic, slower tuning).
template <class Op>
auto cub_op(Op op) {
  if constexpr (std::is_same_v<Op, parascan::sum>) return ::cuda::std::plus<>{};
  else return op;
}

struct head_to_key {
  __host__ __device__ std::uint64_t operator()(std::uint8_t h) const { return h ? 1u : 0u; }
};

inline std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

/// cub::DeviceScan::{Exclusive,Inclusive}ScanByKey: equal neighbouring keys continue a segment.
template <bool Exclusive, class Keys, class InIt, class Out, class Op, class N>
cudaError_t scan_by_key(void* d_temp, std::size_t& temp_bytes, Keys keys, InIt in, Out* out, Op op, Out init, N n,
                        cudaStream_t stream) {
  if constexpr (Exclusive)
    return cub::DeviceScan::ExclusiveScanByKey(d_temp, temp_bytes, keys, in, out, op, init, n, ::cuda::std::equal_to<>{},
                                               stream);
  else
    return cub::DeviceScan::InclusiveScanByKey(d_temp, temp_bytes, keys, in, out, op, n, ::cuda::std::equal_to<>{}, stream);
}
}  // namespace detail

template <class In, class Out, class Op>
cudaError_t cub_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                               Op op, Out init, cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return cub::DeviceScan::ExclusiveScan(d_temp, temp_bytes, detail::as_out<Out>(d_in), d_out, detail::cub_op(op), init,
                                          items, stream);
  });
}
template <class In, class Out, class Op>
cudaError_t cub_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                               Op op, cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return cub::DeviceScan::InclusiveScan(d_temp, temp_bytes, detail::as_out<Out>(d_in), d_out, detail::cub_op(op), items,
                                          stream);
  });
}
template <class In, class Out, class Op>
cudaError_t cub_inclusive_scan_init(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out,
                                    std::int64_t n, Op op, Out init, cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return cub::DeviceScan::InclusiveScanInit(d_temp, temp_bytes, detail::as_out<Out>(d_in), d_out, detail::cub_op(op),
                                              init, items, stream);
  });
}

namespace detail {
/// Layout: [keys: n × u64][key-scan temp][by-key temp]; one function sizes and runs.
template <bool Exclusive, class In, class Out, class Op, class N>
cudaError_t cub_segmented(void* d_temp, std::size_t& temp_bytes, const In* d_in, const std::uint8_t* d_heads,
                          Out* d_out, N n, Op op, Out init, cudaStream_t stream) {
  auto heads = thrust::make_transform_iterator(d_heads, head_to_key{});
  std::size_t key_bytes = align256(static_cast<std::size_t>(n) * sizeof(std::uint64_t));
  std::size_t sum_bytes = 0, by_key_bytes = 0;
  cudaError_t e = cub::DeviceScan::InclusiveSum(nullptr, sum_bytes, heads, static_cast<std::uint64_t*>(nullptr), n, stream);
  if (e != cudaSuccess) return e;
  e = scan_by_key<Exclusive>(nullptr, by_key_bytes, static_cast<std::uint64_t*>(nullptr), as_out<Out>(d_in), d_out, op,
                             init, n, stream);
  if (e != cudaSuccess) return e;
  const std::size_t need = key_bytes + align256(sum_bytes) + align256(by_key_bytes);
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  auto* keys = static_cast<std::uint64_t*>(d_temp);
  char* sum_temp = static_cast<char*>(d_temp) + key_bytes;
  char* by_key_temp = sum_temp + align256(sum_bytes);
  if ((e = cub::DeviceScan::InclusiveSum(sum_temp, sum_bytes, heads, keys, n, stream)) != cudaSuccess) return e;
  return scan_by_key<Exclusive>(by_key_temp, by_key_bytes, keys, as_out<Out>(d_in), d_out, op, init, n, stream);
}
}  // namespace detail

template <class In, class Out, class Op>
cudaError_t cub_segmented_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                         const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op, Out init,
                                         cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return detail::cub_segmented<true>(d_temp, temp_bytes, d_in, d_heads, d_out, items, op, init, stream);
  });
}
template <class In, class Out, class Op>
cudaError_t cub_segmented_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                         const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op,
                                         cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return detail::cub_segmented<false>(d_temp, temp_bytes, d_in, d_heads, d_out, items, op, Out{}, stream);
  });
}

}  // namespace parascan::validation

#define PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, Op)                                                               \
  template cudaError_t parascan::validation::cub_exclusive_scan<In, Out, Op>(                                    \
      void*, std::size_t&, const In*, Out*, std::int64_t, Op, Out, cudaStream_t, cub_count);                     \
  template cudaError_t parascan::validation::cub_inclusive_scan<In, Out, Op>(                                    \
      void*, std::size_t&, const In*, Out*, std::int64_t, Op, cudaStream_t, cub_count);                          \
  template cudaError_t parascan::validation::cub_inclusive_scan_init<In, Out, Op>(                               \
      void*, std::size_t&, const In*, Out*, std::int64_t, Op, Out, cudaStream_t, cub_count);

#define PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN(In, Out, Op)                                                  \
  template cudaError_t parascan::validation::cub_segmented_exclusive_scan<In, Out, Op>(                       \
      void*, std::size_t&, const In*, const std::uint8_t*, Out*, std::int64_t, Op, Out, cudaStream_t, cub_count); \
  template cudaError_t parascan::validation::cub_segmented_inclusive_scan<In, Out, Op>(                       \
      void*, std::size_t&, const In*, const std::uint8_t*, Out*, std::int64_t, Op, cudaStream_t, cub_count);
