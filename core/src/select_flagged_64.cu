// Explicit instantiations: select/partition by 64-bit flags, every value type.
#include "select_instantiate.cuh"
PARASCAN_SELECT_FLAGGED_ALL(std::int64_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint64_t)
