// The distributed sort's cut search (core/src/dist_cuts.hpp) over simulated ranks, on the host: each
// rank's shard sorted, the per-round digit starts found by binary search as the device kernel does,
// the counts summed as ncclAllReduce does; then the pieces every rank would send are gathered per
// destination and merged, and compared with the global stable order — every destination gets exactly
// its balanced share, ties (all keys equal, one value holding half the keys) in global input order.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include "dist_cuts.hpp"

namespace {
using parascan::dist::detail::balanced_bounds;
using parascan::dist::detail::cut_search;
using parascan::dist::detail::merge_path_run;

struct item {
  std::uint32_t key;
  std::int64_t pos;  // global input position
};

enum class dist { uniform, all_equal, narrow, half_one_value, sorted };

/// Runs the search for P ranks holding `shards` (their input order) on the top `width` bits of the
/// key; returns, per destination, what it would receive merged stably (in source-rank order on ties).
std::vector<std::vector<item>> simulate(const std::vector<std::vector<item>>& shards, int width) {
  const int P = static_cast<int>(shards.size());
  const auto field = [&](std::uint32_t k) { return static_cast<std::uint64_t>(k) >> (32 - width); };
  std::vector<std::vector<item>> sorted = shards;
  std::vector<std::int64_t> n_of;
  for (auto& s : sorted) {
    std::stable_sort(s.begin(), s.end(), [&](const item& a, const item& b) { return field(a.key) < field(b.key); });
    n_of.push_back(static_cast<std::int64_t>(s.size()));
  }
  const auto B = balanced_bounds(n_of);
  const std::int64_t n = B[P];
  const int cuts = P - 1;
  std::vector<cut_search> search;
  for (int q = 0; q < P; ++q) search.emplace_back(cuts, n_of[q]);
  for (int done = 0; done < width && cuts > 0;) {
    const int bits = std::min(8, width - done), shift = width - done - bits;
    std::vector<std::vector<std::int64_t>> starts(P, std::vector<std::int64_t>(static_cast<std::size_t>(cuts) * 257));
    std::vector<std::int64_t> global(static_cast<std::size_t>(cuts) * 256, 0);
    for (int q = 0; q < P; ++q) {
      for (int j = 0; j < cuts; ++j)
        for (int d = 0; d < 257; ++d) {
          std::int64_t a = search[q].lo[j], b = search[q].hi[j];
          if (d < (1 << bits)) {
            const std::uint64_t target = ((search[q].prefix[j] << bits) | static_cast<std::uint64_t>(d)) << shift;
            const auto it = std::lower_bound(sorted[q].begin() + a, sorted[q].begin() + b, target,
                                             [&](const item& x, std::uint64_t t) { return field(x.key) < t; });
            a = it - sorted[q].begin();
          } else {
            a = b;
          }
          starts[q][j * 257 + d] = a;
        }
      const auto sizes = search[q].sizes(starts[q]);
      for (std::size_t i = 0; i < sizes.size(); ++i) global[i] += sizes[i];
    }
    for (int q = 0; q < P; ++q) search[q].narrow(B, n, starts[q], global, bits);
    done += bits;
  }
  std::vector<std::int64_t> ties_all;
  for (int q = 0; q < P; ++q) {
    const auto t = search[q].ties();
    ties_all.insert(ties_all.end(), t.begin(), t.end());
  }
  std::vector<std::vector<item>> out(P);
  for (int q = 0; q < P; ++q) {
    const auto c = search[q].positions(B, n, ties_all, q, n_of[q]);
    EXPECT_EQ(c.front(), 0);
    EXPECT_EQ(c.back(), n_of[q]);
    for (int r = 0; r < P; ++r) {
      EXPECT_LE(c[r], c[r + 1]) << "rank " << q << " cut " << r;
      out[r].insert(out[r].end(), sorted[q].begin() + c[r], sorted[q].begin() + c[r + 1]);
    }
  }
  for (auto& o : out)  // what the receiving rank's stable merge of the source-ordered runs gives
    std::stable_sort(o.begin(), o.end(), [&](const item& a, const item& b) { return field(a.key) < field(b.key); });
  return out;
}

void check(int P, std::int64_t n, dist d, int width, int shard_style, std::uint64_t seed) {
  SCOPED_TRACE("P=" + std::to_string(P) + " n=" + std::to_string(n) + " dist=" + std::to_string(static_cast<int>(d)) +
               " width=" + std::to_string(width) + " shards=" + std::to_string(shard_style));
  std::mt19937_64 rng(seed);
  std::vector<item> all(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint32_t k = static_cast<std::uint32_t>(rng());
    if (d == dist::all_equal) k = 0x12345678u;
    if (d == dist::narrow) k %= 5;
    if (d == dist::half_one_value && (rng() & 1)) k = 0x9abcdef0u;
    if (d == dist::sorted) k = static_cast<std::uint32_t>(i * 7919);
    all[i] = {k, i};
  }
  // Shards: 0 even, 1 uneven (1 : 2 : … : P), 2 every other rank empty.
  std::vector<std::vector<item>> shards(P);
  std::int64_t at = 0;
  const std::int64_t weights = shard_style == 1 ? std::int64_t(P) * (P + 1) / 2 : shard_style == 2 ? (P + 1) / 2 : P;
  for (int q = 0; q < P; ++q) {
    const std::int64_t w = shard_style == 1 ? q + 1 : shard_style == 2 ? (q % 2 == 0) : 1;
    std::int64_t len = n * w / weights;
    if (q == P - 1) len = n - at;
    shards[q].assign(all.begin() + at, all.begin() + at + len);
    at += len;
  }
  const auto field = [&](std::uint32_t k) { return static_cast<std::uint64_t>(k) >> (32 - width); };
  std::vector<item> want = all;
  std::stable_sort(want.begin(), want.end(), [&](const item& a, const item& b) { return field(a.key) < field(b.key); });
  const auto got = simulate(shards, width);
  std::int64_t start = 0;
  for (int r = 0; r < P; ++r) {
    const std::int64_t share = n / P + (r < n % P ? 1 : 0);
    ASSERT_EQ(static_cast<std::int64_t>(got[r].size()), share) << "rank " << r << " not balanced";
    for (std::int64_t i = 0; i < share; ++i) {
      ASSERT_EQ(got[r][i].pos, want[start + i].pos) << "rank " << r << " item " << i << ": not the global stable order";
    }
    start += share;
  }
}

TEST(dist_cuts, every_rank_gets_its_share_in_global_stable_order) {
  std::uint64_t seed = 1;
  for (int P : {2, 3, 4, 7})
    for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(P - 1), std::int64_t(1000), std::int64_t(30011)})
      for (dist d : {dist::uniform, dist::all_equal, dist::narrow, dist::half_one_value, dist::sorted})
        for (int style : {0, 1, 2}) check(P, n, d, 32, style, ++seed);
}

