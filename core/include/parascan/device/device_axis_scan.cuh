// Scans along one axis (axis_scan.hpp): the definitions, and the column kernels.
//
// inner == 1 (rows): at least 2048 rows of at most 2048 items each take row_scan_kernel, 1 to 32 lanes a row
// (4 items a lane, the lanes' totals scanned by shuffles, a carry from one 128-item step to the next);
// rows longer than a scan tile (8192 4-byte items) in one pass by lines (line_scan.cuh; built-in
// operators, single-pass strategy), else reduce-then-scan over tiles inside rows (row_tile_scan.cuh); fewer, short
// rows the head-flag segmented scan of segmented_scan.cuh with computed heads (row_heads), single pass;
// one row (outer == 1) is the plain scan.
//
// inner > 1 (columns): reduce-then-scan down the extent axis. A block of 32 × 8 threads takes a tile of
// 32 adjacent columns and a chunk of 8·S rows (S ≤ 16 rows per warp, fewer when the axis is short);
// warp w reads rows w·S … w·S+S-1 of the chunk, a coalesced row of 32 columns at a time.
//   1. column_reduce_kernel: each chunk's sum per column                             (read n)
//   2. the chunk sums, an (outer, chunks, inner) array, scanned inclusive down the chunk axis by
//      this same routine (chunks shrink 8·S-fold per level; one chunk needs no level)
//   3. column_scan_kernel: each warp's S items held in registers, the warp sums of the chunk
//      combined in order through shared memory, seeded with the previous chunk's scanned sum,
//      then scanned and stored                                                      (read n, write n)
// Operands are combined in order along the axis, so the operator need not be commutative.
#pragma once
#include <climits>
#include <cstdint>
#include "parascan/axis_scan.hpp"
#include "parascan/device/device_scan.cuh"
#include "parascan/device/line_scan.cuh"
#include "parascan/device/row_tile_scan.cuh"
#include "parascan/device/segmented_scan.cuh"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device {

struct column_policy {
  static constexpr int columns = 32;  // threads along a row: one warp
  static constexpr int warps = 8;     // runs of rows per chunk
  static constexpr int max_rows = 16;  // rows per warp (S)
  static constexpr int threads = columns * warps;
};

/// How an axis_shape with inner > 1 is cut into blocks: column tiles × chunks of rows.
struct column_grid {
  std::int64_t outer, extent, inner;
  std::int64_t tiles;   // column tiles per outer index
  std::int64_t chunks;  // chunks of rows along the axis
  int rows;             // rows per warp (S)

  static column_grid of(axis_shape s) {
    using P = column_policy;
    const std::int64_t per_warp = (s.extent + P::warps - 1) / P::warps;
    const int rows = static_cast<int>(per_warp < P::max_rows ? per_warp : P::max_rows);
    const std::int64_t chunk_rows = static_cast<std::int64_t>(rows) * P::warps;
    return {s.outer, s.extent, s.inner, (s.inner + P::columns - 1) / P::columns,
            (s.extent + chunk_rows - 1) / chunk_rows, rows};
  }
  std::int64_t blocks() const { return outer * tiles * chunks; }
  /// The chunk sums' shape, one level down.
  axis_shape sums() const { return {outer, chunks, inner}; }
};

/// The block's place: outer index, first column, chunk; and this thread's column and first row.
struct column_place {
  std::int64_t o, column, chunk, row;
  int rows;  // rows of this warp inside the axis (0..S)
  int warp, lane;

  __device__ static column_place of(const column_grid& g) {
    using P = column_policy;
    const std::int64_t b = blockIdx.x;
    column_place p;
    p.chunk = b % g.chunks;
    const std::int64_t line_tile = b / g.chunks;
    p.o = line_tile / g.tiles;
    p.lane = static_cast<int>(threadIdx.x % P::columns);
    p.warp = static_cast<int>(threadIdx.x / P::columns);
    p.column = (line_tile % g.tiles) * P::columns + p.lane;
    p.row = (p.chunk * P::warps + p.warp) * g.rows;
    const std::int64_t left = g.extent - p.row;
    p.rows = p.column >= g.inner || left <= 0 ? 0 : static_cast<int>(left < g.rows ? left : g.rows);
    return p;
  }
  __device__ std::int64_t index(const column_grid& g, int i) const { return ((o * g.extent + row + i) * g.inner) + column; }
  /// Warps of this block that hold rows (a prefix of the warps: rows are dealt out in order).
  __device__ int busy_warps(const column_grid& g) const {
    const std::int64_t left = g.extent - chunk * column_policy::warps * g.rows;
    const std::int64_t w = (left + g.rows - 1) / g.rows;
    return static_cast<int>(w < column_policy::warps ? w : column_policy::warps);
  }
};

