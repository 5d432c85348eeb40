// Explicit instantiations: uint8_t and int8_t scans (same input and output type), every built-in operator.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_INTEGER_OPS(std::uint8_t, std::uint8_t)
PARASCAN_INSTANTIATE_INTEGER_OPS(std::int8_t, std::int8_t)
