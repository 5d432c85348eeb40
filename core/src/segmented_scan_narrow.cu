// Explicit instantiations of the segmented sums of 8- and 16-bit items (head flags: one byte per item).
#include <cstdint>
#include "parascan/device/segmented_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_SEGMENTED_SUMS_NARROW(PARASCAN_INSTANTIATE_SEGMENTED_SCAN)
