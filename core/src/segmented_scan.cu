// Explicit instantiations of the segmented sums of 32- and 64-bit items (head flags: one byte per item).
#include <cstdint>
#include "parascan/device/segmented_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_SEGMENTED_SUMS_WIDE(PARASCAN_INSTANTIATE_SEGMENTED_SCAN)
