// CUB reference instantiations: float and double scans.
#include "instantiate_cub.cuh"
PARASCAN_ARITHMETIC_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, float)
PARASCAN_ARITHMETIC_OPS_OF(PARASCAN_INSTANTIATE_CUB_SCAN, double)
