// CUB reference instantiations of the segmented scans (mirrors core/src/segmented_scan.cu).
#include <cstdint>
#include "parascan/validation/cub_scan.cuh"
#define PARASCAN_CUB_SEG(T) PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN(T, T, parascan::sum)
PARASCAN_CUB_SEG(std::int8_t)
PARASCAN_CUB_SEG(std::uint8_t)
PARASCAN_CUB_SEG(std::int16_t)
PARASCAN_CUB_SEG(std::uint16_t)
PARASCAN_CUB_SEG(std::int32_t)
PARASCAN_CUB_SEG(std::uint32_t)
PARASCAN_CUB_SEG(std::int64_t)
PARASCAN_CUB_SEG(std::uint64_t)
PARASCAN_CUB_SEG(float)
PARASCAN_CUB_SEG(double)
