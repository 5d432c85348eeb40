// Explicit instantiations: select/partition by flags, every value type × every integer flag type.
#include <cstdint>
#include "parascan/device/device_select.cuh"

#define PARASCAN_SELECT_FLAGGED(T, F)                                                                          \
  template cudaError_t parascan::select_flagged<T, F>(void*, std::size_t&, const T*, const F*, T*,             \
                                                      std::int64_t*, std::int64_t, cudaStream_t,               \
                                                      parascan::scan_options);                                 \
  template cudaError_t parascan::partition_flagged<T, F>(void*, std::size_t&, const T*, const F*, T*,          \
                                                         std::int64_t*, std::int64_t, cudaStream_t,            \
                                                         parascan::scan_options);
#define PARASCAN_SELECT_FLAGGED_ALL(F)                  \
  PARASCAN_SELECT_FLAGGED(std::int8_t, F)               \
  PARASCAN_SELECT_FLAGGED(std::uint8_t, F)              \
  PARASCAN_SELECT_FLAGGED(std::int16_t, F)              \
  PARASCAN_SELECT_FLAGGED(std::uint16_t, F)             \
  PARASCAN_SELECT_FLAGGED(std::int32_t, F)              \
  PARASCAN_SELECT_FLAGGED(std::uint32_t, F)             \
  PARASCAN_SELECT_FLAGGED(std::int64_t, F)              \
  PARASCAN_SELECT_FLAGGED(std::uint64_t, F)             \
  PARASCAN_SELECT_FLAGGED(float, F)                     \
  PARASCAN_SELECT_FLAGGED(double, F)                    \
  template cudaError_t parascan::select_flagged_indices<F>(void*, std::size_t&, const F*, std::int64_t*,      \
                                                           std::int64_t*, std::int64_t, cudaStream_t,         \
                                                           parascan::scan_options);
PARASCAN_SELECT_FLAGGED_ALL(std::int8_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint8_t)
PARASCAN_SELECT_FLAGGED_ALL(std::int16_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint16_t)
PARASCAN_SELECT_FLAGGED_ALL(std::int32_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint32_t)
PARASCAN_SELECT_FLAGGED_ALL(std::int64_t)
PARASCAN_SELECT_FLAGGED_ALL(std::uint64_t)
