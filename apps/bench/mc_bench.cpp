// bench --primitive mc: marching cubes of the procedural fields (sphere, metaballs, gyroid, and the
// gyroid welded) on f32 grids of 128³, 256³ and 512³ (512³ not with --quick): the whole call timed,
// device allocation of the mesh included as a user pays it (median of --repeat after a warm-up), and the
// median of each stage. Traffic counted: the volume read once and the mesh written once. CUB has no
// marching cubes, so there is no ratio; the check is the mesh's two scans redone with CUB
// (validation::check_scans_with_cub) and its triangle count equal to the timed runs'. (Was
// scripts/bench_mc.sh, which ran the tool once per case.)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/validation/mc_reference.hpp"
#include "parascan/volume_fields.hpp"
#include "../common/mc_timing.hpp"
#include "runner.hpp"

namespace parascan::app {
namespace {

void mc_case(runner& r, std::int64_t grid, volume_field field, bool weld) {
  const volume_shape shape{grid, grid, grid};
  device_buffer<float> volume(static_cast<std::size_t>(shape.samples())), scratch(static_cast<std::size_t>(shape.samples()));
  PARASCAN_CUDA_CHECK(fill_volume_field(field, shape, volume.data()));
  const float iso = default_iso(field);
  mc_options o;
  o.weld = weld;
  const mc_timed timed = time_marching_cubes(volume.data(), shape, iso, o, r.repeat());
  const mc_mesh& mesh = timed.mesh;
  const mc_stage_ms& st = timed.stage;
  mc_options checked = o;
  checked.keep_cells = true;
  const mc_mesh m = marching_cubes(volume.data(), shape, iso, checked);
  const std::string scans = validation::check_scans_with_cub(m);
  const bool ok = scans.empty() && m.triangles == mesh.triangles && m.vertices == mesh.vertices;
  if (!scans.empty()) std::printf("mc %s %lld^3: %s\n", std::string(to_string(field)).c_str(), static_cast<long long>(grid), scans.c_str());
  const double copy = r.copy_gbs(volume.data(), scratch.data(), volume.bytes());
  const double out_bytes = static_cast<double>(mesh.vertices) * 6 * sizeof(float) +
                           (weld ? static_cast<double>(mesh.triangles) * 3 * sizeof(std::uint32_t) : 0.0);
  const double bytes = static_cast<double>(volume.bytes()) + out_bytes;
  row line{"mc", "f32", std::string(to_string(field)) + (weld ? " weld" : ""), std::to_string(grid) + "^3",
           mesh.cells, bytes, timed.total_ms, 0.0, copy, ok};
  line.has_cub = false;
  r.add(line);
  std::printf("        %lld triangles (%.1f M/s), %lld active cells; stages ms: classify %.3f compact %.3f offsets %.3f "
              "allocate %.3f emit %.3f weld %.3f\n",
              static_cast<long long>(mesh.triangles), mesh.triangles / (line.ms * 1e-3) / 1e6,
              static_cast<long long>(mesh.active_cells), st.classify, st.compact, st.offsets,
              st.allocate, st.emit, st.weld);
}

}  // namespace

void bench_mc(runner& r, bool quick) {
  const std::vector<std::int64_t> grids = quick ? std::vector<std::int64_t>{128, 256} : std::vector<std::int64_t>{128, 256, 512};
  for (std::int64_t g : grids) {
    for (volume_field f : {volume_field::sphere, volume_field::metaballs, volume_field::gyroid}) mc_case(r, g, f, false);
    mc_case(r, g, volume_field::gyroid, true);
  }
}

}  // namespace parascan::app
