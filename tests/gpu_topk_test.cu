// Top-k of rows on the GPU against a CPU stable sort of each row: f32, f16, bf16 and integer keys,
// k from 0 to the row length, largest and smallest, sorted and in row order, rows cached in shared
// memory and rows too long for it, many ties (the earliest positions win), −0.0 = +0.0, and a CUDA
// graph capture replayed on new data.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "gpu_test.hpp"
#include "half_values.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/device/topk/sampled.cuh"
#include "parascan/topk.hpp"

namespace {
using namespace parascan;
using parascan::test::gpu_test;

/// A key's value for the reference: floats and integers as themselves, 16-bit floats decoded by hand.
template <class Key, class Stored>
double value(Stored s) {
  if constexpr (std::is_same_v<Key, __half> || std::is_same_v<Key, __nv_bfloat16>) return parascan::test::value_of<Key>(s);
  else return static_cast<double>(s);
}

/// Keys stored as Stored (uint16_t for the 16-bit floats). few: values from a handful (many ties).
template <class Key, class Stored>
std::vector<Stored> make_keys(std::int64_t n, std::uint64_t seed, bool few) {
  if constexpr (std::is_same_v<Key, __half> || std::is_same_v<Key, __nv_bfloat16>) {
    auto v = parascan::test::random_halves<Key>(n, seed);
    if (few)
      for (auto& h : v) h &= 0xC000;  // ±0.0 and ±2.0 (f16) / ±2.0 (bf16): four values, −0.0 among them
    return v;
  } else {
    std::mt19937_64 rng(seed);
    std::vector<Stored> v(static_cast<std::size_t>(n));
    for (auto& x : v) {
      const std::uint64_t r = rng();
      if constexpr (std::is_floating_point_v<Stored>) {
        x = few ? static_cast<Stored>(static_cast<int>(r % 5) - 2) : static_cast<Stored>(static_cast<double>(r >> 11) / 9.0e12 - 500.0);
        if (r % 97 == 0) x = -Stored(0);
      } else {
        x = few ? static_cast<Stored>(r % 5) : static_cast<Stored>(r);
      }
    }
    return v;
  }
}

struct shape {
  std::int64_t rows, length;
};

/// Runs topk over the keys h (rows of sh) for every k of `ks` and compares keys (bitwise) and positions
/// with the CPU; `what` names the input in a failure.
template <class Key, class Stored>
void check_topk_of(shape sh, const std::vector<Stored>& h, const std::vector<std::int64_t>& ks, const std::string& what) {
  const std::int64_t n = sh.rows * sh.length;
  device_buffer<Stored> in(n > 0 ? n : 1);
  if (n > 0) in.copy_from_host(h.data(), n);
  for (bool largest : {true, false}) {
    // Each row's stable order by value (largest first when largest): its first k are the answer.
    std::vector<std::vector<std::int64_t>> order(static_cast<std::size_t>(sh.rows));
    for (std::int64_t r = 0; r < sh.rows; ++r) {
      auto& o = order[r];
      o.resize(static_cast<std::size_t>(sh.length));
      std::iota(o.begin(), o.end(), 0);
      const Stored* row = h.data() + r * sh.length;
      std::stable_sort(o.begin(), o.end(), [&](std::int64_t a, std::int64_t b) {
        const double x = value<Key>(row[a]), y = value<Key>(row[b]);
        return largest ? y < x : x < y;
      });
    }
    for (std::int64_t k : ks) {
      for (bool sorted : {true, false}) {
        const std::int64_t m = sh.rows * k;
        device_buffer<Stored> keys_out(m > 0 ? m : 1);
        device_buffer<std::int64_t> at_out(m > 0 ? m : 1);
        PARASCAN_CUDA_CHECK(cudaMemset(keys_out.data(), 0xAB, keys_out.size() * sizeof(Stored)));
        PARASCAN_CUDA_CHECK(cudaMemset(at_out.data(), 0xAB, at_out.size() * sizeof(std::int64_t)));
        topk_options o;
        o.largest = largest;
        o.sorted = sorted;
        o.debug_synchronous = true;
        const Key* keys = reinterpret_cast<const Key*>(in.data());
        Key* out = reinterpret_cast<Key*>(keys_out.data());
        std::size_t bytes = 0;
        ASSERT_EQ(topk(nullptr, bytes, keys, sh.rows, sh.length, k, out, at_out.data(), o), cudaSuccess);
        device_buffer<char> temp(bytes);
        ASSERT_EQ(topk(temp.data(), bytes, keys, sh.rows, sh.length, k, out, at_out.data(), o), cudaSuccess);
        std::vector<Stored> got(static_cast<std::size_t>(m));
        std::vector<std::int64_t> got_at(static_cast<std::size_t>(m));
        if (m > 0) {
          keys_out.copy_to_host(got.data(), m);
          at_out.copy_to_host(got_at.data(), m);
        }
        std::int64_t bad = 0;
        for (std::int64_t r = 0; r < sh.rows; ++r) {
          std::vector<std::int64_t> want(order[r].begin(), order[r].begin() + k);
          if (!sorted) std::sort(want.begin(), want.end());
          for (std::int64_t j = 0; j < k; ++j) {
            const std::int64_t at = got_at[r * k + j];
            const Stored expect = h[r * sh.length + want[j]];
            bad += at != want[j] || std::memcmp(&got[r * k + j], &expect, sizeof(Stored)) != 0;
          }
        }
        EXPECT_EQ(bad, 0) << sh.rows << " x " << sh.length << " k " << k << (largest ? " largest" : " smallest")
                          << (sorted ? " sorted" : " in row order") << what;
      }
    }
  }
}

template <class Key, class Stored>
void check_topk(shape sh, const std::vector<std::int64_t>& ks, bool few, std::uint64_t seed) {
  check_topk_of<Key, Stored>(sh, make_keys<Key, Stored>(sh.rows * sh.length, seed, few), ks, few ? ", few distinct" : "");
}

class topk_test : public gpu_test {};

TEST_F(topk_test, f32_rows_cached_and_not) {
  check_topk<float, float>({64, 50257}, {1, 50, 1024, 50257}, false, 1);  // 201 KB rows: cached
  check_topk<float, float>({3, 300001}, {1000}, false, 2);                 // 1.2 MB rows: read from memory
  check_topk<float, float>({1000, 7}, {0, 3, 7}, false, 3);
  check_topk<float, float>({5, 0}, {0}, false, 4);
}

TEST_F(topk_test, ties_go_to_the_earliest_positions) {
  check_topk<float, float>({100, 5000}, {1, 1234, 4999}, true, 5);
  check_topk<std::int32_t, std::int32_t>({30, 2000}, {17, 1000}, true, 6);
  check_topk<__half, std::uint16_t>({20, 3000}, {5, 2000}, true, 7);
}

TEST_F(topk_test, sixteen_bit_floats_and_integers) {
  check_topk<__half, std::uint16_t>({256, 4000}, {17, 1024}, false, 8);
  check_topk<__nv_bfloat16, std::uint16_t>({64, 50257}, {50}, false, 9);
  check_topk<std::int32_t, std::int32_t>({500, 4097}, {100}, false, 10);
  check_topk<std::uint64_t, std::uint64_t>({10, 100000}, {777}, false, 11);  // 800 KB rows
  check_topk<std::int8_t, std::int8_t>({50, 3000}, {2999}, false, 12);
  check_topk<double, double>({40, 20000}, {64}, false, 13);
}

/// Rows of 8192 keys and more take the filter path (topk/filter.cuh): candidates cached and not, a
/// row whose candidates overflow their list (selected whole), one row over 512 blocks, and the edge.
TEST_F(topk_test, long_rows_through_the_filter) {
  check_topk<float, float>({6, 100000}, {1, 50000, 100000}, true, 15);        // 20% a value: 20000 candidates
  check_topk<__half, std::uint16_t>({4, 100000}, {1, 30000, 99999}, true, 14);  // ±0 half the row: overflow
  check_topk<std::int8_t, std::int8_t>({3, 70000}, {5, 69000}, false, 16);
  check_topk<float, float>({1, 1 << 20}, {2048}, false, 17);
  check_topk<std::int32_t, std::int32_t>({2, 8192}, {1, 8192}, false, 18);
  check_topk<std::int32_t, std::int32_t>({7, 8191}, {100}, false, 19);
  check_topk<std::uint16_t, std::uint16_t>({33, 9000}, {4000}, false, 20);
  // finish_kernel orders and writes k ≤ fused_k_max itself (a bitonic sort padded to a power of two);
  // one past, the segmented sort and gather do. Few distinct keys: ties across the k-th key.
  using parascan::device::topk_detail::fused_k_max;
  check_topk<float, float>({3, 60000}, {fused_k_max - 1, fused_k_max, fused_k_max + 1}, true, 21);
  check_topk<double, double>({2, 30000}, {3, fused_k_max}, true, 22);  // 8-byte keys: row order, then pairs sorted
}

/// Long rows with k small beside them take a threshold from a sample of each row (topk/sampled.cuh):
/// k on both sides of where the sample stops paying, 8- and 1-byte images, and rows the sample serves
/// badly, which must come out exact through the fallbacks (a whole-row select, or the rounds for rows
/// past finish_fallback_max): runs of keys at the sampled positions holding the row's largest keys (with
/// the largest wanted, fewer than k lie at or above the threshold; with the smallest wanted, more than
/// the list holds).
TEST_F(topk_test, sampled_threshold_and_the_rows_it_cannot_serve) {
  using namespace parascan::device::topk_detail;
  const std::int64_t vocab = 128256;
  for (std::int64_t k : {1, 50, 1024, 2000}) EXPECT_GT(sample_rank(k, vocab, sample_size(vocab)), 0u) << k;
  EXPECT_EQ(sample_rank(8000, vocab, sample_size(vocab)), 0u);  // past it: the rounds
  EXPECT_EQ(sample_rank(1024, 1 << 24, sample_size(1 << 24)), 0u);
  EXPECT_GT(sample_rank(64, 50257, sample_size(50257)), 0u);  // the graph test's two wide cases take both paths
  EXPECT_EQ(sample_rank(6000, 50257, sample_size(50257)), 0u);
  const bool small = parascan::test::small_sizes_only();  // the sanitizer runs: fewer rows and k
  if (small) {
    check_topk<__nv_bfloat16, std::uint16_t>({2, vocab}, {50, 1024}, false, 30);
  } else {
    check_topk<__nv_bfloat16, std::uint16_t>({12, vocab}, {1, 50, 1024, 2000, 8000}, false, 30);
    check_topk<std::uint64_t, std::uint64_t>({5, 60000}, {1, 300}, false, 31);
    check_topk<std::int8_t, std::int8_t>({9, 40000}, {7, 2000}, false, 32);
  }

  // Rows of 2^17 fall back to finish_kernel's whole-row select (no rounds launched), rows of 2^19 to the rounds.
  for (const shape sh : {shape{small ? 2 : 6, 1 << 17}, shape{2, 1 << 19}}) {
    ASSERT_EQ(sh.length <= finish_fallback_max, sh.length == (1 << 17));
    const int size = sample_size(sh.length), runs = size / sample_run;
    const std::vector<std::int64_t> ks = small ? std::vector<std::int64_t>{64} : std::vector<std::int64_t>{1, 64, 1024};
    for (std::int64_t k : ks) ASSERT_GT(sample_rank(k, sh.length, size), 0u) << k;
    std::vector<float> h(static_cast<std::size_t>(sh.rows * sh.length));
    std::mt19937_64 rng(33);
    for (auto& x : h) x = static_cast<float>(rng() % 1000000) * 1e-3f;  // [0, 1000)
    for (std::int64_t r = 0; r < sh.rows; ++r)
      for (std::int64_t g = 0; g < runs; ++g)
        for (int j = 0; j < sample_run; ++j)
          h[r * sh.length + sample_run_start(g, runs, sh.length) + j] = 1000.f + static_cast<float>(rng() % 1000000) * 1e-3f;
    check_topk_of<float, float>(sh, h, ks, ", the sample's runs holding the largest keys");
  }
}

/// The sampled path's listing test (one xor, one compare) against ordered_key's image ≤ t, on the host:
/// every 16-bit and 8-bit key against thresholds that are images of keys (±0, the sign boundary, the
/// ends, NaNs, random ones), for every key kind and both directions; random 32- and 64-bit pairs.
template <class U>
void check_listing(const std::vector<U>& raws, const std::vector<U>& threshold_keys) {
  using parascan::device::sort_detail::ordered_bits;
  using parascan::device::topk_detail::at_or_below_of;
  std::int64_t bad = 0;
  for (key_kind kind : {key_kind::unsigned_int, key_kind::signed_int, key_kind::floating})
    for (bool largest : {false, true})
      for (U tk : threshold_keys) {
        const U t = ordered_bits(tk, kind, largest);
        const auto listed = at_or_below_of(t, kind, largest);
        for (U raw : raws) bad += listed(raw) != (ordered_bits(raw, kind, largest) <= t);
      }
  EXPECT_EQ(bad, 0) << sizeof(U) << "-byte keys";
}

template <class U>
std::vector<U> listing_keys(std::size_t random, std::uint64_t seed) {
  constexpr U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  std::vector<U> v = {U(0), U(1), sign, static_cast<U>(sign + 1), static_cast<U>(sign - 1), static_cast<U>(sign - 2),
                      static_cast<U>(~U(0)), static_cast<U>(~U(1))};
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < random; ++i) v.push_back(static_cast<U>(rng()));
  return v;
}

