// Explicit instantiations: select/partition by predicate of 16-bit values.
#include "select_instantiate.cuh"
PARASCAN_SELECT_IF(std::int16_t)
PARASCAN_SELECT_IF(std::uint16_t)
