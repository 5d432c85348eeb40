// Explicit instantiations: segmented sort of 16-bit keys (keys, pairs, argsort).
#include "segmented_sort.cuh"
PARASCAN_SEGMENTED_SORT(std::uint16_t)
