// Summed-area tables, the three-pass method (Nehab et al. 2011): tile sums (step 1), the carries
// between tiles as line scans (step 2), the table (step 3). See device_sat.cuh.
#pragma once
#include <cstdint>
#include "parascan/device/launch.cuh"
#include "parascan/device/sat/tile.cuh"

namespace parascan::device::sat_detail {

/// Step 1: row_sums[tx·H + y], col_sums[ty·W + x] and totals[tx·tiles_y + ty] of every tile.
template <class In, class Acc>
__global__ void __launch_bounds__(warps_per_block * 32, min_blocks)
    tile_sums_kernel(const In* image, std::size_t pitch, grid_shape g, bool squared, bool vector_in, Acc* row_sums,
                     Acc* col_sums, Acc* totals) {
  allow_next_grid();
  tile_place p;
  if (!warp_tile(g, p)) return;
  const auto [tx, ty, y0, x, lane, rows] = p;
  Acc col[lane_cols], mine[2];
  tile_sums(image, pitch, g, squared, vector_in, tx, ty, lane, col, mine);
  Acc* rs = row_sums + tx * g.height + y0;
  if (lane < rows) rs[lane] = mine[0];
  if (lane + 32 < rows) rs[lane + 32] = mine[1];
  store_quad(col_sums + ty * g.width, x, g.width - 1, g.width % lane_cols == 0, col);
  const Acc total = warp_sum(mine[0] + mine[1]);
  if (lane == 0) totals[tx * g.tiles_y + ty] = total;
}

/// Step 1 for 8-bit images summed plainly (the common case, where the generic kernel is bound by
/// instructions, not memory): 8 pixels per lane from one 8-byte load, a warp covering two tiles side
/// by side (lanes 16k..16k+15 tile 2j + k). A lane's row sum is two dp4a, reduced over the tile's 16
/// lanes with 4 shuffles; column sums run as packed 16-bit pairs (64 rows × 255 < 2^16).

template <class Acc, int Depth = byte_rows_in_flight>
__global__ void __launch_bounds__(warps_per_block * 32, min_blocks)
    byte_tile_sums_kernel(const std::uint8_t* image, std::size_t pitch, grid_shape g, Acc* row_sums, Acc* col_sums,
                          Acc* totals) {
  allow_next_grid();
  const std::int64_t groups_x = (g.tiles_x + byte_tiles_per_warp - 1) / byte_tiles_per_warp;
  const std::int64_t w = static_cast<std::int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / warp::warp_threads;
  if (w >= groups_x * g.tiles_y) return;
  const int lane = threadIdx.x % warp::warp_threads, sub = lane % byte_tile_lanes;
  const std::int64_t ty = w / groups_x, gx = w % groups_x, y0 = ty * tile_rows;
  const std::int64_t tx = gx * byte_tiles_per_warp + lane / byte_tile_lanes;
  const std::int64_t x = gx * byte_tiles_per_warp * tile_cols + lane * byte_lane_cols;
  const int rows = rows_in_tile(g, y0);
  const bool full = x + byte_lane_cols <= g.width;
  const std::uint8_t* first = row_of(image, pitch, y0);
  unsigned col[byte_lane_cols / 2] = {};  // packed pairs: col[2i] = columns 4i, 4i+1; col[2i+1] = 4i+2, 4i+3
  unsigned keep = 0;                      // the tile's sum of row (r & ~15) + sub
  Acc* rs = row_sums + tx * g.height + y0;
  const bool live = tx < g.tiles_x;
  const auto load = [&](int r) {
    uint2 v = {0, 0};
    if (r < rows) {
      const std::uint8_t* row = row_of(first, pitch, r);
      if (full) {
        v = __ldg(reinterpret_cast<const uint2*>(row + x));
      } else {
        std::uint8_t b[byte_lane_cols];
#pragma unroll
        for (int k = 0; k < byte_lane_cols; ++k) b[k] = x + k < g.width ? row[x + k] : 0;
        memcpy(&v, b, sizeof(v));
      }
    }
    return v;
  };
  const bool fast = rows == tile_rows && __all_sync(warp::full_mask, full);
  const auto fast_load = [&](int r) { return __ldg(reinterpret_cast<const uint2*>(row_of(first, pitch, r) + x)); };
  for_rows<Depth, uint2>(rows, fast, fast_load, load, [&](const uint2& v, int r) {
    const unsigned words[2] = {v.x, v.y};
    unsigned s = 0;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      s = __dp4a(words[i], 0x01010101u, s);
      col[2 * i] += __byte_perm(words[i], 0, 0x4140);
      col[2 * i + 1] += __byte_perm(words[i], 0, 0x4342);
    }
#pragma unroll
    for (int offset = 1; offset < byte_tile_lanes; offset <<= 1) s += __shfl_xor_sync(warp::full_mask, s, offset);
    if (sub == (r % byte_tile_lanes)) keep = s;
    if (r % byte_tile_lanes == byte_tile_lanes - 1 || r == rows - 1) {
      const int row = r / byte_tile_lanes * byte_tile_lanes + sub;
      if (live && row <= r) rs[row] = static_cast<Acc>(keep);
    }
  });
  Acc c[byte_lane_cols];
  unsigned total = 0;
#pragma unroll
  for (int i = 0; i < byte_lane_cols / 2; ++i) {
    c[2 * i] = static_cast<Acc>(col[i] & 0xffffu);
    c[2 * i + 1] = static_cast<Acc>(col[i] >> 16);
    total += (col[i] & 0xffffu) + (col[i] >> 16);
  }
  Acc* cs = col_sums + ty * g.width;
#pragma unroll
  for (int i = 0; i < byte_lane_cols / lane_cols; ++i) {
    const Acc quad[lane_cols] = {c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]};
    store_quad(cs, x + lane_cols * i, g.width - 1, g.width % lane_cols == 0, quad);
  }
