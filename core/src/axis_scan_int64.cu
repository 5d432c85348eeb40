// Explicit instantiations of the scans along an axis: sum, product, min and max of the 64-bit integers.
#include <cstdint>
#include "parascan/device/device_axis_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_AXIS_SCANS_INT64(PARASCAN_INSTANTIATE_AXIS_SCAN)
