// CUB reference instantiations: 64-bit integer scans and the widening sums.
#include "instantiate_cub.cuh"
PARASCAN_CUB_INTEGER_OPS(std::int64_t, std::int64_t)
PARASCAN_CUB_INTEGER_OPS(std::uint64_t, std::uint64_t)
PARASCAN_INSTANTIATE_CUB_SCAN(std::uint8_t, std::uint32_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SCAN(std::uint8_t, std::uint64_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SCAN(std::int8_t, std::int32_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SCAN(std::uint16_t, std::uint32_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SCAN(std::int16_t, std::int32_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SCAN(std::uint32_t, std::uint64_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SCAN(std::int32_t, std::int64_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SCAN(float, double, parascan::sum)
