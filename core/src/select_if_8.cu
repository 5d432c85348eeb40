// Explicit instantiations: select/partition by predicate of 8-bit values.
#include "select_instantiate.cuh"
PARASCAN_SELECT_IF(std::int8_t)
PARASCAN_SELECT_IF(std::uint8_t)
