// Explicit instantiations of the segmented scans (head flags: one byte per item).
#include <cstdint>
#include "parascan/device/segmented_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_SEGMENTED_SUMS(PARASCAN_INSTANTIATE_SEGMENTED_SCAN)
