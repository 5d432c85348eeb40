// Helpers of the radix sort's GPU tests (gpu_sort_test.cu, gpu_sort_cases_test.cu): key distributions,
// special floats, the algorithms and distributions a run checks (environment lists, for the sanitizer
// runs of scripts/sanitize_sort_tests.sh), and check_sort: every algorithm against the CPU stable sort
// and cub::DeviceRadixSort.
#pragma once
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/validation/sort_check.hpp"

namespace parascan::test {

enum class dist { uniform, few_unique, sorted, reverse, all_equal };

template <class Key>
std::vector<Key> make_keys(std::int64_t n, dist d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t r = rng();
    if (d == dist::few_unique) r %= 7;
    Key k;
    if constexpr (std::is_floating_point_v<Key>) {
      k = d == dist::few_unique ? static_cast<Key>(static_cast<double>(r) - 3.0)
                                : static_cast<Key>(std::ldexp(static_cast<double>(r >> 11) / 9007199254740992.0 - 0.5, static_cast<int>(r % 40) - 20));
    } else {
      std::memcpy(&k, &r, sizeof(k));
      if (d == dist::few_unique) k = static_cast<Key>(r);
    }
    v[static_cast<std::size_t>(i)] = k;
  }
  if (d == dist::all_equal) std::fill(v.begin(), v.end(), v.empty() ? Key{} : v[0]);
  if (d == dist::sorted || d == dist::reverse) {
    std::sort(v.begin(), v.end(), [](Key a, Key b) { return validation::cpu_order_of(a) < validation::cpu_order_of(b); });
    if (d == dist::reverse) std::reverse(v.begin(), v.end());
  }
  return v;
}

