// CUB reference instantiations: 16-bit integer scans, every built-in operator.
#include "instantiate_cub.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::int16_t)
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, std::uint16_t)
