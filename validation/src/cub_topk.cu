// cub::DeviceBatchedTopK as the top-k reference (cub_topk.hpp), compiled only against a CUB that has it.
#include <cub/version.cuh>
#include <cuda_bf16.h>
#include <cstdint>
#include <type_traits>
#include "parascan/validation/cub_topk.hpp"

#if CUB_VERSION >= 300600 && __has_include(<cub/device/device_batched_topk.cuh>)
#define PARASCAN_CUB_BATCHED_TOPK 1
// A deterministic request that the backend chosen for a row bound cannot serve returns
// cudaErrorNotSupported at run time (instead of failing to compile); by_length then tries a wider bound.
#define CUB_DISABLE_TOPK_UNSUPPORTED_ARCH_ASSERT
#include <cub/device/device_batched_topk.cuh>
#include <cuda/iterator>
#include <cuda/stream_ref>
#endif

namespace parascan::validation {

const char* to_string(cub_topk_contract c) {
  return c == cub_topk_contract::sorted_earliest ? "sorted, earliest ties" : "unsorted, any ties";
}

#ifdef PARASCAN_CUB_BATCHED_TOPK
namespace {

// CUB specialises on the compile-time bound of the row length (its single-block or cluster backend, and
// its temporary storage), so each row is given the tightest of a few bounds that serves the contract.
template <std::int64_t MaxLength, class Key, class Env>
cudaError_t batched(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, Key* d_out_keys, std::int64_t* d_out_at,
                    std::int64_t rows, std::int64_t length, std::int64_t k, const Env& env) {
  auto keys_in = cuda::make_strided_iterator(cuda::make_counting_iterator(d_keys), length);
  auto keys_out = cuda::make_strided_iterator(cuda::make_counting_iterator(d_out_keys), k);
  auto at_in = cuda::make_constant_iterator(cuda::make_counting_iterator(std::int64_t{0}));
  auto at_out = cuda::make_strided_iterator(cuda::make_counting_iterator(d_out_at), k);
  return cub::DeviceBatchedTopK::MaxPairs(d_temp, temp_bytes, keys_in, keys_out, at_in, at_out,
                                          cuda::args::immediate{length, cuda::args::bounds<std::int64_t{1}, MaxLength>()},
                                          cuda::args::immediate{k, cuda::args::bounds<std::int64_t{1}, std::int64_t{1024}>()},
                                          static_cast<int>(rows), env);
}

template <class Key, class Env>
cudaError_t by_length(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, Key* d_out_keys, std::int64_t* d_out_at,
                      std::int64_t rows, std::int64_t length, std::int64_t k, const Env& env) {
  cudaError_t e = cudaErrorNotSupported;
  if (length <= 256) e = batched<256>(d_temp, temp_bytes, d_keys, d_out_keys, d_out_at, rows, length, k, env);
  if (e == cudaErrorNotSupported && length <= (std::int64_t{1} << 17))
    e = batched<(std::int64_t{1} << 17)>(d_temp, temp_bytes, d_keys, d_out_keys, d_out_at, rows, length, k, env);
  if (e == cudaErrorNotSupported)
    e = batched<(std::int64_t{1} << 21)>(d_temp, temp_bytes, d_keys, d_out_keys, d_out_at, rows, length, k, env);
  return e;
}

}  // namespace

bool cub_has_batched_topk() { return true; }

template <class Key>
cudaError_t cub_batched_topk(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, Key* d_out_keys,
                             std::int64_t* d_out_at, std::int64_t rows, std::int64_t length, std::int64_t k,
                             cub_topk_contract contract, cudaStream_t stream) {
  if (rows < 1 || rows > INT32_MAX || length < 1 || length > (1 << 21) || k < 1 || k > 1024 || k > length)
    return cudaErrorInvalidValue;
  using native = std::conditional_t<std::is_same_v<Key, std::uint16_t>, __nv_bfloat16, Key>;
  const auto* in = reinterpret_cast<const native*>(d_keys);
  auto* out = reinterpret_cast<native*>(d_out_keys);
  namespace ex = cuda::execution;
  if (contract == cub_topk_contract::sorted_earliest) {
    const auto env = cuda::std::execution::env{
        ex::require(ex::determinism::gpu_to_gpu, ex::tie_break::prefer_smaller_index, ex::output_ordering::sorted),
        cuda::stream_ref{stream}};
    return by_length(d_temp, temp_bytes, in, out, d_out_at, rows, length, k, env);
  }
  const auto env = cuda::std::execution::env{
      ex::require(ex::determinism::not_guaranteed, ex::tie_break::unspecified, ex::output_ordering::unsorted),
      cuda::stream_ref{stream}};
  return by_length(d_temp, temp_bytes, in, out, d_out_at, rows, length, k, env);
}

#else

bool cub_has_batched_topk() { return false; }

template <class Key>
cudaError_t cub_batched_topk(void*, std::size_t&, const Key*, Key*, std::int64_t*, std::int64_t, std::int64_t,
                             std::int64_t, cub_topk_contract, cudaStream_t) {
  return cudaErrorNotSupported;
}

#endif

template cudaError_t cub_batched_topk<float>(void*, std::size_t&, const float*, float*, std::int64_t*, std::int64_t,
                                             std::int64_t, std::int64_t, cub_topk_contract, cudaStream_t);
template cudaError_t cub_batched_topk<std::uint16_t>(void*, std::size_t&, const std::uint16_t*, std::uint16_t*,
                                                     std::int64_t*, std::int64_t, std::int64_t, std::int64_t,
                                                     cub_topk_contract, cudaStream_t);

}  // namespace parascan::validation
