// CPU marching cubes reference (see mc_reference.hpp).
#include "parascan/validation/mc_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include "parascan/mc_tables.hpp"

namespace parascan::validation {

template <class T>
cpu_mesh cpu_marching_cubes(const T* volume, volume_shape shape, float iso, bool normals) {
  const mc_tables& tables = marching_cubes_tables();
  cpu_mesh out;
  const std::int64_t nx = shape.nx, ny = shape.ny, nz = shape.nz;
  out.cell_vertex_counts.reserve(static_cast<std::size_t>(shape.cells()));
  auto f = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return static_cast<float>(volume[x + nx * (y + ny * z)]);
  };
  // Central differences, one-sided at the border.
  auto derivative = [&](std::int64_t x, std::int64_t y, std::int64_t z, int axis) {
    std::int64_t p[3] = {x, y, z}, q[3] = {x, y, z};
    const std::int64_t n = axis == 0 ? nx : axis == 1 ? ny : nz, c = p[axis];
    if (c == 0) {
      ++p[axis];
      return f(p[0], p[1], p[2]) - f(x, y, z);
    }
    if (c == n - 1) {
      --q[axis];
      return f(x, y, z) - f(q[0], q[1], q[2]);
    }
    ++p[axis];
    --q[axis];
    return (f(p[0], p[1], p[2]) - f(q[0], q[1], q[2])) * 0.5f;
  };
  std::uint64_t total = 0;
  for (std::int64_t z = 0; z + 1 < nz; ++z)
    for (std::int64_t y = 0; y + 1 < ny; ++y)
      for (std::int64_t x = 0; x + 1 < nx; ++x) {
        unsigned cube = 0;
        for (int c = 0; c < 8; ++c)
          if (f(x + mc_corner_offset(c, 0), y + mc_corner_offset(c, 1), z + mc_corner_offset(c, 2)) < iso) cube |= 1u << c;
        const int count = tables.vertex_count[cube];
        out.cell_vertex_counts.push_back(static_cast<std::uint8_t>(count));
        if (count == 0) continue;
        out.active_cell_ids.push_back(x + (nx - 1) * (y + (ny - 1) * z));
        out.vertex_offsets.push_back(total);
        total += static_cast<std::uint64_t>(count);
        for (int k = 0; k < count; ++k) {
          const int e = tables.triangles[cube][k];
          const int lo = mc_edge_low_corner(e), axis = mc_edge_axis(e);
          const std::int64_t a[3] = {x + mc_corner_offset(lo, 0), y + mc_corner_offset(lo, 1), z + mc_corner_offset(lo, 2)};
          std::int64_t b[3] = {a[0], a[1], a[2]};
          ++b[axis];
          const float fa = f(a[0], a[1], a[2]), fb = f(b[0], b[1], b[2]);
          const float t = (iso - fa) / (fb - fa);
          for (int c = 0; c < 3; ++c) out.positions.push_back(c == axis ? static_cast<float>(a[c]) + t : static_cast<float>(a[c]));
          out.edge_keys.push_back(static_cast<std::uint64_t>(a[0] + nx * (a[1] + ny * a[2])) * 3u +
                                  static_cast<std::uint64_t>(axis));
          if (!normals) continue;
          float g[3];
          for (int c = 0; c < 3; ++c) {
            const float ga = derivative(a[0], a[1], a[2], c), gb = derivative(b[0], b[1], b[2], c);
            g[c] = std::fma(t, gb - ga, ga);
          }
          const float len = std::sqrt(std::fma(g[2], g[2], std::fma(g[1], g[1], g[0] * g[0])));
          for (int c = 0; c < 3; ++c) out.normals.push_back(len > 0.0f ? g[c] / len : 0.0f);
        }
      }
  return out;
}

template cpu_mesh cpu_marching_cubes<std::uint8_t>(const std::uint8_t*, volume_shape, float, bool);
template cpu_mesh cpu_marching_cubes<std::uint16_t>(const std::uint16_t*, volume_shape, float, bool);
template cpu_mesh cpu_marching_cubes<float>(const float*, volume_shape, float, bool);

void cpu_weld(const cpu_mesh& mesh, std::vector<float>& positions, std::vector<float>& normals,
              std::vector<std::uint32_t>& indices) {
  std::vector<std::uint64_t> unique = mesh.edge_keys;
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  positions.assign(3 * unique.size(), 0.0f);
  normals.assign(mesh.normals.empty() ? 0 : 3 * unique.size(), 0.0f);
  indices.resize(mesh.edge_keys.size());
  std::vector<bool> seen(unique.size(), false);
  for (std::size_t v = 0; v < mesh.edge_keys.size(); ++v) {
    const auto u = static_cast<std::size_t>(std::lower_bound(unique.begin(), unique.end(), mesh.edge_keys[v]) - unique.begin());
    indices[v] = static_cast<std::uint32_t>(u);
    if (seen[u]) continue;
    seen[u] = true;
    for (int c = 0; c < 3; ++c) {
      positions[3 * u + c] = mesh.positions[3 * v + c];
      if (!normals.empty()) normals[3 * u + c] = mesh.normals[3 * v + c];
    }
  }
}

namespace {

template <class V>
std::vector<V> to_host(const device_buffer<V>& d) {
  std::vector<V> h(d.size());
  if (!h.empty()) d.copy_to_host(h.data(), h.size());
  return h;
}

template <class V>
std::string first_difference(const char* what, const std::vector<V>& got, const std::vector<V>& want, double tolerance) {
  if (got.size() != want.size()) {
    std::ostringstream s;
    s << what << ": " << got.size() << " values, the reference has " << want.size();
    return s.str();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    if (!(d <= tolerance)) {  // also catches NaN
      std::ostringstream s;
      s.precision(9);
      s << what << "[" << i << "] = " << +got[i] << ", the reference has " << +want[i];
      return s.str();
    }
  }
  return "";
}

}  // namespace

std::string compare_meshes(const mc_mesh& mesh, const cpu_mesh& ref) {
  const auto active = static_cast<std::int64_t>(ref.active_cell_ids.size());
  if (mesh.active_cells != active)
    return "active cells: " + std::to_string(mesh.active_cells) + ", the reference has " + std::to_string(active);
  if (mesh.triangles != ref.triangles())
    return "triangles: " + std::to_string(mesh.triangles) + ", the reference has " + std::to_string(ref.triangles());
  std::string d;
  if (mesh.cell_vertex_counts.size() && !(d = first_difference("cell vertex count", to_host(mesh.cell_vertex_counts), ref.cell_vertex_counts, 0)).empty()) return d;
  if (mesh.active_cell_ids.size() && !(d = first_difference("active cell", to_host(mesh.active_cell_ids), ref.active_cell_ids, 0)).empty()) return d;
  if (mesh.vertex_offsets.size() && !(d = first_difference("vertex offset", to_host(mesh.vertex_offsets), ref.vertex_offsets, 0)).empty()) return d;
  std::vector<float> positions = ref.positions, normals = ref.normals;
  std::vector<std::uint32_t> indices;
  if (mesh.welded) {
    cpu_weld(ref, positions, normals, indices);
    if (!(d = first_difference("index", to_host(mesh.indices), indices, 0)).empty()) return d;
  }
  if (!(d = first_difference("position", to_host(mesh.positions), positions, 1e-6)).empty()) return d;
  if (mesh.normals.size() && !(d = first_difference("normal", to_host(mesh.normals), normals, 1e-5)).empty()) return d;
  return "";
}

}  // namespace parascan::validation
