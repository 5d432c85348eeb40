// Writing triangle meshes: binary little-endian PLY (positions, optional normals, faces as uchar
// count + uint indices) and Wavefront OBJ (v, vn, f with 1-based indices). Written atomically.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace parascan::app {

struct host_mesh {
  std::vector<float> positions;         ///< x, y, z per vertex
  std::vector<float> normals;           ///< x, y, z per vertex, or empty
  std::vector<std::uint32_t> indices;   ///< 3 per triangle; empty: triangle t is vertices 3t, 3t+1, 3t+2
  std::int64_t vertices() const { return static_cast<std::int64_t>(positions.size() / 3); }
  std::int64_t triangles() const {
    return indices.empty() ? vertices() / 3 : static_cast<std::int64_t>(indices.size() / 3);
  }
};

/// The format from the name: ".ply" or ".obj" (any case); anything else is an input_error.
enum class mesh_format { ply, obj };
mesh_format mesh_format_of(const std::string& path);

/// Writes `mesh` to `path` (temporary file + rename). `comment` goes into the header.
void write_mesh(const std::string& path, const host_mesh& mesh, const std::string& comment);

}  // namespace parascan::app
