// The one comparison module: integers (and min/max, bitwise, user operators) exactly; float sums and
// products against the double-precision reference within the bound documented in cpu_scan.hpp.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>
#include "parascan/validation/cpu_scan.hpp"

namespace parascan::validation {

struct comparison {
  std::int64_t checked = 0;
  std::int64_t mismatches = 0;
  std::int64_t first_mismatch = -1;
  std::string detail;  // the first mismatch: index, got, expected
  double max_error_over_bound = 0;  // floats: the worst |got − ref| / bound seen (≤ 1 passes)
  bool ok() const { return mismatches == 0; }
};

template <class T>
std::string show(const T& v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) {
    s.precision(17);
    s << v;
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
    s << static_cast<int>(v);
  } else if constexpr (std::is_arithmetic_v<T>) {
    s << v;
  } else {
    s << "<" << sizeof(T) << "-byte value>";
  }
  return s.str();
}

/// Bitwise-equal comparison (for floats NaN == NaN with the same bits; +0 and −0 differ).
template <class T>
comparison compare_exact(const T* got, const T* expected, std::int64_t n) {
  comparison c;
  c.checked = n;
  for (std::int64_t i = 0; i < n; ++i) {
    if (std::memcmp(&got[i], &expected[i], sizeof(T)) != 0) {
      if (c.mismatches++ == 0) {
        c.first_mismatch = i;
        c.detail = "index " + std::to_string(i) + ": got " + show(got[i]) + ", expected " + show(expected[i]);
      }
    }
  }
  return c;
}

template <class T>
comparison compare_within_bound(const T* got, const double* ref, const double* bound, std::int64_t n) {
  comparison c;
  c.checked = n;
  for (std::int64_t i = 0; i < n; ++i) {
    const double err = std::fabs(static_cast<double>(got[i]) - ref[i]);
    const double ratio = bound[i] > 0 ? err / bound[i] : (err == 0 ? 0 : INFINITY);
    if (!(ratio <= 1.0)) {  // also catches NaN
      if (c.mismatches++ == 0) {
        c.first_mismatch = i;
        std::ostringstream s;
        s.precision(17);
        s << "index " << i << ": got " << got[i] << ", expected " << ref[i] << " ± " << bound[i];
        c.detail = s.str();
      }
    } else if (ratio > c.max_error_over_bound) {
      c.max_error_over_bound = ratio;
    }
  }
  return c;
}

template <class Out, class Op>
inline constexpr bool uses_float_bound =
    std::is_floating_point_v<Out> && (std::is_same_v<Op, parascan::sum> || std::is_same_v<Op, parascan::product>);

/// The CPU reference of one scan, computed once and compared against many outputs.
template <class In, class Out, class Op>
class scan_reference {
 public:
  scan_reference(const In* in, std::int64_t n, Op op, const scan_spec<Out>& spec) : n_(n) {
    if constexpr (uses_float_bound<Out, Op>) {
      cpu_scan_double(in, n, op, spec, ref_double_, bound_);
    } else {
      ref_.resize(static_cast<std::size_t>(n));
      cpu_scan(in, ref_.data(), n, op, spec);
    }
  }
  comparison compare(const Out* got) const {
    if constexpr (uses_float_bound<Out, Op>) return compare_within_bound(got, ref_double_.data(), bound_.data(), n_);
    else return compare_exact(got, ref_.data(), n_);
  }
  /// Compare with another implementation's output (CUB): exactly, or both within the float bound.
  comparison compare_with_other(const Out* got, const Out* other) const {
    if constexpr (uses_float_bound<Out, Op>) {
      comparison theirs = compare(other);
      if (!theirs.ok()) theirs.detail = "the other implementation is itself outside the bound: " + theirs.detail;
      comparison mine = compare(got);
      return mine.ok() ? theirs : mine;
    } else {
      return compare_exact(got, other, n_);
    }
  }

 private:
  std::int64_t n_;
  std::vector<Out> ref_;
  std::vector<double> ref_double_, bound_;
};

/// Check a scan's output against the CPU reference for the same input and spec.
template <class In, class Out, class Op>
comparison check_scan(const In* in, const Out* got, std::int64_t n, Op op, const scan_spec<Out>& spec) {
  return scan_reference<In, Out, Op>(in, n, op, spec).compare(got);
}

/// Compare against another implementation's output (CUB): exact, or both within the float bound.
template <class In, class Out, class Op>
comparison check_against(const In* in, const Out* got, const Out* other, std::int64_t n, Op op,
                         const scan_spec<Out>& spec) {
  return scan_reference<In, Out, Op>(in, n, op, spec).compare_with_other(got, other);
}

}  // namespace parascan::validation
