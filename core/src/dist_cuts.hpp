// The host side of the distributed sort's search for its cuts (distributed_sort.cu), kept apart so
// that unit tests run it over simulated ranks (tests/unit/dist_cuts_test.cpp). Host code only.
//
// The output is cut at global positions bounds[1] … bounds[P−1] of the stable sorted order. Each rank
// keeps, per cut, the range [lo, hi) of its sorted shard whose compared field starts with the digits
// chosen so far (prefix), and the global count of items before that range (below, the same on every
// rank). A round looks at the next digit: each rank finds where every digit starts in its range, the
// counts are summed over ranks, and the digit holding the cut narrows the range. After the last digit
// the range holds the keys equal to the key at the cut; they are shared in rank order.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>
#include "parascan/config.hpp"

namespace parascan::dist::detail {

/// bounds[q] = the items of ranks before q after the sort: n_global / P each, the first n_global % P
/// ranks one more. bounds[P] = n_global.
inline std::vector<std::int64_t> balanced_bounds(const std::vector<std::int64_t>& n_of) {
  const auto P = static_cast<std::int64_t>(n_of.size());
  std::int64_t n = 0;
  for (auto c : n_of) n += c;
  std::vector<std::int64_t> b(static_cast<std::size_t>(P) + 1, 0);
  for (std::int64_t q = 0; q < P; ++q) b[q + 1] = b[q] + n / P + (q < n % P ? 1 : 0);
  return b;
}

struct cut_search {
  int cuts;
  std::vector<std::int64_t> lo, hi, below;
  std::vector<std::uint64_t> prefix;
  cut_search(int cuts_, std::int64_t n_local)
      : cuts(cuts_), lo(cuts_, 0), hi(cuts_, n_local), below(cuts_, 0), prefix(cuts_, 0) {}

  /// This rank's count of each digit in each cut's range, from starts[j·257 + d] (where digit d starts;
  /// d = 256: hi): what is summed over ranks.
  std::vector<std::int64_t> sizes(const std::vector<std::int64_t>& starts) const {
    std::vector<std::int64_t> s(static_cast<std::size_t>(cuts) * 256);
    for (int j = 0; j < cuts; ++j)
      for (int d = 0; d < 256; ++d) s[j * 256 + d] = starts[j * 257 + d + 1] - starts[j * 257 + d];
    return s;
  }

  /// One round of `bits` bits: global[j·256 + d] = the summed sizes. Cuts at or past n_global stay.
  void narrow(const std::vector<std::int64_t>& bounds, std::int64_t n_global, const std::vector<std::int64_t>& starts,
              const std::vector<std::int64_t>& global, int bits) {
    for (int j = 0; j < cuts; ++j) {
      const std::int64_t target = bounds[j + 1];
      if (target >= n_global) continue;
      int d = 0;
      while (d < (1 << bits) - 1 && below[j] + global[j * 256 + d] <= target) below[j] += global[j * 256 + d++];
      prefix[j] = (prefix[j] << bits) | static_cast<std::uint64_t>(d);
      lo[j] = starts[j * 257 + d];
      hi[j] = starts[j * 257 + d + 1];
    }
  }

  /// This rank's keys equal to the key at each cut (after the last round): what every rank gathers.
  std::vector<std::int64_t> ties() const {
    std::vector<std::int64_t> t(cuts);
    for (int j = 0; j < cuts; ++j) t[j] = hi[j] - lo[j];
    return t;
  }

  /// This rank's cut positions c[0 … P]: its items [c[q], c[q+1]) go to rank q. ties_all[q·cuts + j]:
  /// rank q's ties at cut j; the ties before a cut are taken in rank order (global input order).
  std::vector<std::int64_t> positions(const std::vector<std::int64_t>& bounds, std::int64_t n_global,
                                      const std::vector<std::int64_t>& ties_all, int rank, std::int64_t n_local) const {
    std::vector<std::int64_t> c(static_cast<std::size_t>(cuts) + 2, 0);
    c[cuts + 1] = n_local;
    for (int j = 0; j < cuts; ++j) {
      if (bounds[j + 1] >= n_global) {
        c[j + 1] = n_local;
        continue;
      }
      std::int64_t take = bounds[j + 1] - below[j];
      for (int q = 0; q < rank; ++q) take -= std::min(take, ties_all[static_cast<std::size_t>(q) * cuts + j]);
      c[j + 1] = lo[j] + std::min(take, hi[j] - lo[j]);
    }
    return c;
  }
};

/// The merge path of two sorted runs a (na items) and b (nb items), b after a in the global order so
/// that ties take a's first: how many of the first `diag` outputs come from a — the smallest i with
/// a[i] > b[diag − i − 1]. `le(i, j)` is a[i] ≤ b[j]. Host and device (distributed_sort.cu's merge).
template <class LessEqual>
PARASCAN_HD std::int64_t merge_path_split(std::int64_t diag, std::int64_t na, std::int64_t nb, LessEqual le) {
  std::int64_t lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::int64_t i = lo + (hi - lo) / 2;
    if (le(i, diag - i - 1)) lo = i + 1;
    else hi = i;
  }
  return lo;
}

/// One thread's part of the merge: outputs diag … diag + per − 1 (fewer at the end), from its split;
/// emit(k, from_a, index) writes output k from a[index] or b[index].
template <class LessEqual, class Emit>
PARASCAN_HD void merge_path_run(std::int64_t diag, std::int64_t per, std::int64_t na, std::int64_t nb, LessEqual le,
                                Emit emit) {
  std::int64_t i = merge_path_split(diag, na, nb, le), j = diag - i;
  const std::int64_t end = diag + per < na + nb ? diag + per : na + nb;
  for (std::int64_t k = diag; k < end; ++k) {
    const bool take_a = j >= nb || (i < na && le(i, j));
    if (take_a) emit(k, true, i++);
    else emit(k, false, j++);
  }
}

}  // namespace parascan::dist::detail
