// Explicit instantiations: int64_t → int64_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::int64_t)
