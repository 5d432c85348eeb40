// Explicit instantiations: segmented sort of 64-bit keys (keys, pairs, argsort).
#include "segmented_sort.cuh"
PARASCAN_SEGMENTED_SORT(std::uint64_t)
