// Explicit instantiations: double → double scans for sum, product, min and max.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_ARITHMETIC_OPS(double, double)
