// Multi-GPU tests of parascan::dist (distributed.hpp), label `multigpu`: every visible GPU is a rank of
// one communicator (ncclCommInitAll), driven by one host thread each. The global array is cut into
// uneven shards (empty ones too); every result is checked against the same operation done by CUB on
// one GPU over the whole array, and against the CPU. They skip, with a message, on fewer than 2 GPUs.
// NCCL_NVLS_ENABLE=0 is set before NCCL starts (no NVLink multicast; see the device README).
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/distributed.hpp"
#include "parascan/error.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "parascan/validation/cub_select.hpp"
#include "parascan/validation/sort_check.hpp"

namespace {
using namespace parascan;

#define NCCL_CHECK(x)                                                                 \
  do {                                                                                \
    const ncclResult_t r_ = (x);                                                      \
    if (r_ != ncclSuccess) FAIL() << #x << ": " << ncclGetErrorString(r_);            \
  } while (0)

class dist_test : public ::testing::Test {
 public:
  void SetUp() override {
    if (!cuda_device_available()) GTEST_SKIP() << "no CUDA device: multi-GPU test skipped";
    PARASCAN_CUDA_CHECK(cudaGetDeviceCount(&ranks));
    if (ranks < 2) GTEST_SKIP() << "fewer than 2 GPUs (" << ranks << "): multi-GPU test skipped";
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    comms.resize(ranks);
    NCCL_CHECK(ncclCommInitAll(comms.data(), ranks, nullptr));
  }
  void TearDown() override {
    for (auto c : comms) ncclCommDestroy(c);
  }
  /// Shard sizes of a global n. variant 0: in proportion 1 : 2 : … : P (uneven); variant 1: rank 0's
  /// shard empty, the rest even.
  std::vector<std::int64_t> shards(std::int64_t n, int variant) const {
    std::vector<std::int64_t> s(ranks, 0);
    const std::int64_t parts = variant == 0 ? std::int64_t(ranks) * (ranks + 1) / 2 : ranks - 1;
    std::int64_t given = 0;
    for (int r = variant; r < ranks; ++r) {
      const std::int64_t w = variant == 0 ? r + 1 : 1;
      s[r] = n * w / parts;
      given += s[r];
    }
    s[ranks - 1] += n - given;
    return s;
  }
  /// f(rank, shard begin, shard size) on one thread per rank, each on its own device.
  template <class F>
  void on_ranks(const std::vector<std::int64_t>& sizes, F f) {
    std::vector<std::thread> pool;
    std::vector<std::string> errors(ranks);
    std::int64_t begin = 0;
    for (int r = 0; r < ranks; ++r) {
      pool.emplace_back([&, r, begin] {
        try {
          PARASCAN_CUDA_CHECK(cudaSetDevice(r));
          f(r, begin, sizes[r]);
        } catch (const std::exception& e) {
          errors[r] = e.what();
        }
      });
      begin += sizes[r];
    }
    for (auto& t : pool) t.join();
    for (int r = 0; r < ranks; ++r) EXPECT_EQ(errors[r], "") << "rank " << r;
  }
  int ranks = 0;
  std::vector<ncclComm_t> comms;
};

std::vector<std::int64_t> sizes_to_test(int ranks) {
  std::vector<std::int64_t> n = {0, 1, ranks - 1, 1001, 100003, (std::int64_t(1) << 24) + 13};
  if (!test::small_sizes_only()) n.push_back(std::int64_t(1) << 30);
  return n;
}

TEST_F(dist_test, scans_match_cub_on_one_gpu) {
  for (const std::int64_t n : sizes_to_test(ranks))
  for (int variant : {0, 1}) {
    SCOPED_TRACE("n=" + std::to_string(n) + (variant ? " (rank 0 empty)" : " (uneven shards)"));
    std::vector<std::int64_t> x(static_cast<std::size_t>(n));
    std::mt19937_64 rng(n);
    for (auto& v : x) v = static_cast<std::int64_t>(rng() % 2001) - 1000;
    // CUB on GPU 0 over the whole array: the reference.
    std::vector<std::int64_t> want_in(x.size()), want_ex(x.size());
    if (n > 0) {
      PARASCAN_CUDA_CHECK(cudaSetDevice(0));
      device_buffer<std::int64_t> d(n), o(n);
      d.copy_from_host(x.data(), n);
      std::size_t b = 0;
      PARASCAN_CUDA_CHECK(validation::cub_inclusive_scan(nullptr, b, d.data(), o.data(), n, sum{}));
      device_buffer<char> t(b);
      PARASCAN_CUDA_CHECK(validation::cub_inclusive_scan(t.data(), b, d.data(), o.data(), n, sum{}));
      o.copy_to_host(want_in.data(), n);
      std::size_t b2 = 0;
      PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(nullptr, b2, d.data(), o.data(), n, sum{}, std::int64_t(7)));
      device_buffer<char> t2(b2);
      PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(t2.data(), b2, d.data(), o.data(), n, sum{}, std::int64_t(7)));
      o.copy_to_host(want_ex.data(), n);
      std::int64_t acc = 0;  // and the CPU agrees with CUB
      for (std::int64_t i = 0; i < std::min<std::int64_t>(n, 100000); ++i) {
        acc += x[i];
        ASSERT_EQ(want_in[i], acc) << "CUB vs CPU at " << i;
      }
    }
    std::vector<std::int64_t> got_in(x.size(), -1), got_ex(x.size(), -1);
    on_ranks(shards(n, variant), [&](int r, std::int64_t begin, std::int64_t len) {
      cudaStream_t s;
      PARASCAN_CUDA_CHECK(cudaStreamCreate(&s));
      device_buffer<std::int64_t> d(len), o(len), e(len);
      d.copy_from_host(x.data() + begin, len);
      o.poison(), e.poison();
      std::size_t b1 = 0, b2 = 0;
      PARASCAN_CUDA_CHECK(dist::inclusive_scan(nullptr, b1, d.data(), o.data(), len, sum{}, comms[r], s));
      PARASCAN_CUDA_CHECK(dist::exclusive_scan(nullptr, b2, d.data(), e.data(), len, sum{}, std::int64_t(7), comms[r], s));
      device_buffer<char> t(std::max(b1, b2));
      PARASCAN_CUDA_CHECK(dist::inclusive_scan(t.data(), b1, d.data(), o.data(), len, sum{}, comms[r], s));
      PARASCAN_CUDA_CHECK(dist::exclusive_scan(t.data(), b2, d.data(), e.data(), len, sum{}, std::int64_t(7), comms[r], s));
      PARASCAN_CUDA_CHECK(cudaStreamSynchronize(s));
      o.copy_to_host(got_in.data() + begin, len);
      e.copy_to_host(got_ex.data() + begin, len);
      PARASCAN_CUDA_CHECK(cudaStreamDestroy(s));
    });
    std::int64_t bad_in = 0, bad_ex = 0;
    for (std::int64_t i = 0; i < n; ++i) bad_in += got_in[i] != want_in[i], bad_ex += got_ex[i] != want_ex[i];
    EXPECT_EQ(bad_in, 0);
    EXPECT_EQ(bad_ex, 0);
  }
}

