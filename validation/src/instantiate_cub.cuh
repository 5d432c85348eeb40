// The CUB references are instantiated for the same lists as the library (parascan/scan_combinations.hpp),
// expanded with PARASCAN_INSTANTIATE_CUB_SCAN for each file's element types.
#pragma once
#include <cstdint>
#include "parascan/scan_combinations.hpp"
#include "parascan/validation/cub_scan.cuh"
