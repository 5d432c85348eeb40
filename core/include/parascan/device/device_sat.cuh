// Summed-area tables from warp scans, in tiles, with the carries between tiles scanned apart
// (the tile decomposition of Nehab et al. 2011, "GPU-efficient recursive filtering and summed-area
// tables", with plain sums). The image is cut into tiles of 64 rows × 128 columns; one warp owns a
// tile and lane l holds the four adjacent columns 4l..4l+3, so a tile row is one vector load (4, 8
// or 16 bytes per lane), one warp scan and one 16-byte store per lane.
//   1. totals:  per tile, the sum of each of its rows, of each of its columns, and of the whole tile
//   2. carries: exclusive scans across tiles — row sums along a tile row (the sum left of a tile,
//      per image row), column sums down a tile column (the sum above a tile, per image column), tile
//      totals along a tile row; the corner of a tile (the sum above and to its left) is then the
//      sum of those totals above it: summed by the table kernel's warp when there are at most 1024
//      tile rows, else scanned down the tile columns by a kernel of its own
//   3. table:   per tile, top = corner + scan of the column carries along the tile's columns, then
//      down the rows: row prefix (thread scan of 4, warp scan, + the row's left carry) added to the
//      running column sums (reads the image again, writes the table once)
// Traffic: read the image twice, write the table once, plus carries of (1/64 + 1/128) of the table.
#pragma once
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "parascan/device/device_scan.cuh"
#include "parascan/ops.hpp"
#include "parascan/sat.hpp"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device::sat_detail {

constexpr int lane_cols = 4;                                // adjacent columns per lane
constexpr int tile_cols = warp::warp_threads * lane_cols;   // 128
constexpr int tile_rows = 64;                               // two rows per lane for the row carries
constexpr int warps_per_block = 8;
constexpr int line_threads = 256;                           // block size of the carry scans

struct grid_shape {
  std::int64_t width, height, tiles_x, tiles_y;
  __host__ __device__ std::int64_t tiles() const { return tiles_x * tiles_y; }
};

inline grid_shape grid_of(image_shape s) {
  return {s.width, s.height, (s.width + tile_cols - 1) / tile_cols, (s.height + tile_rows - 1) / tile_rows};
}

/// Image rows loaded before any is summed: 16 bytes of pixels per lane in flight.
template <class In>
constexpr int rows_in_flight = 16 / (lane_cols * static_cast<int>(sizeof(In)));
/// Blocks per SM the tile kernels are compiled for (caps registers at 64 per thread).
constexpr int min_blocks = 4;

/// A lane's four pixels as packed words (a single load when aligned): u8 → one 32-bit word, u16 →
/// two, u32/f32 → four. (uchar4/ushort4 would take a register per pixel.)
template <class In> struct quad_of;
template <> struct quad_of<std::uint8_t> { using type = unsigned; };
template <> struct quad_of<std::uint16_t> { using type = uint2; };
template <> struct quad_of<std::uint32_t> { using type = uint4; };
template <> struct quad_of<float> { using type = uint4; };
template <class In>
using quad_t = typename quad_of<In>::type;

/// Pixel k (0..3) of a packed quad.
template <class In>
__device__ __forceinline__ In pixel(const quad_t<In>& q, int k) {
  if constexpr (sizeof(In) == 1) {
    return static_cast<In>((q >> (8 * k)) & 0xffu);
  } else if constexpr (sizeof(In) == 2) {
    const unsigned w = k < 2 ? q.x : q.y;
    return static_cast<In>(k % 2 ? w >> 16 : w & 0xffffu);
  } else {
    const unsigned w = k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w;
    In v;
    memcpy(&v, &w, sizeof(v));
    return v;
  }
}

/// A packed quad from four pixels.
template <class In>
__device__ __forceinline__ quad_t<In> pack(const In (&p)[4]) {
  quad_t<In> q;
  memcpy(&q, p, sizeof(q));
  return q;
}

template <class T>
__device__ __forceinline__ const T* row_of(const T* base, std::size_t pitch, std::int64_t y) {
  return reinterpret_cast<const T*>(reinterpret_cast<const char*>(base) + static_cast<std::size_t>(y) * pitch);
}
template <class T>
__device__ __forceinline__ T* row_of(T* base, std::size_t pitch, std::int64_t y) {
  return reinterpret_cast<T*>(reinterpret_cast<char*>(base) + static_cast<std::size_t>(y) * pitch);
}

/// Pixels x..x+3 of a row, zero past the width; one vector load when `vector` (the row and x aligned).
template <class In>
__device__ __forceinline__ quad_t<In> load_quad(const In* row, std::int64_t x, std::int64_t width, bool vector) {
  if (vector && x + lane_cols <= width) return __ldg(reinterpret_cast<const quad_t<In>*>(row + x));
  In p[lane_cols];
#pragma unroll
  for (int k = 0; k < lane_cols; ++k) p[k] = x + k < width ? __ldg(row + x + k) : In(0);
  return pack(p);
}

