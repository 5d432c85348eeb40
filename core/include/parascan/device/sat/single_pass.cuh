// Summed-area tables, the single-pass method: one read of the image, the carries by decoupled
// look-back in two directions. See device_sat.cuh.
#pragma once
#include <cstdint>
#include "parascan/device/launch.cuh"
#include "parascan/device/sat/tile.cuh"
#include "parascan/device/look_back.cuh"

namespace parascan::device::sat_detail {

// ---- The single-pass table: one read of the image --------------------------------------------
// Blocks take rows of 8 tiles side by side (a warp per tile) in row-major order from a ticket counter,
// so every tile a tile waits for is held by a running block. A warp reads its tile once for its row
// and column sums, then the carries come by decoupled look-back (Merrill & Garland 2016) in two
// directions:
//   rows:    the block's warps add their 64 row sums in shared memory; warp 0 publishes the block's
//            (aggregate), looks left along the tile row for the sums left of the block and publishes
//            those plus its own (inclusive); each warp adds the warps before it in the block;
//   columns: with the row carries known, the tile's share of the table's row below it is known up to
//            what lies above: V(x) = Σ over the tile's rows of (row carry + the row's prefix to x).
//            The warp publishes V, looks up its tile column for table(y0 − 1, x) and publishes that
//            plus V.
// Then it writes its table rows, reading the tile again: from shared memory for 8-bit pixels (staged
// on the first read), from L2 otherwise.
// Traffic: the image once, the table once, 2 × 128 values of status per tile and 2 × 64 per block.

/// sum = Σ of the values of the `count` tiles tile − stride, tile − 2·stride, … up to the nearest one
/// that has published its inclusive value (the first tile of a line publishes only that), by
/// look_back_walk: each lane polls one tile's flag; then every lane adds its values of the tiles
/// taken, loading several tiles' values before adding any (the loads overlap).
#ifdef PARASCAN_SAT_LOOK_BACK_COUNTERS
/// Experiments only (experiments/sat_stages.cu): per direction (0 rows, 1 columns) the polls that
/// found a tile not ready, the windows and the tiles summed.
__device__ unsigned long long look_back_counters[2][3];
#define PARASCAN_SAT_COUNT(which, what, n) \
  if (threadIdx.x % 32 == 0) atomicAdd(&look_back_counters[(which)][(what)], static_cast<unsigned long long>(n))
#else
#define PARASCAN_SAT_COUNT(which, what, n)
#endif

template <class Acc, int V>
struct vector_window {
  const tile_vectors<Acc, V>& s;
  std::int64_t stride;
  int lane;
  Acc (&sum)[V];
  __device__ __forceinline__ unsigned poll(std::int64_t t) const { return s.state(t); }
  __device__ __forceinline__ void waited() const { PARASCAN_SAT_COUNT(V == lane_cols, 0, 1); }
  __device__ __forceinline__ void take(std::int64_t tile, int taken, bool at_prefix) {
    constexpr int batch = static_cast<int>(64 / (V * sizeof(Acc)));  // tiles loaded together: 64 bytes per lane
    __syncwarp();
    PARASCAN_SAT_COUNT(V == lane_cols, 1, 1);
    PARASCAN_SAT_COUNT(V == lane_cols, 2, taken);
    for (int i0 = 0; i0 < taken; i0 += batch) {
      Acc part[batch][V];
#pragma unroll
      for (int b = 0; b < batch; ++b) {
        const int i = i0 + b;
        if (i < taken) {
          s.load(tile - (i + 1) * stride, at_prefix && i == taken - 1, lane, part[b]);
        } else {
#pragma unroll
          for (int j = 0; j < V; ++j) part[b][j] = Acc(0);
        }
      }
#pragma unroll
      for (int b = 0; b < batch; ++b)
#pragma unroll
        for (int j = 0; j < V; ++j) sum[j] = sum[j] + part[b][j];
    }
  }
};

template <class Acc, int V>
__device__ __forceinline__ void look_back(const tile_vectors<Acc, V>& s, std::int64_t tile, std::int64_t stride,
                                          std::int64_t count, int lane, Acc (&sum)[V]) {
#pragma unroll
  for (int j = 0; j < V; ++j) sum[j] = Acc(0);
  vector_window<Acc, V> window{s, stride, lane, sum};
  look_back_walk<warp::warp_threads>(window, tile, stride, count, back_off<32, 256, 8>{});
}

template <class Acc>
struct single_pass_status {
  unsigned long long* ticket;
  tile_vectors<Acc, 2> rows;  // the sums of a block's 64 rows: along block rows (stride 1), indexed by block
  tile_vectors<Acc, lane_cols> columns;  // V of a tile's 128 columns: down tile columns (stride tiles_x)

