// Helpers for the explicit-instantiation files: every built-in operator for one (In, Out) pair.
#pragma once
#include <cstdint>
#include "parascan/device/device_scan.cuh"

#define PARASCAN_INSTANTIATE_ARITHMETIC_OPS(In, Out)     \
  PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::sum)      \
  PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::product)  \
  PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::min_op)   \
  PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::max_op)

#define PARASCAN_INSTANTIATE_INTEGER_OPS(In, Out)        \
  PARASCAN_INSTANTIATE_ARITHMETIC_OPS(In, Out)           \
  PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::bit_and)  \
  PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::bit_or)   \
  PARASCAN_INSTANTIATE_SCAN(In, Out, parascan::bit_xor)