/// This thread's S items, converted to Acc (independent loads: all in flight at once).
template <class In, class Acc>
__device__ __forceinline__ void load_column_items(const In* in, const column_grid& g, const column_place& p,
                                                  Acc (&items)[column_policy::max_rows]) {
#pragma unroll
  for (int i = 0; i < column_policy::max_rows; ++i) {
    if (i < p.rows) items[i] = static_cast<Acc>(in[p.index(g, i)]);
  }
}

template <class Acc, class Op>
__device__ __forceinline__ Acc reduce_column_items(const Acc (&items)[column_policy::max_rows], int rows, Op op) {
  Acc sum = items[0];
#pragma unroll
  for (int i = 1; i < column_policy::max_rows; ++i) {
    if (i < rows) sum = op(sum, items[i]);
  }
  return sum;
}

/// Both kernels' first step: this thread's items loaded, their sum in warp_sums[warp][lane], a barrier.
template <class In, class Acc, class Op>
__device__ __forceinline__ void stage_column(const In* in, const column_grid& g, const column_place& p, Op op,
                                             Acc (&items)[column_policy::max_rows],
                                             Acc (&warp_sums)[column_policy::warps][column_policy::columns]) {
  load_column_items(in, g, p, items);
  if (p.rows > 0) warp_sums[p.warp][p.lane] = reduce_column_items(items, p.rows, op);
  __syncthreads();
}

template <class In, class Acc, class Op>
__global__ void __launch_bounds__(column_policy::threads)
    column_reduce_kernel(const In* in, column_grid g, Op op, Acc* sums) {
  __shared__ Acc warp_sums[column_policy::warps][column_policy::columns];
  const column_place p = column_place::of(g);
  Acc items[column_policy::max_rows];
  stage_column(in, g, p, op, items, warp_sums);
  if (p.warp == 0 && p.rows > 0) {
    Acc total = warp_sums[0][p.lane];
    const int busy = p.busy_warps(g);
    for (int w = 1; w < busy; ++w) total = op(total, warp_sums[w][p.lane]);
    sums[(p.o * g.chunks + p.chunk) * g.inner + p.column] = total;
  }
}

/// prefix: the chunk sums scanned inclusive (with init when mode.has_init) down the chunk axis, or
/// null when there is one chunk.
template <class In, class Out, class Op>
__global__ void __launch_bounds__(column_policy::threads)
    column_scan_kernel(const In* in, Out* out, column_grid g, Op op, const Out* prefix, scan_mode<Out> mode) {
  __shared__ Out warp_sums[column_policy::warps][column_policy::columns];
  const column_place p = column_place::of(g);
  Out items[column_policy::max_rows];
  stage_column(in, g, p, op, items, warp_sums);
  if (p.rows == 0) return;
  bool have = true;
  Out acc{};
  if (p.chunk > 0) {
    acc = prefix[(p.o * g.chunks + p.chunk - 1) * g.inner + p.column];
  } else if (mode.has_init) {
    acc = mode.init;
  } else {
    have = false;
  }
  for (int w = 0; w < p.warp; ++w) {  // the warps before hold full runs of rows
    acc = have ? op(acc, warp_sums[w][p.lane]) : warp_sums[w][p.lane];
    have = true;
  }
#pragma unroll
  for (int i = 0; i < column_policy::max_rows; ++i) {
    if (i < p.rows) {
      if (mode.exclusive) {  // exclusive always has init: acc is set
        out[p.index(g, i)] = acc;
        acc = op(acc, items[i]);
      } else {
        acc = have ? op(acc, items[i]) : items[i];
        have = true;
        out[p.index(g, i)] = acc;
      }
    }
  }
}

