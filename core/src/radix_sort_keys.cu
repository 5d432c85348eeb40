// Explicit instantiations: radix sort of keys (1, 2, 4 or 8 bytes). The algorithm names: names.cpp.
#include <cstdint>
#include "parascan/device/device_radix_sort.cuh"

#define PARASCAN_SORT_KEYS(U)                                                                                  \
  template cudaError_t parascan::radix_sort_bits<U>(void*, std::size_t&, const U*, U*, std::int64_t,          \
                                                    parascan::key_kind, parascan::sort_options, cudaStream_t);
PARASCAN_SORT_KEYS(std::uint8_t)
PARASCAN_SORT_KEYS(std::uint16_t)
PARASCAN_SORT_KEYS(std::uint32_t)
PARASCAN_SORT_KEYS(std::uint64_t)

