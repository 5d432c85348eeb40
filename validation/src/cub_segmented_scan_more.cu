// CUB reference instantiations of the widening and min/max segmented scans.
#include <cstdint>
#include "parascan/validation/cub_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_SEGMENTED_EXTRA(PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN)