TEST(topk_listing, one_xor_and_compare_equals_the_image_test) {
  std::vector<std::uint16_t> all16(1 << 16);
  std::iota(all16.begin(), all16.end(), std::uint16_t{0});
  auto t16 = listing_keys<std::uint16_t>(200, 40);
  for (std::uint16_t nan : {0x7FC0, 0xFFC0, 0x7E00, 0x7C00, 0xFC00}) t16.push_back(nan);  // bf16/f16 NaNs, ±inf
  check_listing<std::uint16_t>(all16, t16);
  std::vector<std::uint8_t> all8(256);
  std::iota(all8.begin(), all8.end(), std::uint8_t{0});
  check_listing<std::uint8_t>(all8, all8);
  check_listing<std::uint32_t>(listing_keys<std::uint32_t>(20000, 41), listing_keys<std::uint32_t>(300, 42));
  check_listing<std::uint64_t>(listing_keys<std::uint64_t>(20000, 43), listing_keys<std::uint64_t>(300, 44));
}

/// Rows of at most 256 keys: k ≤ 32 a warp a row (warp/warp_topk.cuh), larger k each row sorted whole.
TEST_F(topk_test, short_rows_by_warps_and_sorted_whole) {
  check_topk<float, float>({20000, 16}, {1, 4, 16}, false, 21);
  check_topk<float, float>({4099, 256}, {8, 32, 33}, false, 27);        // full lanes; the last warp partly past the rows
  check_topk<std::int32_t, std::int32_t>({3000, 200}, {31, 32, 40}, true, 28);  // few distinct: ties by position
  check_topk<double, double>({1000, 77}, {1, 32}, false, 29);           // 8-byte keys through the shuffles
  check_topk<float, float>({3000, 33}, {5}, true, 22);
  check_topk<__nv_bfloat16, std::uint16_t>({700, 256}, {8, 255}, false, 23);
  check_topk<__half, std::uint16_t>({500, 100}, {10}, true, 24);
  check_topk<std::int8_t, std::int8_t>({999, 1}, {0, 1}, false, 25);
  check_topk<std::uint64_t, std::uint64_t>({300, 257}, {9}, false, 26);  // one past: the block-per-row path
}

