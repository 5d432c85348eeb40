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

/// The sort's kernels take key_codec::integer_form() for integer keys (performance.md entry 60): for
/// them it must encode, decode and order every key as the codec itself does.
template <class Key>
void check_integer_form() {
  using U = typename key_bits_of<Key>::type;
  for (bool desc : {false, true}) {
    const key_codec<U> codec(kind_of_key<Key>(), desc);
    const key_codec<U> folded = codec.integer_form();
    for (const Key& k : interesting_keys<Key>()) {
      U raw;
      std::memcpy(&raw, &k, sizeof(raw));
      const U b = codec.encode(raw);
      EXPECT_EQ(folded.encode(raw), b);
      EXPECT_EQ(folded.decode(b), raw);
      EXPECT_EQ(folded.ordered(b), codec.ordered(b));
      EXPECT_EQ(b, ordered_bits<U>(raw, kind_of_key<Key>(), desc));
    }
  }
}

TEST(radix_bits, the_integer_codec_form_is_the_same_codec_for_integer_keys) {
  check_integer_form<std::uint8_t>();
  check_integer_form<std::int8_t>();
  check_integer_form<std::uint16_t>();
  check_integer_form<std::int16_t>();
  check_integer_form<std::uint32_t>();
  check_integer_form<std::int32_t>();
  check_integer_form<std::uint64_t>();
  check_integer_form<std::int64_t>();
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

namespace {

/// The temporary bytes a sort of n keys asks for (mode 0: keys; 1: pairs with V values; 2: argsort into
/// V positions).
template <class K, class V>
std::size_t sort_bytes(std::int64_t n, int mode) {
  std::size_t b = 0;
  const sort_options o;
  const cudaError_t e = mode == 0 ? radix_sort_keys<K>(nullptr, b, nullptr, nullptr, n, o)
                        : radix_sort_pairs<K, V>(nullptr, b, nullptr, nullptr,
                                                 mode == 1 ? reinterpret_cast<const V*>(alignof(V)) : nullptr, nullptr, n, o);
  EXPECT_EQ(e, cudaSuccess) << n;
  return b;
}

template <class K, class V>
void sized_for_n_serves_fewer() {
  constexpr std::int64_t line = device::onesweep::small_pairs_below;  // pairs' small tiles below it
  const std::int64_t sizes[] = {0,    1,    2,     3,       100,      2047, 2048,    2049, 4095,
                                4096, 4097, 5000,  8192,    20000,    1 << 20, line - 1, line, line + 1,
                                1 << 21};
  for (int mode : {0, 1, 2}) {
    if (mode == 2 && sizeof(V) < 4) continue;  // argsort positions are 4 or 8 bytes
    for (std::int64_t n : sizes)
      for (std::int64_t m : sizes)
        if (m <= n)
          EXPECT_GE((sort_bytes<K, V>(n, mode)), (sort_bytes<K, V>(m, mode)))
              << sizeof(K) << "-byte keys, mode " << mode << ": sized for " << n << ", too little for " << m;
  }
}

}  // namespace

// A caller that sizes the temporary storage for n keys may sort fewer with it (the out-of-core sort's
// last chunk does): small sorts go to one block (sort_one_row, sorted_by_one_block), 0 or 1 keys to the
// Onesweep's copy and pairs below small_pairs_below to smaller tiles, so the sizes must not shrink as n
// grows across those paths.
TEST(radix_bits, temporary_storage_for_n_serves_every_smaller_n) {
  sized_for_n_serves_fewer<std::uint32_t, std::uint32_t>();
  sized_for_n_serves_fewer<std::uint32_t, std::uint64_t>();
  sized_for_n_serves_fewer<std::uint64_t, std::uint32_t>();
  sized_for_n_serves_fewer<std::uint8_t, std::uint32_t>();
  sized_for_n_serves_fewer<std::uint16_t, std::uint16_t>();
}

TEST(radix_bits, histogram_blocks_keep_16_bit_lane_counts) {
  // The sort's histogram counts in 16-bit counters a lane, 16 keys a thread a tile: no block may count
  // more than hist_lane_tiles_max tiles, and there are never more blocks than tiles.
  using device::onesweep::hist_blocks;
  using device::onesweep::hist_lane_tiles_max;
  for (const std::int64_t resident : {std::int64_t(0), std::int64_t(1), std::int64_t(396), std::int64_t(924)})
    for (const std::int64_t tiles : {std::int64_t(1), std::int64_t(2), std::int64_t(395), std::int64_t(396),
                                     std::int64_t(397), hist_lane_tiles_max, hist_lane_tiles_max + 1,
                                     396 * hist_lane_tiles_max, 396 * hist_lane_tiles_max + 1,
                                     std::int64_t(1) << 30, (std::int64_t(1) << 32) + 7}) {
      const std::int64_t blocks = hist_blocks(tiles, resident);
      EXPECT_GE(blocks, 1) << tiles << " tiles, " << resident << " resident";
      EXPECT_LE(blocks, tiles) << tiles << " tiles, " << resident << " resident";
      EXPECT_LE((tiles + blocks - 1) / blocks, hist_lane_tiles_max) << tiles << " tiles, " << resident << " resident";
      if (resident <= tiles) EXPECT_GE(blocks, resident) << "a resident grid is used in full";
    }
}
