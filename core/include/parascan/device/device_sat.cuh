// Summed-area tables from warp scans, in tiles, with the carries between tiles scanned apart
// (the tile decomposition of Nehab et al. 2011, "GPU-efficient recursive filtering and summed-area
// tables", with plain sums). The image is cut into tiles of tile_rows × tile_cols; one warp owns a
// tile and lane l holds columns l, l+32, l+64, l+96 (every load and store is one 128-byte row
// segment per warp).
//   1. totals:  per tile, the sum of each of its rows and of each of its columns (reads the image)
//   2. carries: exclusive scans across tiles — row sums along a tile row (the sum left of a tile,
//      per image row), column sums down a tile column (the sum above a tile, per image column), and
//      the corner (the sum above and to the left of a tile)
//   3. table:   per tile, top = corner + scan of the column carries along the tile's columns, then
//      down the rows: row prefix (warp scan + the row's left carry) added to the running column sums
//      (reads the image again, writes the table once)
// Traffic: read the image twice, write the table once, plus carries of (1/tile_rows + 1/tile_cols)
// of the table.
#pragma once
#include <climits>
#include <cstdint>
#include "parascan/device/device_scan.cuh"
#include "parascan/ops.hpp"
#include "parascan/sat.hpp"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device::sat_detail {

constexpr int segments = 4;                                 // columns per lane
constexpr int tile_cols = warp::warp_threads * segments;    // 128
constexpr int tile_rows = 64;
constexpr int warps_per_block = 8;

struct grid_shape {
  std::int64_t width, height, tiles_x, tiles_y;
  __host__ __device__ std::int64_t tiles() const { return tiles_x * tiles_y; }
};

inline grid_shape grid_of(image_shape s) {
  return {s.width, s.height, (s.width + tile_cols - 1) / tile_cols, (s.height + tile_rows - 1) / tile_rows};
}

template <class Acc, class In>
__device__ __forceinline__ Acc value_of(const In& x, bool squared) {
  const Acc a = static_cast<Acc>(x);
  return squared ? a * a : a;
}

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = warp::warp_threads / 2; offset > 0; offset >>= 1)
    v = sum{}(v, warp::shuffle_words(v, [offset](unsigned w) { return __shfl_xor_sync(warp::full_mask, w, offset); }));
  return v;
}

template <class T>
__device__ __forceinline__ T lane_value(T v, int lane) {
  return warp::shuffle_words(v, [lane](unsigned w) { return __shfl_sync(warp::full_mask, w, lane); });
}

template <class T>
__device__ __forceinline__ const T* row_of(const T* base, std::size_t pitch, std::int64_t y) {
  return reinterpret_cast<const T*>(reinterpret_cast<const char*>(base) + static_cast<std::size_t>(y) * pitch);
}
template <class T>
__device__ __forceinline__ T* row_of(T* base, std::size_t pitch, std::int64_t y) {
  return reinterpret_cast<T*>(reinterpret_cast<char*>(base) + static_cast<std::size_t>(y) * pitch);
}

/// The warp's tile, or -1 past the last tile (the whole warp leaves together).
__device__ __forceinline__ std::int64_t warp_tile(const grid_shape& g) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / warp::warp_threads;
  return t < g.tiles() ? t : -1;
}

/// Step 1: row_sums[tx·H + y] and col_sums[ty·W + x] of every tile.
template <class In, class Acc>
__global__ void __launch_bounds__(warps_per_block * 32)
    tile_sums_kernel(const In* image, std::size_t pitch, grid_shape g, bool squared, Acc* row_sums, Acc* col_sums) {
  const std::int64_t t = warp_tile(g);
  if (t < 0) return;
  const int lane = threadIdx.x % warp::warp_threads;
  const std::int64_t ty = t / g.tiles_x, tx = t % g.tiles_x, x0 = tx * tile_cols, y0 = ty * tile_rows;
  const int rows = static_cast<int>(g.height - y0 < tile_rows ? g.height - y0 : tile_rows);
  Acc col[segments] = {};
#pragma unroll 4
  for (int r = 0; r < rows; ++r) {
    const In* row = row_of(image, pitch, y0 + r);
    Acc s = Acc(0);
#pragma unroll
    for (int k = 0; k < segments; ++k) {
      const std::int64_t x = x0 + k * warp::warp_threads + lane;
      const Acc v = x < g.width ? value_of<Acc>(row[x], squared) : Acc(0);
      col[k] = sum{}(col[k], v);
      s = sum{}(s, v);
    }
    s = warp_sum(s);
    if (lane == 0) row_sums[tx * g.height + y0 + r] = s;
  }
#pragma unroll
  for (int k = 0; k < segments; ++k) {
    const std::int64_t x = x0 + k * warp::warp_threads + lane;
    if (x < g.width) col_sums[ty * g.width + x] = col[k];
  }
}

