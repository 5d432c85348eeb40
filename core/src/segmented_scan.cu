// Explicit instantiations of the segmented scans (head flags: one byte per item).
#include <cstdint>
#include "parascan/device/segmented_scan.cuh"
#define PARASCAN_SEG(T) PARASCAN_INSTANTIATE_SEGMENTED_SCAN(T, T, parascan::sum)
PARASCAN_SEG(std::int8_t)
PARASCAN_SEG(std::uint8_t)
PARASCAN_SEG(std::int16_t)
PARASCAN_SEG(std::uint16_t)
PARASCAN_SEG(std::int32_t)
PARASCAN_SEG(std::uint32_t)
PARASCAN_SEG(std::int64_t)
PARASCAN_SEG(std::uint64_t)
PARASCAN_SEG(float)
PARASCAN_SEG(double)
