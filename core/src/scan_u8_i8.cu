// Explicit instantiations: uint8_t and int8_t scans (same input and output type), every built-in operator.
#include "instantiate.cuh"
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::uint8_t)
PARASCAN_INTEGER_OPS_OF(PARASCAN_INSTANTIATE_SCAN, std::int8_t)
