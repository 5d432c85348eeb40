// GPU tests of the scan core: typed over explicit (input, output, operator) cases, every block
// algorithm × device strategy, sizes at every tile and recursion edge, random and constant inputs,
// outputs poisoned first, checked element by element against the CPU reference and CUB.
#include <gtest/gtest.h>
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/scan.hpp"  // declarations only: the library's scans and gpu_scan_affine.cu's are linked
#include "parascan/validation/device_check.hpp"
#include "parascan/validation/inputs.hpp"
#include "scan_affine.hpp"

namespace {
using namespace parascan;
using parascan::test::affine;
using parascan::test::compose;
using parascan::test::gpu_test;
using parascan::test::small_sizes_only;

template <class In, class Out, class Op>
struct scan_case {
  using in_type = In;
  using out_type = Out;
  using op_type = Op;
};

template <class T, class Op>
std::vector<T> test_input(std::int64_t n, validation::distribution d, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, affine>) {
    std::vector<affine> v(static_cast<std::size_t>(n));
    std::mt19937_64 rng(seed);
    for (auto& x : v) x = d == validation::distribution::random
                              ? affine{static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng())}
                              : affine{3u, 5u};
    return v;
  } else {
    return validation::make_input<T, Op>(n, d, seed);
  }
}

template <class Out, class Op>
Out test_init(std::uint64_t seed) {
  if constexpr (std::is_same_v<Out, affine>) return affine{7u, 11u};
  else return validation::make_input<Out, Op>(1, validation::distribution::random, seed)[0];
}

std::vector<std::int64_t> test_sizes(int tile, std::uint64_t seed, bool deep) {
  if (small_sizes_only()) return {0, 1, 33, tile - 1, tile + 1, 1337, 2 * tile + 5};
  std::vector<std::int64_t> s = {0, 1, 31, 32, 33, tile - 1, tile, tile + 1, 1337, (std::int64_t(1) << 20) + 7};
  if (deep) {
    s.push_back(std::int64_t(tile) * tile - 1);
    s.push_back(std::int64_t(tile) * tile + 1);
  }
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 3; ++i) s.push_back(std::uniform_int_distribution<std::int64_t>(2, 40 * tile)(rng));
  return s;
}

enum class mode { exclusive, inclusive, inclusive_init };

template <class Case>
class scan_typed : public gpu_test {
 protected:
  using In = typename Case::in_type;
  using Out = typename Case::out_type;
  using Op = typename Case::op_type;

  /// Every algorithm × strategy on every size and distribution; segmented when `segmented`.
  void check_all(mode m, bool segmented = false, bool in_place = false) {
    const std::uint64_t seed = 0x5ca9 + static_cast<int>(m) * 101 + segmented * 7 + in_place * 13;
    const int tile = scan_tile_items(sizeof(Out), segmented);
    // tile² ± 1 (a second recursion level) for two cases per suite, to bound the run time.
    const bool deep = !in_place && std::is_same_v<Op, parascan::sum> && !std::is_same_v<Out, double>;
    std::mt19937_64 rng(seed);
    for (std::int64_t n : test_sizes(tile, seed, deep)) {
      for (auto dist : {validation::distribution::random, validation::distribution::constant}) {
        if (small_sizes_only() && dist != validation::distribution::random) continue;
        const std::uint64_t s = rng();
        SCOPED_TRACE("n=" + std::to_string(n) + " dist=" + std::string(validation::to_string(dist)) +
                     " seed=" + std::to_string(s));
        const auto input = test_input<In, Op>(n, dist, s);
        const auto heads = validation::make_heads(n, 29, s);
        validation::scan_spec<Out> spec;
        spec.exclusive = m == mode::exclusive;
        spec.has_init = m != mode::inclusive;
        spec.init = test_init<Out, Op>(s);
        validation::device_scan_checker<In, Out, Op> checker(input, segmented ? &heads : nullptr, Op{}, spec, in_place);
        for (auto alg : all_block_algorithms) {
          for (auto strat : all_device_strategies) {
            if (segmented && strat == device_strategy::recursive) continue;
            // single_pass: the one-launch scan where every tile fits at once, and the look-back.
            for (bool one_launch : {true, false}) {
              if (!one_launch && strat != device_strategy::single_pass) continue;
              SCOPED_TRACE(std::string(to_string(alg)) + "/" + std::string(to_string(strat)) +
                           (one_launch ? "" : " (look-back)"));
              scan_options o;
              o.algorithm = alg;
              o.strategy = strat;
              o.debug_synchronous = true;
              o.one_launch = one_launch;
              const auto r = checker.check(o);
              ASSERT_TRUE(r.vs_cpu.ok()) << r.vs_cpu.mismatches << " mismatches vs CPU; first " << r.vs_cpu.detail;
              ASSERT_TRUE(r.vs_cub.ok()) << r.vs_cub.mismatches << " mismatches vs CUB; first " << r.vs_cub.detail;
            }
          }
        }
      }
    }
  }
};

