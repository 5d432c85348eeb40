// CPU reference for marching cubes with the core's conventions (parascan/marching_cubes.hpp): the same
// cell order, table order, interpolation from the lower sample and gradient normals, written plainly
// as nested loops over the cells. compare_meshes checks a device mesh against it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "parascan/marching_cubes.hpp"

namespace parascan::validation {

struct cpu_mesh {
  std::vector<std::uint8_t> cell_vertex_counts;  ///< per cell
  std::vector<std::int64_t> active_cell_ids;
  std::vector<std::uint64_t> vertex_offsets;     ///< per active cell
  std::vector<float> positions, normals;         ///< 3 per vertex, unwelded
  std::vector<std::uint64_t> edge_keys;          ///< per vertex: lower sample × 3 + axis
  std::int64_t triangles() const { return static_cast<std::int64_t>(positions.size() / 9); }
};

/// T: std::uint8_t, std::uint16_t or float; volume x-fastest, shape.samples() values.
template <class T>
cpu_mesh cpu_marching_cubes(const T* volume, volume_shape shape, float iso, bool normals = true);

/// Welds the reference mesh the way the core does: unique vertices in increasing edge-key order,
/// indices into them.
void cpu_weld(const cpu_mesh& mesh, std::vector<float>& positions, std::vector<float>& normals,
              std::vector<std::uint32_t>& indices);

/// Copies `mesh` (built with keep_cells) to the host and compares it with the reference: counts,
/// active list, offsets, positions (|Δ| ≤ 1e-6) and normals (|Δ| ≤ 1e-5), welded indices. Returns ""
/// when they agree, else the first difference in words.
std::string compare_meshes(const mc_mesh& mesh, const cpu_mesh& reference);

/// The mesh's two scans (built with keep_cells) redone with CUB: cub::DeviceSelect::Flagged of the
/// cell ids by the cell vertex counts must give the active list, and cub::DeviceScan::ExclusiveSum of
/// the active cells' counts the offsets. Returns "" when they agree, else the first difference.
std::string check_scans_with_cub(const mc_mesh& mesh);

}  // namespace parascan::validation
