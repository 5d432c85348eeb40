// References for summed-area tables: a sequential CPU table (exact 64-bit integers for integer
// inputs, double otherwise), a CUB-based table (row scans, then column scans, with
// cub::DeviceScan::InclusiveScanByKey), and the comparison of a table against the CPU.
//
// Float bound: every entry of our table is a sum of its terms by a path of at most W + H + 40
// additions (warp scans of 32, 4 segments, the carries), so |got − ref| ≤ (W + H + 40)·ε·Σ|terms|,
// with ε the accumulator's unit roundoff and Σ|terms| the table of absolute values.
#pragma once
#include <cuda_runtime_api.h>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>
#include "parascan/sat.hpp"
#include "parascan/validation/compare.hpp"
#include "parascan/validation/cub_count.hpp"

namespace parascan::validation {

/// The CUB-based table, same arguments and layouts as parascan::summed_area_table.
template <class In, class Acc>
cudaError_t cub_summed_area_table(void* d_temp, std::size_t& temp_bytes, const In* d_image, std::size_t image_pitch,
                                  Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                                  bool squared, cudaStream_t stream = 0, cub_count count = cub_count::int64);

/// The inclusive W×H table in R (std::uint64_t: exact modulo 2^64; double: for floats), dense rows.
template <class R, class In>
std::vector<R> cpu_sat(const In* image, std::int64_t width, std::int64_t height, bool squared, bool absolute = false) {
  std::vector<R> t(static_cast<std::size_t>(width * height));
  for (std::int64_t y = 0; y < height; ++y) {
    R row = R(0);
    for (std::int64_t x = 0; x < width; ++x) {
      R v = static_cast<R>(image[y * width + x]);
      if constexpr (std::is_signed_v<R>) {
        if (absolute && v < R(0)) v = -v;
      }
      if (squared) v = v * v;
      row += v;
      t[y * width + x] = row + (y > 0 ? t[(y - 1) * width + x] : R(0));
    }
  }
  return t;
}

/// Entry (y, x) of the inclusive table as stored in `table` (dense rows of the layout's width).
template <class Acc>
Acc table_entry(const std::vector<Acc>& table, std::int64_t width, sat_layout layout, std::int64_t y, std::int64_t x) {
  const std::int64_t s = layout == sat_layout::padded ? 1 : 0;
  return table[(y + s) * (width + s) + x + s];
}

/// Compare a table (dense rows, the layout's width) with the CPU reference of the image.
template <class Acc, class In>
comparison compare_sat(const std::vector<Acc>& got, const In* image, std::int64_t width, std::int64_t height,
                       sat_layout layout, bool squared) {
  comparison c;
  const std::int64_t s = layout == sat_layout::padded ? 1 : 0;
  auto miss = [&](std::int64_t y, std::int64_t x, const std::string& g, const std::string& e) {
    if (c.mismatches++ == 0) c.detail = "(y " + std::to_string(y) + ", x " + std::to_string(x) + "): got " + g + ", expected " + e;
  };
  if (s) {  // the zero border
    for (std::int64_t x = 0; x <= width; ++x)
      if (got[x] != Acc(0)) miss(-1, x - 1, show(got[x]), "0 (padding)");
    for (std::int64_t y = 1; y <= height; ++y)
      if (got[y * (width + 1)] != Acc(0)) miss(y - 1, -1, show(got[y * (width + 1)]), "0 (padding)");
  }
  if constexpr (std::is_integral_v<Acc> && std::is_integral_v<In>) {
    const auto ref = cpu_sat<std::uint64_t>(image, width, height, squared);
    for (std::int64_t y = 0; y < height; ++y)
      for (std::int64_t x = 0; x < width; ++x) {
        const Acc g = table_entry(got, width, layout, y, x), e = static_cast<Acc>(ref[y * width + x]);
        if (g != e) miss(y, x, show(g), show(e));
      }
  } else {
    const auto ref = cpu_sat<double>(image, width, height, squared);
    const auto mag = cpu_sat<double>(image, width, height, squared, true);
    const double eps = std::numeric_limits<Acc>::epsilon() / 2;
    const double k = static_cast<double>(width + height + 40);
    for (std::int64_t y = 0; y < height; ++y)
      for (std::int64_t x = 0; x < width; ++x) {
        const double g = static_cast<double>(table_entry(got, width, layout, y, x)), e = ref[y * width + x];
        const double bound = k * eps * mag[y * width + x];
        const double err = std::fabs(g - e);
        if (!(err <= bound)) miss(y, x, show(g), show(e) + " ± " + show(bound));
        if (bound > 0) c.max_error_over_bound = std::max(c.max_error_over_bound, err / bound);
      }
  }
  c.checked = width * height;
  return c;
}

}  // namespace parascan::validation
