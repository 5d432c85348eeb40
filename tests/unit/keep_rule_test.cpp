// keep_rule<T> kind by kind (host): what each kind keeps, written out here independently of
// keep_rule_fixed, over edge values (NaN, ±inf, ±0, the rule's value and its neighbours, the type's
// limits), and that visit hands over the kind it holds. The GPU kernels take the same fixed rules
// (tests/gpu_select_test.cu: every_keep_kind_on_float_and_int32).
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "parascan/select.hpp"

namespace {
using namespace parascan;

const keep_kind every_kind[] = {keep_kind::nonzero, keep_kind::gt, keep_kind::ge,  keep_kind::lt,   keep_kind::le,
                                keep_kind::eq,      keep_kind::ne, keep_kind::odd, keep_kind::even, keep_kind::finite};

/// What the tools document for each kind (README, compact --keep), spelled out case by case.
template <class T>
bool expected(keep_kind k, T x, T v) {
  const bool nan = x != x, unordered = nan || v != v;  // every comparison with a NaN is false
  switch (k) {
    case keep_kind::nonzero: return nan || !(x == T(0));
    case keep_kind::gt: return !unordered && !(x <= v);
    case keep_kind::ge: return !unordered && !(x < v);
    case keep_kind::lt: return !unordered && !(x >= v);
    case keep_kind::le: return !unordered && !(x > v);
    case keep_kind::eq: return !unordered && !(x < v) && !(x > v);
    case keep_kind::ne: return unordered || x < v || x > v;
    case keep_kind::odd:
    case keep_kind::even:
      if constexpr (std::numeric_limits<T>::is_integer) {
        const bool odd = static_cast<std::uint64_t>(static_cast<std::int64_t>(x)) % 2 == 1;
        return odd == (k == keep_kind::odd);
      } else {
        return false;
      }
    case keep_kind::finite:
      if constexpr (std::numeric_limits<T>::is_integer) return true;
      else return !nan && x != std::numeric_limits<T>::infinity() && x != -std::numeric_limits<T>::infinity();
  }
  return false;
}

template <class T>
std::vector<T> edge_values(T v) {
  using L = std::numeric_limits<T>;
  std::vector<T> xs = {T(0), T(1), T(2), T(3), v, L::lowest(), L::max(), L::min()};
  if (v != L::lowest()) xs.push_back(static_cast<T>(v - T(1)));
  if (v != L::max()) xs.push_back(static_cast<T>(v + T(1)));
  if constexpr (!L::is_integer) {
    xs.insert(xs.end(), {-T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::denorm_min(),
                         std::nextafter(v, T(-INFINITY)), std::nextafter(v, T(INFINITY)), T(-1.5), T(0.5)});
  } else if constexpr (L::is_signed) {
    xs.insert(xs.end(), {T(-1), T(-2), T(-3)});
  }
  return xs;
}

template <class T>
void check_type(const char* name) {
  using L = std::numeric_limits<T>;
  std::vector<T> values = {T(0), T(1), T(2), L::max(), L::lowest()};
  if constexpr (!L::is_integer) values.insert(values.end(), {T(0.5), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN()});
  else if constexpr (L::is_signed) values.push_back(T(-2));
  for (keep_kind k : every_kind) {
    for (T v : values) {
      const keep_rule<T> rule{k, v};
      const auto held = rule.visit([v](const auto& fixed) {
        return std::make_pair(std::decay_t<decltype(fixed)>::kind, std::memcmp(&fixed.value, &v, sizeof v) == 0);
      });
      EXPECT_EQ(held.first, k) << name << ": visit hands over the kind held";
      EXPECT_TRUE(held.second) << name << ": visit hands over the value held";
      for (T x : edge_values(v)) {
        EXPECT_EQ(rule(x), expected(k, x, v)) << name << " " << to_string(k) << " value " << +v << " item " << +x;
      }
    }
  }
  const keep_rule<T> none{static_cast<keep_kind>(99), T(0)};
  for (T x : edge_values(T(0))) EXPECT_FALSE(none(x)) << name << ": a kind outside keep_kind keeps nothing";
}

TEST(keep_rule, every_kind_on_edge_values) {
  check_type<std::int8_t>("i8");
  check_type<std::uint8_t>("u8");
  check_type<std::int16_t>("i16");
  check_type<std::uint16_t>("u16");
  check_type<std::int32_t>("i32");
  check_type<std::uint32_t>("u32");
  check_type<std::int64_t>("i64");
  check_type<std::uint64_t>("u64");
  check_type<float>("f32");
  check_type<double>("f64");
}

}  // namespace
