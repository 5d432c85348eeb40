// Stream compaction, stable split (partition) and expand (allocate) — host API, composed from the scan.
//
//   select_if / select_flagged      keep the items whose predicate holds / whose flag is non-zero, in
//                                   input order; the count goes to *d_num_selected (device memory, so
//                                   calls chain on a stream with no host synchronisation)
//   select_*_indices                the same, writing the kept positions (int64) instead of values
//   select_*_padded                 the same into an output of n items, the rest set to a fill value
//                                   (jnp.extract(..., size=n, fill_value=...)): a shape known before the
//                                   call, for JAX, CUDA graphs and torch.compile; one pass, out of place
//   partition_if / partition_flagged  stable split: kept items first, then the rest, both in input
//                                   order (unlike cub::DevicePartition, which reverses the rest)
//   expand_offsets                  offsets[i] = counts[0] + … + counts[i-1], and *d_total
//   expand_owners                   for every output slot j < total, the item i that owns it
//
// Two-phase temporary storage as in scan.hpp. n may exceed 2^31. The input may be the output of
// select (in place). Strategies: single_pass (default) and reduce_then_scan; recursive returns
// cudaErrorNotSupported (it needs the scanned offsets in memory).
#pragma once
#include <cuda_runtime_api.h>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include "parascan/config.hpp"
#include "parascan/options.hpp"

namespace parascan {

/// The predicates of the `compact` tool, chosen at run time: x != 0, x > v, x >= v, x < v, x <= v,
/// x == v, x != v, odd, even, finite (integers are always finite).
enum class keep_kind : int { nonzero, gt, ge, lt, le, eq, ne, odd, even, finite };
/// The rule's name as the tools and the Python module spell it ("gt", "finite", ...).
std::string_view to_string(keep_kind k);
std::optional<keep_kind> parse_keep_kind(std::string_view name);

/// keep_rule's test for one kind fixed at compile time: one comparison, where keep_rule<T> switches on
/// its kind (keep_rule::visit hands the fixed rule to a kernel's loop over items: a switch an item cost
/// the u32 select 10% at 2^28, performance.md entry 55). A kind outside keep_kind keeps nothing; odd and
/// even keep nothing of floats, finite keeps every integer.
template <class T, keep_kind K>
struct keep_rule_fixed {
  static constexpr keep_kind kind = K;
  T value{};
  PARASCAN_HD bool operator()(const T& x) const {
    if constexpr (K == keep_kind::nonzero) {
      return x != T(0);
    } else if constexpr (K == keep_kind::gt) {
      return x > value;
    } else if constexpr (K == keep_kind::ge) {
      return x >= value;
    } else if constexpr (K == keep_kind::lt) {
      return x < value;
    } else if constexpr (K == keep_kind::le) {
      return x <= value;
    } else if constexpr (K == keep_kind::eq) {
      return x == value;
    } else if constexpr (K == keep_kind::ne) {
      return x != value;
    } else if constexpr (K == keep_kind::odd || K == keep_kind::even) {
      if constexpr (std::is_integral_v<T>) return ((x & T(1)) != 0) == (K == keep_kind::odd);
      else return false;  // refused for floats by the tools
    } else if constexpr (K == keep_kind::finite) {
      if constexpr (std::is_floating_point_v<T>) {
#if defined(__CUDA_ARCH__)
        return isfinite(x);
#else
        return std::isfinite(x);
#endif
      } else {
        return true;
      }
    } else {
      return false;
    }
  }
};

/// A keep rule chosen at run time (the tools' --keep, Python's keep=): `kind` applied with `value`.
template <class T>
struct keep_rule {
  keep_kind kind = keep_kind::nonzero;
  T value{};
  /// f(keep_rule_fixed<T, kind>{value}): the kind taken once, outside a loop over items.
  template <class F>
  PARASCAN_HD auto visit(F&& f) const {
    switch (kind) {
      case keep_kind::nonzero: return f(keep_rule_fixed<T, keep_kind::nonzero>{value});
      case keep_kind::gt: return f(keep_rule_fixed<T, keep_kind::gt>{value});
      case keep_kind::ge: return f(keep_rule_fixed<T, keep_kind::ge>{value});
      case keep_kind::lt: return f(keep_rule_fixed<T, keep_kind::lt>{value});
      case keep_kind::le: return f(keep_rule_fixed<T, keep_kind::le>{value});
      case keep_kind::eq: return f(keep_rule_fixed<T, keep_kind::eq>{value});
      case keep_kind::ne: return f(keep_rule_fixed<T, keep_kind::ne>{value});
      case keep_kind::odd: return f(keep_rule_fixed<T, keep_kind::odd>{value});
      case keep_kind::even: return f(keep_rule_fixed<T, keep_kind::even>{value});
      case keep_kind::finite: return f(keep_rule_fixed<T, keep_kind::finite>{value});
    }
    return f(keep_rule_fixed<T, static_cast<keep_kind>(-1)>{value});  // no such kind: keeps nothing
  }
  PARASCAN_HD bool operator()(const T& x) const {
    return visit([&x](const auto& fixed) { return fixed(x); });
  }
};

template <class T, class Pred>
cudaError_t select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                      std::int64_t n, Pred pred, cudaStream_t stream = 0, scan_options options = {});
template <class T, class Flag>
cudaError_t select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const Flag* d_flags, T* d_out,
                           std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream = 0,
                           scan_options options = {});
