// The one home of shared-memory bank-conflict padding (Harris, Sengupta, Owens, GPU Gems 3 ch. 39).
//
// Shared memory has 32 banks of 4 bytes. A tree scan's strided accesses (stride 2, 4, …, 32 words)
// land many threads of a warp in one bank; inserting one word after every 32 spreads them out.
// GPU Gems' CONFLICT_FREE_OFFSET(n) is published as `((n) >> NUM_BANKS + (n) >> (2*LOG_NUM_BANKS))`,
// which C++ parses as `n >> (NUM_BANKS + n) >> …`: we write the shift explicitly and test it.
#pragma once

namespace parascan::block {

inline constexpr int num_banks = 32;
inline constexpr int log_num_banks = 5;

/// Position of logical element i in a padded shared array (one pad word per num_banks elements).
__host__ __device__ constexpr int padded_index(int i) { return i + (i >> log_num_banks); }

/// Elements to allocate for a padded shared array holding n logical elements.
__host__ __device__ constexpr int padded_size(int n) { return n <= 0 ? 0 : padded_index(n - 1) + 1; }

}  // namespace parascan::block