/// Step 2a/2b: exclusive scans in place, one thread per line: `lines` lines of `steps` values each,
/// value j of line i at data[j·lines + i] (consecutive threads read consecutive words).
template <class Acc>
__global__ void carries_kernel(Acc* data, std::int64_t lines, std::int64_t steps) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= lines) return;
  Acc running = Acc(0);
  for (std::int64_t j = 0; j < steps; ++j) {
    const Acc v = data[j * lines + i];
    data[j * lines + i] = running;
    running = sum{}(running, v);
  }
}

/// Step 2c: corner[ty·tiles_x + tx] = Σ of the column carries of tile row ty left of tile tx
/// (= the image above and to the left of the tile). One warp per tile row.
template <class Acc>
__global__ void __launch_bounds__(warps_per_block * 32) corners_kernel(const Acc* col_carries, grid_shape g, Acc* corners) {
  const std::int64_t ty = static_cast<std::int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / warp::warp_threads;
  if (ty >= g.tiles_y) return;
  const int lane = threadIdx.x % warp::warp_threads;
  Acc running = Acc(0);
  for (std::int64_t tx = 0; tx < g.tiles_x; ++tx) {
    if (lane == 0) corners[ty * g.tiles_x + tx] = running;
    Acc s = Acc(0);
#pragma unroll
    for (int k = 0; k < segments; ++k) {
      const std::int64_t x = tx * tile_cols + k * warp::warp_threads + lane;
      if (x < g.width) s = sum{}(s, col_carries[ty * g.width + x]);
    }
    running = sum{}(running, warp_sum(s));
  }
}

/// Step 3: the table. `shift` is 1 for the padded layout (and then the tile also writes its share of
/// the zero first row and column), 0 for the inclusive one.
template <class In, class Acc>
__global__ void __launch_bounds__(warps_per_block * 32)
    table_kernel(const In* image, std::size_t pitch, grid_shape g, bool squared, const Acc* row_carries,
                 const Acc* col_carries, const Acc* corners, Acc* table, std::size_t table_pitch, int shift) {
  const std::int64_t t = warp_tile(g);
  if (t < 0) return;
  const int lane = threadIdx.x % warp::warp_threads;
  const std::int64_t ty = t / g.tiles_x, tx = t % g.tiles_x, x0 = tx * tile_cols, y0 = ty * tile_rows;
  const int rows = static_cast<int>(g.height - y0 < tile_rows ? g.height - y0 : tile_rows);
  // The row above the tile: table(y0 − 1, x) for the tile's columns.
  Acc running[segments];
  Acc carry = corners[t];
#pragma unroll
  for (int k = 0; k < segments; ++k) {
    const std::int64_t x = x0 + k * warp::warp_threads + lane;
    const Acc inc = warp::inclusive_scan(x < g.width ? col_carries[ty * g.width + x] : Acc(0), sum{}, lane);
    running[k] = sum{}(carry, inc);
    carry = sum{}(carry, lane_value(inc, warp::warp_threads - 1));
  }
  if (shift && ty == 0) {  // padded: the zero first row above this tile's columns (and the corner)
    Acc* top = table;
#pragma unroll
    for (int k = 0; k < segments; ++k) {
      const std::int64_t x = x0 + k * warp::warp_threads + lane;
      if (x < g.width) top[x + 1] = Acc(0);
    }
    if (tx == 0 && lane == 0) top[0] = Acc(0);
  }
#pragma unroll 4
  for (int r = 0; r < rows; ++r) {
    const std::int64_t y = y0 + r;
    const In* row = row_of(image, pitch, y);
    Acc* out = row_of(table, table_pitch, y + shift) + shift;
    Acc c = row_carries[tx * g.height + y];
#pragma unroll
    for (int k = 0; k < segments; ++k) {
      const std::int64_t x = x0 + k * warp::warp_threads + lane;
      const Acc inc = warp::inclusive_scan(x < g.width ? value_of<Acc>(row[x], squared) : Acc(0), sum{}, lane);
      running[k] = sum{}(running[k], sum{}(c, inc));
      c = sum{}(c, lane_value(inc, warp::warp_threads - 1));
      if (x < g.width) out[x] = running[k];
    }
    if (shift && tx == 0 && lane == 0) out[-1] = Acc(0);  // padded: the zero first column
  }
}

