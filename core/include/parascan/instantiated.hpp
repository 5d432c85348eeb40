// Which (input, output, operator) combinations the compiled library provides (core/src/*.cu).
// Tools consult this before calling, so an unsupported combination is a clear error, not a link error.
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/ops.hpp"

namespace parascan {

template <class Op>
inline constexpr bool is_bitwise_op =
    std::is_same_v<Op, bit_and> || std::is_same_v<Op, bit_or> || std::is_same_v<Op, bit_xor>;

/// Widening sums: (In, Out) pairs whose sum is instantiated besides the same-type scans.
template <class In, class Out>
inline constexpr bool is_widening_pair =
    (std::is_same_v<In, std::uint8_t> && (std::is_same_v<Out, std::uint32_t> || std::is_same_v<Out, std::uint64_t>)) ||
    (std::is_same_v<In, std::int8_t> && std::is_same_v<Out, std::int32_t>) ||
    (std::is_same_v<In, std::uint16_t> && std::is_same_v<Out, std::uint32_t>) ||
    (std::is_same_v<In, std::int16_t> && std::is_same_v<Out, std::int32_t>) ||
    (std::is_same_v<In, std::uint32_t> && std::is_same_v<Out, std::uint64_t>) ||
    (std::is_same_v<In, std::int32_t> && std::is_same_v<Out, std::int64_t>) ||
    (std::is_same_v<In, float> && std::is_same_v<Out, double>);

/// exclusive_scan / inclusive_scan / inclusive_scan_init are instantiated for (In, Out, Op).
template <class In, class Out, class Op>
inline constexpr bool has_scan =
    std::is_same_v<In, Out> ? !(std::is_floating_point_v<Out> && is_bitwise_op<Op>)
                            : (is_widening_pair<In, Out> && std::is_same_v<Op, sum>);

/// segmented_*_scan are instantiated for (In, Out, Op).
template <class In, class Out, class Op>
inline constexpr bool has_segmented_scan =
    (std::is_same_v<In, Out> && std::is_same_v<Op, sum>) ||
    (std::is_same_v<In, std::uint8_t> && std::is_same_v<Out, std::uint32_t> && std::is_same_v<Op, sum>) ||
    ((std::is_same_v<In, std::int32_t> && std::is_same_v<Out, std::int32_t>) &&
     (std::is_same_v<Op, max_op> || std::is_same_v<Op, min_op>)) ||
    (std::is_same_v<In, float> && std::is_same_v<Out, float> && std::is_same_v<Op, max_op>);

}  // namespace parascan
