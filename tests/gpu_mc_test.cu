// Marching cubes on the GPU against the CPU reference (same active cells, counts, offsets, positions
// and normals in the same order) and CUB (the two scans): empty and full volumes, one hot voxel,
// integer spheres, a checkerboard with every cell active, the procedural fields, noise, welding
// (closed, consistently oriented meshes with the right Euler characteristic), bad arguments and a
// volume of more than 2^32 samples (slow).
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/volume_fields.hpp"
#include "parascan/validation/mc_reference.hpp"

namespace {
using namespace parascan;
using parascan::test::small_sizes_only;

class mc_test : public parascan::test::gpu_test {};

mc_options checked(bool weld = false) {
  mc_options o;
  o.weld = weld;
  o.keep_cells = true;
  o.scan.debug_synchronous = true;
  return o;
}

template <class T>
device_buffer<T> upload(const std::vector<T>& h) {
  device_buffer<T> d(h.size());
  if (!h.empty()) d.copy_from_host(h.data(), h.size());
  PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
  return d;
}

template <class V>
std::vector<V> download(const device_buffer<V>& d) {
  std::vector<V> h(d.size());
  if (!h.empty()) d.copy_to_host(h.data(), h.size());
  return h;
}

/// Runs the GPU pipeline (unwelded and welded) and checks both against the CPU reference and CUB.
template <class T>
mc_mesh check_mesh(const std::vector<T>& volume, volume_shape shape, float iso) {
  const auto d = upload(volume);
  const auto ref = validation::cpu_marching_cubes(volume.data(), shape, iso);
  mc_mesh plain = marching_cubes(d.data(), shape, iso, checked(false));
  EXPECT_EQ(validation::compare_meshes(plain, ref), "");
  EXPECT_EQ(validation::check_scans_with_cub(plain), "");
  mc_mesh welded = marching_cubes(d.data(), shape, iso, checked(true));
  EXPECT_EQ(validation::compare_meshes(welded, ref), "");
  EXPECT_EQ(welded.triangles, plain.triangles);
  return welded;
}

struct topology {
  std::int64_t euler = 0;          ///< V − E + F
  std::int64_t open_edges = 0;     ///< edges of one triangle
  bool consistent = true;          ///< every shared edge walked once each way, none by 3+ triangles
};

topology topology_of(const mc_mesh& welded) {
  const auto idx = download(welded.indices);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (std::size_t t = 0; t < idx.size(); t += 3)
    for (int j = 0; j < 3; ++j) ++directed[{idx[t + j], idx[t + (j + 1) % 3]}];
  topology r;
  std::set<std::pair<std::uint32_t, std::uint32_t>> undirected;
  for (const auto& [e, n] : directed) {
    if (n != 1) r.consistent = false;
    undirected.insert({std::min(e.first, e.second), std::max(e.first, e.second)});
    if (!directed.count({e.second, e.first})) ++r.open_edges;
  }
  r.euler = welded.vertices - static_cast<std::int64_t>(undirected.size()) + welded.triangles;
  return r;
}

TEST_F(mc_test, empty_and_full_volumes_give_nothing) {
  const volume_shape shape{9, 7, 5};
  std::mt19937 rng(1);
  std::vector<float> v(shape.samples());
  for (auto& x : v) x = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
  for (float iso : {-1.0f, 2.0f}) {  // every corner outside, every corner inside
    const mc_mesh m = check_mesh(v, shape, iso);
    EXPECT_EQ(m.cells, 8 * 6 * 4);
    EXPECT_EQ(m.active_cells, 0);
    EXPECT_EQ(m.triangles, 0);
    EXPECT_EQ(m.positions.size(), 0u);
  }
}

TEST_F(mc_test, one_hot_voxel_is_an_octahedron) {
  const volume_shape shape{6, 7, 8};
  std::vector<std::uint8_t> v(shape.samples(), 0);
  v[2 + 6 * (3 + 7 * 4)] = 200;
  const mc_mesh m = check_mesh(v, shape, 100.0f);
  EXPECT_EQ(m.active_cells, 8);
  EXPECT_EQ(m.triangles, 8);
  EXPECT_EQ(m.vertices, 6);  // welded: the six edges around the voxel
  const auto p = download(m.positions);
  std::set<std::vector<float>> got, want = {{1.5f, 3, 4}, {2.5f, 3, 4}, {2, 2.5f, 4}, {2, 3.5f, 4}, {2, 3, 3.5f}, {2, 3, 4.5f}};
  for (std::size_t i = 0; i < p.size(); i += 3) got.insert({p[i], p[i + 1], p[i + 2]});
  EXPECT_EQ(got, want);
  const topology t = topology_of(m);
  EXPECT_TRUE(t.consistent);
  EXPECT_EQ(t.open_edges, 0);
  EXPECT_EQ(t.euler, 2);
}

/// f = |p − c|² on the integer grid, iso = r² + ½: no sample equals the iso value.
template <class T>
std::vector<T> integer_sphere(volume_shape s, double cx, double cy, double cz) {
  std::vector<T> v(s.samples());
  for (std::int64_t z = 0; z < s.nz; ++z)
    for (std::int64_t y = 0; y < s.ny; ++y)
      for (std::int64_t x = 0; x < s.nx; ++x)
        v[x + s.nx * (y + s.ny * z)] = static_cast<T>((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz));
  return v;
}

TEST_F(mc_test, integer_spheres_are_closed_surfaces) {
  struct sphere_case {
    volume_shape shape;
    double r2;
  };
  const bool small = small_sizes_only();
  for (const auto& c : {sphere_case{{17, 15, 16}, 30}, sphere_case{{37, 23, 19}, 60},
                        sphere_case{{small ? 24 : 64, small ? 22 : 61, small ? 20 : 57}, small ? 70.0 : 600.0}}) {
    SCOPED_TRACE(testing::Message() << c.shape.nx << "×" << c.shape.ny << "×" << c.shape.nz);
    const double cx = (c.shape.nx - 1) / 2.0, cy = (c.shape.ny - 1) / 2.0, cz = (c.shape.nz - 1) / 2.0;
    const float iso = static_cast<float>(c.r2 + 0.5);
    const auto check = [&](const mc_mesh& m) {
      EXPECT_GT(m.triangles, 0);
      const topology t = topology_of(m);
      EXPECT_TRUE(t.consistent);
      EXPECT_EQ(t.open_edges, 0);
      EXPECT_EQ(t.euler, 2);
    };
    check(check_mesh(integer_sphere<float>(c.shape, cx, cy, cz), c.shape, iso));
    check(check_mesh(integer_sphere<std::uint16_t>(c.shape, cx, cy, cz), c.shape, iso));
    if (c.shape.nx <= 17) check(check_mesh(integer_sphere<std::uint8_t>(c.shape, cx, cy, cz), c.shape, iso));
  }
}

TEST_F(mc_test, normals_point_outwards_and_agree_with_the_winding) {
  const volume_shape shape{30, 29, 28};
  const auto v = integer_sphere<float>(shape, 14.5, 14, 13.5);
  const auto d = upload(v);
  const mc_mesh m = marching_cubes(d.data(), shape, 100.5f, checked(false));
  const auto p = download(m.positions), n = download(m.normals);
  ASSERT_GT(m.triangles, 0);
  for (std::int64_t t = 0; t < m.triangles; ++t) {
    const float* a = &p[9 * t];
    const double u[3] = {a[3] - a[0], a[4] - a[1], a[5] - a[2]}, w[3] = {a[6] - a[0], a[7] - a[1], a[8] - a[2]};
    const double g[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    double winding = 0, outward = 0;
    for (int k = 0; k < 3; ++k) {
      const double c = (a[k] + a[3 + k] + a[6 + k]) / 3 - (k == 0 ? 14.5 : k == 1 ? 14 : 13.5);
      for (int j = 0; j < 3; ++j) winding += g[k] * n[9 * t + 3 * j + k];
      outward += n[9 * t + k] * c;
    }
    EXPECT_GT(outward, 0) << "triangle " << t;
    if (std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) > 1e-3) EXPECT_GT(winding, 0) << "triangle " << t;
  }
}

TEST_F(mc_test, checkerboard_activates_every_cell) {
  const volume_shape shape{9, 10, 11};
  std::vector<std::uint8_t> v(shape.samples());
  for (std::int64_t z = 0; z < shape.nz; ++z)
    for (std::int64_t y = 0; y < shape.ny; ++y)
      for (std::int64_t x = 0; x < shape.nx; ++x) v[x + shape.nx * (y + shape.ny * z)] = static_cast<std::uint8_t>((x + y + z) % 2);
  const mc_mesh m = check_mesh(v, shape, 0.5f);
  EXPECT_EQ(m.active_cells, m.cells);
  EXPECT_EQ(m.triangles, 4 * m.cells);  // four corner triangles per cell, every one allocated and written
  EXPECT_TRUE(topology_of(m).consistent);
}

TEST_F(mc_test, procedural_fields) {
  const volume_shape shape = small_sizes_only() ? volume_shape{20, 18, 17} : volume_shape{48, 40, 36};
  for (auto f : {volume_field::sphere, volume_field::torus, volume_field::metaballs, volume_field::gyroid}) {
    SCOPED_TRACE(std::string(to_string(f)));
    device_buffer<float> d(shape.samples());
    PARASCAN_CUDA_CHECK(fill_volume_field(f, shape, d.data()));
    const auto v = download(d);
    const mc_mesh m = check_mesh(v, shape, default_iso(f));
    EXPECT_GT(m.triangles, 0);
    const topology t = topology_of(m);
    EXPECT_TRUE(t.consistent);
    if (f == volume_field::sphere) EXPECT_EQ(t.euler, 2);
    if (f == volume_field::torus) EXPECT_EQ(t.euler, 0);
    if (f != volume_field::gyroid) EXPECT_EQ(t.open_edges, 0);
  }
}

TEST_F(mc_test, noise_in_every_type) {
  std::mt19937 rng(7);
  const volume_shape shape{23, 17, small_sizes_only() ? 9 : 29};
  std::vector<float> f(shape.samples());
  std::vector<std::uint16_t> h(shape.samples());
  std::vector<std::uint8_t> b(shape.samples());
  for (std::int64_t i = 0; i < shape.samples(); ++i) {
    f[i] = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    h[i] = static_cast<std::uint16_t>(rng() % 65536);
    b[i] = static_cast<std::uint8_t>(rng() % 256);
  }
  EXPECT_TRUE(topology_of(check_mesh(f, shape, 0.1f)).consistent);
  EXPECT_TRUE(topology_of(check_mesh(h, shape, 30000.5f)).consistent);
  EXPECT_TRUE(topology_of(check_mesh(b, shape, 99.5f)).consistent);
  EXPECT_TRUE(topology_of(check_mesh(b, shape, 100.0f)).consistent);  // samples equal to iso: outside
}

TEST_F(mc_test, degenerate_shapes_and_bad_arguments) {
  device_buffer<float> d(64);
  d.poison(0);
  for (volume_shape s : {volume_shape{0, 0, 0}, volume_shape{1, 8, 8}, volume_shape{8, 1, 8}, volume_shape{8, 8, 1}}) {
    const mc_mesh m = marching_cubes(d.data(), s, 0.5f, checked(true));
    EXPECT_EQ(m.cells, 0);
    EXPECT_EQ(m.triangles, 0);
  }
  EXPECT_THROW(marching_cubes(d.data(), volume_shape{4, 4, 4}, std::nanf(""), checked()), std::invalid_argument);
  EXPECT_THROW(marching_cubes(d.data(), volume_shape{-4, 4, 4}, 0.5f, checked()), std::invalid_argument);
  EXPECT_EQ(fill_volume_field(volume_field::sphere, volume_shape{1, 4, 4}, d.data()), cudaErrorInvalidValue);
}

TEST_F(mc_test, stage_times_add_up) {
  const volume_shape shape{40, 40, 40};
  device_buffer<float> d(shape.samples());
  PARASCAN_CUDA_CHECK(fill_volume_field(volume_field::gyroid, shape, d.data()));
  mc_stage_ms times;
  mc_options o;
  o.weld = true;
  // The stages are consecutive laps, so together they must fill (almost all of) the call as timed from
  // outside by events of our own on the same stream: not more, and not much less.
  cudaEvent_t before, after;
  PARASCAN_CUDA_CHECK(cudaEventCreate(&before));
  PARASCAN_CUDA_CHECK(cudaEventCreate(&after));
  PARASCAN_CUDA_CHECK(cudaEventRecord(before, 0));
  const mc_mesh m = marching_cubes(d.data(), shape, 0.0f, o, 0, &times);
  PARASCAN_CUDA_CHECK(cudaEventRecord(after, 0));
  PARASCAN_CUDA_CHECK(cudaEventSynchronize(after));
  float outside = 0;
  PARASCAN_CUDA_CHECK(cudaEventElapsedTime(&outside, before, after));
  PARASCAN_CUDA_CHECK(cudaEventDestroy(before));
  PARASCAN_CUDA_CHECK(cudaEventDestroy(after));
  EXPECT_GT(m.triangles, 0);
  for (float t : {times.classify, times.compact, times.offsets, times.allocate, times.emit, times.weld}) EXPECT_GT(t, 0.0f);
  EXPECT_LE(times.total(), outside + 0.01f) << "stages " << times.total() << " ms, the call " << outside << " ms";
  EXPECT_GE(times.total(), 0.5f * outside - 0.2f) << "stages " << times.total() << " ms, the call " << outside << " ms";
}

// More than 2^32 samples (64-bit cell arithmetic): one hot voxel near the far corner.
class mc_huge : public parascan::test::gpu_test {};

TEST_F(mc_huge, one_hot_voxel_beyond_2_32_samples) {
  const volume_shape shape{1700, 1600, 1600};  // 4.35e9 samples of u8
  std::size_t free_b = 0, total_b = 0;
  PARASCAN_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (free_b < static_cast<std::size_t>(shape.samples()) * 2 + (std::size_t{2} << 30))
    GTEST_SKIP() << "needs " << shape.samples() * 2 / (1 << 20) << " MiB of device memory";
  device_buffer<std::uint8_t> d(shape.samples());
  d.poison(0);
  const std::int64_t hx = 1697, hy = 1598, hz = 1597, hot = hx + shape.nx * (hy + shape.ny * hz);
  const std::uint8_t one = 255;
  PARASCAN_CUDA_CHECK(cudaMemcpy(d.data() + hot, &one, 1, cudaMemcpyHostToDevice));
  mc_options o;
  o.weld = true;
  o.keep_cells = true;
  const mc_mesh m = marching_cubes(d.data(), shape, 100.0f, o);
  EXPECT_EQ(m.active_cells, 8);
  EXPECT_EQ(m.triangles, 8);
  EXPECT_EQ(m.vertices, 6);
  const auto ids = download(m.active_cell_ids);
  ASSERT_EQ(ids.size(), 8u);
  const std::int64_t cx = shape.nx - 1, cy = shape.ny - 1;
  EXPECT_EQ(ids[0], (hx - 1) + cx * ((hy - 1) + cy * (hz - 1)));
  EXPECT_EQ(ids[7], hx + cx * (hy + cy * hz));
  const auto p = download(m.positions);
  std::set<std::vector<float>> got;
  for (std::size_t i = 0; i < p.size(); i += 3) got.insert({p[i], p[i + 1], p[i + 2]});
  // Interpolated from the lower sample: (h − 1) + (100 − 0)/(255 − 0) before, h + (100 − 255)/(0 − 255) after.
  const float x = hx, y = hy, z = hz, before = 100.0f / 255.0f, after = (100.0f - 255.0f) / (0.0f - 255.0f);
  const std::set<std::vector<float>> want = {{(x - 1) + before, y, z}, {x + after, y, z}, {x, (y - 1) + before, z},
                                             {x, y + after, z}, {x, y, (z - 1) + before}, {x, y, z + after}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(topology_of(m).euler, 2);
}

}  // namespace