TEST(dist_cuts, partial_bit_ranges_and_no_bits) {
  std::uint64_t seed = 100;
  for (int width : {12, 4, 0})
    for (dist d : {dist::uniform, dist::half_one_value, dist::narrow})
      for (int style : {0, 1, 2}) check(4, 20011, d, width, style, ++seed);
}

/// The receiving side's merge as merge_kernel runs it (merge_path_run per thread of `per` outputs);
/// the result must be std::merge's (stable: a's items first on ties).
TEST(dist_cuts, merge_path_threads_give_the_stable_merge) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t na = rng() % 200, nb = rng() % 200;
    const int range = trial % 3 == 0 ? 3 : 1000;  // many ties, or few
    const int per = 1 + static_cast<int>(rng() % 17);
    std::vector<item> a(na), b(nb);
    for (std::int64_t i = 0; i < na; ++i) a[i] = {static_cast<std::uint32_t>(rng() % range), i};
    for (std::int64_t i = 0; i < nb; ++i) b[i] = {static_cast<std::uint32_t>(rng() % range), na + i};
    const auto by_key = [](const item& x, const item& y) { return x.key < y.key; };
    std::sort(a.begin(), a.end(), by_key);
    std::sort(b.begin(), b.end(), by_key);
    std::vector<item> want(na + nb), got(na + nb, item{0, -1});
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), by_key);
    const auto le = [&](std::int64_t i, std::int64_t j) { return a[i].key <= b[j].key; };
    for (std::int64_t diag = 0; diag < na + nb; diag += per)
      merge_path_run(diag, per, na, nb, le, [&](std::int64_t k, bool from_a, std::int64_t i) { got[k] = from_a ? a[i] : b[i]; });
    for (std::int64_t k = 0; k < na + nb; ++k)
      ASSERT_EQ(got[k].pos, want[k].pos) << "trial " << trial << " at " << k << " (na " << na << ", nb " << nb << ", per " << per << ")";
  }
}

}  // namespace
