// The tools' split of n items over P ranks (apps/common/shard.hpp): contiguous, in rank order, every
// item once, shard sizes differing by at most one.
#include <gtest/gtest.h>
#include <cstdint>
#include "shard.hpp"

TEST(shard, contiguous_balanced_and_complete) {
  for (std::int64_t n : {0LL, 1LL, 2LL, 7LL, 1000003LL, (1LL << 31) + 13}) {
    for (int P : {1, 2, 3, 8, 13}) {
      std::int64_t next = 0, lo = n, hi = 0;
      for (int r = 0; r < P; ++r) {
        const auto s = parascan::app::shard_of(n, P, r);
        EXPECT_EQ(s.first, next) << "n " << n << " P " << P << " rank " << r;
        next = s.first + s.count;
        lo = std::min(lo, s.count);
        hi = std::max(hi, s.count);
      }
      EXPECT_EQ(next, n) << "n " << n << " P " << P;
      EXPECT_LE(hi - lo, 1) << "n " << n << " P " << P;
    }
  }
}
