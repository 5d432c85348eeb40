// Host-only: how a scan down the columns cuts its shape into blocks (device/device_axis_scan.cuh):
// every row of the axis in exactly one chunk, warps given at most 16 rows, and the levels of chunk
// sums shrinking to one chunk, with the temporary storage their sum.
#include <gtest/gtest.h>
#include <cstdint>
#include "parascan/device/device_axis_scan.cuh"

using parascan::axis_shape;
using parascan::device::column_grid;
using parascan::device::column_policy;

TEST(axis_grid, chunks_cover_the_axis_once) {
  for (std::int64_t extent : {1, 2, 7, 8, 9, 63, 64, 127, 128, 129, 1000, 4097, 1 << 20, (1 << 20) + 3}) {
    for (std::int64_t inner : {2, 31, 32, 33, 4096}) {
      const column_grid g = column_grid::of({3, extent, inner});
      const std::int64_t chunk_rows = static_cast<std::int64_t>(g.rows) * column_policy::warps;
      EXPECT_GE(g.rows, 1);
      EXPECT_LE(g.rows, column_policy::max_rows);
      EXPECT_GE(g.chunks * chunk_rows, extent) << extent;           // every row in a chunk
      EXPECT_LT((g.chunks - 1) * chunk_rows, extent) << extent;     // no chunk without rows
      EXPECT_EQ(g.tiles, (inner + 31) / 32);
      EXPECT_EQ(g.blocks(), 3 * g.tiles * g.chunks);
      if (extent >= column_policy::max_rows * column_policy::warps)
        EXPECT_EQ(g.rows, column_policy::max_rows) << "long axes give every warp 16 rows";
    }
  }
}

TEST(axis_grid, levels_of_chunk_sums_end_in_one_chunk_and_size_the_storage) {
  axis_shape s{1, 1 << 20, 32};  // numpy.cumsum(axis=0) of (2^20, 32): 8192 chunks, then 64, then 1
  std::size_t bytes = 0;
  int levels = 0;
  for (column_grid g = column_grid::of(s); g.chunks > 1; g = column_grid::of(g.sums())) {
    bytes += parascan::device::align_up(static_cast<std::size_t>(g.sums().size()) * sizeof(float));
    ++levels;
  }
  EXPECT_EQ(levels, 2);
  EXPECT_EQ(parascan::device::column_temp_bytes<float>(s), bytes);
  EXPECT_EQ(parascan::device::column_temp_bytes<float>(axis_shape{1, 128, 32}), 0u);  // one chunk: no sums
}
