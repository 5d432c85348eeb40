// GPU tests of compaction, stable split and expand: every edge case the issue lists, checked element
// by element against the CPU (std::copy_if / std::stable_partition semantics) and CUB / Thrust.
#include <algorithm>
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/select.hpp"
#include "parascan/validation/compare.hpp"
#include "parascan/validation/cub_select.hpp"
#include "parascan/validation/device_check.hpp"
#include "parascan/validation/select_check.hpp"

namespace {
using namespace parascan;
using parascan::test::gpu_test;
using parascan::test::small_sizes_only;

std::vector<std::int64_t> sizes() {
  if (small_sizes_only()) return {0, 1, 33, 1023, 1025, 2049, 5000};
  return {0, 1, 31, 32, 1023, 1024, 1025, 2047, 2048, 2049, 3071, 3072, 3073, 4095, 4096, 4097, 6143, 6144, 6145, 8191, 8192, 8193, 12287, 12288, 12289, 1337, (1 << 20) + 7, 3 * 1000003};
}

template <class T>
class select_typed : public gpu_test {
 protected:
  void check(validation::select_mode m) {
    std::mt19937_64 rng(0xc0ffee + static_cast<int>(m));
    // single_pass: the one-launch selection where every tile fits at once, and the look-back.
    const std::pair<device_strategy, bool> paths[] = {
        {device_strategy::single_pass, true}, {device_strategy::single_pass, false}, {device_strategy::reduce_then_scan, true}};
    for (const auto& [strat, one_launch] : paths) {
      for (std::int64_t n : sizes()) {
        for (auto p : validation::all_flag_patterns) {
          const auto seed = rng();
          SCOPED_TRACE("n=" + std::to_string(n) + " pattern=" + validation::to_string(p) + " seed=" +
                       std::to_string(seed) + " " + std::string(to_string(strat)) + (one_launch ? "" : " (look-back)"));
          std::vector<std::uint8_t> flags;
          std::vector<T> values;
          validation::make_select_case(n, p, seed, flags, values);
          scan_options o;
          o.strategy = strat;
          o.one_launch = one_launch;
          const auto c = validation::check_select(values, flags, m, o);
          ASSERT_TRUE(c.ok()) << c.detail;
        }
      }
    }
  }
};
using select_types = ::testing::Types<std::uint8_t, std::int16_t, std::uint32_t, float, std::int64_t, double>;
TYPED_TEST_SUITE(select_typed, select_types);
TYPED_TEST(select_typed, select_flagged) { this->check(validation::select_mode::select_flagged); }
TYPED_TEST(select_typed, select_if) { this->check(validation::select_mode::select_if); }
TYPED_TEST(select_typed, select_in_place) { this->check(validation::select_mode::select_in_place); }
TYPED_TEST(select_typed, split_flagged) { this->check(validation::select_mode::split_flagged); }
TYPED_TEST(select_typed, split_if) { this->check(validation::select_mode::split_if); }
TYPED_TEST(select_typed, indices_flagged) { this->check(validation::select_mode::indices_flagged); }
TYPED_TEST(select_typed, indices_if) { this->check(validation::select_mode::indices_if); }
TYPED_TEST(select_typed, padded_flagged) { this->check(validation::select_mode::padded_flagged); }
TYPED_TEST(select_typed, padded_if) { this->check(validation::select_mode::padded_if); }

class select_api : public gpu_test {};

TEST_F(select_api, indices_and_wide_flags) {
  const std::int64_t n = 100003;
  std::vector<std::int32_t> flags(n);
  std::vector<std::int64_t> expect;
  for (std::int64_t i = 0; i < n; ++i) {
    flags[i] = (i % 7 == 3) ? -5 : 0;  // any non-zero value of any integer type keeps
    if (flags[i]) expect.push_back(i);
  }
  device_buffer<std::int32_t> d_flags(n);
  d_flags.copy_from_host(flags.data(), n);
  device_buffer<std::int64_t> d_idx(n), d_count(1);
  d_idx.poison();
  validation::run_two_phase([&](void* t, std::size_t& b) {
    return select_flagged_indices(t, b, d_flags.data(), d_idx.data(), d_count.data(), n);
  }, 0);
  std::int64_t kept = 0;
  d_count.copy_to_host(&kept, 1);
  ASSERT_EQ(kept, static_cast<std::int64_t>(expect.size()));
  std::vector<std::int64_t> got(kept);
  d_idx.copy_to_host(got.data(), kept);
  EXPECT_EQ(got, expect);
}

TEST_F(select_api, predicate_rules_match_cub) {
  const std::int64_t n = 77777;
  std::vector<float> v(n);
  std::mt19937_64 rng(9);
  for (auto& x : v) x = static_cast<float>(std::uniform_real_distribution<double>(-2, 2)(rng));
  v[5] = INFINITY;
  v[6] = NAN;
  device_buffer<float> d_in(n), d_out(n), d_ref(n);
  device_buffer<std::int64_t> d_count(1), d_ref_count(1);
  d_in.copy_from_host(v.data(), n);
  for (auto kind : {keep_kind::gt, keep_kind::le, keep_kind::ne, keep_kind::finite, keep_kind::nonzero}) {
    keep_rule<float> rule{kind, 0.5f};
    SCOPED_TRACE(static_cast<int>(kind));
    d_out.poison();
    validation::run_two_phase([&](void* t, std::size_t& b) { return select_if(t, b, d_in.data(), d_out.data(), d_count.data(), n, rule); }, 0);
    validation::run_two_phase([&](void* t, std::size_t& b) {
      return validation::cub_select_if(t, b, d_in.data(), d_ref.data(), d_ref_count.data(), n, rule);
    }, 0);
    std::int64_t k = 0, rk = 0;
    d_count.copy_to_host(&k, 1);
    d_ref_count.copy_to_host(&rk, 1);
    ASSERT_EQ(k, rk);
    std::vector<float> a(k), b(k);
    d_out.copy_to_host(a.data(), k);
    d_ref.copy_to_host(b.data(), k);
    EXPECT_TRUE(validation::compare_exact(a.data(), b.data(), k).ok());
  }
}

/// Every keep kind through the kernels that fix it at compile time (keep_rule::visit): the one launch
/// (77777 items) and the look-back past the one launch's capacity (2^22 + 3 items: the shared-memory
/// kernel for 4-byte values), select, partition and positions, against the CPU (keep_rule on the host,
/// whose kinds tests/unit/keep_rule_test.cpp checks one by one). NaN, ±inf, ±0 and the rule's value
/// appear among the items.
template <class T>
void check_every_keep_kind(T value, std::vector<keep_kind> kinds) {
  for (std::int64_t n : {std::int64_t(77777), (std::int64_t(1) << 22) + 3}) {
    std::vector<T> v(n);
    std::mt19937_64 rng(n);
    for (auto& x : v) {
      if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(std::uniform_real_distribution<double>(-4, 4)(rng));
      else x = static_cast<T>(static_cast<std::int64_t>(rng() % 9) - 4);
    }
    for (std::int64_t i = 0; i < n; i += 97) v[i] = value;
    for (std::int64_t i = 13; i < n; i += 101) v[i] = T(0);
    if constexpr (std::is_floating_point_v<T>) {
      for (std::int64_t i = 7; i < n; i += 89) v[i] = NAN;
      for (std::int64_t i = 3; i < n; i += 83) v[i] = (i & 1) ? INFINITY : -INFINITY;
      for (std::int64_t i = 5; i < n; i += 79) v[i] = -0.0f;
    }
    device_buffer<T> d_in(n), d_out(n);
    device_buffer<std::int64_t> d_count(1), d_idx(n);
    d_in.copy_from_host(v.data(), n);
    for (keep_kind kind : kinds) {
      const keep_rule<T> rule{kind, value};
      SCOPED_TRACE(std::string(to_string(kind)) + " n=" + std::to_string(n));
      std::vector<T> want, rest;
      std::vector<std::int64_t> want_idx;
      for (std::int64_t i = 0; i < n; ++i) {
        const bool kept = rule(v[i]);
        (kept ? want : rest).push_back(v[i]);
        if (kept) want_idx.push_back(i);
      }
      ASSERT_GT(want.size(), 0u);
      const auto count = [&] {
        std::int64_t k = -1;
        d_count.copy_to_host(&k, 1);
        return k;
      };
      d_out.poison();
      validation::run_two_phase([&](void* t, std::size_t& b) { return select_if(t, b, d_in.data(), d_out.data(), d_count.data(), n, rule); }, 0);
      ASSERT_EQ(count(), static_cast<std::int64_t>(want.size()));
      std::vector<T> got(n);
      d_out.copy_to_host(got.data(), n);
      EXPECT_TRUE(validation::compare_exact(got.data(), want.data(), static_cast<std::int64_t>(want.size())).ok()) << "select";
      d_out.poison();
      validation::run_two_phase([&](void* t, std::size_t& b) { return partition_if(t, b, d_in.data(), d_out.data(), d_count.data(), n, rule); }, 0);
      ASSERT_EQ(count(), static_cast<std::int64_t>(want.size()));
      d_out.copy_to_host(got.data(), n);
      want.insert(want.end(), rest.begin(), rest.end());
      EXPECT_TRUE(validation::compare_exact(got.data(), want.data(), n).ok()) << "partition";
      d_idx.poison();
      validation::run_two_phase([&](void* t, std::size_t& b) { return select_if_indices(t, b, d_in.data(), d_idx.data(), d_count.data(), n, rule); }, 0);
      ASSERT_EQ(count(), static_cast<std::int64_t>(want_idx.size()));
      std::vector<std::int64_t> got_idx(want_idx.size());
      d_idx.copy_to_host(got_idx.data(), got_idx.size());
      EXPECT_EQ(got_idx, want_idx) << "positions";
    }
  }
}

TEST_F(select_api, every_keep_kind_on_float_and_int32) {
  using K = keep_kind;
  check_every_keep_kind<float>(0.5f, {K::nonzero, K::gt, K::ge, K::lt, K::le, K::eq, K::ne, K::finite});
  check_every_keep_kind<std::int32_t>(-2, {K::nonzero, K::gt, K::ge, K::lt, K::le, K::eq, K::ne, K::odd, K::even, K::finite});
}

TEST_F(select_api, expand_offsets_and_owners) {
  for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(4097), std::int64_t(300000)}) {
    SCOPED_TRACE(n);
    std::mt19937_64 rng(n);
    std::vector<std::uint8_t> counts(n);
    for (auto& c : counts) c = (rng() % 4 == 0) ? 0 : static_cast<std::uint8_t>(rng() % 6);
    std::vector<std::uint32_t> ref_off;
    std::uint32_t ref_total = 0;
    std::vector<std::int64_t> ref_owner;
    validation::cpu_expand(counts, ref_off, ref_total, ref_owner);
    device_buffer<std::uint8_t> d_counts(n);
    device_buffer<std::uint32_t> d_off(n), d_total(1);
    d_counts.copy_from_host(counts.data(), n);
    d_off.poison();
    d_total.poison();
    validation::run_two_phase([&](void* t, std::size_t& b) {
      return expand_offsets(t, b, d_counts.data(), d_off.data(), d_total.data(), n);
    }, 0);
    std::uint32_t total = 0;
    d_total.copy_to_host(&total, 1);
    ASSERT_EQ(total, ref_total);
    std::vector<std::uint32_t> off(n);
    d_off.copy_to_host(off.data(), n);
    ASSERT_EQ(off, ref_off);
    device_buffer<std::int64_t> d_owner(total);
    d_owner.poison();
    validation::run_two_phase([&](void* t, std::size_t& b) {
      return expand_owners(t, b, d_counts.data(), d_off.data(), n, d_owner.data(), std::int64_t(total));
    }, 0);
    std::vector<std::int64_t> owner(total);
    d_owner.copy_to_host(owner.data(), total);
    ASSERT_EQ(owner, ref_owner);
  }
}