/// Temporary bytes of the column scan of `s`: the chunk sums of every level.
template <class Acc>
std::size_t column_temp_bytes(axis_shape s) {
  const column_grid g = column_grid::of(s);
  if (g.chunks <= 1) return 0;
  return align_up(static_cast<std::size_t>(g.sums().size()) * sizeof(Acc)) + column_temp_bytes<Acc>(g.sums());
}

template <class In, class Out, class Op>
cudaError_t column_scan(char* temp, const In* in, Out* out, axis_shape s, Op op, scan_mode<Out> mode,
                        cudaStream_t stream, bool sync) {
  const column_grid g = column_grid::of(s);
  if (g.blocks() > INT_MAX) return cudaErrorInvalidValue;
  const unsigned blocks = static_cast<unsigned>(g.blocks());
  const Out* prefix = nullptr;
  cudaError_t e;
  if (g.chunks > 1) {
    Out* sums = reinterpret_cast<Out*>(temp);
    column_reduce_kernel<In, Out, Op><<<blocks, column_policy::threads, 0, stream>>>(in, g, op, sums);
    if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
    const std::size_t here = align_up(static_cast<std::size_t>(g.sums().size()) * sizeof(Out));
    e = column_scan<Out, Out, Op>(temp + here, sums, sums, g.sums(), op, scan_mode<Out>{false, mode.has_init, mode.init},
                                  stream, sync);
    if (e != cudaSuccess) return e;
    prefix = sums;
  }
  column_scan_kernel<In, Out, Op><<<blocks, column_policy::threads, 0, stream>>>(in, out, g, op, prefix, mode);
  return check_launch(stream, sync);
}

/// Rows taken a group of lanes a row: at least min_rows rows of at most max_extent items. A row of L
/// items gets W lanes, the least power of two with 4·W >= L (at most 32), so a warp holds 32/W rows.
struct row_policy {
  static constexpr int items = 4;            // a lane's consecutive items per step
  static constexpr int warps = 8;            // warps a block
  static constexpr std::int64_t max_extent = 2048, min_rows = 2048;
  static bool takes(axis_shape s) { return s.inner == 1 && s.extent <= max_extent && s.outer >= min_rows; }
  static int lanes(std::int64_t extent) {
    int w = 1;
    while (w < 32 && static_cast<std::int64_t>(w) * items < extent) w <<= 1;
    return w;
  }
};

/// W lanes a row, 32/W rows a warp; every lane of the warp runs every step (shuffles take the whole
/// warp), a group past the last row with no items.
template <int W, class In, class Out, class Op>
__global__ void __launch_bounds__(row_policy::warps * 32)
    row_scan_kernel(const In* in, Out* out, std::int64_t rows, std::int64_t extent, Op op, scan_mode<Out> mode) {
  constexpr int V = row_policy::items, G = 32 / W;
  const int lane = static_cast<int>(threadIdx.x % 32), sub = lane % W;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * row_policy::warps * G;
  for (std::int64_t r0 = (blockIdx.x * static_cast<std::int64_t>(row_policy::warps) + threadIdx.x / 32) * G; r0 < rows;
       r0 += stride) {
    const std::int64_t r = r0 + lane / W;
    const bool live = r < rows;
    const In* src = in + (live ? r : 0) * extent;
    Out* dst = out + (live ? r : 0) * extent;
    maybe<Out> carry{mode.init, mode.has_init};  // everything before this step, init first
    for (std::int64_t base = 0; base < extent; base += W * V) {
      const std::int64_t first = base + static_cast<std::int64_t>(sub) * V;
      const std::int64_t left = live ? extent - first : 0;
      const int valid = left <= 0 ? 0 : (left < V ? static_cast<int>(left) : V);
      Out t[V];  // the lane's inclusive scan of its items
#pragma unroll
      for (int j = 0; j < V; ++j) {
        if (j < valid) {
          const Out x = static_cast<Out>(src[first + j]);
          t[j] = j == 0 ? x : op(t[j - 1], x);
        }
      }
      maybe<Out> inclusive{valid > 0 ? t[valid > 0 ? valid - 1 : 0] : Out{}, valid > 0};
#pragma unroll
      for (int o = 1; o < W; o <<= 1) {
        const maybe<Out> up =
            warp::shuffle_words(inclusive, [o](unsigned w) { return __shfl_up_sync(0xffffffffu, w, o, W); });
        if (sub >= o) inclusive = up.then(inclusive, op);
      }
      maybe<Out> before =  // the group's lanes before this one
          warp::shuffle_words(inclusive, [](unsigned w) { return __shfl_up_sync(0xffffffffu, w, 1, W); });
      if (sub == 0) before.has = false;
      const maybe<Out> prefix = carry.then(before, op);
#pragma unroll
      for (int j = 0; j < V; ++j) {
        if (j < valid) {
          const maybe<Out> mine{mode.exclusive ? (j > 0 ? t[j - 1] : Out{}) : t[j], !mode.exclusive || j > 0};
          dst[first + j] = prefix.then(mine, op).value;  // exclusive scans have an init: never empty
        }
      }
      carry = carry.then(
          warp::shuffle_words(inclusive, [](unsigned w) { return __shfl_sync(0xffffffffu, w, W - 1, W); }), op);
    }
  }
}

