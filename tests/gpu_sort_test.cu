// Radix sort on the GPU against cub::DeviceRadixSort and a CPU stable sort, every key type (sort_typed):
// sizes from 0 past the Onesweep's tile edges, every distribution, keys and pairs in both directions, and
// bit ranges, with every algorithm (sort_check.cuh). The named cases are in gpu_sort_cases_test.cu.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>
#include "parascan/device/device_onesweep.cuh"  // the Onesweep's tiles, whose edges the sizes follow
#include "sort_check.cuh"

namespace {
using namespace parascan;
using namespace parascan::test;

template <class Key>
class sort_typed : public gpu_test {};
using key_types = ::testing::Types<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t, std::int32_t,
                                   std::uint64_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(sort_typed, key_types);

/// Sizes at the edges of the Onesweep's tiles for Key as check_sort sorts it, read from the library's
/// policies so that a retuned tile keeps its edges tested: keys alone, pairs with 4-byte values below
/// small_pairs_below (its own tile) and at large sizes (the default tile); one tile − 1, one, + 1, and two
/// tiles + 1 (a last tile of one key). With `large`, the pairs' switch to the default tile too:
/// small_pairs_below − 1 and + 1 keys.
template <class Key>
std::vector<std::int64_t> onesweep_tile_edges(bool large) {
  namespace os = parascan::device::onesweep;
  using U = typename key_bits_of<Key>::type;  // the bits radix_sort_keys sorts Key by
  const std::int64_t tiles[] = {os::default_policy_t<U, parascan::device::sort_detail::no_values>::tile_items,
                                os::small_n_policy<U, std::uint32_t>::type::tile_items,
                                os::default_policy_t<U, std::uint32_t>::tile_items};
  std::vector<std::int64_t> sizes;
  for (const std::int64_t t : tiles) sizes.insert(sizes.end(), {t - 1, t, t + 1, 2 * t + 1});
  if (large) sizes.insert(sizes.end(), {os::small_pairs_below - 1, os::small_pairs_below + 1});
  return sizes;
}

/// The sizes the sort is checked at for Key: the Onesweep's tile edges for this key type
/// (onesweep_tile_edges) and the histogram's 4096; the one-block rows' edges (sort_one_row): 1024 / 1025,
/// 2048 / 2049, 4096 / 4097 and 8192 / 8193; the edges of tiles the Onesweep had before (256 × 23, 384 × 12,
/// 384 × 14, 384 × 26); past the small-size mode 65537 and 2^20 + 7.
template <class Key>
std::vector<std::int64_t> sort_sizes() {
  std::vector<std::int64_t> sizes = {0, 1, 2, 31, 255, 256, 257, 1024, 1025, 2048, 2049, 3000, 4096, 4097, 4608, 4609, 5376,
                                     5377, 5888, 5889, 7680, 7681, 8192, 8193, 8831, 8832, 8833, 9983, 9984, 9985,
                                     3 * 4096 - 1, 2 * 9984 + 1};
  const auto edges = onesweep_tile_edges<Key>(!test::small_sizes_only());
  sizes.insert(sizes.end(), edges.begin(), edges.end());
  if (!test::small_sizes_only()) sizes.insert(sizes.end(), {65537, (1 << 20) + 7});
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

/// sort_sizes, or the sizes listed in PARASCAN_TEST_SORT_SIZES (a comma list of key counts), so that a
/// racecheck run of split1, whose cost goes with its launches (32 passes a sort), can take a few sizes
/// (scripts/sanitize_sort_tests.sh). A list that does not parse fails the test that asked.
template <class Key>
std::vector<std::int64_t> sizes_under_test() {
  const auto items = env_list("PARASCAN_TEST_SORT_SIZES");
  if (items.empty()) return sort_sizes<Key>();
  std::vector<std::int64_t> sizes;
  for (const auto& item : items) {
    char* end = nullptr;
    const long long n = std::strtoll(item.c_str(), &end, 10);
    if (!item.empty() && end == item.c_str() + item.size() && n >= 0) sizes.push_back(n);
    else ADD_FAILURE() << "PARASCAN_TEST_SORT_SIZES holds no key count: '" << item << "'";
  }
  return sizes;
}

/// Keys and pairs of every distribution at the sizes of sizes_under_test in [lo, hi], against the CPU sort.
template <class Key>
void check_sizes_and_distributions(std::int64_t lo, std::int64_t hi) {
  for (std::int64_t n : sizes_under_test<Key>()) {
    if (n < lo || n > hi) continue;
    for (dist d : distributions_under_test()) {
      if (n > 70000 && d != dist::uniform && d != dist::few_unique) continue;
      const auto keys = make_keys<Key>(n, d, 100 + n + static_cast<int>(d));
      check_sort(keys, 0, -1, false, false, "keys");
      check_sort(keys, 0, -1, true, true, "pairs desc");
      if (n <= 8193) check_sort(keys, 0, -1, true, false, "keys desc");  // the one-block rows' codecs
    }
  }
}

// Three tests over the sizes, split where the sort changes path (the one-block rows end at 8193 keys), so
// that each finishes under compute-sanitizer within a time-limited call (scripts/sanitize_tests.sh; the
// one test took more than 480 s under memcheck and racecheck in stop 56).
TYPED_TEST(sort_typed, sizes_and_distributions_to_4097) { check_sizes_and_distributions<TypeParam>(0, 4097); }
TYPED_TEST(sort_typed, sizes_and_distributions_4098_to_8193) { check_sizes_and_distributions<TypeParam>(4098, 8193); }
TYPED_TEST(sort_typed, sizes_and_distributions_past_8193) {
  check_sizes_and_distributions<TypeParam>(8194, std::numeric_limits<std::int64_t>::max());
}

TYPED_TEST(sort_typed, bit_ranges_and_directions) {
  using Key = TypeParam;
  constexpr int bits = 8 * sizeof(Key);
  // 9000 keys take the Onesweep; 5000 one block ranking keys with their positions (sort_one_row) where
  // they are ≤ 4 bytes, else the Onesweep; 1500 the segmented sort's one-block tile (sorted_by_one_block)
  for (std::int64_t n : {9000, 5000, 1500}) {
    const auto keys = make_keys<Key>(n, dist::uniform, 7);
    const auto few = make_keys<Key>(n, dist::few_unique, 8);
    for (bool desc : {false, true}) {
      check_sort(keys, 0, bits / 2, desc, true, "low half");
      check_sort(keys, bits / 2, bits, desc, true, "high half");
      check_sort(keys, 3, bits - 1, desc, false, "3..bits-1");
      check_sort(keys, 5, 5, desc, true, "begin == end");
      check_sort(few, 1, 3, desc, true, "two bits, duplicates");
    }
  }
}

}  // namespace
