// CUB reference instantiations: 32-bit integer scans, every built-in operator.
#include "instantiate_cub.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::int32_t)
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::uint32_t)