#pragma unroll
  for (int offset = 1; offset < byte_tile_lanes; offset <<= 1) total += __shfl_xor_sync(warp::full_mask, total, offset);
  if (live && sub == 0) totals[tx * g.tiles_y + ty] = static_cast<Acc>(total);
}


/// Exclusive scans of `lines` lines of `steps` values in place; value j of line i is at
/// data[i·line_stride + j·step_stride]. A block of 8 warps takes 32 · 8/group lines: the `group`
/// warps of a line group (a power of two ≤ 8) each take a contiguous part of the steps for the same
/// 32 lines (so a warp reads 32 neighbouring words when line_stride is 1), sum it, exchange the part
/// sums through shared memory, then rewrite their part.
constexpr int line_warps = line_threads / warp::warp_threads;

template <class Acc>
struct line_scan {
  Acc* data = nullptr;
  std::int64_t lines = 0, steps = 0, line_stride = 0, step_stride = 0;
  int group = 1;  // 0: a warp per line, lanes along the steps (for step_stride 1: few long contiguous lines)
  __host__ __device__ std::int64_t lines_per_block() const {
    return group == 0 ? line_warps : warp::warp_threads * (line_warps / group);
  }
  __host__ __device__ std::int64_t blocks() const { return (lines + lines_per_block() - 1) / lines_per_block(); }
};

/// Warps per line: enough threads to fill the GPU, at least ~4 steps each; 0 (a warp along each line)
/// when the steps are contiguous and the lines too few to fill a block's lanes.
inline int line_group(std::int64_t lines, std::int64_t steps, std::int64_t step_stride) {
  if (step_stride == 1 && lines < 4096) return 0;
  int g = 1;
  while (g < line_warps && lines * g < 65536 && 4 * g < steps) g *= 2;
  return g;
}

