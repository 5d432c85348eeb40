// The kernels of marching cubes (the pipeline and conventions are in parascan/marching_cubes.hpp):
//   classify_kernel   one thread per cell: 8 loads (neighbours share them through L1/L2), 1 byte out;
//                     the active count is reduced per block and added once per block
//   gather_counts     the vertex counts of the active cells, for the offset scan
//   emit_kernel       one thread per active cell: its 8 corners and their gradients (central
//                     differences), the crossed edges' vertices, then its triangles at its offset
//   weld kernels      run heads of the sorted edge keys, and the scatter of unique vertices and indices
// Scans are not here: compaction and offsets call select_flagged_indices / expand_offsets /
// inclusive_scan (device_select.cuh, device_scan.cuh).
#pragma once
// (Kernels that are not templates are `static`: each translation unit that includes this header
// gets its own, so the header can be included from several files of one program.)
#include <cstdint>
#include "parascan/marching_cubes.hpp"
#include "parascan/mc_tables.hpp"

namespace parascan::device::mc {

constexpr int block_threads = 256;

template <class T>
__device__ __forceinline__ float sample(const T* v, std::int64_t i) {
  return static_cast<float>(__ldg(v + i));
}

/// Cube index of the cell whose corner 0 is sample s0; strides sy = nx, sz = nx·ny.
template <class T, class Index>
__device__ __forceinline__ unsigned cube_index(const T* v, Index s0, Index sy, Index sz, float iso) {
  const Index s[8] = {s0, s0 + 1, s0 + 1 + sy, s0 + sy, s0 + sz, s0 + 1 + sz, s0 + 1 + sy + sz, s0 + sy + sz};
  unsigned cube = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c) cube |= (sample(v, static_cast<std::int64_t>(s[c])) < iso ? 1u : 0u) << c;
  return cube;
}

/// counts[cell] = vertices the cell emits; *active += cells with any. Index: std::uint32_t when the
/// samples fit, else std::uint64_t (the divisions by the row lengths dominate the arithmetic).
template <class T, class Index>
__global__ void __launch_bounds__(block_threads)
    classify_kernel(const T* __restrict__ volume, Index nx, Index ny, Index cells, float iso,
                    const std::uint8_t* __restrict__ vertex_table, std::uint8_t* __restrict__ counts,
                    unsigned long long* __restrict__ active) {
  __shared__ std::uint8_t table[256];
  __shared__ unsigned warp_active[block_threads / 32];
  table[threadIdx.x] = vertex_table[threadIdx.x];  // block_threads == 256
  __syncthreads();
  const Index cx = nx - 1, cy = ny - 1;
  unsigned mine = 0;
  for (Index cell = static_cast<Index>(blockIdx.x) * block_threads + threadIdx.x; cell < cells;
       cell += static_cast<Index>(gridDim.x) * block_threads) {
    const Index row = cell / cx, x = cell - row * cx;
    const Index z = row / cy, y = row - z * cy;
    const std::uint8_t n = table[cube_index(volume, x + nx * (y + ny * z), nx, nx * ny, iso)];
    counts[cell] = n;
    mine += n != 0;
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) mine += __shfl_xor_sync(0xffffffffu, mine, d);
  if (threadIdx.x % 32 == 0) warp_active[threadIdx.x / 32] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long sum = 0;
    for (int w = 0; w < block_threads / 32; ++w) sum += warp_active[w];
    if (sum) atomicAdd(active, sum);
  }
}

static __global__ void __launch_bounds__(block_threads)
    gather_counts_kernel(const std::int64_t* __restrict__ ids, const std::uint8_t* __restrict__ counts,
                         std::uint8_t* __restrict__ out, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * block_threads + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * block_threads)
    out[i] = counts[ids[i]];
}

/// d/d(axis) of the field at sample i whose coordinate along that axis is c of n (stride apart).
template <class T>
__device__ __forceinline__ float gradient(const T* v, std::int64_t i, std::int64_t c, std::int64_t n,
                                          std::int64_t stride) {
  if (c == 0) return sample(v, i + stride) - sample(v, i);
  if (c == n - 1) return sample(v, i) - sample(v, i - stride);
  return (sample(v, i + stride) - sample(v, i - stride)) * 0.5f;
}

