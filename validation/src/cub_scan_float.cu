// CUB reference instantiations: float and double scans.
#include "instantiate_cub.cuh"
PARASCAN_CUB_ARITHMETIC_OPS(float, float)
PARASCAN_CUB_ARITHMETIC_OPS(double, double)
