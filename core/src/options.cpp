// Names of the algorithm choices, for the command line and reports.
#include "parascan/options.hpp"

namespace parascan {

std::string_view to_string(block_algorithm a) {
  switch (a) {
    case block_algorithm::hillis_steele: return "hillis_steele";
    case block_algorithm::blelloch_padded: return "blelloch_padded";
    case block_algorithm::brent_kung: return "brent_kung";
    case block_algorithm::warp_shuffle: return "warp_shuffle";
  }
  return "?";
}

std::string_view to_string(device_strategy s) {
  switch (s) {
    case device_strategy::recursive: return "recursive";
    case device_strategy::reduce_then_scan: return "reduce_then_scan";
    case device_strategy::single_pass: return "single_pass";
  }
  return "?";
}

std::optional<block_algorithm> parse_block_algorithm(std::string_view name) {
  for (auto a : all_block_algorithms)
    if (to_string(a) == name) return a;
  return std::nullopt;
}

std::optional<device_strategy> parse_device_strategy(std::string_view name) {
  for (auto s : all_device_strategies)
    if (to_string(s) == name) return s;
  return std::nullopt;
}

}  // namespace parascan