template <class Acc>
__device__ __forceinline__ Acc table_at(const Acc* table, std::size_t pitch, std::int64_t y, std::int64_t x) {
  return row_of(table, pitch, y)[x];
}

/// Σ over the inclusive rectangle (x0..x1, y0..y1), any layout; wrapping integer arithmetic gives the
/// exact sum whenever the sum itself fits.
template <class Acc>
__device__ __forceinline__ Acc rect_sum(const Acc* table, std::size_t pitch, sat_layout layout, std::int64_t x0,
                                        std::int64_t y0, std::int64_t x1, std::int64_t y1) {
  if (layout == sat_layout::padded)
    return table_at(table, pitch, y1 + 1, x1 + 1) - table_at(table, pitch, y0, x1 + 1) -
           table_at(table, pitch, y1 + 1, x0) + table_at(table, pitch, y0, x0);
  Acc s = table_at(table, pitch, y1, x1);
  if (y0 > 0) s = s - table_at(table, pitch, y0 - 1, x1);
  if (x0 > 0) s = s - table_at(table, pitch, y1, x0 - 1);
  if (x0 > 0 && y0 > 0) s = s + table_at(table, pitch, y0 - 1, x0 - 1);
  return s;
}

template <class Acc>
__global__ void rect_sums_kernel(const Acc* table, std::size_t pitch, sat_layout layout, const sat_rect* rects,
                                 Acc* sums, std::int64_t count) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const sat_rect r = rects[i];
    sums[i] = rect_sum(table, pitch, layout, r.x0, r.y0, r.x1, r.y1);
  }
}

template <class Acc, class Out>
__global__ void box_filter_kernel(const Acc* table, std::size_t pitch, image_shape shape, sat_layout layout, int radius,
                                  Out* out, std::size_t out_pitch) {
  const std::int64_t n = shape.width * shape.height;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t y = i / shape.width, x = i % shape.width;
    const std::int64_t x0 = x > radius ? x - radius : 0, y0 = y > radius ? y - radius : 0;
    const std::int64_t x1 = x + radius < shape.width ? x + radius : shape.width - 1;
    const std::int64_t y1 = y + radius < shape.height ? y + radius : shape.height - 1;
    const Acc s = rect_sum(table, pitch, layout, x0, y0, x1, y1);
    const std::int64_t area = (x1 - x0 + 1) * (y1 - y0 + 1);
    Out v;
    if constexpr (std::is_integral_v<Acc>) {
      v = static_cast<Out>((static_cast<std::uint64_t>(s) + static_cast<std::uint64_t>(area) / 2) / static_cast<std::uint64_t>(area));
    } else {
      const double m = rint(static_cast<double>(s) / static_cast<double>(area));
      const double hi = static_cast<double>(static_cast<Out>(~Out(0)));
      v = static_cast<Out>(m < 0 ? 0 : m > hi ? hi : m);
    }
    row_of(out, out_pitch, y)[x] = v;
  }
}

}  // namespace parascan::device::sat_detail

