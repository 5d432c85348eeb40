// Marching cubes (Lorensen & Cline 1987) as a composition of the core's primitives — the textbook
// "variable output per thread" pipeline (GPU Gems 3 ch. 39 §39.3.3; NVIDIA's marchingCubes sample):
//
//   1. classify   every cell: cube index from its 8 corners (inside = value < iso), vertex count from
//                 the table (parascan/mc_tables.hpp); the number of active cells, for an exact buffer
//   2. compact    the active cells with select_flagged_indices (a scan): stable, by increasing cell id
//   3. offsets    expand_offsets over the active cells' vertex counts (a scan): where each cell writes,
//                 and the total, so the output is allocated exactly — no fixed cap, nothing dropped
//   4. allocate   the vertex (and normal) arrays, after reading the two totals (the only host syncs)
//   5. emit       one thread per active cell writes its triangles at its offset: cell order, then table
//                 order, so the output is deterministic
//   6. weld       (optional) key every vertex by the grid edge it lies on, radix-sort the keys, flag the
//                 first of each run, scan the flags: unique vertices in edge order and an index buffer
//
// Cells are the (nx−1)(ny−1)(nz−1) cubes between samples; samples are x-fastest (index x + nx·(y + ny·z)),
// as in a C-order array of shape (nz, ny, nx). Positions are in sample coordinates: the vertex on the
// edge from sample a to its neighbour b = a + 1 along an axis is a + t on that axis, t = (iso − f(a)) /
// (f(b) − f(a)), always interpolated from the lower sample, so cells sharing an edge compute identical
// bits. Normals: the field's gradient (central differences, one-sided at the border), interpolated with
// the same t and normalised (zero when the gradient vanishes); they point towards larger values, and
// triangles wind counter-clockwise around them. Sample values are compared and interpolated as float.
#pragma once
#include <cuda_runtime_api.h>
#include <cstdint>
#include "parascan/buffer.hpp"
#include "parascan/config.hpp"
#include "parascan/options.hpp"

namespace parascan {

/// Samples along x, y, z (x fastest).
struct volume_shape {
  std::int64_t nx = 0, ny = 0, nz = 0;
  PARASCAN_HD std::int64_t samples() const { return nx * ny * nz; }
  PARASCAN_HD std::int64_t cells() const { return nx < 2 || ny < 2 || nz < 2 ? 0 : (nx - 1) * (ny - 1) * (nz - 1); }
};

struct mc_options {
  bool normals = true;      ///< emit per-vertex normals from the field gradient
  bool weld = false;        ///< merge the vertices shared by neighbouring cells into an indexed mesh
  bool keep_cells = false;  ///< keep the per-cell counts, active list and offsets (validation)
  scan_options scan{};      ///< the scans' configuration; scan.debug_synchronous also checks every
                            ///< launch and fills the outputs with NaN bytes before the emit (tests)
};

/// Time of each stage in ms (CUDA events on the stream), filled when asked for.
struct mc_stage_ms {
  float classify = 0, compact = 0, offsets = 0, allocate = 0, emit = 0, weld = 0;
  float total() const { return classify + compact + offsets + allocate + emit + weld; }
};

/// A triangle mesh in device memory.
struct mc_mesh {
  std::int64_t cells = 0;         ///< cells examined
  std::int64_t active_cells = 0;  ///< cells with at least one triangle
  std::int64_t triangles = 0;
  std::int64_t vertices = 0;      ///< 3 × triangles, or the unique count when welded
  bool welded = false;
  device_buffer<float> positions;         ///< x, y, z per vertex
  device_buffer<float> normals;           ///< x, y, z per vertex (empty without normals)
  device_buffer<std::uint32_t> indices;   ///< 3 per triangle, when welded
  // With mc_options::keep_cells:
  device_buffer<std::uint8_t> cell_vertex_counts;    ///< per cell: 3 × its triangles
  device_buffer<std::int64_t> active_cell_ids;       ///< the active cells, increasing
  device_buffer<std::uint8_t> active_vertex_counts;  ///< per active cell
  device_buffer<std::uint64_t> vertex_offsets;       ///< per active cell: exclusive sum of the counts
};

/// Extracts the iso-surface f = iso of a volume in device memory. T: std::uint8_t, std::uint16_t or
/// float. Throws std::invalid_argument for a NaN iso or negative dimensions, parascan::out_of_memory
/// when a buffer does not fit (with the bytes asked for and free), parascan::cuda_error otherwise.
/// A volume with fewer than 2 samples along an axis has no cells and gives an empty mesh. Welding
/// needs fewer than 2^32 vertices before welding (the indices are 32-bit).
template <class T>
mc_mesh marching_cubes(const T* d_volume, volume_shape shape, float iso, const mc_options& options = {},
                       cudaStream_t stream = 0, mc_stage_ms* times = nullptr);

}  // namespace parascan
