// Explicit instantiations: int64_t → int64_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_INTEGER_OPS(std::int64_t, std::int64_t)