TEST_F(select_api, u8_flags_scanned_into_wide_offsets) {
  // 300 ones: offsets must reach 299 (the accumulator is wider than the flag).
  std::vector<std::uint8_t> ones(300, 1);
  device_buffer<std::uint8_t> d(300);
  device_buffer<std::uint32_t> off(300), total(1);
  d.copy_from_host(ones.data(), 300);
  validation::run_two_phase([&](void* t, std::size_t& b) { return expand_offsets(t, b, d.data(), off.data(), total.data(), 300); }, 0);
  std::vector<std::uint32_t> h(300);
  off.copy_to_host(h.data(), 300);
  EXPECT_EQ(h[299], 299u);
  std::uint32_t t = 0;
  total.copy_to_host(&t, 1);
  EXPECT_EQ(t, 300u);
}

TEST_F(select_api, addresses_off_the_16_byte_grid) {
  // 4-byte values: whole tiles move by 16-byte loads only from an aligned address
  // (select_shared_tiles_kernel); every pairing of aligned and unaligned input and output, and in place
  // at aligned and unaligned starts, over many tiles plus a partial one, against the CPU, with the words
  // around the output checked untouched. About half the items are kept (x > 2^31).
  const std::int64_t n = 37 * 8192 + 1001;
  std::vector<std::uint32_t> h(n + 8);
  std::mt19937 rng(57);
  for (auto& v : h) v = rng();
  device_buffer<std::uint32_t> in(n + 8), out(n + 8);
  device_buffer<std::int64_t> count(1);
  const keep_rule<std::uint32_t> rule{keep_kind::gt, 0x80000000u};
  auto check = [&](int in_off, int out_off, bool in_place) {
    SCOPED_TRACE("input +" + std::to_string(in_off) + " output +" + std::to_string(out_off) + (in_place ? " in place" : ""));
    std::vector<std::uint32_t> want;
    for (std::int64_t i = 0; i < n; ++i)
      if (h[in_off + i] > rule.value) want.push_back(h[in_off + i]);
    if (in_place) {
      in.copy_from_host(h.data(), n + 8);
    } else {
      out.poison();
    }
    std::uint32_t* base = in_place ? in.data() : out.data();
    const std::uint32_t* src = in.data() + in_off;
    std::uint32_t* dst = base + out_off;
    count.poison();
    validation::run_two_phase([&](void* t, std::size_t& b) { return select_if(t, b, src, dst, count.data(), n, rule); }, 0);
    std::int64_t kept = -1;
    count.copy_to_host(&kept, 1);
    ASSERT_EQ(kept, static_cast<std::int64_t>(want.size()));
    std::vector<std::uint32_t> got(n + 8);
    ASSERT_EQ(cudaMemcpy(got.data(), base, (n + 8) * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    for (std::int64_t i = 0; i < kept; ++i) ASSERT_EQ(got[out_off + i], want[i]) << "kept item " << i;
    if (!in_place)
      for (std::int64_t i : {std::int64_t(out_off) - 1, kept + out_off})
        if (i >= 0) EXPECT_EQ(got[i], 0xA5A5A5A5u) << "word " << i << " outside the output";
  };
  in.copy_from_host(h.data(), n + 8);
  for (int in_off : {0, 1, 2, 3, 4})
    for (int out_off : {0, 1, 3, 4}) check(in_off, out_off, false);
  for (int off : {0, 1, 3}) check(off, off, true);
}

TEST_F(select_api, padded_select_fills_to_n_and_refuses_its_input_as_output) {
  // select_if_padded: every tile writes its unkept items' count of the fill at the back (one pass). A
  // keep fraction that varies from tile to tile (none, all, a third) over 300 look-back tiles, so the
  // tiles' shares of the fill differ; the words around the n-item output checked untouched. Its input
  // as its output would let a tile's fill overwrite later tiles' unread items: refused.
  const std::int64_t n = 300 * 8192 + 77;
  std::vector<std::int32_t> h(n), want;
  std::mt19937 rng(63);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t tile = i / 8192;
    const bool keep = tile % 3 == 0 ? false : tile % 3 == 1 ? true : rng() % 3 == 0;
    h[i] = keep ? static_cast<std::int32_t>(rng() % 1000 + 1) : -static_cast<std::int32_t>(rng() % 1000 + 1);
    if (keep) want.push_back(h[i]);
  }
  want.resize(n, -7);
  device_buffer<std::int32_t> in(n), out(n + 2);
  device_buffer<std::int64_t> count(1);
  in.copy_from_host(h.data(), n);
  const keep_rule<std::int32_t> rule{keep_kind::gt, 0};
  for (const bool one_launch : {true, false}) {
    SCOPED_TRACE(one_launch ? "one launch where it fits" : "look-back");
    scan_options o;
    o.one_launch = one_launch;
    out.poison();
    count.poison();
    validation::run_two_phase(
        [&](void* t, std::size_t& b) { return select_if_padded(t, b, in.data(), out.data() + 1, count.data(), n, rule, -7, 0, o); }, 0);
    std::int64_t kept = -1;
    count.copy_to_host(&kept, 1);
    std::vector<std::int32_t> got(n + 2);
    out.copy_to_host(got.data(), n + 2);
    EXPECT_EQ(kept, static_cast<std::int64_t>(std::count_if(h.begin(), h.end(), [](std::int32_t v) { return v > 0; })));
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i + 1], want[i]) << "item " << i << " of " << kept << " kept";
    EXPECT_EQ(static_cast<std::uint32_t>(got[0]), 0xA5A5A5A5u) << "the word before the output";
    EXPECT_EQ(static_cast<std::uint32_t>(got[n + 1]), 0xA5A5A5A5u) << "the word after the output";
  }
  std::size_t bytes = 0;
  ASSERT_EQ(select_if_padded<std::int32_t>(nullptr, bytes, in.data(), in.data(), count.data(), n, rule, -7), cudaSuccess);
  device_buffer<char> temp(bytes);
  EXPECT_EQ(select_if_padded(temp.data(), bytes, in.data(), in.data(), count.data(), n, rule, -7), cudaErrorInvalidValue);
}

