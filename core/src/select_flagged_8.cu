// Explicit instantiations: select/partition by 8-bit flags, every value type.
#include "select_instantiate.cuh"
PARASCAN_SELECT_FLAGGED_ALL(std::int8_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint8_t)
