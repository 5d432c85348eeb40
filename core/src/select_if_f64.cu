// Explicit instantiations: select/partition by predicate of double values (one type a file, select_instantiate.cuh).
#include "select_instantiate.cuh"
PARASCAN_SELECT_IF(double)