/// Rows of 2..32 keys: a thread a row (topk/thread_rows.cuh), every network size and its edges, k
/// from 1 to the row length, ties, 8-byte and 1-byte keys, a partial last block.
TEST_F(topk_test, rows_of_up_to_32_by_threads) {
  check_topk<float, float>({20001, 2}, {1, 2}, false, 30);
  check_topk<float, float>({5000, 3}, {1, 2, 3}, true, 31);
  check_topk<std::int32_t, std::int32_t>({7777, 17}, {1, 9, 17}, true, 32);
  check_topk<double, double>({3001, 31}, {1, 30, 31}, false, 33);
  check_topk<__nv_bfloat16, std::uint16_t>({4097, 32}, {1, 8, 32}, true, 34);
  check_topk<std::int8_t, std::int8_t>({999, 5}, {4}, true, 35);
  check_topk<std::uint64_t, std::uint64_t>({513, 8}, {3, 8}, false, 36);
  check_topk<__half, std::uint16_t>({1 << 16, 16}, {4}, false, 37);
}

TEST_F(topk_test, bad_arguments_are_refused) {
  device_buffer<float> in(100), out(100);
  device_buffer<std::int64_t> at(100);
  std::size_t bytes = 0;
  EXPECT_EQ(topk(nullptr, bytes, in.data(), 10, 10, 11, out.data(), at.data()), cudaErrorInvalidValue);  // k > length
  EXPECT_EQ(topk(nullptr, bytes, in.data(), 10, 10, -1, out.data(), at.data()), cudaErrorInvalidValue);
  EXPECT_EQ(topk(nullptr, bytes, in.data(), -1, 10, 1, out.data(), at.data()), cudaErrorInvalidValue);
}