using scan_cases = ::testing::Types<
    scan_case<std::uint32_t, std::uint32_t, parascan::sum>, scan_case<std::int32_t, std::int32_t, parascan::max_op>,
    scan_case<std::uint8_t, std::uint32_t, parascan::sum>, scan_case<std::int8_t, std::int8_t, parascan::sum>,
    scan_case<std::uint16_t, std::uint16_t, parascan::min_op>, scan_case<std::int64_t, std::int64_t, parascan::bit_xor>,
    scan_case<std::uint64_t, std::uint64_t, parascan::sum>, scan_case<float, float, parascan::sum>,
    scan_case<double, double, parascan::product>, scan_case<float, double, parascan::sum>,
    scan_case<std::uint32_t, std::uint32_t, parascan::bit_and>, scan_case<affine, affine, compose>>;
TYPED_TEST_SUITE(scan_typed, scan_cases);

TYPED_TEST(scan_typed, exclusive) { this->check_all(mode::exclusive); }
TYPED_TEST(scan_typed, inclusive) { this->check_all(mode::inclusive); }
TYPED_TEST(scan_typed, inclusive_with_init) { this->check_all(mode::inclusive_init); }
template <class Case>
class in_place_scan_typed : public scan_typed<Case> {};
using in_place_cases = ::testing::Types<scan_case<std::uint32_t, std::uint32_t, parascan::sum>,
                                        scan_case<double, double, parascan::sum>, scan_case<affine, affine, compose>>;
TYPED_TEST_SUITE(in_place_scan_typed, in_place_cases);
TYPED_TEST(in_place_scan_typed, exclusive) { this->check_all(mode::exclusive, false, true); }
TYPED_TEST(in_place_scan_typed, inclusive) { this->check_all(mode::inclusive, false, true); }

template <class Case>
class segmented_scan_typed : public scan_typed<Case> {};
using segmented_cases = ::testing::Types<
    scan_case<std::uint32_t, std::uint32_t, parascan::sum>, scan_case<std::int8_t, std::int8_t, parascan::sum>,
    scan_case<std::uint8_t, std::uint32_t, parascan::sum>, scan_case<std::int32_t, std::int32_t, parascan::max_op>,
    scan_case<double, double, parascan::sum>, scan_case<std::uint64_t, std::uint64_t, parascan::sum>>;
TYPED_TEST_SUITE(segmented_scan_typed, segmented_cases);
TYPED_TEST(segmented_scan_typed, exclusive) { this->check_all(mode::exclusive, true); }
TYPED_TEST(segmented_scan_typed, inclusive) { this->check_all(mode::inclusive, true); }

class scan_api : public gpu_test {};

TEST_F(scan_api, temp_storage_contract) {
  // The size query needs no device memory; too little storage is refused, not overrun.
  std::size_t bytes = 0;
  const std::int64_t n = 1 << 20;
  ASSERT_EQ((exclusive_scan<std::uint32_t, std::uint32_t>(nullptr, bytes, nullptr, nullptr, n, sum{}, 0u)), cudaSuccess);
  EXPECT_GT(bytes, 0u);
  device_buffer<std::uint32_t> in(n), out(n);
  device_buffer<char> temp(bytes);
  std::size_t too_small = bytes - 1;
  EXPECT_EQ(exclusive_scan(temp.data(), too_small, in.data(), out.data(), n, sum{}, 0u), cudaErrorInvalidValue);
  std::size_t zero_bytes = 0;
  ASSERT_EQ((exclusive_scan<std::uint32_t, std::uint32_t>(nullptr, zero_bytes, nullptr, nullptr, 0, sum{}, 0u)), cudaSuccess);
  EXPECT_GE(zero_bytes, 1u);
  EXPECT_EQ((exclusive_scan<std::uint32_t, std::uint32_t>(temp.data(), bytes, in.data(), out.data(), -1, sum{}, 0u)),
            cudaErrorInvalidValue);
}

TEST_F(scan_api, segmented_recursive_is_refused) {
  std::size_t bytes = 0;
  scan_options o;
  o.strategy = device_strategy::recursive;
  const std::int64_t n = 100000;
  device_buffer<std::uint32_t> in(n), out(n);
  device_buffer<std::uint8_t> heads(n);
  ASSERT_EQ(segmented_inclusive_scan(nullptr, bytes, in.data(), heads.data(), out.data(), n, sum{}, 0, o), cudaSuccess);
  device_buffer<char> temp(bytes);
  EXPECT_EQ(segmented_inclusive_scan(temp.data(), bytes, in.data(), heads.data(), out.data(), n, sum{}, 0, o),
            cudaErrorNotSupported);
}