  /// Bytes for `tiles` tiles; the first zeroed_bytes(tiles) must be zero before the kernel runs.
  static std::size_t zeroed_bytes(std::int64_t tiles) {
    return device::align_up(sizeof(unsigned long long) + 2 * static_cast<std::size_t>(tiles) * sizeof(unsigned));
  }
  static std::size_t bytes(std::int64_t tiles) {
    return zeroed_bytes(tiles) + 2 * device::align_up(static_cast<std::size_t>(tiles) * tile_rows * sizeof(Acc)) +
           2 * device::align_up(static_cast<std::size_t>(tiles) * tile_cols * sizeof(Acc));
  }
  static single_pass_status carve(void* p, std::int64_t tiles) {
    char* c = static_cast<char*>(p);
    auto* flags = reinterpret_cast<unsigned*>(c + sizeof(unsigned long long));
    char* values = c + zeroed_bytes(tiles);
    const std::size_t row_bytes = device::align_up(static_cast<std::size_t>(tiles) * tile_rows * sizeof(Acc));
    const std::size_t col_bytes = device::align_up(static_cast<std::size_t>(tiles) * tile_cols * sizeof(Acc));
    single_pass_status s;
    s.ticket = reinterpret_cast<unsigned long long*>(c);
    s.rows = {flags, reinterpret_cast<Acc*>(values), reinterpret_cast<Acc*>(values + row_bytes)};
    s.columns = {flags + tiles, reinterpret_cast<Acc*>(values + 2 * row_bytes),
                 reinterpret_cast<Acc*>(values + 2 * row_bytes + col_bytes)};
    return s;
  }
};


template <class In, class Acc, int MinBlocks = single_pass_min_blocks, int ReadDepth = single_pass_rows_in_flight<In>,
          int WriteDepth = rows_in_flight<In>, int Warps = warps_per_block>
__global__ void __launch_bounds__(Warps * 32, MinBlocks)
    single_pass_table_kernel(const In* image, std::size_t pitch, grid_shape g, bool squared, bool vector_in,
                             single_pass_status<Acc> status, Acc* table, std::size_t table_pitch, int shift) {
  // A block takes Warps tiles side by side in one tile row (block tiles in row-major order
  // from the ticket): its warps sum their rows' carries among themselves in shared memory, and warp 0
  // alone looks back along the tile row for the sums left of the block.
  __shared__ Acc row_part[Warps][tile_rows];
  __shared__ Acc block_carry[tile_rows];
  __shared__ unsigned long long block_ticket;
  const int lane = threadIdx.x % warp::warp_threads, w = threadIdx.x / warp::warp_threads;
  wait_for_previous_grid();  // the status cleared by clear_words_kernel (launch.cuh)
  if (threadIdx.x == 0) block_ticket = atomicAdd(status.ticket, 1ull);
  __syncthreads();
  const std::int64_t b = static_cast<std::int64_t>(block_ticket), blocks_x = single_pass_blocks_x(g, Warps);
  const std::int64_t ty = b / blocks_x, bx = b % blocks_x, tx = bx * Warps + w;
  const std::int64_t t = ty * g.tiles_x + tx;
  const bool live = tx < g.tiles_x;  // the last block of a tile row may have warps past its end
  // 8-bit tiles are kept in shared memory between the two passes over them (8 KB per warp), so the
  // image is read from DRAM once; wider pixels are read again from L2.
  extern __shared__ unsigned staged_tiles[];
  quad_t<In>* stage = nullptr;
  if constexpr (stages_tiles<In>) stage = staged_tiles + w * tile_rows * warp::warp_threads;
  Acc col[lane_cols] = {}, mine[2] = {Acc(0), Acc(0)};
  if (live) {
    if constexpr (stages_tiles<In>) {
      if (!squared) staged_byte_tile_sums<Acc, ReadDepth>(image, pitch, g, vector_in, tx, ty, lane, col, mine, stage);
      else tile_sums<In, Acc, ReadDepth>(image, pitch, g, squared, vector_in, tx, ty, lane, col, mine, stage);
    } else {
      tile_sums<In, Acc, ReadDepth>(image, pitch, g, squared, vector_in, tx, ty, lane, col, mine, stage);
    }
  }
  row_part[w][lane] = mine[0];
  row_part[w][lane + 32] = mine[1];
  __syncthreads();
  // Row carries: the sums of the tile's rows left of the tile = left of the block + the block's warps before this one.
  Acc before[2] = {Acc(0), Acc(0)};
  for (int i = 0; i < w; ++i) {
    before[0] = before[0] + row_part[i][lane];
    before[1] = before[1] + row_part[i][lane + 32];
  }
  if (w == 0) {
    Acc total[2] = {Acc(0), Acc(0)}, left[2];
#pragma unroll
    for (int i = 0; i < Warps; ++i) {
      total[0] = total[0] + row_part[i][lane];
      total[1] = total[1] + row_part[i][lane + 32];
    }
    if (bx == 0) {
      left[0] = left[1] = Acc(0);
      status.rows.publish(b, state_prefix, total, lane);
    } else {
      status.rows.publish(b, state_aggregate, total, lane);
      look_back(status.rows, b, 1, bx, lane, left);
      const Acc inclusive[2] = {left[0] + total[0], left[1] + total[1]};
      status.rows.publish(b, state_prefix, inclusive, lane);
    }
    block_carry[lane] = left[0];
    block_carry[lane + 32] = left[1];
  }
  __syncthreads();
  if (!live) return;
  const Acc carry[2] = {block_carry[lane] + before[0], block_carry[lane + 32] + before[1]};
  // V(x + k): this tile's rows' share of table(y0 + 63, x + k), the sums above the tile left out.
  Acc v[lane_cols];
#pragma unroll
  for (int k = 0; k < lane_cols; ++k) v[k] = k == 0 ? col[0] : v[k - 1] + col[k];
  {
    const Acc before = exclusive_warp_sum(v[lane_cols - 1], lane) + lane_value(warp_sum(carry[0] + carry[1]), 0);
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) v[k] = before + v[k];
  }
  Acc running[lane_cols];  // table(y0 − 1, x + k)
  if (ty == 0) {
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) running[k] = Acc(0);
    status.columns.publish(t, state_prefix, v, lane);
  } else {
    status.columns.publish(t, state_aggregate, v, lane);
    look_back(status.columns, t, g.tiles_x, ty, lane, running);
    Acc inclusive[lane_cols];
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) inclusive[k] = running[k] + v[k];
    status.columns.publish(t, state_prefix, inclusive, lane);
  }
  write_tile<In, Acc, WriteDepth>(image, pitch, g, squared, vector_in, tx, ty, lane, running, carry[0], carry[1], table,
                                  table_pitch, shift, stage);
}

}  // namespace parascan::device::sat_detail
