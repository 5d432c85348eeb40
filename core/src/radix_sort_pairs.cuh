// The explicit instantiation of radix sort of key–value pairs for one key type (radix_sort_pairs_u*.cu).
#pragma once
#include <cstdint>
#include "parascan/device/device_radix_sort.cuh"

#define PARASCAN_SORT_PAIRS(U, V)                                                                              \
  template cudaError_t parascan::radix_sort_bits_pairs<U, V>(void*, std::size_t&, const U*, U*, const V*, V*, \
                                                             std::int64_t, parascan::key_kind,                \
                                                             parascan::sort_options, cudaStream_t);
#define PARASCAN_SORT_PAIRS_ALL(U)      \
  PARASCAN_SORT_PAIRS(U, std::uint8_t)  \
  PARASCAN_SORT_PAIRS(U, std::uint16_t) \
  PARASCAN_SORT_PAIRS(U, std::uint32_t) \
  PARASCAN_SORT_PAIRS(U, std::uint64_t)
