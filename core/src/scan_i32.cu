// Explicit instantiations: int32_t → int32_t scans for every built-in operator.
#include "instantiate.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::int32_t)
