#include "mesh_io.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <limits>
#include "array_io.hpp"
#include "exit_codes.hpp"

namespace parascan::app {

mesh_format mesh_format_of(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ends_with(lower, ".ply")) return mesh_format::ply;
  if (ends_with(lower, ".obj")) return mesh_format::obj;
  throw input_error(path + ": unknown mesh format (the name must end in .ply or .obj)");
}

namespace {

std::uint32_t vertex_of(const host_mesh& m, std::int64_t corner) {
  return m.indices.empty() ? static_cast<std::uint32_t>(corner) : m.indices[static_cast<std::size_t>(corner)];
}

void write_ply(const std::string& path, const host_mesh& m, const std::string& comment) {
  const bool normals = !m.normals.empty();
  std::string head = "ply\nformat binary_little_endian 1.0\ncomment " + comment + "\nelement vertex " +
                     std::to_string(m.vertices()) + "\nproperty float x\nproperty float y\nproperty float z\n";
  if (normals) head += "property float nx\nproperty float ny\nproperty float nz\n";
  head += "element face " + std::to_string(m.triangles()) + "\nproperty list uchar uint vertex_indices\nend_header\n";
  const std::size_t per_vertex = (normals ? 6 : 3) * sizeof(float), per_face = 1 + 3 * sizeof(std::uint32_t);
  std::vector<unsigned char> body(static_cast<std::size_t>(m.vertices()) * per_vertex +
                                  static_cast<std::size_t>(m.triangles()) * per_face);
  unsigned char* out = body.data();
  for (std::int64_t v = 0; v < m.vertices(); ++v) {  // x86 and the GPU hosts we build for are little-endian
    std::memcpy(out, &m.positions[3 * v], 3 * sizeof(float));
    out += 3 * sizeof(float);
    if (normals) {
      std::memcpy(out, &m.normals[3 * v], 3 * sizeof(float));
      out += 3 * sizeof(float);
    }
  }
  for (std::int64_t t = 0; t < m.triangles(); ++t) {
    *out++ = 3;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t i = vertex_of(m, 3 * t + k);
      std::memcpy(out, &i, sizeof(i));
      out += sizeof(i);
    }
  }
  write_file_atomic(path, std::vector<unsigned char>(head.begin(), head.end()), body.data(), body.size());
}

void write_obj(const std::string& path, const host_mesh& m, const std::string& comment) {
  const bool normals = !m.normals.empty();
  std::string text = "# " + comment + "\n";
  text.reserve(static_cast<std::size_t>(m.vertices()) * (normals ? 80 : 40) + static_cast<std::size_t>(m.triangles()) * 40);
  char line[160];
  for (std::int64_t v = 0; v < m.vertices(); ++v) {
    const float* p = &m.positions[3 * v];
    text.append(line, static_cast<std::size_t>(std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", p[0], p[1], p[2])));
  }
  for (std::int64_t v = 0; normals && v < m.vertices(); ++v) {
    const float* n = &m.normals[3 * v];
    text.append(line, static_cast<std::size_t>(std::snprintf(line, sizeof line, "vn %.9g %.9g %.9g\n", n[0], n[1], n[2])));
  }
  for (std::int64_t t = 0; t < m.triangles(); ++t) {
    const unsigned long long a = vertex_of(m, 3 * t) + 1ull, b = vertex_of(m, 3 * t + 1) + 1ull, c = vertex_of(m, 3 * t + 2) + 1ull;
    const int len = normals ? std::snprintf(line, sizeof line, "f %llu//%llu %llu//%llu %llu//%llu\n", a, a, b, b, c, c)
                            : std::snprintf(line, sizeof line, "f %llu %llu %llu\n", a, b, c);
    text.append(line, static_cast<std::size_t>(len));
  }
  write_file_atomic(path, {}, text.data(), text.size());
}

}  // namespace

void write_mesh(const std::string& path, const host_mesh& mesh, const std::string& comment) {
  if (mesh.indices.empty() && mesh.vertices() > static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max()))
    throw input_error(path + ": " + std::to_string(mesh.vertices()) +
                      " vertices do not fit the 32-bit indices of the file; use --weld");
  if (mesh_format_of(path) == mesh_format::ply) write_ply(path, mesh, comment);
  else write_obj(path, mesh, comment);
}

}  // namespace parascan::app
