// Explicit instantiations: int32_t → int32_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_INTEGER_OPS(std::int32_t, std::int32_t)
