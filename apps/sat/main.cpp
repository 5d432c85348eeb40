// sat: summed-area tables of PGM images on the GPU (parascan), rectangle sums and box filters,
// timed beside a CUB-based table in the same run and optionally validated.
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#include "../common/array_io.hpp"
#include "../common/cli.hpp"
#include "../common/report.hpp"
#include "../common/dtype.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/option_parsers.hpp"
#include "../common/pgm.hpp"
#include "../common/timing.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device_info.hpp"
#include "parascan/sat.hpp"
#include "parascan/validation/sat_check.hpp"

#ifndef PARASCAN_DATA_DIR
#define PARASCAN_DATA_DIR "data"
#endif

namespace {
using namespace parascan;
using namespace parascan::app;

struct sat_args {
  std::string input, layout = "padded", acc, algorithm = "automatic";
  sat_algorithm algo = sat_algorithm::automatic;
  bool squared = false;
  std::vector<std::string> rects;
  int box = -1;
  common_options common;
};

/// The accumulator: the requested one if it is exact (or a float), else the smallest exact integer.
dtype choose_acc(const sat_args& a, const pgm_image& img) {
  const image_shape shape{img.width, img.height};
  const auto m = static_cast<std::uint64_t>(img.maxval);
  const std::string largest = std::to_string(img.width) + "×" + std::to_string(img.height) + "×" +
                              (a.squared ? std::to_string(img.maxval) + "²" : std::to_string(img.maxval));
  if (!a.acc.empty()) {
    const auto t = parse_dtype(a.acc);
    if (!t || (*t != dtype::u32 && *t != dtype::u64 && *t != dtype::f32 && *t != dtype::f64))
      throw input_error("--acc: '" + a.acc + "' is not an accumulator type (u32, u64, f32, f64)");
    if ((*t == dtype::u32 || *t == dtype::u64) && !sat_fits_exactly(shape, m, a.squared, *t == dtype::u32 ? 32 : 64))
      throw input_error("--acc " + a.acc + " can overflow: the largest entry can reach " + largest + ", more than " +
                        (*t == dtype::u32 ? "4294967295" : "18446744073709551615") +
                        (*t == dtype::u32 ? "; use u64 (the default chooses it)" : "; use f64"));
    if (*t == dtype::f32 && !sat_fits_exactly(shape, m, a.squared, 24) && !a.common.quiet)
      std::fprintf(stderr, "sat: note: f32 entries are exact only up to 2^24; this table can reach %s\n", largest.c_str());
    return *t;
  }
  if (sat_fits_exactly(shape, m, a.squared, 32)) return dtype::u32;
  if (sat_fits_exactly(shape, m, a.squared, 64)) return dtype::u64;
  throw input_error("no integer accumulator holds " + largest + " exactly; choose --acc f64");
}

template <class In, class Acc>
int run(const sat_args& a, const pgm_image& img, sat_layout layout, const std::vector<sat_rect>& rects) {
  const image_shape shape{img.width, img.height};
  const std::int64_t w = img.width, h = img.height, s = layout == sat_layout::padded ? 1 : 0;
  const std::int64_t table_n = (w + s) * (h + s);
  std::vector<In> h_img(img.samples.begin(), img.samples.end());
  device_buffer<In> d_img(w * h);
  device_buffer<Acc> d_table(table_n), d_ref(table_n);
  d_img.copy_from_host(h_img.data(), w * h);
  const std::size_t in_pitch = w * sizeof(In), table_pitch = (w + s) * sizeof(Acc);
  const auto cub = [&](void* t, std::size_t& b, validation::cub_count c) {
    return validation::cub_summed_area_table(t, b, d_img.data(), in_pitch, d_ref.data(), table_pitch, shape, layout,
                                             a.squared, 0, c);
  };
  std::size_t our_bytes = 0, cub_bytes = cub_temp_bytes(cub);
  PARASCAN_CUDA_CHECK(summed_area_table(nullptr, our_bytes, d_img.data(), in_pitch, d_table.data(), table_pitch, shape,
                                        layout, a.squared, 0, a.algo));
  device_buffer<char> our_temp(our_bytes), cub_temp(cub_bytes);
  d_table.poison();
  d_ref.poison();
  const timed_beside_cub t = time_beside_cub(
      a.common.repeat,
      [&] {
        PARASCAN_CUDA_CHECK(summed_area_table(our_temp.data(), our_bytes, d_img.data(), in_pitch, d_table.data(),
                                              table_pitch, shape, layout, a.squared, 0, a.algo));
      },
      [&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); },
      "CUB-based table");
  std::vector<Acc> table(table_n);
  d_table.copy_to_host(table.data(), table_n);
  const Acc total = validation::table_entry(table, w, layout, h - 1, w - 1);

