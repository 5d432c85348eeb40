// Explicit instantiations: select/partition by predicate of 64-bit values.
#include "select_instantiate.cuh"
PARASCAN_SELECT_IF(std::int64_t)
PARASCAN_SELECT_IF(std::uint64_t)
PARASCAN_SELECT_IF(double)