TEST_F(dist_test, max_scan_of_floats_matches_the_cpu) {
  const std::int64_t n = 300007;
  std::vector<float> x(n);
  std::mt19937 rng(3);
  for (auto& v : x) v = static_cast<float>(rng() % 100000) - 5e4f;
  std::vector<float> want(n), got(n, -1.f);
  float m = x[0];
  for (std::int64_t i = 0; i < n; ++i) want[i] = m = std::max(m, x[i]);
  on_ranks(shards(n, 0), [&](int r, std::int64_t begin, std::int64_t len) {
    device_buffer<float> d(len), o(len);
    d.copy_from_host(x.data() + begin, len);
    std::size_t b = 0;
    PARASCAN_CUDA_CHECK(dist::inclusive_scan(nullptr, b, d.data(), o.data(), len, max_op{}, comms[r], 0));
    device_buffer<char> t(b);
    PARASCAN_CUDA_CHECK(dist::inclusive_scan(t.data(), b, d.data(), o.data(), len, max_op{}, comms[r], 0));
    PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
    o.copy_to_host(got.data() + begin, len);
  });
  EXPECT_EQ(got, want);
}

TEST_F(dist_test, selects_keep_global_order_and_counts) {
  for (const std::int64_t n : sizes_to_test(ranks))
  for (int variant : {0, 1}) {
    SCOPED_TRACE("n=" + std::to_string(n) + (variant ? " (rank 0 empty)" : " (uneven shards)"));
    std::vector<std::uint32_t> x(static_cast<std::size_t>(n));
    std::mt19937 rng(static_cast<unsigned>(n));
    for (auto& v : x) v = rng();
    const keep_rule<std::uint32_t> rule{keep_kind::lt, 0x40000000u};  // a quarter
    std::vector<std::uint32_t> want;  // CUB on GPU 0 over the whole array, checked against the CPU
    if (n > 0) {
      PARASCAN_CUDA_CHECK(cudaSetDevice(0));
      device_buffer<std::uint32_t> d(n), o(n);
      device_buffer<std::int64_t> c(1);
      d.copy_from_host(x.data(), n);
      std::size_t b = 0;
      PARASCAN_CUDA_CHECK(validation::cub_select_if(nullptr, b, d.data(), o.data(), c.data(), n, rule));
      device_buffer<char> t(b);
      PARASCAN_CUDA_CHECK(validation::cub_select_if(t.data(), b, d.data(), o.data(), c.data(), n, rule));
      std::int64_t k = 0;
      c.copy_to_host(&k, 1);
      want.resize(static_cast<std::size_t>(k));
      if (k > 0) o.copy_to_host(want.data(), k);
    }
    std::vector<std::uint32_t> cpu;
    for (auto v : x)
      if (rule(v)) cpu.push_back(v);
    ASSERT_EQ(want, cpu) << "CUB vs CPU";
    const auto sizes = shards(n, variant);
    std::vector<std::vector<std::uint32_t>> kept(ranks);
    std::vector<std::int64_t> local(ranks), offset(ranks), global(ranks);
    on_ranks(sizes, [&](int r, std::int64_t begin, std::int64_t len) {
      device_buffer<std::uint32_t> d(len), o(len);
      device_buffer<std::int64_t> c(3);
      d.copy_from_host(x.data() + begin, len);
      o.poison(), c.poison();
      const dist::select_counts counts{c.data(), c.data() + 1, c.data() + 2};
      std::size_t b = 0;
      PARASCAN_CUDA_CHECK(dist::select_if(nullptr, b, d.data(), o.data(), len, rule, counts, comms[r], 0));
      device_buffer<char> t(b);
      PARASCAN_CUDA_CHECK(dist::select_if(t.data(), b, d.data(), o.data(), len, rule, counts, comms[r], 0));
      PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
      std::int64_t h[3];
      c.copy_to_host(h, 3);
      local[r] = h[0], offset[r] = h[1], global[r] = h[2];
      kept[r].resize(static_cast<std::size_t>(std::max<std::int64_t>(h[0], 0)));
      if (h[0] > 0) o.copy_to_host(kept[r].data(), h[0]);
    });
    std::vector<std::uint32_t> got;
    std::int64_t at = 0;
    for (int r = 0; r < ranks; ++r) {
      EXPECT_EQ(offset[r], at) << "rank " << r;
      EXPECT_EQ(global[r], static_cast<std::int64_t>(want.size())) << "rank " << r;
      at += local[r];
      got.insert(got.end(), kept[r].begin(), kept[r].end());
    }
    EXPECT_EQ(got, want);
  }
}