/// A warp per line, each lane four adjacent steps at a time (step_stride is 1).
template <class Acc>
__device__ __forceinline__ void scan_line_along(const line_scan<Acc>& job, std::int64_t block) {
  const int lane = threadIdx.x % warp::warp_threads;
  const std::int64_t line = block * line_warps + threadIdx.x / warp::warp_threads;
  if (line >= job.lines) return;
  Acc* base = job.data + line * job.line_stride;
  Acc carry = Acc(0);
  for (std::int64_t j0 = 0; j0 < job.steps; j0 += warp::warp_threads * lane_cols) {
    const std::int64_t j = j0 + lane * lane_cols;
    Acc v[lane_cols];
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) v[k] = j + k < job.steps ? base[j + k] : Acc(0);
    Acc before[lane_cols];  // exclusive within the lane
    before[0] = Acc(0);
#pragma unroll
    for (int k = 1; k < lane_cols; ++k) before[k] = before[k - 1] + v[k - 1];
    const Acc mine = before[lane_cols - 1] + v[lane_cols - 1];
    const Acc lanes_before = carry + exclusive_warp_sum(mine, lane);
#pragma unroll
    for (int k = 0; k < lane_cols; ++k)
      if (j + k < job.steps) base[j + k] = lanes_before + before[k];
    carry = lane_value(lanes_before + mine, warp::warp_threads - 1);
  }
}

template <class Acc>
__device__ __forceinline__ void scan_lines(const line_scan<Acc>& job, std::int64_t block, Acc (&parts)[line_warps][warp::warp_threads]) {
  if (job.group == 0) return scan_line_along(job, block);
  const int warp_id = threadIdx.x / warp::warp_threads, lane = threadIdx.x % warp::warp_threads;
  const int group = job.group, part = warp_id % group;
  const std::int64_t line = block * job.lines_per_block() + (warp_id / group) * warp::warp_threads + lane;
  const bool live = line < job.lines;
  const std::int64_t per = (job.steps + group - 1) / group, j0 = part * per;
  const std::int64_t j1 = j0 + per < job.steps ? j0 + per : job.steps;
  Acc* base = job.data + (live ? line * job.line_stride : 0);
  const std::int64_t stride = job.step_stride;
  constexpr int held = 16;  // parts of up to `held` steps stay in registers: read once, written once
  Acc v[held];
  Acc s = Acc(0);
  if (per <= held) {
#pragma unroll
    for (int i = 0; i < held; ++i) {
      v[i] = live && j0 + i < j1 ? base[(j0 + i) * stride] : Acc(0);
      s = s + v[i];
    }
  } else if (live) {
#pragma unroll 8
    for (std::int64_t j = j0; j < j1; ++j) s = s + base[j * stride];
  }
  parts[warp_id][lane] = s;
  __syncthreads();
  Acc running = Acc(0);
  for (int p = 0; p < part; ++p) running = running + parts[warp_id - part + p][lane];
  if (!live) return;
  if (per <= held) {
#pragma unroll
    for (int i = 0; i < held; ++i)
      if (j0 + i < j1) {
        base[(j0 + i) * stride] = running;
        running = running + v[i];
      }
    return;
  }
  constexpr int chunk = 8;
  for (std::int64_t j = j0; j < j1; j += chunk) {
#pragma unroll
    for (int i = 0; i < chunk; ++i)
      if (j + i < j1) v[i] = base[(j + i) * stride];
#pragma unroll
    for (int i = 0; i < chunk; ++i)
      if (j + i < j1) {
        base[(j + i) * stride] = running;
        running = running + v[i];
      }
  }
}

/// Step 2: up to three independent line scans in one launch, each on blocks of its own.
template <class Acc>
__global__ void __launch_bounds__(line_threads) line_scans_kernel(line_scan<Acc> a, line_scan<Acc> b, line_scan<Acc> c) {
  __shared__ Acc parts[line_warps][warp::warp_threads];
  wait_for_previous_grid();
  allow_next_grid();
  std::int64_t block = blockIdx.x;
  if (block < a.blocks()) return scan_lines(a, block, parts);
  block -= a.blocks();
  if (block < b.blocks()) return scan_lines(b, block, parts);
  scan_lines(c, block - b.blocks(), parts);
}


