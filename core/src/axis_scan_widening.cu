// Explicit instantiations of the scans along an axis: the widening sums (8- and 16-bit integers to 32 and 64 bits, 32 to 64).
#include <cstdint>
#include "parascan/device/device_axis_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_AXIS_SCANS_WIDENING(PARASCAN_INSTANTIATE_AXIS_SCAN)
