// The explicit instantiations of the segmented sort for one key width (segmented_sort_u*.cu): keys,
// and pairs with 4- or 8-byte values (argsort is pairs without values in).
#pragma once
#include <cstdint>
#include "parascan/device/device_segmented_sort.cuh"

#define PARASCAN_SEGMENTED_SORT(U)                                                                                  \
  template cudaError_t parascan::segmented_sort_bits<U>(void*, std::size_t&, const U*, U*, std::int64_t,           \
                                                        parascan::segment_layout, parascan::key_kind,              \
                                                        parascan::segmented_sort_options, cudaStream_t);           \
  template cudaError_t parascan::segmented_sort_bits_pairs<U, std::uint32_t>(                                      \
      void*, std::size_t&, const U*, U*, const std::uint32_t*, std::uint32_t*, std::int64_t, parascan::segment_layout, \
      parascan::key_kind, parascan::segmented_sort_options, cudaStream_t);                                          \
  template cudaError_t parascan::segmented_sort_bits_pairs<U, std::uint64_t>(                                      \
      void*, std::size_t&, const U*, U*, const std::uint64_t*, std::uint64_t*, std::int64_t, parascan::segment_layout, \
      parascan::key_kind, parascan::segmented_sort_options, cudaStream_t);