/// Step 3: the table, from the carries of steps 1 and 2.
template <class In, class Acc, int MinBlocks = min_blocks>
__global__ void __launch_bounds__(warps_per_block * 32, MinBlocks)
    table_kernel(const In* image, std::size_t pitch, grid_shape g, bool squared, bool vector_in, const Acc* row_carries,
                 const Acc* col_carries, const Acc* corners, bool corners_scanned, Acc* table, std::size_t table_pitch,
                 int shift) {
  wait_for_previous_grid();
  tile_place p;
  if (!warp_tile(g, p)) return;
  const auto [tx, ty, y0, x, lane, rows] = p;
  // The corner: with few tile rows the warp sums the tiles above from the totals scanned along tile
  // rows (at most corner_rows_in_kernel values); otherwise a kernel of its own scanned them downwards.
  Acc corner;
  if (corners_scanned) {
    corner = corners[tx * g.tiles_y + ty];
  } else {
    Acc above = Acc(0);
    for (std::int64_t i = lane; i < ty; i += warp::warp_threads) above = above + corners[tx * g.tiles_y + i];
    corner = lane_value(warp_sum(above), 0);
  }
  // running[k] = table(y0 − 1, x + k): the corner plus the column carries of the tile's columns to x + k.
  Acc running[lane_cols];
  {
    Acc cc[lane_cols];
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) cc[k] = x + k < g.width ? col_carries[ty * g.width + x + k] : Acc(0);
#pragma unroll
    for (int k = 1; k < lane_cols; ++k) cc[k] = cc[k - 1] + cc[k];
    const Acc before = corner + exclusive_warp_sum(cc[lane_cols - 1], lane);
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) running[k] = before + cc[k];
  }
  // The row carries of tile rows lane and lane + 32.
  const Acc* rc = row_carries + tx * g.height + y0;
  const Acc carry0 = lane < rows ? rc[lane] : Acc(0), carry1 = lane + 32 < rows ? rc[lane + 32] : Acc(0);
  write_tile(image, pitch, g, squared, vector_in, tx, ty, lane, running, carry0, carry1, table, table_pitch, shift);
}

/// The three-pass method's temporary storage (the row sums, column sums and tile totals of step 1,
/// scanned in place by step 2) and its carry scans: one computation for the size query, the carve
/// and the experiments (experiments/sat_stages.cu).
template <class Acc>
struct three_pass_plan {
  std::size_t row_bytes, col_bytes, total_bytes;
  Acc *row_sums = nullptr, *col_sums = nullptr, *totals = nullptr;
  // Carries: row sums along tile rows (line y, step tx), column sums down tile columns (line x, step
  // ty), tile totals along tile rows (line ty, step tx); then the totals down tile columns (corners).
  line_scan<Acc> rows_job{}, cols_job{}, across{}, down{};

  /// The plan for grid g; with `temp` (of bytes()) its arrays are carved from it.
  explicit three_pass_plan(const grid_shape& g, void* temp = nullptr)
      : row_bytes(align_up(static_cast<std::size_t>(g.tiles_x * g.height) * sizeof(Acc))),
        col_bytes(align_up(static_cast<std::size_t>(g.tiles_y * g.width) * sizeof(Acc))),
        total_bytes(align_up(static_cast<std::size_t>(g.tiles()) * sizeof(Acc))) {
    if (temp == nullptr) return;
    char* t = static_cast<char*>(temp);
    row_sums = reinterpret_cast<Acc*>(t);
    col_sums = reinterpret_cast<Acc*>(t + row_bytes);
    totals = reinterpret_cast<Acc*>(t + row_bytes + col_bytes);
    rows_job = {row_sums, g.height, g.tiles_x, 1, g.height, line_group(g.height, g.tiles_x, g.height)};
    cols_job = {col_sums, g.width, g.tiles_y, 1, g.width, line_group(g.width, g.tiles_y, g.width)};
    across = {totals, g.tiles_y, g.tiles_x, 1, g.tiles_y, line_group(g.tiles_y, g.tiles_x, g.tiles_y)};
    down = {totals, g.tiles_x, g.tiles_y, g.tiles_y, 1, line_group(g.tiles_x, g.tiles_y, 1)};
  }
  std::size_t bytes() const { return row_bytes + col_bytes + total_bytes > 0 ? row_bytes + col_bytes + total_bytes : 1; }
  /// Blocks of step 2's first launch (rows, columns and the totals across).
  std::int64_t carry_blocks() const { return rows_job.blocks() + cols_job.blocks() + across.blocks(); }
};

}  // namespace parascan::device::sat_detail
