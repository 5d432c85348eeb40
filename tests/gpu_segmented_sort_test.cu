// Segmented and batched sort on the GPU against a CPU stable sort of each segment: every key width
// and kind, keys / pairs / argsort (4- and 8-byte positions), both directions and a bit range, rows
// of every size class and their edges, ragged offsets with empty and length-1 segments and gaps,
// a skewed mix, stability on few distinct keys, and CUDA-graph capture replayed on new data.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/segmented_sort.hpp"
#include "parascan/validation/sort_check.hpp"

namespace {
using namespace parascan;
using parascan::test::gpu_test;

/// Segments on the host: rows (count × length) or begin/end offsets.
struct host_segments {
  std::int64_t rows = -1, length = 0;
  std::vector<std::int64_t> begin, end;
  std::int64_t count() const { return rows >= 0 ? rows : static_cast<std::int64_t>(begin.size()); }
  std::int64_t begin_of(std::int64_t s) const { return rows >= 0 ? s * length : begin[s]; }
  std::int64_t end_of(std::int64_t s) const { return rows >= 0 ? (s + 1) * length : std::max(end[s], begin[s]); }
};

host_segments rows(std::int64_t r, std::int64_t l) { return {r, l, {}, {}}; }

/// Contiguous segments of the given lengths, with `gap` unsorted items before each.
host_segments ragged(const std::vector<std::int64_t>& lengths, std::int64_t gap = 0) {
  host_segments s;
  std::int64_t at = 0;
  for (std::int64_t len : lengths) {
    at += gap;
    s.begin.push_back(at);
    s.end.push_back(at + len);
    at += len;
  }
  return s;
}

template <class Key>
std::vector<Key> random_keys(std::int64_t n, std::uint64_t seed, bool few_distinct) {
  std::mt19937_64 rng(seed);
  std::vector<Key> v(static_cast<std::size_t>(n));
  for (auto& k : v) {
    std::uint64_t r = rng();
    if (few_distinct) r %= 5;
    if constexpr (std::is_floating_point_v<Key>) {
      k = few_distinct ? static_cast<Key>(static_cast<double>(r) - 2.0)
                       : static_cast<Key>((static_cast<double>(r >> 11) / 9007199254740992.0 - 0.5) * 1e6);
      if (!few_distinct && r % 97 == 0) k = -Key(0);  // −0.0 among the keys, equal to +0.0
      if (!few_distinct && r % 89 == 0) k = (r & 256) ? -std::numeric_limits<Key>::infinity() : std::numeric_limits<Key>::infinity();
      if (!few_distinct && r % 83 == 0) {  // NaNs of both signs, ordered by their bits (CUB's radix order)
        k = std::numeric_limits<Key>::quiet_NaN();
        if (r & 512) k = -k;
      }
    } else if (few_distinct) {
      k = static_cast<Key>(r);
    } else {
      std::memcpy(&k, &r, sizeof(k));
    }
  }
  return v;
}

enum class mode { keys, pairs, argsort32, argsort64 };
const char* name_of(mode m) {
  return m == mode::keys ? "keys" : m == mode::pairs ? "pairs" : m == mode::argsort32 ? "argsort-u32" : "argsort-u64";
}

/// Runs the segmented sort of `keys` over `seg` in `m` and compares keys and values bitwise with the
/// CPU stable sort of each segment; items in no segment must keep the outputs' poison.
template <class Key>
void check(const std::vector<Key>& keys, const host_segments& seg, mode m, segmented_sort_options o, const std::string& what) {
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  const int end_bit = o.end_bit < 0 ? static_cast<int>(8 * sizeof(Key)) : o.end_bit;
  using V = std::uint64_t;  // pairs' values and 8-byte positions; 4-byte positions are read as u32
  std::vector<V> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0x9E3779B97F4A7C15ull * (i + 1);
  // The expected outputs: poison outside the segments, each segment's stable sort inside.
  std::vector<Key> want_keys(keys.size());
  std::memset(want_keys.data(), 0xA5, want_keys.size() * sizeof(Key));
  std::vector<V> want_values(keys.size(), 0xA5A5A5A5A5A5A5A5ull);
  std::vector<std::uint32_t> want_positions32(keys.size(), 0xA5A5A5A5u);
  for (std::int64_t s = 0; s < seg.count(); ++s) {
    const std::int64_t b = seg.begin_of(s), e = seg.end_of(s);
    const std::vector<Key> part(keys.begin() + b, keys.begin() + e);
    const auto order = validation::cpu_sort_order(part, o.begin_bit, end_bit, o.descending);
    for (std::int64_t i = 0; i < e - b; ++i) {
      want_keys[b + i] = part[order[i]];
      want_values[b + i] = m == mode::pairs ? values[b + order[i]] : static_cast<V>(order[i]);
      want_positions32[b + i] = static_cast<std::uint32_t>(order[i]);
    }
  }
  device_buffer<Key> d_in(n), d_out(n);
  device_buffer<V> d_vin(n), d_vout(n);
  device_buffer<std::int64_t> d_begin(seg.begin.size()), d_end(seg.end.size());
  d_in.copy_from_host(keys.data(), n);
  d_vin.copy_from_host(values.data(), n);
  if (seg.rows < 0) {
    d_begin.copy_from_host(seg.begin.data(), seg.begin.size());
    d_end.copy_from_host(seg.end.data(), seg.end.size());
  }
  const segment_layout layout = seg.rows >= 0 ? segment_layout::rows(seg.rows, seg.length)
                                              : segment_layout::offsets(seg.count(), d_begin.data(), d_end.data());
  d_out.poison();
  d_vout.poison();
  o.debug_synchronous = true;
  auto* positions32 = reinterpret_cast<std::uint32_t*>(d_vout.data());
  const auto call = [&](void* t, std::size_t& b) {
    switch (m) {
      case mode::keys: return segmented_sort_keys(t, b, d_in.data(), d_out.data(), n, layout, o);
      case mode::pairs: return segmented_sort_pairs(t, b, d_in.data(), d_out.data(), d_vin.data(), d_vout.data(), n, layout, o);
      case mode::argsort32: return segmented_argsort(t, b, d_in.data(), d_out.data(), positions32, n, layout, o);
      default: return segmented_argsort(t, b, d_in.data(), d_out.data(), d_vout.data(), n, layout, o);
    }
  };
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(call(nullptr, bytes));
  device_buffer<char> temp(bytes);
  temp.poison();
  PARASCAN_CUDA_CHECK(call(temp.data(), bytes));
  PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<Key> got(keys.size());
  d_out.copy_to_host(got.data(), n);
  std::int64_t first = -1;
  const std::string where = what + " " + name_of(m) + " n=" + std::to_string(n) + " segments=" + std::to_string(seg.count()) +
                            " bits [" + std::to_string(o.begin_bit) + "," + std::to_string(end_bit) + ") " +
                            (o.descending ? "desc" : "asc");
  EXPECT_EQ(validation::bit_mismatches(got, want_keys, &first), 0) << where << ": keys differ, first at " << first;
  if (m == mode::keys) return;
  std::vector<V> gv(keys.size());
  d_vout.copy_to_host(gv.data(), n);
  if (m == mode::argsort32) {
    std::vector<std::uint32_t> g32(keys.size());
    std::memcpy(g32.data(), gv.data(), g32.size() * sizeof(std::uint32_t));
    EXPECT_EQ(validation::bit_mismatches(g32, want_positions32, &first), 0) << where << ": positions differ, first at " << first;
  } else {
    EXPECT_EQ(validation::bit_mismatches(gv, want_values, &first), 0) << where << ": values differ, first at " << first;
  }
}

template <class Key>
class segmented_sort_typed : public gpu_test {};
using key_types = ::testing::Types<std::uint8_t, std::int16_t, std::uint32_t, std::int32_t, float, std::uint64_t, double>;
TYPED_TEST_SUITE(segmented_sort_typed, key_types);

/// Rows at every class edge: empty rows, 1, the warp's 32 ± 1, the small block's 512 ± 1, the tile
/// ± 1 (4096 or 2048), and rows of several merge levels (50257 is a vocabulary).
TYPED_TEST(segmented_sort_typed, rows_of_every_class) {
  using Key = TypeParam;
  const bool small = test::small_sizes_only();
  // the tile edges: 512 (small), 1024 and 2048 (the 256 x 4 and 256 x 8 tiles for rows that short), 4096
  const std::vector<std::int64_t> lengths = small ? std::vector<std::int64_t>{0, 1, 31, 33, 511, 513, 1024, 1025, 2047, 2049, 4097, 9000}
                                                  : std::vector<std::int64_t>{0, 1, 2, 17, 31, 32, 33, 300, 511, 512, 513, 1024, 1025,
                                                                              2047, 2048, 2049, 4095, 4096, 4097, 10000, 50257};
  for (std::int64_t len : lengths) {
    const std::int64_t r = len == 0 ? 5 : std::max<std::int64_t>(1, std::min<std::int64_t>(small ? 4 : 64, (small ? 20000 : 400000) / len));
    const auto keys = random_keys<Key>(r * len, 1000 + len, false);
    for (mode m : {mode::keys, mode::pairs, mode::argsort32, mode::argsort64})
      check(keys, rows(r, len), m, {}, "rows " + std::to_string(r) + "x" + std::to_string(len));
  }
}

TYPED_TEST(segmented_sort_typed, descending_and_bit_ranges) {
  using Key = TypeParam;
  const int bits = static_cast<int>(8 * sizeof(Key));
  const auto keys = random_keys<Key>(3 * 5000, 7, false);
  for (const auto& range : {std::pair<int, int>{0, -1}, {1, bits - 2}, {bits / 2, bits}, {3, 3}}) {
    for (bool descending : {false, true}) {
      segmented_sort_options o;
      o.begin_bit = range.first;
      o.end_bit = range.second;
      o.descending = descending;
      check(keys, rows(3, 5000), mode::pairs, o, "rows 3x5000");
      check(keys, ragged({100, 0, 1, 40, 4000, 9000, 1859}), mode::argsort64, o, "ragged");
    }
  }
}

/// Rows of 2..32 items, a thread a row (segmented_sort/thread_rows.cuh): every network size and its
/// edges, in more rows than a block holds (a partial last block), descending, a bit range, and ties.
TYPED_TEST(segmented_sort_typed, short_rows_by_threads) {
  using Key = TypeParam;
  const int bits = static_cast<int>(8 * sizeof(Key));
  const std::int64_t r = test::small_sizes_only() ? 301 : 3001;
  for (std::int64_t len : {2, 3, 4, 5, 8, 9, 16, 17, 31, 32}) {
    const auto keys = random_keys<Key>(r * len, 2000 + len, false);
    for (mode m : {mode::keys, mode::pairs, mode::argsort32, mode::argsort64})
      check(keys, rows(r, len), m, {}, "rows " + std::to_string(r) + "x" + std::to_string(len));
    segmented_sort_options o;
    o.descending = true;
    o.begin_bit = 1;
    o.end_bit = bits - 2;
    check(keys, rows(r, len), mode::pairs, o, "descending bits [1, " + std::to_string(bits - 2) + ")");
    const auto ties = random_keys<Key>(r * len, 3000 + len, true);
    for (bool descending : {false, true}) {
      o = {};
      o.descending = descending;
      check(ties, rows(r, len), mode::argsort64, o, "few distinct rows of " + std::to_string(len));
      check(ties, rows(r, len), mode::keys, o, "few distinct rows of " + std::to_string(len));
    }
  }
}

/// Ragged segments: power-law lengths with empty and length-1 ones, contiguous and with gaps that
/// belong to no segment.
TYPED_TEST(segmented_sort_typed, ragged_segments_with_gaps) {
  using Key = TypeParam;
  std::mt19937_64 rng(42);
  std::vector<std::int64_t> lengths;
  const int count = test::small_sizes_only() ? 300 : 3000;
  for (int i = 0; i < count; ++i) {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    lengths.push_back(static_cast<std::int64_t>(std::pow(2.0, 15.0 * u * u * u)) - 1);  // 0 .. 2^15, mostly short
  }
  for (std::int64_t gap : {0, 3}) {
    const host_segments seg = ragged(lengths, gap);
    const auto keys = random_keys<Key>(seg.end.back() + 5, 99 + gap, false);
    for (mode m : {mode::keys, mode::pairs, mode::argsort32})
      check(keys, seg, m, {}, "ragged gap " + std::to_string(gap));
  }
}

/// Stability: few distinct keys, so most keys tie and positions must stay in input order.
TYPED_TEST(segmented_sort_typed, ties_keep_input_order) {
  using Key = TypeParam;
  const auto keys = random_keys<Key>(40000, 5, true);
  for (bool descending : {false, true}) {
    segmented_sort_options o;
    o.descending = descending;
    check(keys, ragged({20, 300, 3000, 6000, 30680}), mode::argsort64, o, "few distinct");
    check(keys, rows(8, 5000), mode::pairs, o, "few distinct rows");
  }
}

class segmented_sort_test : public gpu_test {};

/// One segment far larger than the rest among many tiny ones (the skewed mix), and segments given
/// out of order.
TEST_F(segmented_sort_test, skewed_mix_and_unordered_offsets) {
  const std::int64_t big = test::small_sizes_only() ? (1 << 15) : (1 << 21);
  const int tiny = test::small_sizes_only() ? 2000 : 100000;
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(tiny), 3);
  lengths.insert(lengths.begin() + tiny / 2, big);
  host_segments seg = ragged(lengths);
  std::reverse(seg.begin.begin(), seg.begin.end());
  std::reverse(seg.end.begin(), seg.end.end());
  const auto keys = random_keys<float>(seg.begin.front() + 3, 3, false);
  check(keys, seg, mode::pairs, {}, "skewed");
  check(keys, seg, mode::argsort64, {}, "skewed");
}

