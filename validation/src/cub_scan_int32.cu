// CUB reference instantiations: 32-bit integer scans, every built-in operator.
#include "instantiate_cub.cuh"
PARASCAN_CUB_INTEGER_OPS(std::int32_t, std::int32_t)
PARASCAN_CUB_INTEGER_OPS(std::uint32_t, std::uint32_t)
