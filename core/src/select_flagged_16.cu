// Explicit instantiations: select/partition by 16-bit flags, every value type.
#include "select_instantiate.cuh"
PARASCAN_SELECT_FLAGGED_ALL(std::int16_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint16_t)
