// The CPU marching-cubes reference on its own (host only): closed, consistently oriented meshes of
// the expected topology, bit-exact positions shared by neighbouring cells, the octahedron of one voxel.
#include <gtest/gtest.h>
#include <cmath>
#include <map>
#include <set>
#include <vector>
#include "parascan/validation/mc_reference.hpp"

namespace {
using namespace parascan;

struct topology {
  std::int64_t euler = 0, open_edges = 0;
  bool consistent = true;
};

topology weld_and_count(const validation::cpu_mesh& m) {
  std::vector<float> p, n;
  std::vector<std::uint32_t> idx;
  validation::cpu_weld(m, p, n, idx);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (std::size_t t = 0; t < idx.size(); t += 3)
    for (int j = 0; j < 3; ++j) ++directed[{idx[t + j], idx[t + (j + 1) % 3]}];
  topology r;
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (const auto& [e, count] : directed) {
    r.consistent = r.consistent && count == 1;
    edges.insert({std::min(e.first, e.second), std::max(e.first, e.second)});
    if (!directed.count({e.second, e.first})) ++r.open_edges;
  }
  r.euler = static_cast<std::int64_t>(p.size() / 3) - static_cast<std::int64_t>(edges.size()) + m.triangles();
  return r;
}

std::vector<float> field(volume_shape s, float (*f)(float, float, float)) {
  std::vector<float> v(s.samples());
  for (std::int64_t z = 0; z < s.nz; ++z)
    for (std::int64_t y = 0; y < s.ny; ++y)
      for (std::int64_t x = 0; x < s.nx; ++x)
        v[x + s.nx * (y + s.ny * z)] = f(-1 + 2.0f * x / (s.nx - 1), -1 + 2.0f * y / (s.ny - 1), -1 + 2.0f * z / (s.nz - 1));
  return v;
}

TEST(mc_reference, sphere_is_closed_genus_zero) {
  const volume_shape s{41, 37, 33};
  const auto v = field(s, [](float x, float y, float z) { return std::sqrt(x * x + y * y + z * z); });
  const auto m = validation::cpu_marching_cubes(v.data(), s, 0.75f);
  ASSERT_GT(m.triangles(), 100);
  const topology t = weld_and_count(m);
  EXPECT_TRUE(t.consistent);
  EXPECT_EQ(t.open_edges, 0);
  EXPECT_EQ(t.euler, 2);
}

TEST(mc_reference, torus_is_closed_genus_one) {
  const volume_shape s{45, 43, 21};
  const auto v = field(s, [](float x, float y, float z) {
    const float ring = std::sqrt(x * x + y * y) - 0.6f;
    return std::sqrt(ring * ring + z * z);
  });
  const topology t = weld_and_count(validation::cpu_marching_cubes(v.data(), s, 0.25f));
  EXPECT_TRUE(t.consistent);
  EXPECT_EQ(t.open_edges, 0);
  EXPECT_EQ(t.euler, 0);
}

TEST(mc_reference, noise_is_crack_free) {
  // Random values: every ambiguous face appears; neighbours must still agree (no edge walked twice one
  // way), and the surface may end only at the volume's border.
  const volume_shape s{19, 17, 15};
  std::vector<float> v(s.samples());
  std::uint32_t state = 12345;
  for (auto& x : v) x = static_cast<float>((state = state * 1664525u + 1013904223u) >> 8) / 16777216.0f;
  const auto m = validation::cpu_marching_cubes(v.data(), s, 0.5f);
  std::vector<float> p, n;
  std::vector<std::uint32_t> idx;
  validation::cpu_weld(m, p, n, idx);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (std::size_t t = 0; t < idx.size(); t += 3)
    for (int j = 0; j < 3; ++j) ++directed[{idx[t + j], idx[t + (j + 1) % 3]}];
  for (const auto& [e, count] : directed) {
    EXPECT_EQ(count, 1);
    if (directed.count({e.second, e.first})) continue;
    // An open edge: both ends on the volume's boundary.
    for (std::uint32_t end : {e.first, e.second}) {
      const float* q = &p[3 * end];
      const bool on_border = q[0] == 0 || q[0] == s.nx - 1 || q[1] == 0 || q[1] == s.ny - 1 || q[2] == 0 || q[2] == s.nz - 1;
      EXPECT_TRUE(on_border) << q[0] << "," << q[1] << "," << q[2];
    }
  }
}

TEST(mc_reference, one_voxel_gives_an_octahedron) {
  const volume_shape s{3, 3, 3};
  std::vector<std::uint8_t> v(27, 10);
  v[13] = 0;  // the centre is inside, everything else outside
  const auto m = validation::cpu_marching_cubes(v.data(), s, 5.0f);
  EXPECT_EQ(m.active_cell_ids.size(), 8u);
  EXPECT_EQ(m.triangles(), 8);
  const topology t = weld_and_count(m);
  EXPECT_EQ(t.euler, 2);
  EXPECT_EQ(t.open_edges, 0);
  for (float c : m.positions) EXPECT_TRUE(c == 0.5f || c == 1.0f || c == 1.5f) << c;
  for (std::size_t i = 0; i < m.normals.size(); i += 3) {  // normals point away from the centre
    const double d = (m.positions[i] - 1) * m.normals[i] + (m.positions[i + 1] - 1) * m.normals[i + 1] +
                     (m.positions[i + 2] - 1) * m.normals[i + 2];
    EXPECT_GT(d, 0);
  }
}

}  // namespace