/// A few long rows go through the device-wide radix sort one by one (device_segmented_sort.cuh).
TEST_F(segmented_sort_test, few_long_rows_one_by_one) {
  const std::int64_t len = (std::int64_t(1) << 18) + 3;
  const auto keys = random_keys<double>(3 * len, 11, false);
  for (mode m : {mode::keys, mode::pairs, mode::argsort32, mode::argsort64}) check(keys, rows(3, len), m, {}, "3 long rows");
  segmented_sort_options o;
  o.descending = true;
  o.begin_bit = 4;
  check(random_keys<std::uint32_t>(2 * len, 12, true), rows(2, len), mode::argsort64, o, "2 long rows, few distinct");
}

/// Rows of at least four Onesweep tiles take the digit passes of every row in the same launches
/// (onesweep/rows.cuh): a last tile of one key, few distinct keys (stability across a row's tiles),
/// descending with a bit range, 16- and 64-bit keys.
TEST_F(segmented_sort_test, long_rows_by_onesweep_over_rows) {
  const std::int64_t len = 4 * 256 * 23 + 1;  // keys of <= 4 bytes: tiles of 256 x 23; pairs take 384 x 26
  for (mode m : {mode::keys, mode::pairs, mode::argsort32, mode::argsort64})
    check(random_keys<float>(9 * len, 31, false), rows(9, len), m, {}, "9 rows of 4 tiles + 1");
  segmented_sort_options o;
  o.descending = true;
  o.begin_bit = 3;
  check(random_keys<std::uint32_t>(20 * 60001, 32, true), rows(20, 60001), mode::argsort64, o, "few distinct, descending");
  check(random_keys<std::uint16_t>(5 * 100000, 33, false), rows(5, 100000), mode::pairs, {}, "16-bit rows");
  check(random_keys<std::uint64_t>(4 * 70000, 34, false), rows(4, 70000), mode::argsort64, {}, "64-bit rows");
}