TEST_F(scan_api, works_on_a_stream_without_host_sync) {
  // Two scans chained on one stream: the second reads the first's output with no sync between.
  const std::int64_t n = 3 * 4096 + 17;
  std::vector<std::uint32_t> h(n, 1);
  device_buffer<std::uint32_t> a(n), b(n);
  a.copy_from_host(h.data(), n);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  std::size_t bytes = 0;
  ASSERT_EQ((inclusive_scan<std::uint32_t, std::uint32_t>(nullptr, bytes, nullptr, nullptr, n, sum{}, s)), cudaSuccess);
  device_buffer<char> t1(bytes), t2(bytes);
  ASSERT_EQ(inclusive_scan(t1.data(), bytes, a.data(), b.data(), n, sum{}, s), cudaSuccess);
  ASSERT_EQ(inclusive_scan(t2.data(), bytes, b.data(), a.data(), n, sum{}, s), cudaSuccess);
  std::vector<std::uint32_t> out(n);
  ASSERT_EQ(cudaMemcpyAsync(out.data(), a.data(), n * 4, cudaMemcpyDeviceToHost, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<std::uint32_t>((i + 1) * (i + 2) / 2)) << i;
  cudaStreamDestroy(s);
}

TEST_F(scan_api, addresses_off_the_16_byte_grid) {
  // Whole tiles of 4-byte items move by 16-byte vectors only where both addresses allow it
  // (block_exchange::load_vectors); every pairing of aligned and unaligned input and output, over
  // many tiles plus a partial one, in both kernels (one launch and look-back), against the CPU.
  const int tile = scan_tile_items(sizeof(std::uint32_t), false);
  const std::int64_t n = 37 * std::int64_t(tile) + 1001;
  std::vector<std::uint32_t> h(n + 8);
  std::mt19937 rng(53);
  for (auto& v : h) v = rng();
  device_buffer<std::uint32_t> in(n + 8), out(n + 8);
  in.copy_from_host(h.data(), n + 8);
  for (int in_off : {0, 1, 2, 3, 4})
    for (int out_off : {0, 1, 3, 4})
      for (bool one_launch : {true, false}) {
        SCOPED_TRACE("input +" + std::to_string(in_off) + " output +" + std::to_string(out_off) +
                     (one_launch ? " one launch" : " look-back"));
        scan_options o;
        o.one_launch = one_launch;
        o.debug_synchronous = true;
        out.poison();
        std::size_t bytes = 0;
        const std::uint32_t* src = in.data() + in_off;
        std::uint32_t* dst = out.data() + out_off;
        ASSERT_EQ(exclusive_scan(nullptr, bytes, src, dst, n, sum{}, 7u, 0, o), cudaSuccess);
        device_buffer<char> temp(bytes);
        ASSERT_EQ(exclusive_scan(temp.data(), bytes, src, dst, n, sum{}, 7u, 0, o), cudaSuccess);
        std::vector<std::uint32_t> got(n + 8);
        ASSERT_EQ(cudaMemcpy(got.data(), out.data(), (n + 8) * 4, cudaMemcpyDeviceToHost), cudaSuccess);
        std::uint32_t running = 7;
        for (std::int64_t i = 0; i < n; ++i) {
          ASSERT_EQ(got[out_off + i], running) << "item " << i;
          running += h[in_off + i];
        }
        // The words around the output are untouched (still the poison, 0xA5 bytes).
        for (std::int64_t i : {std::int64_t(out_off) - 1, n + out_off})
          if (i >= 0) EXPECT_EQ(got[i], 0xA5A5A5A5u) << "word " << i << " outside the output";
      }
}

class scan_huge : public gpu_test {};

/// More than 2^31 items (64-bit indexing): u8 in[i] = 1 + i % 3 scanned into u64, checked against
/// the closed form on the device, for every strategy.
TEST_F(scan_huge, more_than_2_pow_31_items) {
  if (small_sizes_only()) GTEST_SKIP() << "too large for the sanitizer runs";
  const std::int64_t n = (std::int64_t(1) << 31) + 4099;
  device_buffer<std::uint8_t> in(n);
  device_buffer<std::uint64_t> out(n);
  ASSERT_EQ(validation::fill_one_plus_mod3(in.data(), n), cudaSuccess);
  for (auto strat : all_device_strategies) {
    SCOPED_TRACE(std::string(to_string(strat)));
    scan_options o;
    o.strategy = strat;
    out.poison();
    std::size_t bytes = 0;
    ASSERT_EQ(exclusive_scan(nullptr, bytes, in.data(), out.data(), n, sum{}, std::uint64_t(0), 0, o), cudaSuccess);
    device_buffer<char> temp(bytes);
    ASSERT_EQ(exclusive_scan(temp.data(), bytes, in.data(), out.data(), n, sum{}, std::uint64_t(0), 0, o), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::int64_t bad = -1;
    ASSERT_EQ(validation::count_mod3_exclusive_mismatches(out.data(), n, bad), cudaSuccess);
    EXPECT_EQ(bad, 0);
    std::uint64_t last = 0;
    ASSERT_EQ(cudaMemcpy(&last, out.data() + n - 1, 8, cudaMemcpyDeviceToHost), cudaSuccess);
    const std::int64_t i = n - 1;
    EXPECT_EQ(last, static_cast<std::uint64_t>(i + 3 * (i / 3) + (i % 3 == 2)));
  }
}

}  // namespace
