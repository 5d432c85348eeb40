// Explicit instantiations: select/partition by 32-bit flags, every value type.
#include "select_instantiate.cuh"
PARASCAN_SELECT_FLAGGED_ALL(std::int32_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint32_t)
