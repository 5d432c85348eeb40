// CUB/Thrust references for compaction and split, for every value type.
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>
#include <algorithm>
#include <stdexcept>
#include <string>
#include "parascan/validation/cub_select.hpp"

namespace parascan::validation {

template <class T>
cudaError_t cub_select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                          std::int64_t n, keep_rule<T> rule, cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_num_selected, items, rule, stream);
  });
}
template <class T>
cudaError_t cub_select_less(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                            std::int64_t n, T bound, cudaStream_t stream, cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_num_selected, items,
                                 keep_rule_fixed<T, keep_kind::lt>{bound}, stream);
  });
}
template cudaError_t cub_select_less<std::uint32_t>(void*, std::size_t&, const std::uint32_t*, std::uint32_t*,
                                                    std::int64_t*, std::int64_t, std::uint32_t, cudaStream_t, cub_count);
template cudaError_t cub_select_less<std::uint64_t>(void*, std::size_t&, const std::uint64_t*, std::uint64_t*,
                                                    std::int64_t*, std::int64_t, std::uint64_t, cudaStream_t, cub_count);
template <class T>
cudaError_t cub_select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const std::uint8_t* d_flags,
                               T* d_out, std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream,
                               cub_count count) {
  return with_cub_count(n, count, [&](auto items) {
    return cub::DeviceSelect::Flagged(d_temp, temp_bytes, d_in, d_flags, d_out, d_num_selected, items, stream);
  });
}
namespace {
template <class T>
struct rejected_by {
  keep_rule<T> rule;
  __host__ __device__ bool operator()(const T& x) const { return !rule(x); }
};
/// The same partition from two cub::DeviceSelect::If calls: the kept items, then the rest, each in
/// input order. Synchronises.
template <class T>
std::int64_t partition_by_two_selects(const T* d_in, T* d_out, std::int64_t n, keep_rule<T> rule) {
  std::int64_t* counts = nullptr;
  void* temp = nullptr;
  std::size_t bytes = 0, rejected_bytes = 0;
  cudaError_t e = cub::DeviceSelect::If(nullptr, bytes, d_in, d_out, counts, n, rule);
  if (e == cudaSuccess) e = cub::DeviceSelect::If(nullptr, rejected_bytes, d_in, d_out, counts, n, rejected_by<T>{rule});
  if (e == cudaSuccess) e = cudaMalloc(&counts, 2 * sizeof(std::int64_t));
  if (e == cudaSuccess) e = cudaMalloc(&temp, std::max(bytes, rejected_bytes));
  std::int64_t kept = -1;
  if (e == cudaSuccess) e = cub::DeviceSelect::If(temp, bytes, d_in, d_out, counts, n, rule);
  if (e == cudaSuccess) e = cudaMemcpy(&kept, counts, sizeof kept, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    e = cub::DeviceSelect::If(temp, rejected_bytes, d_in, d_out + kept, counts + 1, n, rejected_by<T>{rule});
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  (void)cudaFree(temp);
  (void)cudaFree(counts);
  if (e != cudaSuccess) throw std::runtime_error(std::string("partition by two selects: ") + cudaGetErrorString(e));
  return kept;
}
}  // namespace

template <class T>
std::int64_t thrust_stable_partition(const T* d_in, T* d_out, std::int64_t n, keep_rule<T> rule) {
#if CCCL_VERSION >= 3006000
  // CCCL 3.6's thrust::stable_partition does not compile with nvcc 13.0 and g++ 12 (its reverse
  // iterator over device_ptr; issue 34): against those headers the same partition comes from CUB's
  // select instead, and the tools' verdicts name CUB only.
  return partition_by_two_selects(d_in, d_out, n, rule);
#else
  thrust::device_ptr<const T> in(d_in);
  thrust::device_ptr<T> out(d_out);
  thrust::copy(thrust::device, in, in + n, out);
  auto mid = thrust::stable_partition(thrust::device, out, out + n, rule);
  return static_cast<std::int64_t>(mid - out);
#endif
}

const char* stable_partition_name() {
#if CCCL_VERSION >= 3006000
  return "two cub::DeviceSelect::If calls";
#else
  return "thrust::stable_partition";
#endif
}

#define PARASCAN_CUB_SELECT(T)                                                                                   \
  template cudaError_t cub_select_if<T>(void*, std::size_t&, const T*, T*, std::int64_t*, std::int64_t,          \
                                        keep_rule<T>, cudaStream_t, cub_count);                                  \
  template cudaError_t cub_select_flagged<T>(void*, std::size_t&, const T*, const std::uint8_t*, T*,             \
                                             std::int64_t*, std::int64_t, cudaStream_t, cub_count);              \
  template std::int64_t thrust_stable_partition<T>(const T*, T*, std::int64_t, keep_rule<T>);
PARASCAN_CUB_SELECT(std::int8_t)
PARASCAN_CUB_SELECT(std::uint8_t)
PARASCAN_CUB_SELECT(std::int16_t)
PARASCAN_CUB_SELECT(std::uint16_t)
PARASCAN_CUB_SELECT(std::int32_t)
PARASCAN_CUB_SELECT(std::uint32_t)
PARASCAN_CUB_SELECT(std::int64_t)
PARASCAN_CUB_SELECT(std::uint64_t)
PARASCAN_CUB_SELECT(float)
PARASCAN_CUB_SELECT(double)

}  // namespace parascan::validation
