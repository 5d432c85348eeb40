// How a CUB reference is handed its item count, and which CUB it is.
//
// CUB picks its offset type from the count's type: an `int` count runs with 32-bit offsets, an
// std::int64_t count with 64-bit ones, and its speed depends on which (H100, CUB 3.0.1: SortKeys of
// u32 at 2^28 takes 6.40 ms with `int`, 5.53 ms with int64_t; SortPairs is faster with `int`; issue
// 34, docs/performance.md entry 31). A user picks the faster, so every ratio to CUB that parascan
// reports divides by the faster of the two, both timed in the same process (timing.hpp's
// time_cub_both); validation itself may use either.
#pragma once
#include <climits>
#include <cstdint>
#include <string>

namespace parascan::validation {

enum class cub_count : int {
  int32,  ///< an `int` count (32-bit offsets) where n ≤ INT_MAX; beyond, the only form CUB takes, int64
  int64,  ///< an std::int64_t count (64-bit offsets)
};
inline constexpr cub_count all_cub_counts[] = {cub_count::int32, cub_count::int64};

inline const char* to_string(cub_count c) { return c == cub_count::int32 ? "int" : "int64"; }

/// Calls f with n as the type `count` names (an std::int64_t where n does not fit an `int`).
template <class F>
auto with_cub_count(std::int64_t n, cub_count count, F&& f) {
  return count == cub_count::int32 && n <= INT_MAX ? f(static_cast<int>(n)) : f(n);
}

/// "CUB 3.0.1 (CCCL 3.0.1)": the CUB headers parascan::validation was compiled with
/// (PARASCAN_CUB_INCLUDE may point them at a newer release than the toolkit's).
std::string cub_version();

}  // namespace parascan::validation
