// CUB reference of the scans along rows (cub_scan.hpp): ScanByKey over computed row keys.
#include <cstdint>
#include <thrust/iterator/counting_iterator.h>
#include "parascan/scan_combinations.hpp"
#include "parascan/validation/cub_scan.cuh"

namespace parascan::validation {
namespace detail {
struct row_of {
  std::int64_t length;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i / length; }
};
}  // namespace detail

template <class In, class Out, class Op>
cudaError_t cub_rows_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t rows,
                          std::int64_t length, Op op, bool exclusive, Out init, cudaStream_t stream, cub_count count) {
  if (length <= 0 || rows <= 0) length = 1;  // nothing to scan: any key will do
  const auto keys = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), detail::row_of{length});
  return with_cub_count(rows * length, count, [&](auto items) {
    return exclusive ? detail::scan_by_key<true>(d_temp, temp_bytes, keys, detail::as_out<Out>(d_in), d_out,
                                                 detail::cub_op(op), init, items, stream)
                     : detail::scan_by_key<false>(d_temp, temp_bytes, keys, detail::as_out<Out>(d_in), d_out,
                                                  detail::cub_op(op), init, items, stream);
  });
}

}  // namespace parascan::validation

#define PARASCAN_INSTANTIATE_CUB_ROWS_SCAN(In, Out, Op)                                                        \
  template cudaError_t parascan::validation::cub_rows_scan<In, Out, Op>(                                       \
      void*, std::size_t&, const In*, Out*, std::int64_t, std::int64_t, Op, bool, Out, cudaStream_t, cub_count);
PARASCAN_ALL_SEGMENTED_SCANS(PARASCAN_INSTANTIATE_CUB_ROWS_SCAN)