  // Rectangle sums, on the GPU from the table.
  std::vector<Acc> rect_sums(rects.size());
  if (!rects.empty()) {
    device_buffer<sat_rect> d_rects(rects.size());
    device_buffer<Acc> d_sums(rects.size());
    d_rects.copy_from_host(rects.data(), rects.size());
    PARASCAN_CUDA_CHECK(sat_rect_sums(d_table.data(), table_pitch, shape, layout, d_rects.data(), d_sums.data(),
                                      static_cast<std::int64_t>(rects.size())));
    d_sums.copy_to_host(rect_sums.data(), rects.size());
  }
  // Box filter, on the GPU from the table (of values, not squares).
  pgm_image blurred;
  if (a.box >= 0) {
    blurred.width = w;
    blurred.height = h;
    blurred.maxval = img.maxval;
    blurred.samples.resize(w * h);
    device_buffer<std::uint16_t> d_blur(w * h);
    PARASCAN_CUDA_CHECK(sat_box_filter(d_table.data(), table_pitch, shape, layout, a.box, d_blur.data(),
                                       w * sizeof(std::uint16_t)));
    d_blur.copy_to_host(blurred.samples.data(), w * h);
  }

  std::string verdict = "not checked";
  if (a.common.validate) {
    auto c = validation::compare_sat(table, h_img.data(), w, h, layout, a.squared);
    if (!c.ok()) throw mismatch_error("validation FAILED against the CPU: " + std::to_string(c.mismatches) + " entries differ; first " + c.detail);
    std::vector<Acc> cub_table(table_n);
    d_ref.copy_to_host(cub_table.data(), table_n);
    c = validation::compare_sat(cub_table, h_img.data(), w, h, layout, a.squared);
    if (!c.ok()) throw mismatch_error("the CUB-based table disagrees with the CPU: " + c.detail);
    const auto ref = validation::cpu_sat<double>(h_img.data(), w, h, a.squared);
    auto cpu_rect = [&](const sat_rect& r) {
      auto at = [&](std::int64_t y, std::int64_t x) { return y < 0 || x < 0 ? 0.0 : ref[y * w + x]; };
      return at(r.y1, r.x1) - at(r.y0 - 1, r.x1) - at(r.y1, r.x0 - 1) + at(r.y0 - 1, r.x0 - 1);
    };
    for (std::size_t i = 0; i < rects.size(); ++i) {
      const double e = cpu_rect(rects[i]), g = static_cast<double>(rect_sums[i]);
      if (std::fabs(g - e) > 1e-6 * std::fabs(e) + (std::is_integral_v<Acc> ? 0 : 1e-3))
        throw mismatch_error("validation FAILED: --rect " + a.rects[i] + " sums to " + validation::show(g) + ", the CPU says " + validation::show(e));
    }
    if (a.box >= 0 && !a.squared) {
      for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x) {
          const sat_rect r{std::max<std::int64_t>(0, x - a.box), std::max<std::int64_t>(0, y - a.box),
                           std::min(w - 1, x + a.box), std::min(h - 1, y + a.box)};
          const double area = static_cast<double>((r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1));
          const double mean = cpu_rect(r) / area;
          const double got = blurred.samples[y * w + x];
          if (std::fabs(got - mean) > 0.5 + 1e-9 * mean)
            throw mismatch_error("validation FAILED: box filter at (y " + std::to_string(y) + ", x " + std::to_string(x) +
                                 ") is " + validation::show(got) + ", the window mean is " + validation::show(mean));
        }
    }
    verdict = "PASS (matches the CPU table and the CUB-based table)";
  }

  if (!a.common.output.empty()) {
    if (a.box >= 0) write_pgm(a.common.output, blurred);
    else write_array(a.common.output, dtype_of<Acc>(), table.data(), std::vector<std::int64_t>{h + s, w + s});
  }
  const std::string algo_name =
      a.algo != sat_algorithm::automatic
          ? std::string(to_string(a.algo))
          : std::string(to_string(resolve_sat_algorithm(a.algo, shape, sizeof(In), sizeof(Acc)))) + " (automatic)";
  const double floor_bytes = static_cast<double>(w * h) * sizeof(In) + static_cast<double>(table_n) * sizeof(Acc);
  if (!a.common.quiet) {
    std::printf("sat: %s  %lld×%lld, maxval %d, %s → %s%s, layout %s, %s\n", a.input.c_str(), static_cast<long long>(w),
                static_cast<long long>(h), img.maxval, std::string(to_string(dtype_of<In>())).c_str(),
                std::string(to_string(dtype_of<Acc>())).c_str(), a.squared ? " (squares)" : "",
                std::string(to_string(layout)).c_str(), algo_name.c_str());
    std::printf("total: %s\n", validation::show(total).c_str());
    for (std::size_t i = 0; i < rects.size(); ++i)
      std::printf("rect %s: %s\n", a.rects[i].c_str(), validation::show(rect_sums[i]).c_str());
    if (a.box >= 0) std::printf("box filter: radius %d (%d×%d window, clamped at the borders)\n", a.box, 2 * a.box + 1, 2 * a.box + 1);
    std::printf("%s\n", time_line(t, static_cast<double>(w * h), "pixels", floor_bytes, " of the floor traffic").c_str());
    std::printf("validation: %s\n", verdict.c_str());
  }
  if (!a.common.json.empty()) {
    json_object j;
    j.add("tool", "sat").add("input", a.input).add("width", w).add("height", h).add("maxval", img.maxval)
        .add("acc", std::string(to_string(dtype_of<Acc>()))).add("layout", std::string(to_string(layout)))
        .add("squared", a.squared).add("algorithm", algo_name).add("total", validation::show(total));
    add_times(j, t, static_cast<double>(w * h), "pixels", floor_bytes);
    j.add("validation", verdict);
    for (std::size_t i = 0; i < rects.size(); ++i) j.add("rect " + a.rects[i], validation::show(rect_sums[i]));
    write_json(a.common.json, j.str());
  }
  return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sat: summed-area tables of PGM images on the GPU (parascan), rectangle sums and box filters, beside a CUB-based table", "sat"};
  sat_args a;
  app.add_option("image", a.input, "PGM image (P2 or P5, maxval up to 65535); default: the bundled data/coins.pgm");
  app.add_option("--layout", a.layout, "padded: (W+1)×(H+1) with a zero first row and column (OpenCV/NPP); inclusive: W×H")
      ->capture_default_str();
  app.add_option("--acc", a.acc, "Accumulator u32, u64, f32 or f64 (default: the smallest exact integer type)");
  app.add_option("--algorithm", a.algorithm,
                 "single_pass: the image read once, carries by look-back between tiles; three_pass: tile sums, carry "
                 "scans, table (reads the image twice; float sums in a fixed order); automatic: single_pass for 8-bit "
                 "images of at least 8192 tiles of 128 × 64 pixels or with 64-bit sums (hyphens read as underscores)")
      ->capture_default_str();
  app.add_flag("--squared", a.squared, "Table of squared pixels (for local variance) instead of pixels");
  app.add_option("--rect", a.rects, "Print the sum over x0,y0,x1,y1 (corners inclusive); repeatable");
  app.add_option("--box", a.box, "Box filter of radius R: -o then writes the blurred image as PGM")->check(non_negative());
  add_common_options(app, a.common, "sat photo.pgm --rect 96,75,191,150 -o table.npy --validate\n  sat photo.pgm --box 4 -o blurred.pgm");
  return run_tool(app, argc, argv, [&]() -> int {
    if (a.input.empty()) a.input = std::string(PARASCAN_DATA_DIR) + "/coins.pgm";
    const auto layout_named = parse_sat_layout(a.layout);
    if (!layout_named) throw input_error("--layout: '" + a.layout + "' (padded or inclusive)");
    const sat_layout layout = *layout_named;
    const auto algo_named = a.algorithm == "auto" ? std::optional(sat_algorithm::automatic) : parse_sat_algorithm(a.algorithm);
    if (!algo_named) throw input_error("--algorithm: '" + a.algorithm + "' (automatic, single_pass or three_pass)");
    a.algo = *algo_named;
    if (a.box >= 0 && a.squared) throw input_error("--box filters the image itself; it cannot be combined with --squared");
    if (a.box >= 0 && !a.common.output.empty() && !ends_with(a.common.output, ".pgm"))
      throw input_error("-o " + a.common.output + ": with --box the output is the blurred image, so it must end in .pgm");
    const pgm_image img = read_pgm(a.input);
    std::vector<sat_rect> rects;
    for (const auto& r : a.rects) rects.push_back(parse_rect(r, img.width, img.height));
    const dtype acc = choose_acc(a, img);
    const auto d = select_device(a.common.device);
    if (!a.common.quiet) std::fprintf(stderr, "sat: device %d: %s\n", d.id, d.name.c_str());
    return visit_dtype(acc, [&](auto tag) -> int {
      using Acc = typename decltype(tag)::type;
      if constexpr (std::is_same_v<Acc, std::uint32_t> || std::is_same_v<Acc, std::uint64_t> ||
                    std::is_same_v<Acc, float> || std::is_same_v<Acc, double>) {
        if (img.maxval > 255) return run<std::uint16_t, Acc>(a, img, layout, rects);
        return run<std::uint8_t, Acc>(a, img, layout, rects);
      }
      throw input_error("unsupported accumulator");
    });
  });
}
