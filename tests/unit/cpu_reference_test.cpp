// Host-only: the CPU references, the comparison module and the operators' identities.
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>
#include "parascan/sat.hpp"
#include "parascan/ops.hpp"
#include "parascan/validation/compare.hpp"
#include "parascan/validation/cpu_scan.hpp"
#include "parascan/validation/inputs.hpp"

using namespace parascan;
using namespace parascan::validation;

TEST(cpu_scan, gpu_gems_example) {
  // GPU Gems 3 ch. 39, figure 39-1's input.
  const std::vector<int> in = {3, 1, 7, 0, 4, 1, 6, 3};
  std::vector<int> out(in.size());
  scan_spec<int> ex;
  ex.init = 0;
  cpu_scan(in.data(), out.data(), 8, sum{}, ex);
  EXPECT_EQ(out, (std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22}));
  scan_spec<int> inc;
  inc.exclusive = false;
  inc.has_init = false;
  cpu_scan(in.data(), out.data(), 8, sum{}, inc);
  EXPECT_EQ(out, (std::vector<int>{3, 4, 11, 11, 15, 16, 22, 25}));
  inc.has_init = true;
  inc.init = 100;
  cpu_scan(in.data(), out.data(), 8, sum{}, inc);
  EXPECT_EQ(out.back(), 125);
}

TEST(cpu_scan, segmented_restarts_at_heads_with_init) {
  const std::vector<int> in = {1, 2, 3, 4, 5, 6};
  const std::vector<std::uint8_t> heads = {0, 0, 7, 0, 1, 0};  // any non-zero byte is a head
  std::vector<int> out(6);
  scan_spec<int> ex;
  ex.init = 10;
  ex.heads = heads.data();
  cpu_scan(in.data(), out.data(), 6, sum{}, ex);
  EXPECT_EQ(out, (std::vector<int>{10, 11, 10, 13, 10, 15}));
  scan_spec<int> inc;
  inc.exclusive = false;
  inc.has_init = false;
  inc.heads = heads.data();
  cpu_scan(in.data(), out.data(), 6, sum{}, inc);
  EXPECT_EQ(out, (std::vector<int>{1, 3, 3, 7, 5, 11}));
}

TEST(cpu_scan, widening_and_wrapping) {
  const std::vector<std::uint8_t> flags(300, 1);
  std::vector<std::uint32_t> offsets(300);
  scan_spec<std::uint32_t> ex;
  ex.init = 0;
  cpu_scan(flags.data(), offsets.data(), 300, sum{}, ex);
  EXPECT_EQ(offsets.back(), 299u);  // the accumulator is wider than the flag
  const std::vector<std::int8_t> big = {127, 1};
  std::vector<std::int8_t> wrapped(2);
  scan_spec<std::int8_t> inc;
  inc.exclusive = false;
  inc.has_init = false;
  cpu_scan(big.data(), wrapped.data(), 2, sum{}, inc);
  EXPECT_EQ(wrapped[1], -128);  // defined two's-complement wrap, as on the GPU
}

TEST(ops, identities) {
  EXPECT_EQ((identity_of<sum, int>()), 0);
  EXPECT_EQ((identity_of<product, int>()), 1);
  EXPECT_EQ((identity_of<min_op, std::uint8_t>()), 255);
  EXPECT_EQ((identity_of<max_op, std::int16_t>()), -32768);
  EXPECT_EQ((identity_of<bit_and, std::uint32_t>()), 0xffffffffu);
  EXPECT_TRUE(std::isinf(identity_of<min_op, float>()));
  EXPECT_EQ((product{}(std::uint16_t(300), std::uint16_t(300))), std::uint16_t(90000 % 65536));
}

TEST(compare, exact_reports_the_first_mismatch) {
  const std::vector<std::uint32_t> a = {1, 2, 3, 4}, b = {1, 2, 9, 5};
  const auto c = compare_exact(a.data(), b.data(), 4);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.first_mismatch, 2);
  EXPECT_NE(c.detail.find("got 3, expected 9"), std::string::npos);
  EXPECT_TRUE(compare_exact(a.data(), a.data(), 4).ok());
}

TEST(compare, float_sum_bound_accepts_rounding_and_rejects_errors) {
  const auto in = make_input<float, sum>(100000, distribution::random, 42);
  scan_spec<float> spec;
  spec.init = 0.f;
  std::vector<float> seq(in.size());
  cpu_scan(in.data(), seq.data(), static_cast<std::int64_t>(in.size()), sum{}, spec);  // float, sequential order
  EXPECT_TRUE(check_scan(in.data(), seq.data(), static_cast<std::int64_t>(in.size()), sum{}, spec).ok());
  auto bad = seq;
  bad[5000] += 1.0f;  // far outside (64 + 5)·ε·Σ|x| ≈ 0.02 at i = 5000
  EXPECT_FALSE(check_scan(in.data(), bad.data(), static_cast<std::int64_t>(in.size()), sum{}, spec).ok());
  bad = seq;
  bad[10] += 1e-3f;  // the bound is about 4e-5 there
  EXPECT_FALSE(check_scan(in.data(), bad.data(), static_cast<std::int64_t>(in.size()), sum{}, spec).ok());
  bad = seq;
  bad[7] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(check_scan(in.data(), bad.data(), static_cast<std::int64_t>(in.size()), sum{}, spec).ok());
}

TEST(inputs, never_all_zero_and_seeded) {
  const auto a = make_input<std::uint8_t, sum>(1000, distribution::random, 7);
  const auto b = make_input<std::uint8_t, sum>(1000, distribution::random, 7);
  EXPECT_EQ(a, b);
  int nonzero = 0;
  for (auto x : a) nonzero += x != 0;
  EXPECT_GT(nonzero, 900);
  for (auto x : make_input<std::int32_t, sum>(100, distribution::constant, 1)) EXPECT_NE(x, 0);
}

TEST(sat_host, automatic_algorithm_follows_the_measured_crossover) {
  using parascan::sat_algorithm;
  using parascan::resolve_sat_algorithm;
  // 8192² has 64 × 128 = 8192 tiles: single pass; 4096² (2048 tiles) three passes, unless 64-bit sums.
  EXPECT_EQ(resolve_sat_algorithm(sat_algorithm::automatic, {8192, 8192}, 1, 4), sat_algorithm::single_pass);
  EXPECT_EQ(resolve_sat_algorithm(sat_algorithm::automatic, {4096, 4096}, 1, 4), sat_algorithm::three_pass);
  EXPECT_EQ(resolve_sat_algorithm(sat_algorithm::automatic, {4096, 4096}, 1, 8), sat_algorithm::single_pass);
  EXPECT_EQ(resolve_sat_algorithm(sat_algorithm::automatic, {16384, 16384}, 2, 8), sat_algorithm::three_pass);
  EXPECT_EQ(resolve_sat_algorithm(sat_algorithm::three_pass, {16384, 16384}, 1, 4), sat_algorithm::three_pass);
  EXPECT_EQ(resolve_sat_algorithm(sat_algorithm::single_pass, {10, 10}, 4, 4), sat_algorithm::single_pass);
}
