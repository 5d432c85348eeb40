// CUB/Thrust references for compaction and split, for every value type.
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>
#include "parascan/validation/cub_select.hpp"

namespace parascan::validation {

template <class T>
cudaError_t cub_select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                          std::int64_t n, keep_rule<T> rule, cudaStream_t stream) {
  return cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_num_selected, n, rule, stream);
}
template <class T>
cudaError_t cub_select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const std::uint8_t* d_flags,
                               T* d_out, std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream) {
  return cub::DeviceSelect::Flagged(d_temp, temp_bytes, d_in, d_flags, d_out, d_num_selected, n, stream);
}
template <class T>
std::int64_t thrust_stable_partition(const T* d_in, T* d_out, std::int64_t n, keep_rule<T> rule) {
  thrust::device_ptr<const T> in(d_in);
  thrust::device_ptr<T> out(d_out);
  thrust::copy(thrust::device, in, in + n, out);
  auto mid = thrust::stable_partition(thrust::device, out, out + n, rule);
  return static_cast<std::int64_t>(mid - out);
}

#define PARASCAN_CUB_SELECT(T)                                                                                   \
  template cudaError_t cub_select_if<T>(void*, std::size_t&, const T*, T*, std::int64_t*, std::int64_t,          \
                                        keep_rule<T>, cudaStream_t);                                             \
  template cudaError_t cub_select_flagged<T>(void*, std::size_t&, const T*, const std::uint8_t*, T*,             \
                                             std::int64_t*, std::int64_t, cudaStream_t);                         \
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