namespace parascan {

template <class In, class Acc>
cudaError_t summed_area_table(void* d_temp, std::size_t& temp_bytes, const In* d_image, std::size_t image_pitch,
                              Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                              bool squared, cudaStream_t stream) {
  using namespace device::sat_detail;
  using device::align_up;
  if (shape.width < 0 || shape.height < 0) return cudaErrorInvalidValue;
  const int shift = layout == sat_layout::padded ? 1 : 0;
  const grid_shape g = grid_of(shape);
  const std::size_t row_bytes = align_up(static_cast<std::size_t>(g.tiles_x * g.height) * sizeof(Acc));
  const std::size_t col_bytes = align_up(static_cast<std::size_t>(g.tiles_y * g.width) * sizeof(Acc));
  const std::size_t corner_bytes = align_up(static_cast<std::size_t>(g.tiles()) * sizeof(Acc));
  const std::size_t need = row_bytes + col_bytes + corner_bytes > 0 ? row_bytes + col_bytes + corner_bytes : 1;
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  if (table_pitch < static_cast<std::size_t>(shape.width + shift) * sizeof(Acc) || table_pitch % sizeof(Acc) != 0)
    return cudaErrorInvalidPitchValue;
  if (shape.width == 0 || shape.height == 0) {  // nothing to sum; the padded table is all zero
    if (!shift) return cudaSuccess;
    return cudaMemset2DAsync(d_table, table_pitch, 0, static_cast<std::size_t>(shape.width + 1) * sizeof(Acc),
                             static_cast<std::size_t>(shape.height + 1), stream);
  }
  if (image_pitch < static_cast<std::size_t>(shape.width) * sizeof(In) || image_pitch % sizeof(In) != 0)
    return cudaErrorInvalidPitchValue;
  const std::int64_t blocks = (g.tiles() + warps_per_block - 1) / warps_per_block;
  if (blocks > INT_MAX) return cudaErrorInvalidValue;
  char* temp = static_cast<char*>(d_temp);
  Acc* row_sums = reinterpret_cast<Acc*>(temp);
  Acc* col_sums = reinterpret_cast<Acc*>(temp + row_bytes);
  Acc* corners = reinterpret_cast<Acc*>(temp + row_bytes + col_bytes);
  constexpr int threads = warps_per_block * 32;
  cudaError_t e;
  tile_sums_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_image, image_pitch, g, squared, row_sums, col_sums);
  if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
  carries_kernel<<<static_cast<unsigned>((g.height + 255) / 256), 256, 0, stream>>>(row_sums, g.height, g.tiles_x);
  if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
  carries_kernel<<<static_cast<unsigned>((g.width + 255) / 256), 256, 0, stream>>>(col_sums, g.width, g.tiles_y);
  if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
  corners_kernel<<<static_cast<unsigned>((g.tiles_y + warps_per_block - 1) / warps_per_block), threads, 0, stream>>>(
      col_sums, g, corners);
  if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
  table_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_image, image_pitch, g, squared, row_sums, col_sums,
                                                                      corners, d_table, table_pitch, shift);
  return cudaPeekAtLastError();
}

template <class Acc>
cudaError_t sat_rect_sums(const Acc* d_table, std::size_t table_pitch, image_shape, sat_layout layout,
                          const sat_rect* d_rects, Acc* d_sums, std::int64_t count, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  const unsigned blocks = static_cast<unsigned>(count < 256 * 1024 ? (count + 255) / 256 : 1024);
  device::sat_detail::rect_sums_kernel<<<blocks, 256, 0, stream>>>(d_table, table_pitch, layout, d_rects, d_sums, count);
  return cudaPeekAtLastError();
}

template <class Acc, class Out>
cudaError_t sat_box_filter(const Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                           int radius, Out* d_out, std::size_t out_pitch, cudaStream_t stream) {
  if (radius < 0 || shape.width < 0 || shape.height < 0) return cudaErrorInvalidValue;
  const std::int64_t n = shape.width * shape.height;
  if (n == 0) return cudaSuccess;
  const unsigned blocks = static_cast<unsigned>(n < 256 * 4096 ? (n + 255) / 256 : 4096);
  device::sat_detail::box_filter_kernel<<<blocks, 256, 0, stream>>>(d_table, table_pitch, shape, layout, radius, d_out,
                                                                   out_pitch);
  return cudaPeekAtLastError();
}

}  // namespace parascan