enum class keys_dist { uniform, all_equal, sorted, half_one_value, narrow };

template <class Key>
std::vector<Key> dist_keys(std::int64_t n, keys_dist d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> k(static_cast<std::size_t>(n));
  for (auto& x : k) {
    std::uint64_t b = rng();
    if (d == keys_dist::all_equal) b = 0x5555555555555555ull;
    if (d == keys_dist::half_one_value && (rng() & 1)) b = 0x0123456789abcdefull;
    if (d == keys_dist::narrow) b %= 5;
    std::memcpy(&x, &b, sizeof(Key));
  }
  if (d == keys_dist::sorted) k = validation::permuted(k, validation::cpu_sort_order(k, 0, 8 * sizeof(Key), false));
  return k;
}

/// The whole array sorted by CUB on GPU 0 (pairs: the global positions as values), the reference.
template <class Key>
void cub_reference(const std::vector<Key>& keys, int begin_bit, int end_bit, bool descending, std::vector<Key>& out_keys,
                   std::vector<std::uint64_t>& out_pos) {
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  out_keys.assign(keys.size(), Key{});
  out_pos.assign(keys.size(), 0);
  if (n == 0) return;
  PARASCAN_CUDA_CHECK(cudaSetDevice(0));
  std::vector<std::uint64_t> pos(keys.size());
  std::iota(pos.begin(), pos.end(), std::uint64_t(0));
  device_buffer<Key> k(n), ko(n);
  device_buffer<std::uint64_t> v(n), vo(n);
  k.copy_from_host(keys.data(), n);
  v.copy_from_host(pos.data(), n);
  std::size_t b = 0;
  PARASCAN_CUDA_CHECK(validation::cub_sort_pairs(nullptr, b, k.data(), ko.data(), v.data(), vo.data(), n, begin_bit, end_bit,
                                                 descending));
  device_buffer<char> t(b);
  PARASCAN_CUDA_CHECK(validation::cub_sort_pairs(t.data(), b, k.data(), ko.data(), v.data(), vo.data(), n, begin_bit, end_bit,
                                                 descending));
  ko.copy_to_host(out_keys.data(), n);
  vo.copy_to_host(out_pos.data(), n);
}

