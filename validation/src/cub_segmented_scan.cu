// CUB reference instantiations of the segmented scans (mirrors core/src/segmented_scan.cu).
#include <cstdint>
#include "parascan/validation/cub_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_SEGMENTED_SUMS(PARASCAN_INSTANTIATE_CUB_SEGMENTED_SCAN)
