// GPU tests at the resident edge: the single-pass scan and selection run as one cooperative launch
// while every tile fits on the GPU at once, and take the status reset and the look-back from one tile
// more. Both sides of each edge, with the default options, against the CPU.
// This file includes the device headers only to ask the kernels' resident capacity. The entry points
// it calls are declared extern below, so that it links the library's instances instead of compiling
// the whole selection and scan again (which made gpu_select_test.cu the build's longest file).
#include <gtest/gtest.h>
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device/device_scan.cuh"
#include "parascan/device/device_select.cuh"
#include "parascan/validation/device_check.hpp"

namespace parascan {
extern template cudaError_t inclusive_scan<std::uint32_t, std::uint32_t, sum>(void*, std::size_t&, const std::uint32_t*,
                                                                              std::uint32_t*, std::int64_t, sum,
                                                                              cudaStream_t, scan_options);
extern template cudaError_t select_flagged<std::uint32_t, std::uint8_t>(void*, std::size_t&, const std::uint32_t*,
                                                                       const std::uint8_t*, std::uint32_t*,
                                                                       std::int64_t*, std::int64_t, cudaStream_t,
                                                                       scan_options);
}  // namespace parascan

namespace {
using namespace parascan;
using parascan::test::gpu_test;
using parascan::test::small_sizes_only;

class resident_edge : public gpu_test {};

TEST_F(resident_edge, scan_in_one_launch_and_with_the_look_back) {
  // The one launch is scan_resident_kernel; the edge is its resident capacity in tiles.
  using policy = device::scan_policy<std::uint32_t>;
  const auto kernel = device::scan_resident_kernel<policy, block_algorithm::warp_shuffle, std::uint32_t,
                                                   device::pointer_loader<std::uint32_t, std::uint32_t>,
                                                   device::pointer_storer<std::uint32_t>, sum>;
  std::int64_t capacity = 0;
  ASSERT_EQ(device::resident_capacity(kernel, policy::block_threads, capacity), cudaSuccess);
  ASSERT_GT(capacity, 0) << "this GPU cannot launch cooperatively";
  if (small_sizes_only()) GTEST_SKIP() << "too large for the sanitizer runs (scan_typed covers both paths there)";
  for (const std::int64_t n : {capacity * policy::tile_items, capacity * policy::tile_items + 1}) {
    SCOPED_TRACE("n=" + std::to_string(n) + ", resident capacity " + std::to_string(capacity) + " tiles");
    std::vector<std::uint32_t> h(static_cast<std::size_t>(n)), want(h.size()), got(h.size());
    std::mt19937_64 rng(n);
    std::uint32_t run = 0;
    for (std::size_t i = 0; i < h.size(); ++i) want[i] = run += (h[i] = static_cast<std::uint32_t>(rng()));
    device_buffer<std::uint32_t> in(n), out(n);
    in.copy_from_host(h.data(), n);
    ASSERT_EQ(cudaMemset(out.data(), 0x5a, static_cast<std::size_t>(n) * 4), cudaSuccess);
    std::size_t bytes = 0;
    ASSERT_EQ((inclusive_scan<std::uint32_t, std::uint32_t>(nullptr, bytes, nullptr, nullptr, n, sum{})), cudaSuccess);
    device_buffer<char> temp(bytes);
    ASSERT_EQ(inclusive_scan(temp.data(), bytes, in.data(), out.data(), n, sum{}), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(got.data(), out.data(), static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], want[i]) << i;
  }
}

TEST_F(resident_edge, select_in_one_launch_and_with_the_look_back) {
  // The one launch is select_tiles_kernel<..., true> (values in registers); the edge is its resident
  // capacity in tiles. One item past it 4-byte values take the look-back in the shared-memory kernel
  // (select_shared_tiles_kernel, tiles of its own size).
  using policy = device::select_resident_policy<std::uint32_t>;
  const auto kernel = device::select_tiles_kernel<policy, std::uint32_t, std::uint32_t, std::uint32_t,
                                                  device::keep_by_flag<std::uint8_t>, true>;
  std::int64_t capacity = 0;
  ASSERT_EQ(device::resident_capacity(kernel, policy::block_threads, capacity), cudaSuccess);
  ASSERT_GT(capacity, 0) << "this GPU cannot launch cooperatively";
  if (small_sizes_only()) GTEST_SKIP() << "too large for the sanitizer runs (select_typed covers both paths there)";
  for (const std::int64_t n : {capacity * policy::tile_items, capacity * policy::tile_items + 1}) {
    SCOPED_TRACE("n=" + std::to_string(n) + ", resident capacity " + std::to_string(capacity) + " tiles");
    std::vector<std::uint32_t> values(static_cast<std::size_t>(n)), want;
    std::vector<std::uint8_t> flags(values.size());
    std::mt19937_64 rng(n);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::uint64_t r = rng();
      values[i] = static_cast<std::uint32_t>(r);
      flags[i] = static_cast<std::uint8_t>((r >> 32) % 3);  // 0 drops, 1 and 2 keep
      if (flags[i] != 0) want.push_back(values[i]);
    }
    device_buffer<std::uint32_t> d_in(n), d_out(n);
    device_buffer<std::uint8_t> d_flags(n);
    device_buffer<std::int64_t> d_count(1);
    d_in.copy_from_host(values.data(), n);
    d_flags.copy_from_host(flags.data(), n);
    d_out.poison();
    d_count.poison();
    validation::run_two_phase([&](void* t, std::size_t& b) {
      return select_flagged(t, b, d_in.data(), d_flags.data(), d_out.data(), d_count.data(), n);
    }, 0);
    std::int64_t kept = 0;
    d_count.copy_to_host(&kept, 1);
    ASSERT_EQ(kept, static_cast<std::int64_t>(want.size()));
    std::vector<std::uint32_t> got(static_cast<std::size_t>(kept));
    d_out.copy_to_host(got.data(), kept);
    EXPECT_EQ(got, want);
  }
}

}  // namespace