template <class T>
__global__ void __launch_bounds__(128)
    emit_kernel(const T* __restrict__ volume, volume_shape shape, float iso, const std::int64_t* __restrict__ ids,
                const std::uint64_t* __restrict__ offsets, std::int64_t n_active, const mc_tables* __restrict__ tables,
                float* __restrict__ positions, float* __restrict__ normals, std::uint64_t* __restrict__ edge_keys) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n_active) return;
  const std::int64_t cx = shape.nx - 1, cy = shape.ny - 1;
  const std::int64_t cell = ids[i];
  const std::int64_t row = cell / cx, x = cell - row * cx, z = row / cy, y = row - z * cy;
  const std::int64_t sy = shape.nx, sz = shape.nx * shape.ny, s0 = x + sy * (y + shape.ny * z);

  float value[8], grad[8][3];
  std::int64_t index[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    const int dx = mc_corner_offset(c, 0), dy = mc_corner_offset(c, 1), dz = mc_corner_offset(c, 2);
    index[c] = s0 + dx + dy * sy + dz * sz;
    value[c] = sample(volume, index[c]);
    if (normals) {
      grad[c][0] = gradient(volume, index[c], x + dx, shape.nx, 1);
      grad[c][1] = gradient(volume, index[c], y + dy, shape.ny, sy);
      grad[c][2] = gradient(volume, index[c], z + dz, shape.nz, sz);
    }
  }
  unsigned cube = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c) cube |= (value[c] < iso ? 1u : 0u) << c;
  const unsigned mask = tables->edge_mask[cube];

  // The crossed edges' vertices, interpolated from the edge's lower corner (lo) towards hi.
  float vp[12][3], vn[12][3];
  std::uint64_t key[12];
#pragma unroll
  for (int e = 0; e < 12; ++e) {
    if (!(mask & (1u << e))) continue;
    const int lo = mc_edge_low_corner(e);
    const int hi = mc_edge_corner(e, 0) == lo ? mc_edge_corner(e, 1) : mc_edge_corner(e, 0);
    const int axis = mc_edge_axis(e);
    const float t = (iso - value[lo]) / (value[hi] - value[lo]);
    const float base[3] = {static_cast<float>(x + mc_corner_offset(lo, 0)), static_cast<float>(y + mc_corner_offset(lo, 1)),
                           static_cast<float>(z + mc_corner_offset(lo, 2))};
#pragma unroll
    for (int k = 0; k < 3; ++k) vp[e][k] = k == axis ? base[k] + t : base[k];
    if (normals) {
      float g[3];
#pragma unroll
      for (int k = 0; k < 3; ++k) g[k] = fmaf(t, grad[hi][k] - grad[lo][k], grad[lo][k]);
      const float len = sqrtf(fmaf(g[2], g[2], fmaf(g[1], g[1], g[0] * g[0])));
#pragma unroll
      for (int k = 0; k < 3; ++k) vn[e][k] = len > 0.0f ? g[k] / len : 0.0f;
    }
    key[e] = static_cast<std::uint64_t>(index[lo]) * 3u + static_cast<std::uint64_t>(axis);
  }

  const std::uint64_t out = offsets[i];
  const std::int8_t* tri = tables->triangles[cube];
  const int count = tables->vertex_count[cube];
  for (int k = 0; k < count; ++k) {
    const int e = tri[k];
    const std::uint64_t o = out + static_cast<std::uint64_t>(k);
#pragma unroll
    for (int c = 0; c < 3; ++c) positions[3 * o + c] = vp[e][c];
    if (normals) {
#pragma unroll
      for (int c = 0; c < 3; ++c) normals[3 * o + c] = vn[e][c];
    }
    if (edge_keys) edge_keys[o] = key[e];
  }
}

/// heads[j] = 1 where sorted key j starts a run of equal keys.
static __global__ void __launch_bounds__(block_threads)
    run_heads_kernel(const std::uint64_t* __restrict__ sorted, std::uint8_t* __restrict__ heads, std::int64_t n) {
  for (std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * block_threads + threadIdx.x; j < n;
       j += static_cast<std::int64_t>(gridDim.x) * block_threads)
    heads[j] = j == 0 || sorted[j] != sorted[j - 1];
}

/// With ids = inclusive sum of heads: vertex perm[j] becomes unique vertex ids[j] − 1, whose position
/// and normal the run's first vertex provides.
static __global__ void __launch_bounds__(block_threads)
    weld_scatter_kernel(const std::uint32_t* __restrict__ perm, const std::uint8_t* __restrict__ heads,
                        const std::uint32_t* __restrict__ ids, const float* __restrict__ positions,
                        const float* __restrict__ normals, std::int64_t n, std::uint32_t* __restrict__ indices,
                        float* __restrict__ unique_positions, float* __restrict__ unique_normals) {
  for (std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * block_threads + threadIdx.x; j < n;
       j += static_cast<std::int64_t>(gridDim.x) * block_threads) {
    const std::uint32_t v = perm[j], u = ids[j] - 1u;
    indices[v] = u;
    if (heads[j]) {
#pragma unroll
      for (int c = 0; c < 3; ++c) unique_positions[3ull * u + c] = positions[3ull * v + c];
      if (normals) {
#pragma unroll
        for (int c = 0; c < 3; ++c) unique_normals[3ull * u + c] = normals[3ull * v + c];
      }
    }
  }
}

}  // namespace parascan::device::mc
