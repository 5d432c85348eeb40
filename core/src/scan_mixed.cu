// Explicit instantiations: sums into a wider accumulator (flags into offsets, exact totals).
#include "instantiate.cuh"
PARASCAN_WIDENING_SUMS(PARASCAN_INSTANTIATE_SCAN)