class select_huge : public gpu_test {};

/// More than 2^31 items: keep every third byte-valued item. Outputs poisoned; every kept value, the
/// poison just past the kept items, and every kept position (closed form: the k-th is 3k + 2) checked.
TEST_F(select_huge, more_than_2_pow_31_items) {
  if (small_sizes_only()) GTEST_SKIP() << "too large for the sanitizer runs";
  const std::int64_t n = (std::int64_t(1) << 31) + 4099, want = n / 3, guard = 64;
  device_buffer<std::uint8_t> in(n), out(n + guard);
  ASSERT_EQ(validation::fill_one_plus_mod3(in.data(), n), cudaSuccess);  // 1, 2, 3, 1, 2, 3, ...: i % 3 == 2 is 3
  out.poison();
  device_buffer<std::int64_t> count(1);
  keep_rule<std::uint8_t> rule{keep_kind::eq, 3};
  validation::run_two_phase([&](void* t, std::size_t& b) { return select_if(t, b, in.data(), out.data(), count.data(), n, rule); }, 0);
  std::int64_t kept = 0;
  count.copy_to_host(&kept, 1);
  ASSERT_EQ(kept, want);
  std::vector<std::uint8_t> values(static_cast<std::size_t>(kept + guard));
  PARASCAN_CUDA_CHECK(cudaMemcpy(values.data(), out.data(), values.size(), cudaMemcpyDeviceToHost));
  EXPECT_EQ(std::count(values.begin(), values.begin() + kept, std::uint8_t(3)), kept);
  EXPECT_EQ(std::count(values.begin() + kept, values.end(), std::uint8_t(0xA5)), guard) << "written past the kept items";
  values = {};

  device_buffer<std::int64_t> positions(want + guard);
  positions.poison();
  validation::run_two_phase(
      [&](void* t, std::size_t& b) { return select_if_indices(t, b, in.data(), positions.data(), count.data(), n, rule); }, 0);
  count.copy_to_host(&kept, 1);
  ASSERT_EQ(kept, want);
  std::vector<std::int64_t> pos(static_cast<std::size_t>(want));
  positions.copy_to_host(pos.data(), want);
  std::int64_t wrong = 0, first = -1;
  for (std::int64_t k = 0; k < want; ++k)
    if (pos[k] != 3 * k + 2 && wrong++ == 0) first = k;
  EXPECT_EQ(wrong, 0) << "first wrong position at k = " << first << ": " << (first >= 0 ? pos[first] : 0);
}

}  // namespace