template <class Key>
void check_dist_sort(dist_test& t, std::int64_t n, keys_dist d, int variant, int begin_bit, int end_bit, bool descending) {
  SCOPED_TRACE("n=" + std::to_string(n) + " dist " + std::to_string(static_cast<int>(d)) + " shards " +
               std::to_string(variant) + " bits [" + std::to_string(begin_bit) + "," + std::to_string(end_bit) + ")" +
               (descending ? " descending" : ""));
  const int P = t.ranks;
  const std::vector<Key> keys = dist_keys<Key>(n, d, static_cast<std::uint64_t>(n) * 3 + static_cast<int>(d));
  std::vector<Key> want;
  std::vector<std::uint64_t> want_pos;
  cub_reference(keys, begin_bit, end_bit, descending, want, want_pos);
  const auto sizes = t.shards(n, variant);
  std::vector<std::vector<Key>> got(P);
  std::vector<std::vector<std::uint64_t>> got_pos(P);
  std::vector<dist::sort_stats> stats(P);
  t.on_ranks(sizes, [&](int r, std::int64_t begin, std::int64_t len) {
    cudaStream_t s;
    PARASCAN_CUDA_CHECK(cudaStreamCreate(&s));
    const std::int64_t n_global = dist::global_count(len, t.comms[r], s);
    const std::int64_t cap = n_global / P + 1;
    std::vector<std::uint64_t> pos(static_cast<std::size_t>(len));
    std::iota(pos.begin(), pos.end(), static_cast<std::uint64_t>(begin));
    device_buffer<Key> k(len), ko(cap);
    device_buffer<std::uint64_t> v(len), vo(cap);
    k.copy_from_host(keys.data() + begin, len);
    v.copy_from_host(pos.data(), len);
    ko.poison(), vo.poison();
    sort_options o;
    o.begin_bit = begin_bit, o.end_bit = end_bit, o.descending = descending;
    stats[r] = dist::sort_pairs(k.data(), v.data(), len, ko.data(), vo.data(), cap, t.comms[r], s, o);
    got[r].resize(static_cast<std::size_t>(stats[r].local));
    got_pos[r].resize(static_cast<std::size_t>(stats[r].local));
    ko.copy_to_host(got[r].data(), stats[r].local);
    vo.copy_to_host(got_pos[r].data(), stats[r].local);
    // Keys only: the same keys come out.
    device_buffer<Key> ko2(cap);
    ko2.poison();
    const auto st2 = dist::sort_keys(k.data(), len, ko2.data(), cap, t.comms[r], s, o);
    std::vector<Key> keys_only(static_cast<std::size_t>(st2.local));
    ko2.copy_to_host(keys_only.data(), st2.local);
    if (validation::bit_mismatches(keys_only, got[r]) != 0) throw std::runtime_error("sort_keys differs from sort_pairs' keys");
    PARASCAN_CUDA_CHECK(cudaStreamDestroy(s));
  });
  std::vector<Key> all;
  std::vector<std::uint64_t> all_pos;
  for (int r = 0; r < P; ++r) {
    EXPECT_EQ(stats[r].global, n);
    EXPECT_EQ(stats[r].local, n / P + (r < n % P ? 1 : 0)) << "rank " << r << ": not balanced";
    all.insert(all.end(), got[r].begin(), got[r].end());
    all_pos.insert(all_pos.end(), got_pos[r].begin(), got_pos[r].end());
  }
  std::int64_t first = -1;
  EXPECT_EQ(validation::bit_mismatches(all, want, &first), 0) << "keys; first at " << first;
  EXPECT_EQ(validation::bit_mismatches(all_pos, want_pos, &first), 0) << "positions (stability); first at " << first;
}