template <int W, class In, class Out, class Op>
cudaError_t launch_row_scan(const In* in, Out* out, axis_shape s, Op op, scan_mode<Out> mode, cudaStream_t stream,
                            bool sync) {
  if (W > 1 && row_policy::lanes(s.extent) < W) {
    return launch_row_scan<(W > 1 ? W / 2 : 1)>(in, out, s, op, mode, stream, sync);
  }
  constexpr std::int64_t rows_a_block = row_policy::warps * (32 / W);
  const std::int64_t blocks = (s.outer + rows_a_block - 1) / rows_a_block;
  const auto grid = static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20));
  row_scan_kernel<W, In, Out, Op><<<grid, row_policy::warps * 32, 0, stream>>>(in, out, s.outer, s.extent, op, mode);
  return check_launch(stream, sync);
}

/// Every axis scan: rows, one row, or columns, by the shape.
template <class In, class Out, class Op>
cudaError_t axis_scan(void* d_temp, std::size_t& temp_bytes, const In* in, Out* out, axis_shape s, Op op,
                      scan_mode<Out> mode, cudaStream_t stream, scan_options options) {
  if (s.outer < 0 || s.extent < 0 || s.inner < 0) return cudaErrorInvalidValue;
  std::int64_t n = 0;
  if (__builtin_mul_overflow(s.outer, s.extent, &n) || __builtin_mul_overflow(n, s.inner, &n)) {
    return cudaErrorInvalidValue;
  }
  if (n == 0) {
    if (d_temp == nullptr) temp_bytes = 1;
    return cudaSuccess;
  }
  if (s.inner == 1 && s.outer == 1) {  // one row: the plain scan
    return dispatch_scan<Out, false>(d_temp, temp_bytes, pointer_loader<In, Out>{in}, pointer_storer<Out>{out}, out, n,
                                     op, mode, stream, options);
  }
  if (row_policy::takes(s)) {  // many short rows: lanes a row, no temporary storage
    if (d_temp == nullptr) {
      temp_bytes = 1;
      return cudaSuccess;
    }
    return launch_row_scan<32>(in, out, s, op, mode, stream, options.debug_synchronous);
  }
  // Long rows: tiles that never straddle a row (reduce-then-scan whatever the strategy, except recursive,
  // which has no row form: the segmented scan below refuses it).
  if (s.inner == 1 && s.extent > row_policy::max_extent && options.strategy != device_strategy::recursive) {
    // Single pass (the default) by lines for the built-in operators (the padding needs an identity).
    if constexpr (is_builtin_op<Op>) {
      // Rows of more than one line tile: a row of one tile or less is one row tile already (one launch
      // either way), where a line tile of 8192 would be half padding (256 x 4096: 11.3 us by lines,
      // 7.5 by row tiles on the H200, docs/performance.md entry 40).
      if (options.strategy == device_strategy::single_pass && s.extent > scan_policy<Out>::tile_items) {
        const std::size_t need = line_scan_temp_bytes<Out>(s);
        if (d_temp == nullptr) {
          temp_bytes = need;
          return cudaSuccess;
        }
        if (temp_bytes < need) return cudaErrorInvalidValue;
        return line_scan(static_cast<char*>(d_temp), in, out, s, op, mode, identity_of<Op, Out>(), stream,
                         options.debug_synchronous);
      }
    }
    const std::int64_t tpr = row_tile_policy::tiles_a_row(s.extent), tiles = s.outer * tpr;
    const std::size_t need = tpr > 1 ? static_cast<std::size_t>(tiles) * sizeof(Out) : 1;
    if (d_temp == nullptr) {
      temp_bytes = need;
      return cudaSuccess;
    }
    if (temp_bytes < need || tiles > INT_MAX) return cudaErrorInvalidValue;
    Out* totals = static_cast<Out*>(d_temp);
    const auto grid = static_cast<unsigned>(tiles);
    if (tpr > 1) {
      row_tile_reduce_kernel<In, Out, Op><<<grid, row_tile_policy::threads, 0, stream>>>(in, s.extent, tpr, totals, op);
      cudaError_t e = check_launch(stream, options.debug_synchronous);
      if (e != cudaSuccess) return e;
      e = launch_row_scan<32>(static_cast<const Out*>(totals), totals, axis_shape::rows(s.outer, tpr), op,
                              scan_mode<Out>{false, false, Out{}}, stream, options.debug_synchronous);
      if (e != cudaSuccess) return e;
    }
    row_tile_scan_kernel<In, Out, Op>
        <<<grid, row_tile_policy::threads, 0, stream>>>(in, out, s.extent, tpr, totals, op, mode);
    return check_launch(stream, options.debug_synchronous);
  }
  if (s.inner == 1) {  // rows: a segment starts every extent items
    using pair = segmented_value<Out>;
    const Out init = mode.has_init ? mode.init : Out{};
    return dispatch_scan<pair, false>(
        d_temp, temp_bytes, segmented_loader<In, Out, Op, row_heads>{in, {s.extent}, op, mode.has_init, init},
        segmented_storer<Out, row_heads>{out, {s.extent}, mode.exclusive, init}, nullptr, n, segmented_op<Op>{op},
        scan_mode<pair>{mode.exclusive, mode.exclusive, pair{init, 1u}}, stream, options);
  }
  const std::size_t need = column_temp_bytes<Out>(s);
  if (d_temp == nullptr) {
    temp_bytes = need > 0 ? need : 1;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  return column_scan(static_cast<char*>(d_temp), in, out, s, op, mode, stream, options.debug_synchronous);
}

}  // namespace parascan::device

