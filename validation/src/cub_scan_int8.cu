// CUB reference instantiations: 8-bit integer scans, every built-in operator.
#include "instantiate_cub.cuh"
PARASCAN_CUB_INTEGER_OPS(std::int8_t, std::int8_t)
PARASCAN_CUB_INTEGER_OPS(std::uint8_t, std::uint8_t)
