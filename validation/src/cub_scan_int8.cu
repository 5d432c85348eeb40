// CUB reference instantiations: 8-bit integer scans, every built-in operator.
#include "instantiate_cub.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::int8_t)
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::uint8_t)