TEST_F(topk_test, captured_in_a_graph_and_replayed_on_new_data) {
  // Every wide path and two short ones: the sampled threshold (k 64 of 50257), the rounds (k 6000), a block a
  // row (3000), rows of 100 sorted whole (k past a warp).
  const std::pair<shape, std::int64_t> cases[] = {{{128, 50257}, 64}, {{16, 50257}, 6000}, {{300, 3000}, 64}, {{5000, 100}, 64}};
  for (const auto& [sh, k] : cases) {
    const std::int64_t n = sh.rows * sh.length;
    device_buffer<float> in(n), out(sh.rows * k);
    device_buffer<std::int64_t> at(sh.rows * k);
    cudaStream_t stream;
    PARASCAN_CUDA_CHECK(cudaStreamCreate(&stream));
    std::size_t bytes = 0;
    ASSERT_EQ(topk(nullptr, bytes, in.data(), sh.rows, sh.length, k, out.data(), at.data(), {}, stream), cudaSuccess);
    device_buffer<char> temp(bytes);
    cudaGraph_t graph;
    PARASCAN_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    ASSERT_EQ(topk(temp.data(), bytes, in.data(), sh.rows, sh.length, k, out.data(), at.data(), {}, stream), cudaSuccess);
    PARASCAN_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    PARASCAN_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (std::uint64_t round = 0; round < 3; ++round) {
      const auto h = make_keys<float, float>(n, 50 + round, false);
      in.copy_from_host(h.data(), n);
      PARASCAN_CUDA_CHECK(cudaGraphLaunch(exec, stream));
      PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
      std::vector<float> got(static_cast<std::size_t>(sh.rows * k));
      std::vector<std::int64_t> got_at(static_cast<std::size_t>(sh.rows * k));
      out.copy_to_host(got.data(), got.size());
      at.copy_to_host(got_at.data(), got_at.size());
      std::int64_t bad = 0;
      for (std::int64_t r = 0; r < sh.rows; ++r) {
        std::vector<std::int64_t> o(static_cast<std::size_t>(sh.length));
        std::iota(o.begin(), o.end(), 0);
        const float* row = h.data() + r * sh.length;
        std::stable_sort(o.begin(), o.end(), [&](std::int64_t a, std::int64_t b) { return row[b] < row[a]; });
        for (std::int64_t j = 0; j < k; ++j) bad += got_at[r * k + j] != o[j] || got[r * k + j] != row[o[j]];
      }
      EXPECT_EQ(bad, 0) << sh.rows << " x " << sh.length << ", replay " << round;
    }
    PARASCAN_CUDA_CHECK(cudaGraphExecDestroy(exec));
    PARASCAN_CUDA_CHECK(cudaGraphDestroy(graph));
    PARASCAN_CUDA_CHECK(cudaStreamDestroy(stream));
  }
}

}  // namespace
