// Explicit instantiations: uint64_t → uint64_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::uint64_t)
