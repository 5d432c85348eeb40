// Host-only: how the top-k plans its work (device/device_topk.cuh, device/topk/filter.cuh): which rows
// take the filter path, the chunks covering each row once, the candidate lists' size, the rounds of
// 11-bit digits a key width needs, the bits of a position and the grid of the small kernels.
#include <gtest/gtest.h>
#include <cstdint>
#include <initializer_list>
#include "parascan/device/device_topk.cuh"

namespace td = parascan::device::topk_detail;

TEST(topk_plan, the_filter_path_takes_few_or_long_rows_of_8192_keys_and_more) {
  EXPECT_FALSE(td::takes_filter(1, 8191, 4));       // shorter: a block a row
  EXPECT_TRUE(td::takes_filter(1, 8192, 4));
  EXPECT_TRUE(td::takes_filter(512, 8192, 2));      // few rows
  EXPECT_FALSE(td::takes_filter(513, 8192, 4));     // many rows of 32 KB: a block a row
  EXPECT_TRUE(td::takes_filter(513, 32768, 4));     // many rows of 128 KB
  EXPECT_FALSE(td::takes_filter(513, 32767, 4));
  EXPECT_TRUE(td::takes_filter(256, 128256, 2));    // the vocabulary rows of the bench
  EXPECT_TRUE(td::takes_filter(64, 50257, 4));
  EXPECT_FALSE(td::takes_filter(1 << 16, 256, 4));
}

TEST(topk_plan, chunks_cover_every_row_once_in_about_2048_blocks) {
  for (std::int64_t rows : {1, 3, 8, 64, 256, 512, 4096}) {
    for (std::int64_t length : {8192, 8193, 50257, 128256, 1 << 20, (1 << 24) + 5}) {
      const td::chunking c = td::chunks_for(rows, length);
      EXPECT_GE(c.per_row, 1);
      EXPECT_GE(c.per_row * c.chunk, length) << rows << " x " << length;       // every key in a chunk
      EXPECT_LT((c.per_row - 1) * c.chunk, length) << rows << " x " << length;  // no chunk without keys
      EXPECT_LE(rows * c.per_row, 2048 + rows) << rows << " x " << length;     // about 2048 blocks
      if (rows <= 2048 && length >= 2048 * ((2048 + rows - 1) / rows))
        EXPECT_GE(c.chunk, 2048) << "chunks of at least 2048 keys";
    }
  }
}

TEST(topk_plan, candidate_lists_hold_a_quarter_of_the_row_and_at_least_8192) {
  for (std::int64_t length : {1, 100, 8192, 20000, 32768, 50257, 128256, 1 << 24}) {
    const std::int64_t cap = td::candidate_capacity(length);
    EXPECT_LE(cap, length);
    EXPECT_GE(cap, length < 8192 ? length : 8192);
    EXPECT_GE(cap, length / 4);
  }
}

TEST(topk_plan, rounds_bits_and_grids) {
  EXPECT_EQ(td::rounds_for<std::uint8_t>(), 1);   // 8 bits: one digit
  EXPECT_EQ(td::rounds_for<std::uint16_t>(), 2);  // 11 + 5
  EXPECT_EQ(td::rounds_for<std::uint32_t>(), 3);  // 11 + 11 + 10
  EXPECT_EQ(td::rounds_for<std::uint64_t>(), 3);  // then the finish selects over the rest
  const std::initializer_list<std::int64_t> lengths = {1, 2, 3, 255, 256, 257, 8192, 128256, (1LL << 31) - 1};
  for (const std::int64_t length : lengths) {
    const int b = td::position_bits(length);
    EXPECT_GE(std::int64_t{1} << b, length) << length;  // every position fits
    if (length > 2) EXPECT_LT(std::int64_t{1} << (b - 1), length) << length;  // and no bit more
  }
  EXPECT_EQ(td::item_grid(1), 1u);
  EXPECT_EQ(td::item_grid(256), 1u);
  EXPECT_EQ(td::item_grid(257), 2u);
  EXPECT_EQ(td::item_grid(1LL << 40), 4096u);  // a grid-stride loop past 4096 blocks
}
