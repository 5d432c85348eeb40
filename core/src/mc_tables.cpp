// Generates the marching-cubes tables by the rule documented in parascan/mc_tables.hpp.
#include "parascan/mc_tables.hpp"

#include <array>
#include <stdexcept>
#include <vector>

namespace parascan {
namespace {

/// The six faces: corners in cyclic order and the outward normal (axis, sign).
struct face {
  int corners[4];
  int axis;
  int sign;
};
constexpr face faces[6] = {{{0, 1, 2, 3}, 2, -1}, {{4, 5, 6, 7}, 2, +1}, {{0, 1, 5, 4}, 1, -1},
                           {{3, 2, 6, 7}, 1, +1}, {{0, 3, 7, 4}, 0, -1}, {{1, 2, 6, 5}, 0, +1}};

int edge_between(int a, int b) {
  for (int e = 0; e < 12; ++e)
    if ((mc_edge_corner(e, 0) == a && mc_edge_corner(e, 1) == b) ||
        (mc_edge_corner(e, 0) == b && mc_edge_corner(e, 1) == a))
      return e;
  throw std::logic_error("mc_tables: corners are not joined by an edge");
}

/// Edge midpoint, doubled so it stays integral.
std::array<int, 3> midpoint2(int e) {
  std::array<int, 3> p{};
  for (int k = 0; k < 3; ++k) p[k] = mc_corner_offset(mc_edge_corner(e, 0), k) + mc_corner_offset(mc_edge_corner(e, 1), k);
  return p;
}

/// Whether edges a, b, c all lie on one face of the cell.
bool on_one_face(int a, int b, int c) {
  for (const face& f : faces) {
    int on = 0;
    for (int k = 0; k < 4; ++k) {
      const int e = edge_between(f.corners[k], f.corners[(k + 1) % 4]);
      on += e == a || e == b || e == c;
    }
    if (on == 3) return true;
  }
  return false;
}

bool fan_is_proper(const std::vector<int>& loop, std::size_t apex) {
  const std::size_t n = loop.size();
  for (std::size_t k = 1; k + 1 < n; ++k)
    if (on_one_face(loop[apex], loop[(apex + k) % n], loop[(apex + k + 1) % n])) return false;
  return true;
}

/// The crossed edges of one cell pattern, linked into loops oriented as the header says.
void generate_case(int cube, mc_tables& t) {
  auto inside = [&](int c) { return ((cube >> c) & 1) != 0; };

  std::uint16_t mask = 0;
  for (int e = 0; e < 12; ++e)
    if (inside(mc_edge_corner(e, 0)) != inside(mc_edge_corner(e, 1))) mask = static_cast<std::uint16_t>(mask | (1u << e));
  t.edge_mask[cube] = mask;

  // next[e]: the crossed edge that follows e along its loop.
  int next[12];
  int incoming[12] = {};
  for (int& n : next) n = -1;
  for (const face& f : faces) {
    int crossed[4], n_crossed = 0;
    for (int k = 0; k < 4; ++k) {
      const int e = edge_between(f.corners[k], f.corners[(k + 1) % 4]);
      if (mask & (1u << e)) crossed[n_crossed++] = e;
    }
    std::vector<std::array<int, 2>> segments;
    if (n_crossed == 2) {
      segments.push_back({crossed[0], crossed[1]});
    } else if (n_crossed == 4) {  // the ambiguous face: cut off each inside corner on its own
      for (int k = 0; k < 4; ++k) {
        const int c = f.corners[k];
        if (!inside(c)) continue;
        segments.push_back({edge_between(f.corners[(k + 3) % 4], c), edge_between(c, f.corners[(k + 1) % 4])});
      }
    }
    for (auto s : segments) {
      // Orient s so that, seen from outside the face, the inside lies to the right:
      // ((p1 − p0) × (a − p0)) · n < 0, with a the inside corner of s's first edge.
      const int e0 = s[0], e1 = s[1];
      const int a = inside(mc_edge_corner(e0, 0)) ? mc_edge_corner(e0, 0) : mc_edge_corner(e0, 1);
      const auto p0 = midpoint2(e0), p1 = midpoint2(e1);
      int d[3], r[3];
      for (int k = 0; k < 3; ++k) {
        d[k] = p1[k] - p0[k];
        r[k] = 2 * mc_corner_offset(a, k) - p0[k];
      }
      const int cross[3] = {d[1] * r[2] - d[2] * r[1], d[2] * r[0] - d[0] * r[2], d[0] * r[1] - d[1] * r[0]};
      const int along_normal = cross[f.axis] * f.sign;
      if (along_normal == 0) throw std::logic_error("mc_tables: degenerate face segment");
      const int from = along_normal < 0 ? e0 : e1, to = along_normal < 0 ? e1 : e0;
      if (next[from] != -1) throw std::logic_error("mc_tables: an edge leaves twice");
      next[from] = to;
      ++incoming[to];
    }
  }

  int n_tri = 0;
  bool visited[12] = {};
  for (int start = 0; start < 12; ++start) {  // lowest edge of each loop first: a deterministic order
    if (!(mask & (1u << start)) || visited[start]) continue;
    std::vector<int> loop;
    for (int e = start; !visited[e]; e = next[e]) {
      if (next[e] < 0 || incoming[e] != 1) throw std::logic_error("mc_tables: an open loop");
      visited[e] = true;
      loop.push_back(e);
    }
    if (loop.size() < 3) throw std::logic_error("mc_tables: a loop of fewer than 3 edges");
    // Fan from the first edge (in loop order from the lowest) whose fan has no triangle lying flat in
    // a face of the cell (three edges of one face): such a triangle would double the neighbour's.
    const std::size_t n = loop.size();
    std::size_t apex = 0;
    while (apex < n && !fan_is_proper(loop, apex)) ++apex;
    if (apex == n) throw std::logic_error("mc_tables: a loop with no proper fan");
    for (std::size_t k = 1; k + 1 < n; ++k) {
      if (n_tri == 5) throw std::logic_error("mc_tables: more than 5 triangles in a cell");
      t.triangles[cube][3 * n_tri + 0] = static_cast<std::int8_t>(loop[apex]);
      t.triangles[cube][3 * n_tri + 1] = static_cast<std::int8_t>(loop[(apex + k) % n]);
      t.triangles[cube][3 * n_tri + 2] = static_cast<std::int8_t>(loop[(apex + k + 1) % n]);
      ++n_tri;
    }
  }
  t.vertex_count[cube] = static_cast<std::uint8_t>(3 * n_tri);
}

mc_tables generate() {
  mc_tables t{};
  for (auto& row : t.triangles)
    for (auto& v : row) v = -1;
  for (int cube = 0; cube < 256; ++cube) generate_case(cube, t);
  return t;
}

}  // namespace

const mc_tables& marching_cubes_tables() {
  static const mc_tables tables = generate();
  return tables;
}

}  // namespace parascan
