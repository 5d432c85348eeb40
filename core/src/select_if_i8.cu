// Explicit instantiations: select/partition by predicate of std::int8_t values (one type a file, select_instantiate.cuh).
#include "select_instantiate.cuh"
PARASCAN_SELECT_IF(std::int8_t)
