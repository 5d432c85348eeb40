// marching_cubes: the iso-surface of a scalar volume as a triangle mesh, on the GPU (classify → scan →
// compact → allocate → emit, parascan/marching_cubes.hpp), written as PLY or OBJ, timed by stage and
// optionally validated against the CPU reference and CUB.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>
#include "../common/cli.hpp"
#include "../common/dtype.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/mc_timing.hpp"
#include "../common/mesh_io.hpp"
#include "../common/volume_io.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device_info.hpp"
#include "parascan/error.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/volume_fields.hpp"
#include "parascan/validation/mc_reference.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct mc_args {
  std::string input, dims, type_name, field, iso;
  std::int64_t grid = 128;
  bool weld = false, no_normals = false;
  common_options common;
};

float parse_iso(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) throw input_error("--iso '" + text + "': not a number");
  if (std::isnan(v)) throw input_error("--iso: NaN is not an iso value");
  if (std::isinf(v) || std::fabs(v) > 3.0e38) throw input_error("--iso '" + text + "': outside the float range");
  return static_cast<float>(v);
}

template <class V>
std::vector<V> to_host(const device_buffer<V>& d) {
  std::vector<V> h(d.size());
  if (!h.empty()) d.copy_to_host(h.data(), h.size());
  return h;
}