/// select_if / select_flagged whose d_out holds n items: the *d_num_selected kept ones in input order,
/// then `fill` to the end. d_out must not alias d_in (cudaErrorInvalidValue).
template <class T, class Pred>
cudaError_t select_if_padded(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out,
                             std::int64_t* d_num_selected, std::int64_t n, Pred pred, T fill, cudaStream_t stream = 0,
                             scan_options options = {});
template <class T, class Flag>
cudaError_t select_flagged_padded(void* d_temp, std::size_t& temp_bytes, const T* d_in, const Flag* d_flags, T* d_out,
                                  std::int64_t* d_num_selected, std::int64_t n, T fill, cudaStream_t stream = 0,
                                  scan_options options = {});
template <class T, class Pred>
cudaError_t select_if_indices(void* d_temp, std::size_t& temp_bytes, const T* d_in, std::int64_t* d_out,
                              std::int64_t* d_num_selected, std::int64_t n, Pred pred, cudaStream_t stream = 0,
                              scan_options options = {});
template <class Flag>
cudaError_t select_flagged_indices(void* d_temp, std::size_t& temp_bytes, const Flag* d_flags, std::int64_t* d_out,
                                   std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream = 0,
                                   scan_options options = {});

/// Stable split. d_out must not alias d_in. *d_num_selected is where the second part starts.
template <class T, class Pred>
cudaError_t partition_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                         std::int64_t n, Pred pred, cudaStream_t stream = 0, scan_options options = {});
template <class T, class Flag>
cudaError_t partition_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const Flag* d_flags, T* d_out,
                              std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream = 0,
                              scan_options options = {});

/// offsets[i] = Σ_{j<i} counts[j] (exclusive sum in Offset), *d_total = Σ counts. Counts must be ≥ 0.
template <class Count, class Offset>
cudaError_t expand_offsets(void* d_temp, std::size_t& temp_bytes, const Count* d_counts, Offset* d_offsets,
                           Offset* d_total, std::int64_t n, cudaStream_t stream = 0, scan_options options = {});
/// owners[j] = the i with offsets[i] ≤ j < offsets[i] + counts[i], for j < total (scatter each
/// non-empty item's index to its first slot, then an inclusive max-scan fills the rest).
template <class Count, class Offset, class Owner>
cudaError_t expand_owners(void* d_temp, std::size_t& temp_bytes, const Count* d_counts, const Offset* d_offsets,
                          std::int64_t n, Owner* d_owners, std::int64_t total, cudaStream_t stream = 0,
                          scan_options options = {});

}  // namespace parascan
