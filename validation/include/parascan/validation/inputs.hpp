// Seeded test inputs: random values suited to each operator, and non-zero constants. Never all zeros.
#pragma once
#include <cstdint>
#include <limits>
#include <random>
#include <string_view>
#include <type_traits>
#include <vector>
#include "parascan/ops.hpp"

namespace parascan::validation {

enum class distribution { random, constant, small_range };
inline std::string_view to_string(distribution d) {
  return d == distribution::random ? "random" : d == distribution::constant ? "constant" : "small";
}

/// n values of T: `random` spans the type's range for integers (wrap-around is defined for every
/// operator) and [-1, 1) for floats; products of floats stay near 1 so they neither overflow nor
/// vanish; `constant` repeats a non-zero value (products: one that cannot overflow); `small_range` draws from 1..4 (many ties for min/max).
template <class T, class Op>
std::vector<T> make_input(std::int64_t n, distribution d, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::mt19937_64 rng(seed);
  constexpr bool is_product = std::is_same_v<Op, parascan::product>;
  if (d == distribution::constant) {
    // Float products: c^n must stay finite for n up to 2^24 (1.000001^(2^24) ≈ e^16.8).
    const T c = std::is_floating_point_v<T> ? static_cast<T>(is_product ? 1.000001 : 0.75) : static_cast<T>(3);
    for (auto& x : v) x = c;
    return v;
  }
  if (d == distribution::small_range) {
    std::uniform_int_distribution<int> u(1, 4);
    for (auto& x : v) x = static_cast<T>(u(rng));
    return v;
  }
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> u(is_product ? 0.999 : -1.0, is_product ? 1.001 : 1.0);
    for (auto& x : v) x = static_cast<T>(u(rng));
  } else {
    using wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    std::uniform_int_distribution<wide> u(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    for (auto& x : v) x = static_cast<T>(u(rng));
  }
  return v;
}

/// Head flags with about one head per `mean_segment` items, random non-zero byte values.
inline std::vector<std::uint8_t> make_heads(std::int64_t n, int mean_segment, std::uint64_t seed) {
  std::vector<std::uint8_t> h(static_cast<std::size_t>(n));
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::uniform_int_distribution<int> u(0, mean_segment - 1), b(1, 255);
  for (auto& x : h) x = u(rng) == 0 ? static_cast<std::uint8_t>(b(rng)) : 0;
  return h;
}

}  // namespace parascan::validation
