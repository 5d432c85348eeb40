// Explicit instantiations: radix sort of keys (1, 2, 4 or 8 bytes), and the algorithm names.
#include <cstdint>
#include "parascan/device/device_radix_sort.cuh"

#define PARASCAN_SORT_KEYS(U)                                                                                  \
  template cudaError_t parascan::radix_sort_bits<U>(void*, std::size_t&, const U*, U*, std::int64_t,          \
                                                    parascan::key_kind, parascan::sort_options, cudaStream_t);
PARASCAN_SORT_KEYS(std::uint8_t)
PARASCAN_SORT_KEYS(std::uint16_t)
PARASCAN_SORT_KEYS(std::uint32_t)
PARASCAN_SORT_KEYS(std::uint64_t)

namespace parascan {
std::string_view to_string(sort_algorithm a) {
  switch (a) {
    case sort_algorithm::split1: return "split1";
    case sort_algorithm::split4: return "split4";
    case sort_algorithm::split8: return "split8";
    case sort_algorithm::onesweep: return "onesweep";
  }
  return "?";
}
std::optional<sort_algorithm> parse_sort_algorithm(std::string_view name) {
  for (auto a : {sort_algorithm::split1, sort_algorithm::split4, sort_algorithm::split8, sort_algorithm::onesweep})
    if (to_string(a) == name) return a;
  return std::nullopt;
}
}  // namespace parascan
