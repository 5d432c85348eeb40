// Explicit instantiations: sums into a wider accumulator (flags into offsets, exact totals).
#include "instantiate.cuh"
#define PARASCAN_MIXED_SUM(In, Out) PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::sum)
PARASCAN_MIXED_SUM(std::uint8_t, std::uint32_t)
PARASCAN_MIXED_SUM(std::uint8_t, std::uint64_t)
PARASCAN_MIXED_SUM(std::int8_t, std::int32_t)
PARASCAN_MIXED_SUM(std::uint16_t, std::uint32_t)
PARASCAN_MIXED_SUM(std::int16_t, std::int32_t)
PARASCAN_MIXED_SUM(std::uint32_t, std::uint64_t)
PARASCAN_MIXED_SUM(std::int32_t, std::int64_t)
PARASCAN_MIXED_SUM(float, double)
