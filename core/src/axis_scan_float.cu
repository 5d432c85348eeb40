// Explicit instantiations of the scans along an axis: sum, product, min and max of float and double, and float → double sums.
#include <cstdint>
#include "parascan/device/device_axis_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_AXIS_SCANS_FLOAT(PARASCAN_INSTANTIATE_AXIS_SCAN)
