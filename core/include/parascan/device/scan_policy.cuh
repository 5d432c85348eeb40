// Tuning of the scan kernels, in one place: threads per block and items per thread by accumulator size.
//
// A tile is block_threads × items_per_thread items. Larger tiles amortise the per-tile look-back and
// block scan; the limit is registers (items live in registers) and shared memory for the exchange.
// Measured choices are logged in docs/performance.md.
#pragma once
#include <cstddef>
#include <type_traits>

namespace parascan::device {

/// The look-back's delays (single pass only): a sleep after publishing the tile aggregate and
/// between polls, in ns, on grids of at least look_back_min_grid tiles (smaller grids finish in a
/// few microseconds, where a sleep is pure latency). On grids of at least look_back_long_grid tiles
/// the first sleep is LookBackLongGridInitialNs instead (by default the same).
/// ItemsInShared: the scan kernels leave a tile's items in the shared tile they are loaded through
/// (the thread reduce and rescan read them there) instead of holding them in registers across the
/// block scan and look-back, and ask the compiler for MinBlocks blocks an SM (__launch_bounds__).
template <int BlockThreads, int ItemsPerThread, int LookBackInitialNs = 0, int LookBackPollNs = 0,
          bool ItemsInShared = false, int MinBlocks = 1, int LookBackLongGridInitialNs = LookBackInitialNs>
struct scan_policy_t {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr int look_back_initial_ns = LookBackInitialNs;
  static constexpr int look_back_poll_ns = LookBackPollNs;
  static constexpr unsigned look_back_min_grid = 512;
  static constexpr unsigned look_back_long_grid = 4096;
  static constexpr int look_back_long_initial_ns = LookBackLongGridInitialNs;
  static constexpr bool items_in_shared = ItemsInShared;
  static constexpr int min_blocks = MinBlocks;
};

/// Look-back delays measured on the H100 (docs/performance.md, entry 7): a 2 µs sleep before the first
/// poll and 100 ns between polls took the u32 single-pass scan at 2^28 from 1.014 to 0.907 ms.
/// Tile shape from the block-size sweep (`bench --primitive sweep`, entry 14): for 4-byte
/// accumulators 256 × 32 (0.861 ms at 2^28, 1.03× CUB) beat 256 × 16 (0.910 ms, 0.98×); 128 × 32 was
/// as fast (0.850 ms) but needs twice the tiles' look-back.
/// For 8-byte accumulators 256 × 20 (experiments/scan_wide_shapes.cu, entry 16: u64 at 2^28 1.88 ms,
/// 0.84× CUB) beat 256 × 8 (2.47 ms, 0.64×) and 256 × 16 (1.99 ms); 40 KB of shared memory per tile.
/// For 8-byte numbers (u64, i64, f64 sums) 128 × 32 beat it at every size (the same experiment, entry
/// 44, H100: 2^22 0.0420 against 0.0450 ms, 2^24 0.1155 against 0.1212, 2^28 1.526 against 1.565); 8-byte
/// structures (a 4-byte value and its segment flag) keep 256 × 20, where it was not measured.
/// For 4-byte accumulators the items stay in the shared tile and 6 blocks of 256 × 32 fit an SM (40
/// registers, 33 KB each) against 4 with the items in registers (56–64 registers), so more blocks load
/// while others wait in their look-back; with 16-byte loads and stores (block_exchange) that took the
/// u32 exclusive sum from 0.667 to 0.621 ms at 2^28 on the H200 (experiments/scan_loads.cu), and the
/// library's from 0.841 to 0.804 ms on the H100 (1.04 → 1.08× CUB's faster call; entry 53).
/// Their first look-back sleep is 3000 ns on grids of 4096 tiles (2^25 items) or more: on the H200 that
/// took the u32 sum at 2^28 from 0.636 to 0.621 ms and at 2^29 from 1.260 to 1.228 (2^26 −1.5%); at
/// 2^24 it was level and at 2^23 3.5% slower, so smaller grids keep 2000 (entry 61,
/// experiments/scan_shape_sweep.cu). 5000 ns and more lost 8% everywhere. The scans along lines (axis,
/// look_back_lines) keep 2000: not measured there.
template <class Acc>
constexpr bool scan_narrow_block = sizeof(Acc) == 8 && std::is_arithmetic_v<Acc>;
template <class Acc>
constexpr bool scan_items_in_shared = sizeof(Acc) == 4;
template <class Acc>
using scan_policy = scan_policy_t<(scan_narrow_block<Acc> ? 128 : 256),
                                  (sizeof(Acc) <= 4 || scan_narrow_block<Acc> ? 32 : sizeof(Acc) <= 8 ? 20 : 4), 2000, 100,
                                  scan_items_in_shared<Acc>, (scan_items_in_shared<Acc> ? 6 : 1),
                                  (scan_items_in_shared<Acc> ? 3000 : 2000)>;

/// The one-launch scan (scan_resident_kernel: every tile resident at once, no look-back for other
/// blocks to load through) keeps the items in registers at the same tile shape: with them in shared
/// memory the u32 scan of 2^22 items took 0.0134 ms against 0.0129 on the H200 (entry 53).
template <class Policy>
using resident_scan_policy = scan_policy_t<Policy::block_threads, Policy::items_per_thread, Policy::look_back_initial_ns,
                                           Policy::look_back_poll_ns>;

/// Whether the single-pass scan of `tiles` tiles takes each tile from a counter, in the order blocks
/// reach it, rather than from the block's index (scan_tiles_kernel). Measured on the H100
/// (experiments/ab_scan.cu, performance.md entry 45): with the items in registers the block index was
/// 0–10% faster at every size and type but u32 sums past 4096 tiles (2^25 items), where the counter
/// was 1.5–3% faster. With the items in shared memory and 16-byte moves (entry 53) the block index won
/// at every size from 2^24 to 2^29 (2^28: 0.621 against 0.634 ms), so only 1- and 2-byte sums, not
/// measured again, keep the counter past 4096 tiles. 8-byte sums gain or tie with the block index.
template <class Acc>
constexpr bool scan_tiles_from_counter(long long tiles) {
  return sizeof(Acc) < 4 && tiles > 4096;
}

/// Single-pass selection (select_tiles.cuh). 4-byte values keep the tile in shared memory (ItemsInShared:
/// select_shared_tiles_kernel) at 256 × 32, 6 blocks an SM; on the H100 (experiments/select_shared.cu,
/// entry 54) it beat 256 × 16 at 8 blocks, 128 × 32 at 12, 384 × 16 at 5, 512 × 16 at 4 and 256 × 24 / 28,
/// all within 3% at 50% kept, and sleeps of 2000 / 100 ns matched 1150 / 76 (500 / 50 and none lost 3–6%).
/// The others keep values in registers (select_tiles_kernel): 384 × 16 with a 1.15 µs initial sleep
/// was the fastest of the shapes measured for them (u32 at 2^28: 0.759 ms, against 1.012 for 256 × 32
/// without delays); for 8-byte values 256 × 16 beat 384 × 8 (experiments/select_variants.cu
/// -DSELECT_U64, entry 44: 2^28 10% kept 1.017 against 1.15 ms, 50% 1.314 against 1.38; 2^24 4–8%
/// faster). Rows × warps must not exceed the threads.
/// The one launch (every tile resident at once: select_tiles_kernel<..., true>) keeps the register
/// kernel for every size of value: for 4-byte values its capacity is ~2.4M items on an H100, and where
/// it applies it saves the status reset's launch, which a host-bound caller sees (Python's u32 select
/// at 2^20 took 0.0199 ms a call with the shared kernel's look-back against 0.0136 with this; entry 54).
template <class V>
using select_resident_policy = scan_policy_t<(sizeof(V) <= 4 ? 384 : 256), 16, 1150, 76>;
template <class V>
using select_policy = std::conditional_t<sizeof(V) == 4, scan_policy_t<256, 32, 1150, 76, true, 6>,
                                         select_resident_policy<V>>;

/// Threads of the small helper kernels (status initialisation).
inline constexpr int helper_threads = 256;

}  // namespace parascan::device
