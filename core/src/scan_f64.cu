// Explicit instantiations: double → double scans for sum, product, min and max.
#include "instantiate.cuh"
PARASCAN_ARITHMETIC_OPS_OF(PARASCAN_INSTANTIATE_SCAN, double)
