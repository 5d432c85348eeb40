// Explicit instantiations: segmented sort of 8-bit keys (keys, pairs, argsort).
#include "segmented_sort.cuh"
PARASCAN_SEGMENTED_SORT(std::uint8_t)