/// The sort captured in a CUDA graph, then replayed on new keys in the same buffers: no host
/// synchronisation or read-back inside the call (rows of two classes, ragged with a large segment).
TEST_F(segmented_sort_test, captured_in_a_graph_and_replayed_on_new_data) {
  const host_segments seg = ragged({5, 40, 700, 3000, 20000, 0, 1});
  const std::int64_t n = seg.end.back();
  device_buffer<float> d_in(n), d_out(n);
  device_buffer<std::int64_t> d_pos(n), d_begin(seg.begin.size()), d_end(seg.end.size());
  d_begin.copy_from_host(seg.begin.data(), seg.begin.size());
  d_end.copy_from_host(seg.end.data(), seg.end.size());
  const segment_layout layout = segment_layout::offsets(seg.count(), d_begin.data(), d_end.data());
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(segmented_argsort(nullptr, bytes, d_in.data(), d_out.data(), d_pos.data(), n, layout));
  device_buffer<char> temp(bytes);
  cudaStream_t stream;
  PARASCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  PARASCAN_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  PARASCAN_CUDA_CHECK(segmented_argsort(temp.data(), bytes, d_in.data(), d_out.data(), d_pos.data(), n, layout, {}, stream));
  PARASCAN_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  PARASCAN_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (std::uint64_t round = 0; round < 3; ++round) {
    const auto keys = random_keys<float>(n, 500 + round, round == 2);
    d_in.copy_from_host(keys.data(), n);
    d_out.poison();
    d_pos.poison();
    PARASCAN_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<float> got(n);
    std::vector<std::int64_t> pos(n);
    d_out.copy_to_host(got.data(), n);
    d_pos.copy_to_host(pos.data(), n);
    for (std::int64_t s = 0; s < seg.count(); ++s) {
      const std::vector<float> part(keys.begin() + seg.begin[s], keys.begin() + seg.end[s]);
      const auto order = validation::cpu_sort_order(part, 0, 32, false);
      const std::vector<float> want = validation::permuted(part, order);
      const std::vector<float> have(got.begin() + seg.begin[s], got.begin() + seg.end[s]);
      const std::vector<std::int64_t> have_pos(pos.begin() + seg.begin[s], pos.begin() + seg.end[s]);
      EXPECT_EQ(validation::bit_mismatches(have, want), 0) << "round " << round << " segment " << s;
      EXPECT_EQ(have_pos, order) << "round " << round << " segment " << s;
    }
  }
  PARASCAN_CUDA_CHECK(cudaGraphExecDestroy(exec));
  PARASCAN_CUDA_CHECK(cudaGraphDestroy(graph));
  PARASCAN_CUDA_CHECK(cudaStreamDestroy(stream));
}

TEST_F(segmented_sort_test, bad_arguments_are_refused) {
  device_buffer<std::uint32_t> d(16);
  std::size_t bytes = 0;
  segmented_sort_options o;
  EXPECT_EQ(segmented_sort_keys(nullptr, bytes, d.data(), d.data(), 16, segment_layout::rows(5, 4)), cudaErrorInvalidValue)
      << "rows past the end of the keys";
  o.end_bit = 40;
  EXPECT_EQ(segmented_sort_keys(nullptr, bytes, d.data(), d.data(), 16, segment_layout::rows(4, 4), o), cudaErrorInvalidValue);
  EXPECT_EQ(segmented_sort_keys(nullptr, bytes, d.data(), d.data(), 16, segment_layout::offsets(2, nullptr, nullptr)),
            cudaErrorInvalidValue);
  EXPECT_EQ(segmented_sort_keys(nullptr, bytes, d.data(), d.data(), 16, segment_layout::rows(0, 4)), cudaSuccess);
}

}  // namespace
