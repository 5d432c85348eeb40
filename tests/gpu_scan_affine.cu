// The scans of the tests' affine maps (scan_affine.hpp), instantiated in a file of their own: the scan
// core's and CUB's for gpu_scan_test.cu, the axis scans for gpu_axis_scan_test.cu. Those files see only
// the declarations (parascan/scan.hpp, axis_scan.hpp), so they link the library's scans instead of
// compiling every type × block algorithm × strategy again (gpu_scan_test.cu was the longest file of the
// build, 152 s as PTX alone on 2 cores, and the GPU machine's gpu_tests build waited on it).
#include "parascan/device/device_axis_scan.cuh"
#include "parascan/device/device_scan.cuh"
#include "parascan/validation/cub_scan.cuh"
#include "scan_affine.hpp"

PARASCAN_INSTANTIATE_SCAN(parascan::test::affine, parascan::test::affine, parascan::test::compose)
PARASCAN_INSTANTIATE_CUB_SCAN(parascan::test::affine, parascan::test::affine, parascan::test::compose)
PARASCAN_INSTANTIATE_AXIS_SCAN(parascan::test::affine, parascan::test::affine, parascan::test::compose)
