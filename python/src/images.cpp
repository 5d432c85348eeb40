// parascan._core: summed-area tables, rectangle sums, the box filter and marching cubes (see module.cpp).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <cuda_runtime_api.h>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include "layer.hpp"
#include "parascan/error.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/sat.hpp"

namespace parascan::python {
namespace {

void summed_area(std::uintptr_t image, const std::string& in_type, std::int64_t image_pitch, std::uintptr_t table,
                 const std::string& acc_type, std::int64_t table_pitch, std::int64_t width, std::int64_t height,
                 bool padded, bool squared, std::uintptr_t stream) {
  const cudaStream_t s = as_stream(stream);
  with_type(in_type, [&](auto i_tag) {
    with_type(acc_type, [&](auto a_tag) {
      using In = typename decltype(i_tag)::type;
      using Acc = typename decltype(a_tag)::type;
      constexpr bool integer_in = std::is_same_v<In, std::uint8_t> || std::is_same_v<In, std::uint16_t> || std::is_same_v<In, std::uint32_t>;
      constexpr bool acc_ok = std::is_same_v<Acc, std::uint32_t> || std::is_same_v<Acc, std::uint64_t> || std::is_floating_point_v<Acc>;
      if constexpr ((integer_in && acc_ok) || (std::is_same_v<In, float> && std::is_floating_point_v<Acc>)) {
        two_phase([&](void* t, std::size_t& b) {
          return summed_area_table(t, b, as_ptr<const In>(image), static_cast<std::size_t>(image_pitch), as_ptr<Acc>(table),
                                   static_cast<std::size_t>(table_pitch), image_shape{width, height},
                                   padded ? sat_layout::padded : sat_layout::inclusive, squared, s);
        }, s, "summed_area_table");
      } else {
        throw nb::value_error(("parascan: no summed-area table from " + in_type + " to " + acc_type +
                               " (images u1/u2/u4 into u4/u8/f4/f8, f4 into f4/f8)").c_str());
      }
    });
  });
}


void rect_sums(std::uintptr_t table, const std::string& acc_type, std::int64_t table_pitch, std::int64_t width,
               std::int64_t height, bool padded, std::uintptr_t rects, std::uintptr_t sums, std::int64_t count,
               std::uintptr_t stream) {
  with_type(acc_type, [&](auto a_tag) {
    using Acc = typename decltype(a_tag)::type;
    if constexpr (std::is_same_v<Acc, std::uint32_t> || std::is_same_v<Acc, std::uint64_t> || std::is_floating_point_v<Acc>) {
      check(sat_rect_sums(as_ptr<const Acc>(table), static_cast<std::size_t>(table_pitch), image_shape{width, height},
                          padded ? sat_layout::padded : sat_layout::inclusive, as_ptr<const sat_rect>(rects),
                          as_ptr<Acc>(sums), count, as_stream(stream)),
            "rect_sums");
    } else {
      throw nb::value_error(("parascan: a summed-area table of " + acc_type + " is not one parascan makes (u4, u8, f4, f8)").c_str());
    }
  });
}

void box_filter(std::uintptr_t table, const std::string& acc_type, std::int64_t table_pitch, std::int64_t width,
                std::int64_t height, int radius, std::uintptr_t out, const std::string& out_type, std::int64_t out_pitch,
                std::uintptr_t stream) {
  with_type(acc_type, [&](auto a_tag) {
    with_type(out_type, [&](auto o_tag) {
      using Acc = typename decltype(a_tag)::type;
      using Out = typename decltype(o_tag)::type;
      if constexpr ((std::is_same_v<Acc, std::uint32_t> || std::is_same_v<Acc, std::uint64_t>) &&
                    (std::is_same_v<Out, std::uint8_t> || std::is_same_v<Out, std::uint16_t>)) {
        check(sat_box_filter(as_ptr<const Acc>(table), static_cast<std::size_t>(table_pitch), image_shape{width, height},
                             sat_layout::padded, radius, as_ptr<Out>(out), static_cast<std::size_t>(out_pitch), as_stream(stream)),
              "box_filter");
      } else {
        throw nb::value_error("parascan: box_filter takes uint8 or uint16 images");
      }
    });
  });
}

/// A marching-cubes mesh in device memory, until its arrays are copied into the caller's.
struct mesh {
  mc_mesh m;
  std::int64_t vertices() const { return m.vertices; }
  std::int64_t triangles() const { return m.triangles; }
  bool welded() const { return m.welded; }
  bool has_normals() const { return m.normals.size() != 0; }
  void copy_to(std::uintptr_t positions, std::uintptr_t normals, std::uintptr_t faces, std::uintptr_t stream) const {
    const cudaStream_t s = as_stream(stream);
    if (positions) check(cudaMemcpyAsync(as_ptr<float>(positions), m.positions.data(), m.positions.bytes(), cudaMemcpyDeviceToDevice, s), "copy");
    if (normals && has_normals()) check(cudaMemcpyAsync(as_ptr<float>(normals), m.normals.data(), m.normals.bytes(), cudaMemcpyDeviceToDevice, s), "copy");
    if (faces && m.welded) check(cudaMemcpyAsync(as_ptr<std::uint32_t>(faces), m.indices.data(), m.indices.bytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");  // the mesh's buffers are freed with it
  }
};

mesh march(std::uintptr_t volume, const std::string& type, std::int64_t nz, std::int64_t ny, std::int64_t nx, double iso,
           bool weld, bool normals, std::uintptr_t stream) {
  mc_options o;
  o.weld = weld;
  o.normals = normals;
  mesh out;
  with_type(type, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> || std::is_same_v<T, float>) {
      try {
        out.m = marching_cubes(as_ptr<const T>(volume), volume_shape{nx, ny, nz}, static_cast<float>(iso), o, as_stream(stream));
      } catch (const out_of_memory& e) {
        throw memory_error(std::string("parascan: marching_cubes: ") + e.what());
      } catch (const std::invalid_argument& e) {
        throw nb::value_error((std::string("parascan: marching_cubes: ") + e.what()).c_str());
      }
    } else {
      throw nb::value_error(("parascan: marching_cubes takes uint8, uint16 or float32 volumes, not " + type).c_str());
    }
  });
  return out;
}


}  // namespace

void bind_images(nb::module_& m) {
  m.def("summed_area_table", &summed_area);
  m.def("rect_sums", &rect_sums);
  m.def("box_filter", &box_filter);
  nb::class_<mesh>(m, "Mesh")
      .def_prop_ro("vertices", &mesh::vertices)
      .def_prop_ro("triangles", &mesh::triangles)
      .def_prop_ro("welded", &mesh::welded)
      .def_prop_ro("has_normals", &mesh::has_normals)
      .def("copy_to", &mesh::copy_to);
  m.def("marching_cubes", &march);
}

}  // namespace parascan::python
