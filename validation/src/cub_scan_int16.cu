// CUB reference instantiations: 16-bit integer scans, every built-in operator.
#include "instantiate_cub.cuh"
PARASCAN_CUB_INTEGER_OPS(std::int16_t, std::int16_t)
PARASCAN_CUB_INTEGER_OPS(std::uint16_t, std::uint16_t)
