// Summed-area tables, the tile: a warp per tile of 64 rows × 128 columns, lane l holding columns
// 4l..4l+3 — pixel loads and unpacking, row stores, the tile's sums (step 1 of both methods) and the
// writing of its table rows (the last step of both).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "parascan/device/sat/tuning.cuh"
#include "parascan/ops.hpp"
#include "parascan/sat.hpp"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device::sat_detail {

using warp::exclusive_warp_sum;
using warp::lane_value;
using warp::warp_sum;
static_assert(tile_cols == warp::warp_threads * lane_cols, "a warp's lanes across a tile row");

/// The image and its tiles.
struct grid_shape {
  std::int64_t width, height, tiles_x, tiles_y;
  __host__ __device__ std::int64_t tiles() const { return tiles_x * tiles_y; }
};

inline grid_shape grid_of(image_shape s) {
  return {s.width, s.height, (s.width + tile_cols - 1) / tile_cols, (s.height + tile_rows - 1) / tile_rows};
}

/// Warps of the 8-bit step-1 kernel (two tiles side by side each).
inline std::int64_t byte_warps(const grid_shape& g) {
  return (g.tiles_x + byte_tiles_per_warp - 1) / byte_tiles_per_warp * g.tiles_y;
}

/// Blocks of the single-pass kernel (`warps` tiles each) per tile row.
inline __host__ __device__ std::int64_t single_pass_blocks_x(const grid_shape& g, int warps = warps_per_block) {
  return (g.tiles_x + warps - 1) / warps;
}

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


}  // namespace parascan::device::sat_detail
