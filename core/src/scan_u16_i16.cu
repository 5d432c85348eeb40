// Explicit instantiations: uint16_t and int16_t scans (same input and output type), every built-in operator.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_INTEGER_OPS(std::uint16_t, std::uint16_t)
PARASCAN_INSTANTIATE_INTEGER_OPS(std::int16_t, std::int16_t)