/// Calls f(pixels, r) for rows r = 0..rows−1 in order with the loads of the next `Depth` rows in
/// flight: a ring of registers whose indices unrolling fixes. load(r) must give zeros for r ≥ rows.
/// When `fast` (warp-uniform: a whole tile of rows, every lane's pixels inside the image, aligned)
/// the loop has no per-row branches, so the compiler can overlap the shuffle chains of several rows;
/// fast_load(r) is then used for r < tile_rows.
template <int Depth, class Quad, class FastLoad, class Load, class F>
__device__ __forceinline__ void for_rows(int rows, bool fast, FastLoad fast_load, Load load, F f) {
  Quad q[Depth];
  if (fast) {
#pragma unroll
    for (int i = 0; i < Depth; ++i) q[i] = fast_load(i);
#pragma unroll 1
    for (int r0 = 0; r0 < tile_rows; r0 += Depth) {
#pragma unroll
      for (int i = 0; i < Depth; ++i) {
        const Quad cur = q[i];
        if (r0 + i + Depth < tile_rows) q[i] = fast_load(r0 + i + Depth);
        f(cur, r0 + i);
      }
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < Depth; ++i) q[i] = load(i);
#pragma unroll 1
  for (int r0 = 0; r0 < rows; r0 += Depth) {
#pragma unroll
    for (int i = 0; i < Depth; ++i) {
      const int r = r0 + i;
      if (r < rows) {
        const Quad cur = q[i];
        q[i] = load(r + Depth);
        f(cur, r);
      }
    }
  }
}

template <class Acc, class In>
__device__ __forceinline__ Acc value_of(In x, bool squared) {
  const Acc a = static_cast<Acc>(x);
  return squared ? a * a : a;
}

template <class Acc, class In>
__device__ __forceinline__ void unpack(const quad_t<In>& q, bool squared, Acc (&a)[lane_cols]) {
#pragma unroll
  for (int k = 0; k < lane_cols; ++k) a[k] = value_of<Acc>(pixel<In>(q, k), squared);
}

/// v[k] to row[x + k] for x + k ≤ last; 16-byte stores when `vector` (row 16-byte aligned, x % 4 == 0).
template <class Acc>
__device__ __forceinline__ void store_quad(Acc* row, std::int64_t x, std::int64_t last, bool vector,
                                           const Acc (&v)[lane_cols]) {
  if (vector && x + lane_cols - 1 <= last) {
    constexpr int words = sizeof(Acc) * lane_cols / sizeof(uint4);
    uint4 w[words];
    memcpy(w, v, sizeof(w));
#pragma unroll
    for (int i = 0; i < words; ++i) reinterpret_cast<uint4*>(row + x)[i] = w[i];
    return;
  }
#pragma unroll
  for (int k = 0; k < lane_cols; ++k)
    if (x + k <= last) row[x + k] = v[k];
}

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = warp::warp_threads / 2; offset > 0; offset >>= 1)
    v = v + warp::shuffle_words(v, [offset](unsigned w) { return __shfl_xor_sync(warp::full_mask, w, offset); });
  return v;
}

template <class T>
__device__ __forceinline__ T lane_value(T v, int lane) {
  return warp::shuffle_words(v, [lane](unsigned w) { return __shfl_sync(warp::full_mask, w, lane); });
}

/// Σ of v over the lanes below this one (integers subtract; floats shift, so that no rounding differs).
template <class T>
__device__ __forceinline__ T exclusive_warp_sum(T v, int lane) {
  const T inc = warp::inclusive_scan(v, sum{}, lane);
  if constexpr (std::is_integral_v<T>) {
    return inc - v;
  } else {
    const T up = warp::shfl_up(inc, 1);
    return lane == 0 ? T(0) : up;
  }
}

/// Rows of the tile that starts at image row y0 (fewer than tile_rows at the bottom of the image).
__host__ __device__ __forceinline__ int rows_in_tile(const grid_shape& g, std::int64_t y0) {
  return static_cast<int>(g.height - y0 < tile_rows ? g.height - y0 : tile_rows);
}

/// A lane's place in its warp's tile (a warp per tile, tiles in row-major order by block and warp).
struct tile_place {
  std::int64_t tx, ty, y0, x;  // the tile's column and row, its first image row, the lane's first column
  int lane, rows;              // the lane, the tile's rows in the image
};
/// The warp's tile; false past the last tile (the whole warp leaves together).
__device__ __forceinline__ bool warp_tile(const grid_shape& g, tile_place& p) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * warps_per_block + threadIdx.x / warp::warp_threads;
  if (t >= g.tiles()) return false;
  p.lane = threadIdx.x % warp::warp_threads;
  p.ty = t / g.tiles_x;
  p.tx = t % g.tiles_x;
  p.y0 = p.ty * tile_rows;
  p.x = p.tx * tile_cols + p.lane * lane_cols;
  p.rows = rows_in_tile(g, p.y0);
  return true;
}

