// How the tools and benches split n items over P ranks: contiguous shards in rank order, the first
// n % P ranks one item more (so shards differ by at most one item and every item has one rank).
#pragma once
#include <algorithm>
#include <cstdint>

namespace parascan::app {

/// Rank r's shard of n items over P ranks: [first, first + count).
struct shard {
  std::int64_t first = 0, count = 0;
};

inline shard shard_of(std::int64_t n, int ranks, int rank) {
  const std::int64_t base = n / ranks, extra = n % ranks;
  return {base * rank + std::min<std::int64_t>(rank, extra), base + (rank < extra ? 1 : 0)};
}

}  // namespace parascan::app
