// 16-bit float keys decoded on the host by hand (not by the library's codec nor CUDA's conversions), for
// the tests' CPU references: __half (IEEE binary16) and __nv_bfloat16 (the top half of a float).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace parascan::test {

/// IEEE binary16 bits as a double, decoded by hand (the library's codec is not used).
inline double value_of_f16(std::uint16_t h) {
  const int exponent = (h >> 10) & 31, mantissa = h & 1023;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 31) return sign * std::numeric_limits<double>::infinity();  // NaNs are not generated
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}
/// bfloat16 bits are the top half of a float's.
inline double value_of_bf16(std::uint16_t h) {
  const std::uint32_t w = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &w, sizeof f);
  return f;
}

template <class Key>
double value_of(std::uint16_t h) {
  return std::is_same_v<Key, __half> ? value_of_f16(h) : value_of_bf16(h);
}

/// Random 16-bit floats (no NaNs), with ±0.0, ±inf and subnormals among them.
template <class Key>
std::vector<std::uint16_t> random_halves(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint16_t> v(static_cast<std::size_t>(n));
  const std::uint16_t exponent_mask = std::is_same_v<Key, __half> ? 0x7C00 : 0x7F80;
  for (auto& h : v) {
    const std::uint64_t r = rng();
    h = static_cast<std::uint16_t>(r);
    if ((h & exponent_mask) == exponent_mask && (h & ~exponent_mask & 0x7FFF) != 0) h &= 0xBFFF;  // NaN → finite
    if (r % 101 == 0) h = (r & 0x10000) ? 0x8000 : 0x0000;                                        // ±0.0
    if (r % 103 == 0) h = static_cast<std::uint16_t>(((r & 0x20000) ? 0x8000 : 0) | exponent_mask);  // ±inf
  }
  return v;
}

}  // namespace parascan::test
