// CUB reference instantiations: 64-bit integer scans and the widening sums.
#include "instantiate_cub.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::int64_t)
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::uint64_t)
PARASCAN_WIDENING_SUMS(PARASCAN_INSTANTIATE_CUB_SCAN)
