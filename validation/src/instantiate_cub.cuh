// Every built-in operator for one (In, Out) pair, for the CUB references (mirrors core/src).
#pragma once
#include <cstdint>
#include "parascan/validation/cub_scan.cuh"
#define PARASCAN_CUB_ARITHMETIC_OPS(In, Out)             \
  PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, parascan::sum)     \
  PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, parascan::product) \
  PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, parascan::min_op)  \
  PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, parascan::max_op)
#define PARASCAN_CUB_INTEGER_OPS(In, Out)                   \
  PARASCAN_CUB_ARITHMETIC_OPS(In, Out)                      \
  PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, parascan::bit_and) \
  PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, parascan::bit_or)  \
  PARASCAN_INSTANTIATE_CUB_SCAN(In, Out, parascan::bit_xor)