namespace parascan {

template <class In, class Out, class Op>
cudaError_t inclusive_scan_axis(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, axis_shape shape,
                                Op op, cudaStream_t stream, scan_options options) {
  return device::axis_scan(d_temp, temp_bytes, d_in, d_out, shape, op, device::scan_mode<Out>{false, false, Out{}},
                           stream, options);
}

template <class In, class Out, class Op>
cudaError_t inclusive_scan_axis_init(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out,
                                     axis_shape shape, Op op, Out init, cudaStream_t stream, scan_options options) {
  return device::axis_scan(d_temp, temp_bytes, d_in, d_out, shape, op, device::scan_mode<Out>{false, true, init},
                           stream, options);
}

template <class In, class Out, class Op>
cudaError_t exclusive_scan_axis(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, axis_shape shape,
                                Op op, Out init, cudaStream_t stream, scan_options options) {
  return device::axis_scan(d_temp, temp_bytes, d_in, d_out, shape, op, device::scan_mode<Out>{true, true, init},
                           stream, options);
}

}  // namespace parascan

/// Explicit instantiation of the three axis scans for (In, Out, Op).
#define PARASCAN_INSTANTIATE_AXIS_SCAN(In, Out, Op)                                                          \
  template cudaError_t parascan::inclusive_scan_axis<In, Out, Op>(void*, std::size_t&, const In*, Out*,     \
                                                                  parascan::axis_shape, Op, cudaStream_t,   \
                                                                  parascan::scan_options);                  \
  template cudaError_t parascan::inclusive_scan_axis_init<In, Out, Op>(                                     \
      void*, std::size_t&, const In*, Out*, parascan::axis_shape, Op, Out, cudaStream_t, parascan::scan_options); \
  template cudaError_t parascan::exclusive_scan_axis<In, Out, Op>(void*, std::size_t&, const In*, Out*,     \
                                                                  parascan::axis_shape, Op, Out, cudaStream_t, \
                                                                  parascan::scan_options);
