// The selection instantiation files (select_if_*.cu, select_flagged_*.cu) expand these for their
// types: select (plain, padded, indices) and partition by predicate (keep_rule) per value type, and by
// flags of an integer type for every value type (values and flags move as bits, so all combinations
// share 16 kernel sets; the padded forms use the same kernels, told at run time to fill).
// Split by type between translation units so that no one file holds back a parallel build.
#pragma once
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
      cudaStream_t, parascan::scan_options);                                                                  \
  template cudaError_t parascan::select_if_padded<T, parascan::keep_rule<T>>(                                 \
      void*, std::size_t&, const T*, T*, std::int64_t*, std::int64_t, parascan::keep_rule<T>, T, cudaStream_t, \
      parascan::scan_options);

#define PARASCAN_SELECT_FLAGGED(T, F)                                                                          \
  template cudaError_t parascan::select_flagged<T, F>(void*, std::size_t&, const T*, const F*, T*,             \
                                                      std::int64_t*, std::int64_t, cudaStream_t,               \
                                                      parascan::scan_options);                                 \
  template cudaError_t parascan::partition_flagged<T, F>(void*, std::size_t&, const T*, const F*, T*,          \
                                                         std::int64_t*, std::int64_t, cudaStream_t,            \
                                                         parascan::scan_options);                              \
  template cudaError_t parascan::select_flagged_padded<T, F>(void*, std::size_t&, const T*, const F*, T*,      \
                                                             std::int64_t*, std::int64_t, T, cudaStream_t,     \
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
