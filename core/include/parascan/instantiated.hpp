// Which (input, output, operator) combinations the compiled library provides: the lists of
// scan_combinations.hpp, which core/src/*.cu instantiate.
// Tools consult this before calling, so an unsupported combination is a clear error, not a link error.
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/ops.hpp"
#include "parascan/scan_combinations.hpp"

namespace parascan {

namespace detail {
/// The combination (In, Out, Op) is one of a list's entries.
#define PARASCAN_IS_ENTRY(In_, Out_, Op_) \
  || (std::is_same_v<In, In_> && std::is_same_v<Out, Out_> && std::is_same_v<Op, Op_>)
template <class In, class Out, class Op>
inline constexpr bool in_scan_list = false PARASCAN_ALL_SCANS(PARASCAN_IS_ENTRY);
template <class In, class Out, class Op>
inline constexpr bool in_segmented_list = false PARASCAN_ALL_SEGMENTED_SCANS(PARASCAN_IS_ENTRY);
template <class In, class Out, class Op>
inline constexpr bool in_axis_list = false PARASCAN_ALL_AXIS_SCANS(PARASCAN_IS_ENTRY);
#undef PARASCAN_IS_ENTRY
}  // namespace detail

/// exclusive_scan / inclusive_scan / inclusive_scan_init are instantiated for (In, Out, Op).
template <class In, class Out, class Op>
inline constexpr bool has_scan = detail::in_scan_list<In, Out, Op>;

/// segmented_*_scan are instantiated for (In, Out, Op).
template <class In, class Out, class Op>
inline constexpr bool has_segmented_scan = detail::in_segmented_list<In, Out, Op>;

/// inclusive_scan_axis / inclusive_scan_axis_init / exclusive_scan_axis are instantiated for (In, Out, Op).
template <class In, class Out, class Op>
inline constexpr bool has_axis_scan = detail::in_axis_list<In, Out, Op>;

}  // namespace parascan
