// Explicit instantiations: uint32_t → uint32_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_INTEGER_OPS(std::uint32_t, std::uint32_t)
