// Explicit instantiations: select/partition by predicate (keep_rule) for every type, and by flags of
// every integer type (values and flags move as bits, so all combinations share 16 kernel sets).
#include <cstdint>
#include "parascan/device/device_select.cuh"

#define PARASCAN_SELECT_IF(T)                                                                                 \
  template cudaError_t parascan::select_if<T, parascan::keep_rule<T>>(void*, std::size_t&, const T*, T*,      \
                                                                      std::int64_t*, std::int64_t,            \
                                                                      parascan::keep_rule<T>, cudaStream_t,   \
                                                                      parascan::scan_options);                \
  template cudaError_t parascan::partition_if<T, parascan::keep_rule<T>>(                                     \
      void*, std::size_t&, const T*, T*, std::int64_t*, std::int64_t, parascan::keep_rule<T>, cudaStream_t,   \
      parascan::scan_options);                                                                                \
  template cudaError_t parascan::select_if_indices<T, parascan::keep_rule<T>>(                                \
      void*, std::size_t&, const T*, std::int64_t*, std::int64_t*, std::int64_t, parascan::keep_rule<T>,      \
      cudaStream_t, parascan::scan_options);
PARASCAN_SELECT_IF(std::int8_t)
PARASCAN_SELECT_IF(std::uint8_t)
PARASCAN_SELECT_IF(std::int16_t)
PARASCAN_SELECT_IF(std::uint16_t)
PARASCAN_SELECT_IF(std::int32_t)
PARASCAN_SELECT_IF(std::uint32_t)
PARASCAN_SELECT_IF(std::int64_t)
PARASCAN_SELECT_IF(std::uint64_t)
PARASCAN_SELECT_IF(float)
PARASCAN_SELECT_IF(double)
