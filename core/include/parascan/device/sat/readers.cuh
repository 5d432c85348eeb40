// Summed-area tables, readers: sums over rectangles and the box filter, from a finished table.
#pragma once
#include <cstdint>
#include "parascan/device/sat/tile.cuh"

namespace parascan::device::sat_detail {

template <class Acc>
__device__ __forceinline__ Acc table_at(const Acc* table, std::size_t pitch, std::int64_t y, std::int64_t x) {
  return row_of(table, pitch, y)[x];
}

/// Σ over the inclusive rectangle (x0..x1, y0..y1), any layout; wrapping integer arithmetic gives the
/// exact sum whenever the sum itself fits.
template <class Acc>
__device__ __forceinline__ Acc rect_sum(const Acc* table, std::size_t pitch, sat_layout layout, std::int64_t x0,
                                        std::int64_t y0, std::int64_t x1, std::int64_t y1) {
  if (layout == sat_layout::padded)
    return table_at(table, pitch, y1 + 1, x1 + 1) - table_at(table, pitch, y0, x1 + 1) -
           table_at(table, pitch, y1 + 1, x0) + table_at(table, pitch, y0, x0);
  Acc s = table_at(table, pitch, y1, x1);
  if (y0 > 0) s = s - table_at(table, pitch, y0 - 1, x1);
  if (x0 > 0) s = s - table_at(table, pitch, y1, x0 - 1);
  if (x0 > 0 && y0 > 0) s = s + table_at(table, pitch, y0 - 1, x0 - 1);
  return s;
}

template <class Acc>
__global__ void rect_sums_kernel(const Acc* table, std::size_t pitch, sat_layout layout, const sat_rect* rects,
                                 Acc* sums, std::int64_t count) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const sat_rect r = rects[i];
    sums[i] = rect_sum(table, pitch, layout, r.x0, r.y0, r.x1, r.y1);
  }
}

template <class Acc, class Out>
__global__ void box_filter_kernel(const Acc* table, std::size_t pitch, image_shape shape, sat_layout layout, int radius,
                                  Out* out, std::size_t out_pitch) {
  const std::int64_t n = shape.width * shape.height;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t y = i / shape.width, x = i % shape.width;
    const std::int64_t x0 = x > radius ? x - radius : 0, y0 = y > radius ? y - radius : 0;
    const std::int64_t x1 = x + radius < shape.width ? x + radius : shape.width - 1;
    const std::int64_t y1 = y + radius < shape.height ? y + radius : shape.height - 1;
    const Acc s = rect_sum(table, pitch, layout, x0, y0, x1, y1);
    const std::int64_t area = (x1 - x0 + 1) * (y1 - y0 + 1);
    Out v;
    if constexpr (std::is_integral_v<Acc>) {
      v = static_cast<Out>((static_cast<std::uint64_t>(s) + static_cast<std::uint64_t>(area) / 2) / static_cast<std::uint64_t>(area));
    } else {
      const double m = rint(static_cast<double>(s) / static_cast<double>(area));
      const double hi = static_cast<double>(static_cast<Out>(~Out(0)));
      v = static_cast<Out>(m < 0 ? 0 : m > hi ? hi : m);
    }
    row_of(out, out_pitch, y)[x] = v;
  }
}


}  // namespace parascan::device::sat_detail
