// Explicit instantiations: radix sort of key–value pairs with 2-byte keys and values of 1, 2, 4 or 8 bytes
// (one file per key width, so that they compile in parallel).
#include "radix_sort_pairs.cuh"
PARASCAN_SORT_PAIRS_ALL(std::uint16_t)
