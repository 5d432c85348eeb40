// Summed-area tables, tuning: the tile shape, the launch shapes of every SAT kernel and the choice of
// method, in one place (as scan_policy.cuh is for the scan). Plain constants, so that the host header
// parascan/sat.hpp reads the tile shape and the automatic choice from here too.
#pragma once
#include <cstddef>
#include <cstdint>

namespace parascan::device::sat_detail {

constexpr int lane_cols = 4;                   // adjacent columns per lane
constexpr int tile_cols = 32 * lane_cols;      // 128: a warp's 32 lanes across a tile row
constexpr int tile_rows = 64;                  // two rows per lane for the row carries
constexpr int warps_per_block = 8;
constexpr int line_threads = 256;              // block size of the carry scans

/// Image rows loaded before any is summed: 16 bytes of pixels per lane in flight.
template <class In>
constexpr int rows_in_flight = 16 / (lane_cols * static_cast<int>(sizeof(In)));
/// Blocks per SM the tile kernels are compiled for (caps registers at 64 per thread).
constexpr int min_blocks = 4;

/// The 8-bit step-1 kernel (three_pass.cuh, byte_tile_sums_kernel): 8 pixels per lane, a warp over two tiles.
constexpr int byte_lane_cols = 8;
constexpr int byte_tile_lanes = tile_cols / byte_lane_cols;   // 16
constexpr int byte_tiles_per_warp = 32 / byte_tile_lanes;     // 2
constexpr int byte_rows_in_flight = 4;
static_assert(tile_rows * 255 < 65536, "packed 16-bit column sums");

/// Tile rows up to which the table kernel sums the corner itself (≤ 32 loads per lane).
constexpr std::int64_t corner_rows_in_kernel = 1024;

/// Whether the single-pass kernel keeps its tiles in shared memory (1-byte pixels), and how much.
template <class In>
constexpr bool stages_tiles = sizeof(In) == 1;
template <class In, int Warps = warps_per_block>
constexpr std::size_t staged_bytes = stages_tiles<In> ? std::size_t(Warps) * tile_rows * tile_cols : 0;

/// 8-bit images at least this many tiles wide run the single-pass kernel in blocks of 16 tiles (warps),
/// one per SM; narrower ones in blocks of 8 tiles, two per SM (performance.md entry 17).
constexpr int single_pass_wide_warps = 16;

/// Rows the single-pass kernel loads ahead on its first read (64 bytes of pixels per lane in flight:
/// its tiles are not overlapped by a kernel before them, so each warp keeps more loads going).
template <class In>
constexpr int single_pass_rows_in_flight = 64 / (lane_cols * static_cast<int>(sizeof(In)));

/// Blocks per SM the single-pass kernel is compiled for (80 registers: it holds more than a pass).
constexpr int single_pass_min_blocks = 3;

/// sat_algorithm::automatic: single_pass for 8-bit images of at least this many tiles, or with 8-byte
/// accumulators; three_pass otherwise (H100, docs/performance.md entry 15).
constexpr std::int64_t single_pass_min_tiles = 8192;

}  // namespace parascan::device::sat_detail
