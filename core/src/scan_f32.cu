// Explicit instantiations: float → float scans for sum, product, min and max.
#include "instantiate.cuh"
PARASCAN_INSTANTIATE_ARITHMETIC_OPS(float, float)
