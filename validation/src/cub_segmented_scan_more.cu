// CUB reference instantiations of the widening and min/max segmented scans.
#include <cstdint>
#include "parascan/validation/cub_scan.cuh"
PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN(std::uint8_t, std::uint32_t, parascan::sum)
PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN(std::int32_t, std::int32_t, parascan::max_op)
PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN(float, float, parascan::max_op)
PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN(std::int32_t, std::int32_t, parascan::min_op)
