// Explicit instantiations: uint32_t → uint32_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::uint32_t)
