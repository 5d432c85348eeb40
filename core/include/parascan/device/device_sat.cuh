// Summed-area tables from warp scans, in tiles, with the carries between tiles scanned apart
// (the tile decomposition of Nehab et al. 2011, "GPU-efficient recursive filtering and summed-area
// tables", with plain sums). The image is cut into tiles of 64 rows × 128 columns; one warp owns a
// tile and lane l holds the four adjacent columns 4l..4l+3, so a tile row is one vector load (4, 8
// or 16 bytes per lane), one warp scan and one 16-byte store per lane.
//   1. totals:  per tile, the sum of each of its rows, of each of its columns, and of the whole tile
//   2. carries: exclusive scans across tiles — row sums along a tile row (the sum left of a tile,
//      per image row), column sums down a tile column (the sum above a tile, per image column), tile
//      totals along a tile row; the corner of a tile (the sum above and to its left) is then the
//      sum of those totals above it: summed by the table kernel's warp when there are at most 1024
//      tile rows, else scanned down the tile columns by a kernel of its own
//   3. table:   per tile, top = corner + scan of the column carries along the tile's columns, then
//      down the rows: row prefix (thread scan of 4, warp scan, + the row's left carry) added to the
//      running column sums (reads the image again, writes the table once)
// Traffic: read the image twice, write the table once, plus carries of (1/64 + 1/128) of the table.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include "parascan/device/launch.cuh"
#include "parascan/device/sat/readers.cuh"
#include "parascan/device/sat/single_pass.cuh"
#include "parascan/device/sat/three_pass.cuh"
#include "parascan/device/sat/tuning.cuh"
#include "parascan/sat.hpp"