/// Special float values, each several times, in a shuffled order.
template <class F>
std::vector<F> special_floats(std::uint64_t seed, int copies = 40) {
  const F nan = std::numeric_limits<F>::quiet_NaN(), inf = std::numeric_limits<F>::infinity();
  std::vector<F> base = {F(0), -F(0), F(1), F(-1), inf, -inf, nan, -nan, std::numeric_limits<F>::denorm_min(),
                         -std::numeric_limits<F>::denorm_min(), std::numeric_limits<F>::max(),
                         std::numeric_limits<F>::lowest(), std::numeric_limits<F>::min(), F(0.5), F(-0.5)};
  std::vector<F> v;
  for (int r = 0; r < copies; ++r) v.insert(v.end(), base.begin(), base.end());
  std::mt19937_64 rng(seed);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

/// The items of the comma list in environment variable `name`, or none when it is unset or empty. The
/// sort tests read three (PARASCAN_TEST_SORT_ALGORITHMS, _DISTS, _SIZES), so that a sanitizer run can
/// take a long test apart (scripts/sanitize_sort_tests.sh): split1's 32 passes of small launches
/// dominate such a test under compute-sanitizer.
inline std::vector<std::string> env_list(const char* name) {
  std::vector<std::string> items;
  const char* env = std::getenv(name);
  std::string_view rest(env == nullptr ? "" : env);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    items.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return items;
}

/// The algorithms the tests check: all four, or those named in PARASCAN_TEST_SORT_ALGORITHMS (e.g.
/// "onesweep" or "split1,split4"). An unknown name fails the test that asked.
inline std::vector<sort_algorithm> algorithms_under_test() {
  const auto names = env_list("PARASCAN_TEST_SORT_ALGORITHMS");
  if (names.empty()) return {sort_algorithm::split1, sort_algorithm::split4, sort_algorithm::split8, sort_algorithm::onesweep};
  std::vector<sort_algorithm> chosen;
  for (const auto& name : names) {
    const auto alg = parse_sort_algorithm(name);
    if (alg) chosen.push_back(*alg);
    else ADD_FAILURE() << "PARASCAN_TEST_SORT_ALGORITHMS names no sort algorithm: '" << name << "'";
  }
  return chosen;
}

/// The options of a checked sort: `alg` over bits [begin_bit, end_bit), every launch checked at once.
inline sort_options checked_options(sort_algorithm alg, bool descending, int begin_bit = 0, int end_bit = -1) {
  sort_options o;
  o.algorithm = alg;
  o.begin_bit = begin_bit;
  o.end_bit = end_bit;
  o.descending = descending;
  o.debug_synchronous = true;
  return o;
}

/// The distributions the sizes tests sort: all five, or those named in PARASCAN_TEST_SORT_DISTS
/// (uniform, few_unique, sorted, reverse, all_equal). An unknown name fails the test that asked.
inline std::vector<dist> distributions_under_test() {
  const std::pair<std::string_view, dist> known[] = {{"uniform", dist::uniform},
                                                     {"few_unique", dist::few_unique},
                                                     {"sorted", dist::sorted},
                                                     {"reverse", dist::reverse},
                                                     {"all_equal", dist::all_equal}};
  const auto names = env_list("PARASCAN_TEST_SORT_DISTS");
  std::vector<dist> chosen;
  if (names.empty())
    for (const auto& [name, d] : known) chosen.push_back(d);
  for (const auto& name : names) {
    const auto it = std::find_if(std::begin(known), std::end(known), [&](const auto& p) { return p.first == name; });
    if (it != std::end(known)) chosen.push_back(it->second);
    else ADD_FAILURE() << "PARASCAN_TEST_SORT_DISTS names no distribution: '" << name << "'";
  }
  return chosen;
}

/// Sorts `keys` (and values when `pairs`) with every algorithm; compares keys and values bitwise
/// with the CPU stable sort and, where CUB has the types, with cub::DeviceRadixSort.
template <class Key>
void check_sort(const std::vector<Key>& keys, int begin_bit, int end_bit, bool descending, bool pairs,
                const char* what) {
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  const int end = end_bit < 0 ? static_cast<int>(8 * sizeof(Key)) : end_bit;
  const auto order = validation::cpu_sort_order(keys, begin_bit, end, descending);
  const auto want_keys = validation::permuted(keys, order);
  std::vector<std::uint32_t> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint32_t>(i * 2654435761u);
  const auto want_values = validation::permuted(values, order);
  device_buffer<Key> d_in(n), d_out(n), d_cub(n);
  device_buffer<std::uint32_t> d_vin(n), d_vout(n), d_vcub(n);
  d_in.copy_from_host(keys.data(), n);
  d_vin.copy_from_host(values.data(), n);
  for (sort_algorithm alg : algorithms_under_test()) {
    const sort_options o = checked_options(alg, descending, begin_bit, end_bit);
    d_out.poison();
    d_vout.poison();
    std::size_t bytes = 0;
    if (pairs) {
      PARASCAN_CUDA_CHECK(radix_sort_pairs(nullptr, bytes, d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), n, o));
      device_buffer<char> temp(bytes);
      temp.poison();
      PARASCAN_CUDA_CHECK(radix_sort_pairs(temp.data(), bytes, d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), n, o));
    } else {
      PARASCAN_CUDA_CHECK(radix_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, o));
      device_buffer<char> temp(bytes);
      temp.poison();
      PARASCAN_CUDA_CHECK(radix_sort_keys(temp.data(), bytes, d_in.data(), d_out.data(), n, o));
    }
    PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<Key> got(keys.size());
    d_out.copy_to_host(got.data(), n);
    std::int64_t first = -1;
    EXPECT_EQ(validation::bit_mismatches(got, want_keys, &first), 0)
        << what << " " << to_string(alg) << " n=" << n << " bits [" << begin_bit << "," << end << ") "
        << (descending ? "desc" : "asc") << ": keys differ from the CPU sort, first at " << first;
    if (pairs) {
      std::vector<std::uint32_t> gv(values.size());
      d_vout.copy_to_host(gv.data(), n);
      EXPECT_EQ(validation::bit_mismatches(gv, want_values, &first), 0)
          << what << " " << to_string(alg) << " n=" << n << ": values differ from the CPU sort, first at " << first;
    }
  }
  // CUB agrees with the CPU reference (so all three agree) — but for the ±0.0 corner it is not
  // consistent in (see radix_sort.hpp).
  if (validation::cub_zero_ambiguity<Key>(begin_bit, end, descending)) return;
  std::size_t bytes = 0;
  if (pairs) {
    PARASCAN_CUDA_CHECK(validation::cub_sort_pairs(nullptr, bytes, d_in.data(), d_cub.data(), d_vin.data(), d_vcub.data(), n,
                                                   begin_bit, end, descending));
    device_buffer<char> temp(bytes);
    PARASCAN_CUDA_CHECK(validation::cub_sort_pairs(temp.data(), bytes, d_in.data(), d_cub.data(), d_vin.data(), d_vcub.data(),
                                                   n, begin_bit, end, descending));
  } else {
    PARASCAN_CUDA_CHECK(validation::cub_sort_keys(nullptr, bytes, d_in.data(), d_cub.data(), n, begin_bit, end, descending));
    device_buffer<char> temp(bytes);
    PARASCAN_CUDA_CHECK(validation::cub_sort_keys(temp.data(), bytes, d_in.data(), d_cub.data(), n, begin_bit, end, descending));
  }
  PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<Key> cub(keys.size());
  d_cub.copy_to_host(cub.data(), n);
  std::int64_t cub_first = -1;
  EXPECT_EQ(validation::bit_mismatches(cub, want_keys, &cub_first), 0)
      << what << (descending ? " desc" : " asc") << " bits [" << begin_bit << "," << end << "): CUB differs from the CPU reference, first at "
      << cub_first << ": CUB " << (cub_first >= 0 ? static_cast<double>(cub[cub_first]) : 0.0) << ", CPU "
      << (cub_first >= 0 ? static_cast<double>(want_keys[cub_first]) : 0.0);
  if (pairs) {
    std::vector<std::uint32_t> cv(values.size());
    d_vcub.copy_to_host(cv.data(), n);
    EXPECT_EQ(validation::bit_mismatches(cv, want_values), 0) << what << ": CUB's values differ from the CPU reference";
  }
}

}  // namespace parascan::test
