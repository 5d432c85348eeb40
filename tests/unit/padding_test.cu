// Host-only: the bank-conflict padding (including the published macro's precedence bug).
#include <gtest/gtest.h>
#include <set>
#include "parascan/block/smem_padding.cuh"

using parascan::block::num_banks;
using parascan::block::padded_index;
using parascan::block::padded_size;

TEST(smem_padding, one_pad_word_per_bank_row) {
  EXPECT_EQ(padded_index(0), 0);
  EXPECT_EQ(padded_index(31), 31);
  EXPECT_EQ(padded_index(32), 33);
  EXPECT_EQ(padded_index(64), 66);
  // GPU Gems' CONFLICT_FREE_OFFSET(n) written without parentheses parses as n >> (NUM_BANKS + n):
  // for n = 64 that shifts by 96 — we must not reproduce that.
  EXPECT_EQ(padded_index(64) - 64, 64 / num_banks);
  EXPECT_EQ(padded_size(256), 256 + 255 / 32);  // last element 255 sits after 7 pad words
  EXPECT_EQ(padded_size(0), 0);
  EXPECT_EQ(padded_size(1), 1);
}

/// The blocked read of the tile exchange: thread t reads element t·I + i. With padding, the 32 lanes
/// of a warp hit 32 distinct banks for every i and every power-of-two I (4-byte words).
TEST(smem_padding, blocked_exchange_reads_are_conflict_free) {
  for (int items : {2, 4, 8, 16}) {
    for (int i = 0; i < items; ++i) {
      std::set<int> banks;
      for (int t = 0; t < 32; ++t) banks.insert(padded_index(t * items + i) % num_banks);
      EXPECT_EQ(banks.size(), 32u) << "items_per_thread=" << items << " i=" << i;
    }
  }
}

/// The up-sweep's first levels: lanes access (2k+1)·d − 1 — without padding many land in one bank.
TEST(smem_padding, upsweep_strides_spread_over_banks) {
  for (int d : {1, 2, 4, 8, 16}) {
    std::set<int> padded, plain;
    for (int k = 0; k < 32; ++k) {
      padded.insert(padded_index((2 * k + 1) * d - 1) % num_banks);
      plain.insert(((2 * k + 1) * d - 1) % num_banks);
    }
    EXPECT_GE(padded.size(), plain.size()) << "d=" << d;
  }
  std::set<int> padded16, plain16;
  for (int k = 0; k < 32; ++k) {
    padded16.insert(padded_index((2 * k + 1) * 16 - 1) % num_banks);
    plain16.insert(((2 * k + 1) * 16 - 1) % num_banks);
  }
  EXPECT_EQ(plain16.size(), 1u);   // a 32-way conflict without padding
  EXPECT_GE(padded16.size(), 16u);  // at most 2-way with it
}
