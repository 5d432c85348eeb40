// Explicit instantiations of the widening and min/max segmented scans.
#include <cstdint>
#include "parascan/device/segmented_scan.cuh"
PARASCAN_INSTANTIATE_SEGMENTED_SCAN(std::uint8_t, std::uint32_t, parascan::sum)
PARASCAN_INSTANTIATE_SEGMENTED_SCAN(std::int32_t, std::int32_t, parascan::max_op)
PARASCAN_INSTANTIATE_SEGMENTED_SCAN(float, float, parascan::max_op)
PARASCAN_INSTANTIATE_SEGMENTED_SCAN(std::int32_t, std::int32_t, parascan::min_op)