TEST_F(dist_test, sort_is_global_stable_and_balanced) {
  for (const std::int64_t n : sizes_to_test(ranks))
    for (keys_dist d : {keys_dist::uniform, keys_dist::all_equal, keys_dist::sorted, keys_dist::half_one_value,
                        keys_dist::narrow}) {
      if (n > (std::int64_t(1) << 25) && d != keys_dist::uniform && d != keys_dist::half_one_value) continue;
      for (int variant : {0, 1}) check_dist_sort<std::uint32_t>(*this, n, d, variant, 0, 32, false);
    }
}

TEST_F(dist_test, sort_of_every_width_descending_and_bit_ranges) {
  check_dist_sort<float>(*this, 200003, keys_dist::uniform, 0, 0, 32, true);
  check_dist_sort<std::int64_t>(*this, 200003, keys_dist::half_one_value, 1, 0, 64, false);
  check_dist_sort<double>(*this, 200003, keys_dist::uniform, 0, 0, 64, true);
  check_dist_sort<std::uint8_t>(*this, 200003, keys_dist::uniform, 1, 0, 8, false);
  check_dist_sort<std::int16_t>(*this, 200003, keys_dist::narrow, 0, 0, 16, true);
  check_dist_sort<std::uint32_t>(*this, 200003, keys_dist::uniform, 0, 5, 19, false);
  check_dist_sort<std::uint32_t>(*this, 200003, keys_dist::uniform, 1, 7, 7, false);  // no bits: input order
}

TEST_F(dist_test, a_too_small_output_is_refused_on_every_rank) {
  const std::int64_t n = 10007;
  std::vector<std::string> errors(ranks);
  on_ranks(shards(n, 0), [&](int r, std::int64_t begin, std::int64_t len) {
    device_buffer<std::uint32_t> k(len), o(n);
    try {  // rank 0 offers no room: every rank must refuse (none may wait in a collective)
      dist::sort_keys(k.data(), len, o.data(), r == 0 ? 0 : n, comms[r], 0);
    } catch (const cuda_error& e) {
      errors[r] = e.what();
    }
  });
  for (int r = 0; r < ranks; ++r) EXPECT_NE(errors[r].find("rank 0 receives"), std::string::npos) << "rank " << r << ": " << errors[r];
}

}  // namespace