/// Programmatic dependent launch (sm_90+; no-ops without it): a kernel lets the next one in the stream
/// be launched early, and the next one waits for this one's results before reading them.
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Launch `kernel` so that it may start while the previous kernel in the stream finishes (it must
/// call wait_for_previous_grid() before reading that kernel's output).
template <class... Params, class... Args>
cudaError_t launch_after_previous(bool overlap, void (*kernel)(Params...), unsigned grid, unsigned block,
                                  std::size_t smem, cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = overlap ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}

/// Reads a tile once: col[k] = Σ of column x + k over the tile's rows, mine[0] and mine[1] = Σ of
/// tile rows lane and lane + 32 (zero past the image). `Depth` rows are loaded ahead.
template <class In, class Acc, int Depth = rows_in_flight<In>>
__device__ __forceinline__ void tile_sums(const In* image, std::size_t pitch, const grid_shape& g, bool squared,
                                          bool vector_in, std::int64_t tx, std::int64_t ty, int lane,
                                          Acc (&col)[lane_cols], Acc (&mine)[2], quad_t<In>* stage = nullptr) {
  const std::int64_t y0 = ty * tile_rows, x = tx * tile_cols + lane * lane_cols;
  const int rows = rows_in_tile(g, y0);
#pragma unroll
  for (int k = 0; k < lane_cols; ++k) col[k] = Acc(0);
  mine[0] = mine[1] = Acc(0);
  const bool vector = vector_in && x + lane_cols <= g.width;
  const In* first = row_of(image, pitch, y0);
  const bool fast = rows == tile_rows && __all_sync(warp::full_mask, vector);
  for_rows<Depth, quad_t<In>>(
      rows, fast, [&](int r) { return __ldg(reinterpret_cast<const quad_t<In>*>(row_of(first, pitch, r) + x)); },
      [&](int r) { return r < rows ? load_quad(row_of(first, pitch, r), x, g.width, vector) : quad_t<In>{}; },
      [&](const quad_t<In>& q, int r) {
        if (stage) stage[r * warp::warp_threads + lane] = q;
        Acc s = Acc(0);
        if constexpr (sizeof(In) == 1 && std::is_integral_v<Acc>) {
          if (!squared) {  // four bytes summed by one dp4a
            s = static_cast<Acc>(__dp4a(q, 0x01010101u, 0u));
#pragma unroll
            for (int k = 0; k < lane_cols; ++k) col[k] = col[k] + static_cast<Acc>((q >> (8 * k)) & 0xffu);
          }
        }
        if (squared || sizeof(In) != 1 || !std::is_integral_v<Acc>) {
          Acc a[lane_cols];
          unpack<Acc, In>(q, squared, a);
#pragma unroll
          for (int k = 0; k < lane_cols; ++k) {
            col[k] = col[k] + a[k];
            s = s + a[k];
          }
        }
        s = warp_sum(s);
        if (lane == (r & 31)) {
          if (r < 32) mine[0] = s;
          else mine[1] = s;
        }
      });
}

/// tile_sums for 8-bit pixels summed plainly, with the tile kept in `stage` (64 rows × 32 words, row r
/// lane l at stage[r·32 + l]): the read loop only stores each word and adds its bytes to packed 16-bit
/// column pairs (64 · 255 < 2^16); each lane then sums its two rows from the staged words with dp4a,
/// reading word (k + lane) mod 32 at step k so that the 32 lanes hit 32 banks.
template <class Acc, int Depth>
__device__ __forceinline__ void staged_byte_tile_sums(const std::uint8_t* image, std::size_t pitch, const grid_shape& g,
                                                      bool vector_in, std::int64_t tx, std::int64_t ty, int lane,
                                                      Acc (&col)[lane_cols], Acc (&mine)[2], unsigned* stage) {
  const std::int64_t y0 = ty * tile_rows, x = tx * tile_cols + lane * lane_cols;
  const int rows = rows_in_tile(g, y0);
  const bool vector = vector_in && x + lane_cols <= g.width;
  const std::uint8_t* first = row_of(image, pitch, y0);
  const bool fast = rows == tile_rows && __all_sync(warp::full_mask, vector);
  unsigned pair[2] = {0, 0};  // columns x, x + 1 and x + 2, x + 3 as packed 16-bit sums
  for_rows<Depth, unsigned>(
      rows, fast, [&](int r) { return __ldg(reinterpret_cast<const unsigned*>(row_of(first, pitch, r) + x)); },
      [&](int r) { return r < rows ? load_quad(row_of(first, pitch, r), x, g.width, vector) : 0u; },
      [&](unsigned q, int r) {
        stage[r * warp::warp_threads + lane] = q;
        pair[0] += __byte_perm(q, 0, 0x4140);
        pair[1] += __byte_perm(q, 0, 0x4342);
      });
  for (int r = rows; r < tile_rows; ++r) stage[r * warp::warp_threads + lane] = 0;
  __syncwarp();
  unsigned s0 = 0, s1 = 0;
#pragma unroll 8
  for (int k = 0; k < warp::warp_threads; ++k) {
    const int word = (k + lane) & (warp::warp_threads - 1);
    s0 = __dp4a(stage[lane * warp::warp_threads + word], 0x01010101u, s0);
    s1 = __dp4a(stage[(lane + 32) * warp::warp_threads + word], 0x01010101u, s1);
  }
  mine[0] = static_cast<Acc>(s0);
  mine[1] = static_cast<Acc>(s1);
  col[0] = static_cast<Acc>(pair[0] & 0xffffu);
  col[1] = static_cast<Acc>(pair[0] >> 16);
  col[2] = static_cast<Acc>(pair[1] & 0xffffu);
  col[3] = static_cast<Acc>(pair[1] >> 16);
}

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
constexpr int byte_lane_cols = 8;
constexpr int byte_tile_lanes = tile_cols / byte_lane_cols;                   // 16
constexpr int byte_tiles_per_warp = warp::warp_threads / byte_tile_lanes;    // 2
constexpr int byte_rows_in_flight = 4;
static_assert(tile_rows * 255 < 65536, "packed 16-bit column sums");

inline std::int64_t byte_warps(const grid_shape& g) {
  return (g.tiles_x + byte_tiles_per_warp - 1) / byte_tiles_per_warp * g.tiles_y;
}

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

/// Tile rows up to which the table kernel sums the corner itself (≤ 32 loads per lane).
constexpr std::int64_t corner_rows_in_kernel = 1024;

/// Stores a lane's four running sums, table columns c..c+3 (c = x + shift), with 16-byte stores at
/// any row alignment: with the row d elements off a 16-byte boundary at c, lane l stores the aligned
/// window c−d..c+3−d (lane l−1's last d values and its own first 4−d); lane 0 stores only its own
/// columns (the rest belong to the tile on the left) and lane 31 adds its last d values.
template <class Acc>
__device__ __forceinline__ void store_row(Acc* out, std::int64_t c, std::int64_t last, int lane,
                                          const Acc (&v)[lane_cols]) {
  constexpr int per_vector = static_cast<int>(sizeof(uint4) / sizeof(Acc));
  const int d = static_cast<int>((reinterpret_cast<std::uintptr_t>(out + c) / sizeof(Acc)) % per_vector);
  if (d == 0) {  // the same for every lane of the row
    store_quad(out, c, last, true, v);
    return;
  }
  const Acc p1 = warp::shfl_up(v[1], 1), p2 = warp::shfl_up(v[2], 1), p3 = warp::shfl_up(v[3], 1);
  Acc w[lane_cols];
  if (d == 1) {
    w[0] = p3, w[1] = v[0], w[2] = v[1], w[3] = v[2];
  } else if (d == 2) {
    w[0] = p2, w[1] = p3, w[2] = v[0], w[3] = v[1];
  } else {
    w[0] = p1, w[1] = p2, w[2] = p3, w[3] = v[0];
  }
  const std::int64_t start = c - d;
  if (lane == 0) {
#pragma unroll
    for (int j = 0; j < lane_cols; ++j)
      if (j >= d && start + j <= last) out[start + j] = w[j];
  } else {
    store_quad(out, start, last, true, w);
  }
  if (lane == warp::warp_threads - 1) {
#pragma unroll
    for (int j = 0; j < lane_cols; ++j)
      if (j >= lane_cols - d && c + j <= last) out[c + j] = v[j];
  }
}

/// Writes a tile's table rows: `running` holds table(y0 − 1, x..x+3) (the row above the tile) and
/// carry0/carry1 the sums left of the tile of its rows lane and lane + 32. Reads the tile's pixels
/// again. `shift` is 1 for the padded layout (table column X holds image column X − 1, row Y image
/// row Y − 1): the tile at the top also writes its share of the zero first row, the tile at the left
/// the zero first column. `Depth` rows are loaded ahead.
template <class In, class Acc, int Depth = rows_in_flight<In>>
__device__ __forceinline__ void write_tile(const In* image, std::size_t pitch, const grid_shape& g, bool squared,
                                           bool vector_in, std::int64_t tx, std::int64_t ty, int lane,
                                           Acc (&running)[lane_cols], Acc carry0, Acc carry1, Acc* table,
                                           std::size_t table_pitch, int shift, const quad_t<In>* stage = nullptr) {
  const std::int64_t y0 = ty * tile_rows, x = tx * tile_cols + lane * lane_cols;
  const std::int64_t last = g.width - 1 + shift;  // the last table column
  const int rows = rows_in_tile(g, y0);
  if (shift && ty == 0) {
    const Acc zero[lane_cols] = {};
    store_row(table, x + shift, last, lane, zero);
    if (tx == 0 && lane == 0) table[0] = Acc(0);
  }
  const bool vector = vector_in && x + lane_cols <= g.width;
  const In* first = row_of(image, pitch, y0);
  Acc* out_first = row_of(table, table_pitch, y0 + shift);
  const bool fast = rows == tile_rows && __all_sync(warp::full_mask, vector);
  const auto emit = [&](const Acc (&a)[lane_cols], Acc lanes_before, int r) {
    const Acc before = lane_value(r < 32 ? carry0 : carry1, r & 31) + lanes_before;
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) running[k] = running[k] + (before + a[k]);
    Acc* out = row_of(out_first, table_pitch, r);
    store_row(out, x + shift, last, lane, running);
    if (shift && tx == 0 && lane == 0) out[0] = Acc(0);
  };
  if constexpr (std::is_same_v<In, std::uint8_t>) {
    // 8-bit sums: a tile row's prefix is at most 128 · 255 < 2^16, so one warp scan of two packed
    // 16-bit halves serves two rows.
    if (fast && !squared) {
      constexpr int depth = Depth;
      static_assert(depth % 2 == 0 && tile_cols * 255 < 65536);
      const auto load = [&](int r) {
        return stage ? stage[r * warp::warp_threads + lane] : __ldg(reinterpret_cast<const unsigned*>(row_of(first, pitch, r) + x));
      };
      unsigned q[depth];
#pragma unroll
      for (int i = 0; i < depth; ++i) q[i] = load(i);
#pragma unroll 1
      for (int r0 = 0; r0 < tile_rows; r0 += depth) {
#pragma unroll
        for (int i = 0; i < depth; i += 2) {
          const unsigned qa = q[i], qb = q[i + 1];
          if (r0 + i + depth < tile_rows) {
            q[i] = load(r0 + i + depth);
            q[i + 1] = load(r0 + i + 1 + depth);
          }
          Acc a[lane_cols], b[lane_cols];
          unsigned sa = 0, sb = 0;
#pragma unroll
          for (int k = 0; k < lane_cols; ++k) {
            sa += (qa >> (8 * k)) & 0xffu;
            sb += (qb >> (8 * k)) & 0xffu;
            a[k] = static_cast<Acc>(sa);
            b[k] = static_cast<Acc>(sb);
          }
          const unsigned packed = sa | (sb << 16);
          const unsigned before = warp::inclusive_scan(packed, sum{}, lane) - packed;
          emit(a, static_cast<Acc>(before & 0xffffu), r0 + i);
          emit(b, static_cast<Acc>(before >> 16), r0 + i + 1);
        }
      }
      return;
    }
  }
  const auto staged = [&](int r) { return stage[r * warp::warp_threads + lane]; };
  for_rows<Depth, quad_t<In>>(
      rows, fast,
      [&](int r) {
        return stage ? staged(r) : __ldg(reinterpret_cast<const quad_t<In>*>(row_of(first, pitch, r) + x));
      },
      [&](int r) {
        return r >= rows ? quad_t<In>{} : stage ? staged(r) : load_quad(row_of(first, pitch, r), x, g.width, vector);
      },
      [&](const quad_t<In>& q, int r) {
        Acc a[lane_cols];
        unpack<Acc, In>(q, squared, a);
#pragma unroll
        for (int k = 1; k < lane_cols; ++k) a[k] = a[k - 1] + a[k];
        emit(a, exclusive_warp_sum(a[lane_cols - 1], lane), r);
      });
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

/// A line of per-tile vectors for the look-back: flags[t] is the state of tile t (tile_status.cuh's
/// states); lane l's V values are at aggregates/inclusives[(t · 32 + l) · V + j].
template <class Acc, int V>
struct tile_vectors {
  unsigned* flags;
  Acc* aggregates;
  Acc* inclusives;
};

__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/// A lane's V values as one or two vector loads/stores through L2 (they are 8·k bytes, aligned).
template <class Acc, int V>
__device__ __forceinline__ void load_values(const Acc* src, Acc (&v)[V]) {
  if constexpr (V * sizeof(Acc) % 16 == 0) {
    uint4 w[V * sizeof(Acc) / 16];
#pragma unroll
    for (int i = 0; i < static_cast<int>(V * sizeof(Acc) / 16); ++i) w[i] = __ldcg(reinterpret_cast<const uint4*>(src) + i);
    memcpy(v, w, sizeof(v));
  } else {
    static_assert(V * sizeof(Acc) == 8);
    const uint2 w = __ldcg(reinterpret_cast<const uint2*>(src));
    memcpy(v, &w, sizeof(v));
  }
}
template <class Acc, int V>
__device__ __forceinline__ void store_values(Acc* dst, const Acc (&v)[V]) {
  if constexpr (V * sizeof(Acc) % 16 == 0) {
    uint4 w[V * sizeof(Acc) / 16];
    memcpy(w, v, sizeof(v));
#pragma unroll
    for (int i = 0; i < static_cast<int>(V * sizeof(Acc) / 16); ++i) __stcg(reinterpret_cast<uint4*>(dst) + i, w[i]);
  } else {
    static_assert(V * sizeof(Acc) == 8);
    uint2 w;
    memcpy(&w, v, sizeof(v));
    __stcg(reinterpret_cast<uint2*>(dst), w);
  }
}

/// Stores the lane's V values, then (lane 0) the flag with release semantics: the warp barrier orders
/// every lane's stores before it, so a reader that acquires the flag sees them all.
template <class Acc, int V>
__device__ __forceinline__ void publish(const tile_vectors<Acc, V>& s, std::int64_t tile, unsigned state,
                                        const Acc (&v)[V], int lane) {
  store_values((state == state_aggregate ? s.aggregates : s.inclusives) + (tile * warp::warp_threads + lane) * V, v);
  __syncwarp();
  if (lane == 0) store_release(s.flags + tile, state);
}

/// sum = Σ of the values of the `count` tiles tile − stride, tile − 2·stride, … up to the nearest one
/// that has published its inclusive value (the first tile of a line publishes only that). Windows of
/// 32 tiles: each lane polls one tile's flag; then every lane adds its values of the tiles taken,
/// loading several tiles' values before adding any (the loads overlap).
#ifdef PARASCAN_SAT_LOOK_BACK_COUNTERS
/// Experiments only (experiments/sat_stages.cu): per direction (0 rows, 1 columns) the polls that
/// found a tile not ready, the windows and the tiles summed.
__device__ unsigned long long look_back_counters[2][3];
#define PARASCAN_SAT_COUNT(which, what, n) \
  if (lane == 0) atomicAdd(&look_back_counters[(which)][(what)], static_cast<unsigned long long>(n))
#else
#define PARASCAN_SAT_COUNT(which, what, n)
#endif

template <class Acc, int V>
__device__ __forceinline__ void look_back(const tile_vectors<Acc, V>& s, std::int64_t tile, std::int64_t stride,
                                          std::int64_t count, int lane, Acc (&sum)[V]) {
  constexpr int batch = static_cast<int>(64 / (V * sizeof(Acc)));  // tiles loaded together: 64 bytes per lane
#pragma unroll
  for (int j = 0; j < V; ++j) sum[j] = Acc(0);
  while (count > 0) {
    const int n = count < warp::warp_threads ? static_cast<int>(count) : warp::warp_threads;
    const std::int64_t mine = tile - (lane + 1) * stride;
    unsigned prefix = 0;
    int take = n;
    for (int poll = 0;; ++poll) {
      const unsigned state = lane < n ? load_acquire(s.flags + mine) : state_invalid;
      prefix = __ballot_sync(warp::full_mask, state == state_prefix);
      const unsigned ready = __ballot_sync(warp::full_mask, state != state_invalid);
      take = prefix ? __ffs(prefix) : n;
      const unsigned needed = take == warp::warp_threads ? ~0u : (1u << take) - 1;
      if ((ready & needed) == needed) break;
      PARASCAN_SAT_COUNT(V == lane_cols, 0, 1);
      __nanosleep(poll < 8 ? 32 : 256);
    }
    __syncwarp();
    PARASCAN_SAT_COUNT(V == lane_cols, 1, 1);
    PARASCAN_SAT_COUNT(V == lane_cols, 2, take);
    for (int i0 = 0; i0 < take; i0 += batch) {
      Acc part[batch][V];
#pragma unroll
      for (int b = 0; b < batch; ++b) {
        const int i = i0 + b;
        const bool inclusive = prefix != 0 && i == take - 1;
        const Acc* src = (inclusive ? s.inclusives : s.aggregates) + ((tile - (i + 1) * stride) * warp::warp_threads + lane) * V;
        if (i < take) {
          load_values(src, part[b]);
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
    if (prefix) return;
    tile -= n * stride;
    count -= n;
  }
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

/// Whether the single-pass kernel keeps its tiles in shared memory (1-byte pixels), and how much.
template <class In>
constexpr bool stages_tiles = sizeof(In) == 1;
template <class In, int Warps = warps_per_block>
constexpr std::size_t staged_bytes = stages_tiles<In> ? std::size_t(Warps) * tile_rows * tile_cols : 0;

/// 8-bit images at least this many tiles wide run the single-pass kernel in blocks of 16 tiles (warps),
/// one per SM; narrower ones in blocks of 8 tiles, two per SM (performance.md entry 17).
constexpr int single_pass_wide_warps = 16;

/// Blocks of the single-pass kernel (`warps` tiles each) per tile row.
inline __host__ __device__ std::int64_t single_pass_blocks_x(const grid_shape& g, int warps = warps_per_block) {
  return (g.tiles_x + warps - 1) / warps;
}

/// Zeroes the single-pass status (ticket and flags) and lets the table kernel launch meanwhile: it
/// waits for this grid before taking its ticket. Cheaper than cudaMemsetAsync then a launch (6 µs at
/// 8192², entry 15).
static __global__ void __launch_bounds__(256) clear_status_kernel(  // static: one per translation unit
    unsigned* words, std::int64_t count) {
  allow_next_grid();
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    words[i] = 0;
}

/// Lets `kernel` (single_pass_table_kernel<In, Acc, MinBlocks, …, Warps>) use staged_bytes<In, Warps> of
/// dynamic shared memory on `device`, once per kernel and device (the call costs microseconds of host time).
template <class In, class Acc, int MinBlocks, int Warps, class Kernel>
cudaError_t opt_in_staged_memory(Kernel kernel, int device) {
  static std::atomic<unsigned long long> opted_in{0};
  const unsigned long long bit = 1ull << (device % 64);
  if (opted_in.load(std::memory_order_relaxed) & bit) return cudaSuccess;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(staged_bytes<In, Warps>));
  if (e == cudaSuccess) opted_in.fetch_or(bit, std::memory_order_relaxed);
  return e;
}

/// Rows the single-pass kernel loads ahead on its first read (64 bytes of pixels per lane in flight:
/// its tiles are not overlapped by a kernel before them, so each warp keeps more loads going).
template <class In>
constexpr int single_pass_rows_in_flight = 64 / (lane_cols * static_cast<int>(sizeof(In)));

/// Blocks per SM the single-pass kernel is compiled for (80 registers: it holds more than a pass).
constexpr int single_pass_min_blocks = 3;

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
  wait_for_previous_grid();  // the status cleared by clear_status_kernel
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
      publish(status.rows, b, state_prefix, total, lane);
    } else {
      publish(status.rows, b, state_aggregate, total, lane);
      look_back(status.rows, b, 1, bx, lane, left);
      const Acc inclusive[2] = {left[0] + total[0], left[1] + total[1]};
      publish(status.rows, b, state_prefix, inclusive, lane);
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
    publish(status.columns, t, state_prefix, v, lane);
  } else {
    publish(status.columns, t, state_aggregate, v, lane);
    look_back(status.columns, t, g.tiles_x, ty, lane, running);
    Acc inclusive[lane_cols];
#pragma unroll
    for (int k = 0; k < lane_cols; ++k) inclusive[k] = running[k] + v[k];
    publish(status.columns, t, state_prefix, inclusive, lane);
  }
  write_tile<In, Acc, WriteDepth>(image, pitch, g, squared, vector_in, tx, ty, lane, running, carry[0], carry[1], table,
                                  table_pitch, shift, stage);
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
                              bool squared, cudaStream_t stream, sat_algorithm algorithm) {
  using namespace device::sat_detail;
  using device::align_up;
  using device::check_launch;
  if (shape.width < 0 || shape.height < 0) return cudaErrorInvalidValue;
  const int shift = layout == sat_layout::padded ? 1 : 0;
  const grid_shape g = grid_of(shape);
  const std::size_t row_bytes = align_up(static_cast<std::size_t>(g.tiles_x * g.height) * sizeof(Acc));
  const std::size_t col_bytes = align_up(static_cast<std::size_t>(g.tiles_y * g.width) * sizeof(Acc));
  const std::size_t total_bytes = align_up(static_cast<std::size_t>(g.tiles()) * sizeof(Acc));
  const bool single = resolve_sat_algorithm(algorithm, shape, sizeof(In), sizeof(Acc)) == sat_algorithm::single_pass;
  const std::size_t need =
      single ? single_pass_status<Acc>::bytes(g.tiles()) : std::max<std::size_t>(row_bytes + col_bytes + total_bytes, 1);
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
  const auto aligned = [](const void* p, std::size_t pitch, std::size_t bytes) {
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && pitch % bytes == 0;
  };
  const bool vector_in = aligned(d_image, image_pitch, lane_cols * sizeof(In));
  constexpr int threads = warps_per_block * 32;
  cudaError_t e;
  // Kernels after the first may start while their predecessor finishes (Hopper and later).
  int device = 0, major = 0;
  if ((e = cudaGetDevice(&device)) != cudaSuccess) return e;
  if ((e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) != cudaSuccess) return e;
  const bool overlap = major >= 9;
  if (single) {
    const std::int64_t words = static_cast<std::int64_t>(single_pass_status<Acc>::zeroed_bytes(g.tiles()) / sizeof(unsigned));
    const std::int64_t clear_blocks = std::min<std::int64_t>((words + 255) / 256, 1024);
    if (g.tiles() > INT_MAX) return cudaErrorInvalidValue;  // then blocks of any number of tiles fit a grid
    clear_status_kernel<<<static_cast<unsigned>(clear_blocks), 256, 0, stream>>>(static_cast<unsigned*>(d_temp), words);
    if ((e = check_launch(stream, false)) != cudaSuccess) return e;
    // kernel = single_pass_table_kernel<In, Acc, MinBlocks, …, Warps>: blocks of Warps tiles.
    const auto launch = [&](auto kernel, auto min_blocks, auto warps) {
      constexpr int Warps = decltype(warps)::value;
      cudaError_t err = cudaSuccess;
      if constexpr (staged_bytes<In, Warps> > 0)
        err = opt_in_staged_memory<In, Acc, decltype(min_blocks)::value, Warps>(kernel, device);
      if (err != cudaSuccess) return err;
      const auto blocks = static_cast<unsigned>(single_pass_blocks_x(g, Warps) * g.tiles_y);
      return launch_after_previous(overlap, kernel, blocks, Warps * 32, staged_bytes<In, Warps>, stream, d_image,
                                   image_pitch, g, squared, vector_in, single_pass_status<Acc>::carve(d_temp, g.tiles()),
                                   d_table, table_pitch, shift);
    };
    using std::integral_constant;
    if constexpr (stages_tiles<In>) {
      // 8-bit tiles staged in shared memory (8 KB per warp): blocks of 16 tiles, one per SM, where the
      // image is wide enough (8192²: 0.155 against 0.161 ms for two blocks of 8; 16384²: 0.567 against
      // 0.577 for three blocks of 8), else blocks of 8, two per SM (fewer warps without a tile).
      constexpr int wide = single_pass_wide_warps;
      if (g.tiles_x >= wide)
        e = launch(single_pass_table_kernel<In, Acc, 1, single_pass_rows_in_flight<In>, rows_in_flight<In>, wide>,
                   integral_constant<int, 1>{}, integral_constant<int, wide>{});
      else
        e = launch(single_pass_table_kernel<In, Acc, 2>, integral_constant<int, 2>{},
                   integral_constant<int, warps_per_block>{});
    } else {
      e = launch(single_pass_table_kernel<In, Acc>, integral_constant<int, single_pass_min_blocks>{},
                 integral_constant<int, warps_per_block>{});
    }
    if (e != cudaSuccess) return e;
    return check_launch(stream, false);
  }
  char* temp = static_cast<char*>(d_temp);
  Acc* row_sums = reinterpret_cast<Acc*>(temp);
  Acc* col_sums = reinterpret_cast<Acc*>(temp + row_bytes);
  Acc* totals = reinterpret_cast<Acc*>(temp + row_bytes + col_bytes);
  // Carries: row sums along tile rows (line y, step tx), column sums down tile columns (line x, step
  // ty), tile totals along tile rows (line ty, step tx); then the totals down tile columns (corners).
  line_scan<Acc> rows_job{row_sums, g.height, g.tiles_x, 1, g.height, line_group(g.height, g.tiles_x, g.height)};
  line_scan<Acc> cols_job{col_sums, g.width, g.tiles_y, 1, g.width, line_group(g.width, g.tiles_y, g.width)};
  line_scan<Acc> across{totals, g.tiles_y, g.tiles_x, 1, g.tiles_y, line_group(g.tiles_y, g.tiles_x, g.tiles_y)};
  line_scan<Acc> down{totals, g.tiles_x, g.tiles_y, g.tiles_y, 1, line_group(g.tiles_x, g.tiles_y, 1)};
  const std::int64_t carry_blocks = rows_job.blocks() + cols_job.blocks() + across.blocks();
  if (blocks > INT_MAX || carry_blocks > INT_MAX) return cudaErrorInvalidValue;
  if constexpr (std::is_same_v<In, std::uint8_t>) {
    if (!squared && aligned(d_image, image_pitch, byte_lane_cols)) {
      const std::int64_t byte_blocks = (byte_warps(g) + warps_per_block - 1) / warps_per_block;
      byte_tile_sums_kernel<<<static_cast<unsigned>(byte_blocks), threads, 0, stream>>>(d_image, image_pitch, g, row_sums,
                                                                                       col_sums, totals);
    } else {
      tile_sums_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_image, image_pitch, g, squared, vector_in,
                                                                              row_sums, col_sums, totals);
    }
  } else {
    tile_sums_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_image, image_pitch, g, squared, vector_in,
                                                                            row_sums, col_sums, totals);
  }
  if ((e = check_launch(stream, false)) != cudaSuccess) return e;
  e = launch_after_previous(overlap, line_scans_kernel<Acc>, static_cast<unsigned>(carry_blocks), line_threads, 0, stream,
                            rows_job, cols_job, across);
  if (e != cudaSuccess || (e = check_launch(stream, false)) != cudaSuccess) return e;
  const bool corners_scanned = g.tiles_y > corner_rows_in_kernel;
  if (corners_scanned) {
    e = launch_after_previous(overlap, line_scans_kernel<Acc>, static_cast<unsigned>(down.blocks()), line_threads, 0, stream,
                              down, line_scan<Acc>{}, line_scan<Acc>{});
    if (e != cudaSuccess || (e = check_launch(stream, false)) != cudaSuccess) return e;
  }
  e = launch_after_previous(overlap, table_kernel<In, Acc>, static_cast<unsigned>(blocks), threads, 0, stream, d_image,
                            image_pitch, g, squared, vector_in, static_cast<const Acc*>(row_sums),
                            static_cast<const Acc*>(col_sums), static_cast<const Acc*>(totals), corners_scanned, d_table,
                            table_pitch, shift);
  if (e != cudaSuccess) return e;
  return check_launch(stream, false);
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
