// Explicit instantiations: select/partition by predicate of float values (one type a file, select_instantiate.cuh).
#include "select_instantiate.cuh"
PARASCAN_SELECT_IF(float)
