// Explicit instantiations of the widening and min/max segmented scans.
#include <cstdint>
#include "parascan/device/segmented_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_SEGMENTED_EXTRA(PARASCAN_INSTANTIATE_SEGMENTED_SCAN)
