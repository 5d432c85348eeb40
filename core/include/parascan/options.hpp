// Algorithm choices as values: the block-level scan and the device-wide strategy, plus their names.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include "parascan/scan_algorithms.hpp"

namespace parascan {

inline constexpr std::array<block_algorithm, 4> all_block_algorithms = {
    block_algorithm::hillis_steele, block_algorithm::blelloch_padded, block_algorithm::brent_kung,
    block_algorithm::warp_shuffle};
inline constexpr std::array<device_strategy, 3> all_device_strategies = {
    device_strategy::recursive, device_strategy::reduce_then_scan, device_strategy::single_pass};

/// Options of every device-wide scan call. The defaults are the fastest validated choice.
struct scan_options {
  block_algorithm algorithm = block_algorithm::warp_shuffle;
  device_strategy strategy = device_strategy::single_pass;
  bool debug_synchronous = false;  ///< synchronise and check after every launch (tests)
  /// single_pass only: where every tile fits on the GPU at once (2^22 4-byte items on an H100; the
  /// select's one launch keeps its tile in registers, ~2.4M 4-byte items), scan (and select) in one
  /// cooperative launch, a grid barrier in place of the status reset and the look-back
  /// (docs/performance.md entries 25, 54). false: always the reset + decoupled look-back.
  bool one_launch = true;
};

std::string_view to_string(block_algorithm a);
std::string_view to_string(device_strategy s);
std::optional<block_algorithm> parse_block_algorithm(std::string_view name);
std::optional<device_strategy> parse_device_strategy(std::string_view name);

}  // namespace parascan
