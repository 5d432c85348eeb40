// Explicit instantiations: select/partition by predicate of 32-bit values.
#include "select_instantiate.cuh"
PARASCAN_SELECT_IF(std::int32_t)
PARASCAN_SELECT_IF(std::uint32_t)
PARASCAN_SELECT_IF(float)
