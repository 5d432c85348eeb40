// Host-only checks of the radix sort's bookkeeping: the core's order-preserving key image agrees
// with the CPU reference's (two independent writings) on every special value; descending is the
// exact complement; the chunking covers n; the ping-pong buffers end in the caller's output and
// never read and write the same buffer in one pass.
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/validation/sort_check.hpp"

namespace {
using namespace parascan;
using namespace parascan::device::sort_detail;

template <class Key>
std::vector<Key> interesting_keys() {
  std::vector<Key> v;
  if constexpr (std::is_floating_point_v<Key>) {
    const Key nan = std::numeric_limits<Key>::quiet_NaN(), inf = std::numeric_limits<Key>::infinity();
    v = {Key(0), -Key(0), Key(1), Key(-1), inf, -inf, nan, -nan, std::numeric_limits<Key>::denorm_min(),
         -std::numeric_limits<Key>::denorm_min(), std::numeric_limits<Key>::max(), std::numeric_limits<Key>::lowest()};
  } else {
    v = {Key(0), Key(1), std::numeric_limits<Key>::min(), std::numeric_limits<Key>::max(), static_cast<Key>(-1)};
  }
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t r = rng();
    Key k;
    std::memcpy(&k, &r, sizeof(k));
    v.push_back(k);
  }
  return v;
}

template <class Key>
void check_images() {
  using U = typename key_bits_of<Key>::type;
  const auto keys = interesting_keys<Key>();
  for (const Key& k : keys) {
    U raw;
    std::memcpy(&raw, &k, sizeof(raw));
    for (bool desc : {false, true}) {
      const U core = ordered_bits<U>(raw, kind_of_key<Key>(), desc);
      EXPECT_EQ(core, validation::cpu_order_of(k, desc)) << "key bits " << static_cast<unsigned long long>(raw);
    }
    EXPECT_EQ(static_cast<U>(~ordered_bits<U>(raw, kind_of_key<Key>(), false)), ordered_bits<U>(raw, kind_of_key<Key>(), true));
  }
  // The image orders as the key does (NaNs aside).
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    const Key a = keys[i], b = keys[i + 1];
    if constexpr (std::is_floating_point_v<Key>) {
      if (std::isnan(a) || std::isnan(b)) continue;
    }
    U ra, rb;
    std::memcpy(&ra, &a, sizeof(ra));
    std::memcpy(&rb, &b, sizeof(rb));
    const U ia = ordered_bits<U>(ra, kind_of_key<Key>(), false), ib = ordered_bits<U>(rb, kind_of_key<Key>(), false);
    EXPECT_EQ(a < b, ia < ib);
    EXPECT_EQ(a == b, ia == ib);  // so −0.0 and +0.0 have one image
  }
}

TEST(radix_bits, the_core_image_matches_the_reference_for_every_key_type) {
  check_images<std::uint8_t>();
  check_images<std::int8_t>();
  check_images<std::uint16_t>();
  check_images<std::int16_t>();
  check_images<std::uint32_t>();
  check_images<std::int32_t>();
  check_images<std::uint64_t>();
  check_images<std::int64_t>();
  check_images<float>();
  check_images<double>();
}

TEST(radix_bits, chunks_cover_every_item) {
  for (std::int64_t n : {std::int64_t(1), std::int64_t(255), std::int64_t(256), std::int64_t(257), std::int64_t(1) << 20,
                         (std::int64_t(1) << 31) + 3, std::int64_t(1) << 36}) {
    const chunking c = chunks_of(n);
    EXPECT_EQ(c.items % threads, 0) << n;
    EXPECT_LE(c.count, max_chunks) << n;
    EXPECT_GE(c.count * c.items, n) << n;
    EXPECT_LT((c.count - 1) * c.items, n) << n;
  }
}

TEST(radix_bits, ping_pong_ends_in_the_output_and_never_aliases) {
  int in = 0, out = 0, temp = 0;
  for (int passes = 1; passes <= 64; ++passes) {
    const ping_pong<int> b{&in, &out, &temp, passes};
    EXPECT_EQ(b.source(0), &in);
    EXPECT_EQ(b.target(passes - 1), &out) << passes;
    for (int p = 0; p < passes; ++p) EXPECT_NE(static_cast<const int*>(b.target(p)), b.source(p)) << passes << " " << p;
  }
}

}  // namespace
