// 16-bit float keys (__half, __nv_bfloat16) through the radix sort and the segmented sort, against a
// CPU stable sort of their values decoded independently of the library (−0.0 equal to +0.0, ±inf,
// subnormals, many ties), keys and argsort, both directions.
#include <gtest/gtest.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/segmented_sort.hpp"
#include "half_values.hpp"

namespace {
using namespace parascan;
using parascan::test::gpu_test;
using parascan::test::random_halves;
using parascan::test::value_of;

/// The stable order of [begin, end) by value (−0.0 == +0.0), as positions from begin.
template <class Key>
std::vector<std::int64_t> cpu_order(const std::vector<std::uint16_t>& keys, std::int64_t begin, std::int64_t end,
                                    bool descending) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(end - begin));
  std::iota(p.begin(), p.end(), 0);
  std::stable_sort(p.begin(), p.end(), [&](std::int64_t a, std::int64_t b) {
    const double x = value_of<Key>(keys[begin + a]), y = value_of<Key>(keys[begin + b]);
    return descending ? y < x : x < y;
  });
  return p;
}

template <class Key>
void check_whole_sort(std::int64_t n, bool descending, std::uint64_t seed) {
  const auto h = random_halves<Key>(n, seed);
  const auto order = cpu_order<Key>(h, 0, n, descending);
  device_buffer<std::uint16_t> in(n), out(n);
  device_buffer<std::uint32_t> positions(n);
  in.copy_from_host(h.data(), n);
  out.poison();
  sort_options o;
  o.descending = descending;
  o.debug_synchronous = true;
  const Key* keys_in = reinterpret_cast<const Key*>(in.data());
  Key* keys_out = reinterpret_cast<Key*>(out.data());
  std::size_t bytes = 0;
  ASSERT_EQ(radix_sort_pairs(nullptr, bytes, keys_in, keys_out, static_cast<const std::uint32_t*>(nullptr),
                             positions.data(), n, o),
            cudaSuccess);
  device_buffer<char> temp(bytes);
  ASSERT_EQ(radix_sort_pairs(temp.data(), bytes, keys_in, keys_out, static_cast<const std::uint32_t*>(nullptr),
                             positions.data(), n, o),
            cudaSuccess);
  std::vector<std::uint16_t> got(static_cast<std::size_t>(n));
  std::vector<std::uint32_t> got_p(static_cast<std::size_t>(n));
  out.copy_to_host(got.data(), n);
  positions.copy_to_host(got_p.data(), n);
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += got_p[i] != order[i] || got[i] != h[order[i]];
  EXPECT_EQ(bad, 0) << "argsort of " << n << (descending ? " descending" : " ascending");
  // Keys alone.
  out.poison();
  bytes = 0;
  ASSERT_EQ(radix_sort_keys(nullptr, bytes, keys_in, keys_out, n, o), cudaSuccess);
  device_buffer<char> temp2(bytes);
  ASSERT_EQ(radix_sort_keys(temp2.data(), bytes, keys_in, keys_out, n, o), cudaSuccess);
  out.copy_to_host(got.data(), n);
  bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += got[i] != h[order[i]];
  EXPECT_EQ(bad, 0) << "keys of " << n << (descending ? " descending" : " ascending");
}

template <class Key>
void check_rows(std::int64_t rows, std::int64_t length, bool descending, std::uint64_t seed) {
  const std::int64_t n = rows * length;
  const auto h = random_halves<Key>(n, seed);
  device_buffer<std::uint16_t> in(n), out(n);
  device_buffer<std::int64_t> positions(n);
  in.copy_from_host(h.data(), n);
  out.poison();
  segmented_sort_options o;
  o.descending = descending;
  o.debug_synchronous = true;
  const auto layout = segment_layout::rows(rows, length);
  const Key* keys_in = reinterpret_cast<const Key*>(in.data());
  Key* keys_out = reinterpret_cast<Key*>(out.data());
  std::size_t bytes = 0;
  ASSERT_EQ(segmented_argsort(nullptr, bytes, keys_in, keys_out, positions.data(), n, layout, o), cudaSuccess);
  device_buffer<char> temp(bytes);
  ASSERT_EQ(segmented_argsort(temp.data(), bytes, keys_in, keys_out, positions.data(), n, layout, o), cudaSuccess);
  std::vector<std::uint16_t> got(static_cast<std::size_t>(n));
  std::vector<std::int64_t> got_p(static_cast<std::size_t>(n));
  out.copy_to_host(got.data(), n);
  positions.copy_to_host(got_p.data(), n);
  std::int64_t bad = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto order = cpu_order<Key>(h, r * length, (r + 1) * length, descending);
    for (std::int64_t i = 0; i < length; ++i) {
      const std::int64_t at = r * length + i;
      bad += got_p[at] != order[i] || got[at] != h[r * length + order[i]];
    }
  }
  EXPECT_EQ(bad, 0) << rows << " rows of " << length << (descending ? " descending" : " ascending");
}

class half_keys_test : public gpu_test {};

TEST_F(half_keys_test, f16_and_bf16_sorted_whole) {
  for (bool descending : {false, true}) {
    // 3001 and 8192: one block sorting the encoded keys (keys alone) or ranking positions (argsort)
    for (std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(3001), std::int64_t(8192), std::int64_t(100003),
                           std::int64_t(1) << 20}) {
      check_whole_sort<__half>(n, descending, 1 + n);
      check_whole_sort<__nv_bfloat16>(n, descending, 2 + n);
    }
  }
}

TEST_F(half_keys_test, f16_and_bf16_sorted_in_rows_of_every_size_class) {
  for (bool descending : {false, true}) {
    for (auto [rows, length] : std::vector<std::pair<std::int64_t, std::int64_t>>{
             {1000, 7}, {300, 32}, {200, 257}, {20, 3000}, {3, 50257}}) {
      check_rows<__half>(rows, length, descending, 10 + length);
      check_rows<__nv_bfloat16>(rows, length, descending, 11 + length);
    }
  }
}

}  // namespace
