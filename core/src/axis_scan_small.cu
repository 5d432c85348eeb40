// Explicit instantiations of the scans along an axis: the sums of 8- and 16-bit integers, same-type and widening, and the 32 → 64-bit widening sums.
#include <cstdint>
#include "parascan/device/device_axis_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_AXIS_SCANS_SMALL(PARASCAN_INSTANTIATE_AXIS_SCAN)
