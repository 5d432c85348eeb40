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

namespace {
using namespace parascan;

#define NCCL_CHECK(x)                                                                 \
  do {                                                                                \
    const ncclResult_t r_ = (x);                                                      \
    if (r_ != ncclSuccess) FAIL() << #x << ": " << ncclGetErrorString(r_);            \
  } while (0)

class dist_test : public ::testing::Test {
 protected:
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

}  // namespace
