// CPU references for every scan of the core: sequential, in the output type (exact for integers and
// for min/max), and in double precision with a rounding bound for float sums and products.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>
#include "parascan/ops.hpp"

namespace parascan::validation {

/// What to compute. heads == nullptr: plain scan; otherwise segmented (non-zero byte = head).
template <class Out>
struct scan_spec {
  bool exclusive = true;
  bool has_init = true;
  Out init{};
  const std::uint8_t* heads = nullptr;
};

/// Sequential scan in the output type: out[i] per the definitions in parascan/scan.hpp.
template <class In, class Out, class Op>
void cpu_scan(const In* in, Out* out, std::int64_t n, Op op, const scan_spec<Out>& spec) {
  Out running{};
  bool valid = false;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i == 0 || (spec.heads && spec.heads[i])) {
      running = spec.init;
      valid = spec.has_init;
    }
    const Out x = static_cast<Out>(in[i]);
    const Out next = valid ? op(running, x) : x;
    out[i] = spec.exclusive ? running : next;
    running = next;
    valid = true;
  }
}

/// Double-precision reference for float sums and products, with the accepted error per element:
///   sum:     |got − ref| ≤ (64 + ⌈(i+1)/1024⌉) · ε · (|init| + Σ|x_j| over the prefix)
///   product: |got − ref| ≤ (k + 2) · ε · |ref|, k the number of factors
/// ε is the output type's machine epsilon. These are worst-case rounding bounds for any evaluation
/// order whose sequential depth is at most 64 inside a tile of ≥ 1024 items plus one per tile —
/// true of parascan's strategies and CUB's. A product's relative error is order-independent.
template <class In, class Out, class Op>
void cpu_scan_double(const In* in, std::int64_t n, Op, const scan_spec<Out>& spec, std::vector<double>& ref,
                     std::vector<double>& bound) {
  static_assert(std::is_floating_point_v<Out>);
  constexpr bool is_product = std::is_same_v<Op, parascan::product>;
  const double eps = std::numeric_limits<Out>::epsilon();
  ref.resize(n);
  bound.resize(n);
  double running = 0, mass = 0;
  std::int64_t k = 0, seg_start = 0;
  bool valid = false;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i == 0 || (spec.heads && spec.heads[i])) {
      running = static_cast<double>(spec.init);
      mass = std::fabs(running);
      valid = spec.has_init;
      k = valid ? 1 : 0;
      seg_start = i;
    }
    const double x = static_cast<double>(static_cast<Out>(in[i]));
    const double next = valid ? (is_product ? running * x : running + x) : x;
    const double next_mass = valid ? mass + std::fabs(x) : std::fabs(x);
    const double value = spec.exclusive ? running : next;
    const double m = spec.exclusive ? mass : next_mass;
    const std::int64_t factors = spec.exclusive ? k : k + 1;
    ref[i] = value;
    const std::int64_t depth = 64 + (i - seg_start + 1 + 1023) / 1024;
    bound[i] = is_product ? (factors + 2) * eps * std::fabs(value) : depth * eps * m;
    running = next;
    mass = next_mass;
    k += 1;
    valid = true;
  }
}

}  // namespace parascan::validation
