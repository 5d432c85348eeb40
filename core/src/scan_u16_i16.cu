// Explicit instantiations: uint16_t and int16_t scans (same input and output type), every built-in operator.
#include "instantiate.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::uint16_t)
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::int16_t)
