// Explicit instantiations: segmented sort of 32-bit keys (keys, pairs, argsort).
#include "segmented_sort.cuh"
PARASCAN_SEGMENTED_SORT(std::uint32_t)
