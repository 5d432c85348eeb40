// Explicit instantiations: uint64_t → uint64_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_INTEGER_OPS(std::uint64_t, std::uint64_t)
