// The explicit-instantiation files expand the lists of parascan/scan_combinations.hpp with
// PARASCAN_INSTANTIATE_SCAN (device_scan.cuh) for their element types.
#pragma once
#include <cstdint>
#include "parascan/device/device_scan.cuh"
#include "parascan/scan_combinations.hpp"
