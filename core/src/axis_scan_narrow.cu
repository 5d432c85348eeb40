// Explicit instantiations of the scans along an axis: the same-type sums of the 8- and 16-bit integers.
#include <cstdint>
#include "parascan/device/device_axis_scan.cuh"
#include "parascan/scan_combinations.hpp"
PARASCAN_AXIS_SCANS_NARROW(PARASCAN_INSTANTIATE_AXIS_SCAN)