namespace parascan {

template <class In, class Acc>
cudaError_t summed_area_table(void* d_temp, std::size_t& temp_bytes, const In* d_image, std::size_t image_pitch,
                              Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                              bool squared, cudaStream_t stream, sat_algorithm algorithm) {
  using namespace device::sat_detail;
  using device::align_up;
  using device::allow_dynamic_smem;
  using device::check_launch;
  using device::dependent_launch_available;
  using device::launch_after_previous;
  if (shape.width < 0 || shape.height < 0) return cudaErrorInvalidValue;
  const int shift = layout == sat_layout::padded ? 1 : 0;
  const grid_shape g = grid_of(shape);
  const bool single = resolve_sat_algorithm(algorithm, shape, sizeof(In), sizeof(Acc)) == sat_algorithm::single_pass;
  const std::size_t need = single ? single_pass_status<Acc>::bytes(g.tiles()) : three_pass_plan<Acc>(g).bytes();
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  if (table_pitch < static_cast<std::size_t>(shape.width + shift) * sizeof(Acc) || table_pitch % sizeof(Acc) != 0)
    return cudaErrorInvalidPitchValue;
  if (shape.width == 0 || shape.height == 0) {  // nothing to sum; the padded table is all zero
    if (!shift) return cudaSuccess;
    return cudaMemset2DAsync(d_table, table_pitch, 0, static_cast<std::size_t>(shape.width + 1) * sizeof(Acc),
                             static_cast<std::size_t>(shape.height + 1), stream);
  }
  if (image_pitch < static_cast<std::size_t>(shape.width) * sizeof(In) || image_pitch % sizeof(In) != 0)
    return cudaErrorInvalidPitchValue;
  const std::int64_t blocks = (g.tiles() + warps_per_block - 1) / warps_per_block;
  const auto aligned = [](const void* p, std::size_t pitch, std::size_t bytes) {
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && pitch % bytes == 0;
  };
  const bool vector_in = aligned(d_image, image_pitch, lane_cols * sizeof(In));
  constexpr int threads = warps_per_block * 32;
  cudaError_t e;
  // Kernels after the first may start while their predecessor finishes (Hopper and later).
  bool overlap = false;
  if ((e = dependent_launch_available(overlap)) != cudaSuccess) return e;
  if (single) {
    const std::int64_t words = static_cast<std::int64_t>(single_pass_status<Acc>::zeroed_bytes(g.tiles()) / sizeof(unsigned));
    if (g.tiles() > INT_MAX) return cudaErrorInvalidValue;  // then blocks of any number of tiles fit a grid
    // The status zeroed while the table kernel's blocks launch (it waits for the clearing).
    if ((e = parascan::device::clear_words(static_cast<unsigned*>(d_temp), words, stream)) != cudaSuccess) return e;
    // kernel = single_pass_table_kernel<In, Acc, MinBlocks, …, Warps>: blocks of Warps tiles.
    const auto launch = [&](auto kernel, auto warps) {
      constexpr int Warps = decltype(warps)::value;
      cudaError_t err = cudaSuccess;
      if constexpr (staged_bytes<In, Warps> > 0)
        err = allow_dynamic_smem(kernel, static_cast<int>(staged_bytes<In, Warps>));
      if (err != cudaSuccess) return err;
      const auto blocks = static_cast<unsigned>(single_pass_blocks_x(g, Warps) * g.tiles_y);
      return launch_after_previous(overlap, kernel, blocks, Warps * 32, staged_bytes<In, Warps>, stream, d_image,
                                   image_pitch, g, squared, vector_in, single_pass_status<Acc>::carve(d_temp, g.tiles()),
                                   d_table, table_pitch, shift);
    };
    using std::integral_constant;
    if constexpr (stages_tiles<In>) {
      // 8-bit tiles staged in shared memory (8 KB per warp): blocks of 16 tiles, one per SM, where the
      // image is wide enough (8192²: 0.155 against 0.161 ms for two blocks of 8; 16384²: 0.567 against
      // 0.577 for three blocks of 8), else blocks of 8, two per SM (fewer warps without a tile).
      constexpr int wide = single_pass_wide_warps;
      if (g.tiles_x >= wide)
        e = launch(single_pass_table_kernel<In, Acc, 1, single_pass_rows_in_flight<In>, rows_in_flight<In>, wide>,
                   integral_constant<int, wide>{});
      else
        e = launch(single_pass_table_kernel<In, Acc, 2>, integral_constant<int, warps_per_block>{});
    } else {
      e = launch(single_pass_table_kernel<In, Acc>, integral_constant<int, warps_per_block>{});
    }
    if (e != cudaSuccess) return e;
    return check_launch(stream, false);
  }
  const three_pass_plan<Acc> plan(g, d_temp);
  Acc *row_sums = plan.row_sums, *col_sums = plan.col_sums, *totals = plan.totals;
  const line_scan<Acc>&rows_job = plan.rows_job, &cols_job = plan.cols_job, &across = plan.across, &down = plan.down;
  const std::int64_t carry_blocks = plan.carry_blocks();
  if (blocks > INT_MAX || carry_blocks > INT_MAX) return cudaErrorInvalidValue;
  if constexpr (std::is_same_v<In, std::uint8_t>) {
    if (!squared && aligned(d_image, image_pitch, byte_lane_cols)) {
      const std::int64_t byte_blocks = (byte_warps(g) + warps_per_block - 1) / warps_per_block;
      byte_tile_sums_kernel<<<static_cast<unsigned>(byte_blocks), threads, 0, stream>>>(d_image, image_pitch, g, row_sums,
                                                                                       col_sums, totals);
    } else {
      tile_sums_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_image, image_pitch, g, squared, vector_in,
                                                                              row_sums, col_sums, totals);
    }
  } else {
    tile_sums_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_image, image_pitch, g, squared, vector_in,
                                                                            row_sums, col_sums, totals);
  }
  if ((e = check_launch(stream, false)) != cudaSuccess) return e;
  e = launch_after_previous(overlap, line_scans_kernel<Acc>, static_cast<unsigned>(carry_blocks), line_threads, 0, stream,
                            rows_job, cols_job, across);
  if (e != cudaSuccess || (e = check_launch(stream, false)) != cudaSuccess) return e;
  const bool corners_scanned = g.tiles_y > corner_rows_in_kernel;
  if (corners_scanned) {
    e = launch_after_previous(overlap, line_scans_kernel<Acc>, static_cast<unsigned>(down.blocks()), line_threads, 0, stream,
                              down, line_scan<Acc>{}, line_scan<Acc>{});
    if (e != cudaSuccess || (e = check_launch(stream, false)) != cudaSuccess) return e;
  }
  e = launch_after_previous(overlap, table_kernel<In, Acc>, static_cast<unsigned>(blocks), threads, 0, stream, d_image,
                            image_pitch, g, squared, vector_in, static_cast<const Acc*>(row_sums),
                            static_cast<const Acc*>(col_sums), static_cast<const Acc*>(totals), corners_scanned, d_table,
                            table_pitch, shift);
  if (e != cudaSuccess) return e;
  return check_launch(stream, false);
}

template <class Acc>
cudaError_t sat_rect_sums(const Acc* d_table, std::size_t table_pitch, image_shape, sat_layout layout,
                          const sat_rect* d_rects, Acc* d_sums, std::int64_t count, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  const unsigned blocks = static_cast<unsigned>(count < 256 * 1024 ? (count + 255) / 256 : 1024);
  device::sat_detail::rect_sums_kernel<<<blocks, 256, 0, stream>>>(d_table, table_pitch, layout, d_rects, d_sums, count);
  return cudaPeekAtLastError();
}

template <class Acc, class Out>
cudaError_t sat_box_filter(const Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                           int radius, Out* d_out, std::size_t out_pitch, cudaStream_t stream) {
  if (radius < 0 || shape.width < 0 || shape.height < 0) return cudaErrorInvalidValue;
  const std::int64_t n = shape.width * shape.height;
  if (n == 0) return cudaSuccess;
  const unsigned blocks = static_cast<unsigned>(n < 256 * 4096 ? (n + 255) / 256 : 4096);
  device::sat_detail::box_filter_kernel<<<blocks, 256, 0, stream>>>(d_table, table_pitch, shape, layout, radius, d_out,
                                                                   out_pitch);
  return cudaPeekAtLastError();
}

}  // namespace parascan