template <class T>
int run(const mc_args& a, const std::string& source, const T* d_volume, volume_shape shape, float iso,
        const std::vector<T>* host_volume) {
  mc_options o;
  o.weld = a.weld;
  o.normals = !a.no_normals;
  // Timed runs: one warm-up, then `repeat`; the median of the totals and of each stage.
  const mc_timed timed = time_marching_cubes(d_volume, shape, iso, o, a.common.repeat);
  const mc_mesh& mesh = timed.mesh;
  const mc_stage_ms& st = timed.stage;
  const double ms = timed.total_ms;

  std::string verdict = "not checked (--validate compares with the CPU reference and CUB)";
  if (a.common.validate) {
    std::vector<T> h(static_cast<std::size_t>(shape.samples()));
    if (host_volume) h = *host_volume;
    else PARASCAN_CUDA_CHECK(cudaMemcpy(h.data(), d_volume, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    mc_options checked = o;
    checked.keep_cells = true;
    checked.scan.debug_synchronous = true;
    const mc_mesh m = marching_cubes(d_volume, shape, iso, checked);
    const auto ref = validation::cpu_marching_cubes(h.data(), shape, iso, o.normals);
    if (const std::string d = validation::compare_meshes(m, ref); !d.empty())
      throw mismatch_error("validation FAILED against the CPU reference: " + d);
    if (const std::string d = validation::check_scans_with_cub(m); !d.empty()) throw mismatch_error("validation FAILED: " + d);
    verdict = "PASS (active cells, counts, offsets, positions and normals match the CPU reference; both scans match CUB)";
  }

  if (!a.common.output.empty()) {
    host_mesh h;
    h.positions = to_host(mesh.positions);
    h.normals = to_host(mesh.normals);
    h.indices = to_host(mesh.indices);
    char comment[256];
    std::snprintf(comment, sizeof comment, "parascan marching_cubes %s iso %.9g%s", source.c_str(), iso, a.weld ? " welded" : "");
    write_mesh(a.common.output, h, comment);
  }

  const double cells_per_s = ms > 0 ? static_cast<double>(mesh.cells) / (ms * 1e-3) : 0;
  const double tris_per_s = ms > 0 ? static_cast<double>(mesh.triangles) / (ms * 1e-3) : 0;
  if (!a.common.quiet) {
    std::printf("marching_cubes: %s, %lld×%lld×%lld %s samples, iso %.9g\n", source.c_str(), static_cast<long long>(shape.nx),
                static_cast<long long>(shape.ny), static_cast<long long>(shape.nz),
                std::string(to_string(dtype_of<T>())).c_str(), iso);
    std::printf("cells: %lld, active %lld (%.2f%%); triangles %lld; vertices %lld%s\n", static_cast<long long>(mesh.cells),
                static_cast<long long>(mesh.active_cells),
                mesh.cells ? 100.0 * static_cast<double>(mesh.active_cells) / static_cast<double>(mesh.cells) : 0.0,
                static_cast<long long>(mesh.triangles), static_cast<long long>(mesh.vertices), a.weld ? " (unique, welded)" : "");
    std::printf("time: %.4f ms (median of %d)  %.3f G cells/s  %.3f G triangles/s\n", ms, a.common.repeat, cells_per_s / 1e9,
                tris_per_s / 1e9);
    std::printf("stages (ms): classify %.4f  compact %.4f  offsets %.4f  allocate %.4f  emit %.4f%s\n", st.classify,
                st.compact, st.offsets, st.allocate, st.emit, a.weld ? ("  weld " + std::to_string(st.weld)).c_str() : "");
    std::printf("validation: %s\n", verdict.c_str());
    if (!a.common.output.empty()) std::printf("wrote %s\n", a.common.output.c_str());
  }
  if (!a.common.json.empty()) {
    json_object stages;
    stages.add("classify", static_cast<double>(st.classify)).add("compact", static_cast<double>(st.compact))
        .add("offsets", static_cast<double>(st.offsets)).add("allocate", static_cast<double>(st.allocate))
        .add("emit", static_cast<double>(st.emit)).add("weld", static_cast<double>(st.weld));
    json_object j;
    j.add("tool", "marching_cubes").add("source", source).add("nx", shape.nx).add("ny", shape.ny).add("nz", shape.nz)
        .add("type", std::string(to_string(dtype_of<T>()))).add("iso", static_cast<double>(iso)).add("cells", mesh.cells)
        .add("active_cells", mesh.active_cells).add("triangles", mesh.triangles).add("vertices", mesh.vertices)
        .add("welded", a.weld).add("time_ms", ms).add("cells_per_s", cells_per_s).add("triangles_per_s", tris_per_s)
        .raw("stage_ms", stages.str()).add("validation", verdict);
    write_json(a.common.json, j.str());
  }
  return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"marching_cubes: the iso-surface of a scalar volume as a triangle mesh on the GPU (parascan): classify, "
               "scan, compact, allocate, emit",
               "marching_cubes"};
  mc_args a;
  app.add_option("input", a.input, "Volume: .npy of shape (nz, ny, nx), or raw little-endian with --dims and --type");
  app.add_option("--dims", a.dims, "Samples along x,y,z of a raw volume, e.g. 256,256,128 (x fastest in the file)");
  app.add_option("--type", a.type_name, "Sample type of a raw volume: u8, u16 or f32");
  app.add_option("--field", a.field, "Without an input: a procedural field on --grid³ samples: sphere, torus, metaballs "
                                     "(default) or gyroid");
  app.add_option("--grid", a.grid, "Samples per axis of --field")->capture_default_str()->check(CLI::Range(2, 4096));
  app.add_option("--iso", a.iso, "Iso value (a corner is inside when its value is below it); needed for files, fields "
                                 "have their own default");
  app.add_flag("--weld", a.weld, "Merge the vertices neighbouring cells share (sort + unique + scan): an indexed mesh");
  app.add_flag("--no-normals", a.no_normals, "Leave out the per-vertex normals (from the field's gradient)");
  add_common_options(app, a.common,
                     "marching_cubes ct.raw --dims 256,256,128 --type u16 --iso 900 --weld -o skull.ply\n"
                     "  marching_cubes --field gyroid --grid 256 --validate -o gyroid.obj\n"
                     "Output: .ply (binary little-endian) or .obj, chosen by the name. Positions are in sample units.");
  app.get_option("--output")->description("Write the mesh here: .ply (binary little-endian) or .obj, by the name");
  return run_tool(app, argc, argv, [&]() -> int {
    if (!a.input.empty() && !a.field.empty()) throw input_error("give an input volume or --field, not both");
    if (!a.common.output.empty()) (void)mesh_format_of(a.common.output);  // a bad name fails before any work
    std::optional<dtype> type;
    if (!a.type_name.empty() && !(type = parse_dtype(a.type_name)))
      throw input_error("--type: unknown type '" + a.type_name + "' (u8, u16 or f32)");
    std::optional<std::array<std::int64_t, 3>> dims;
    if (!a.dims.empty()) dims = parse_dims(a.dims);
    std::optional<host_volume> file;
    std::optional<volume_field> field;
    if (!a.input.empty()) {
      if (a.iso.empty()) throw input_error("--iso: needed with an input volume");
      file = read_volume(a.input, type, dims);
    } else {
      if (dims || type) throw input_error("--dims and --type describe an input file; --field volumes are f32 on --grid");
      const std::string name = a.field.empty() ? "metaballs" : a.field;
      if (!(field = parse_volume_field(name)))
        throw input_error("--field: unknown '" + name + "' (sphere, torus, metaballs, gyroid)");
    }
    const float iso = a.iso.empty() ? default_iso(*field) : parse_iso(a.iso);
    const auto d = select_device(a.common.device);
    if (!a.common.quiet) std::fprintf(stderr, "marching_cubes: device %d: %s\n", d.id, d.name.c_str());
    if (field) {
      const volume_shape shape{a.grid, a.grid, a.grid};
      device_buffer<float> volume(shape.samples());
      PARASCAN_CUDA_CHECK(fill_volume_field(*field, shape, volume.data()));
      return run<float>(a, std::string(to_string(*field)) + " field", volume.data(), shape, iso, nullptr);
    }
    const volume_shape shape{file->nx, file->ny, file->nz};
    return visit_dtype(file->type, [&](auto tag) -> int {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> || std::is_same_v<T, float>) {
        const T* p = reinterpret_cast<const T*>(file->bytes.data());
        const std::vector<T> h(p, p + shape.samples());
        device_buffer<T> volume(shape.samples());
        volume.copy_from_host(h.data(), h.size());
        return run<T>(a, a.input, volume.data(), shape, iso, &h);
      } else {
        throw input_error(a.input + ": volumes are u8, u16 or f32");
      }
    });
  });
}
