// Summed-area tables (2-D inclusive prefix sums) of images — host API.
//
//   summed_area_table   table(y, x) = Σ_{y' ≤ y, x' ≤ x} f(image(y', x')), f = identity or square
//   sat_rect_sums       Σ of f over inclusive rectangles, four table reads each
//   sat_box_filter      mean over the (2r+1)² window around every pixel, clamped at the borders
//
// Layouts: `inclusive` is W×H; `padded` is (W+1)×(H+1) with a zero first row and column (OpenCV's
// integral() and NPP's layout), so rectangle sums need no edge cases. Rows are `pitch` bytes apart
// (input and table alike; pitch ≥ row bytes). Inputs u8, u16, u32, f32; accumulators u32, u64, f32,
// f64 (integer accumulators wrap: check with sat_fits_exactly first). Two-phase temporary storage as
// in scan.hpp; every call is asynchronous on `stream`.
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include "parascan/device/sat/tuning.cuh"

namespace parascan {

enum class sat_layout { inclusive, padded };

struct image_shape {
  std::int64_t width = 0, height = 0;
};

/// Whether an unsigned accumulator of `acc_bits` bits (32 or 64) holds every entry of the table
/// exactly: the largest entry is width·height·max_value (max_value² when squared).
inline bool sat_fits_exactly(image_shape shape, std::uint64_t max_value, bool squared, int acc_bits) {
  using u128 = unsigned __int128;
  if (shape.width <= 0 || shape.height <= 0) return true;
  const u128 pixels = static_cast<u128>(shape.width) * static_cast<u128>(shape.height);
  const u128 top = squared ? static_cast<u128>(max_value) * max_value : static_cast<u128>(max_value);
  const u128 limit = acc_bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << acc_bits) - 1;
  return top == 0 || pixels <= limit / top;
}

/// How the table is made. `single_pass` reads the image once: blocks take rows of 8 tiles in order, sum
/// their rows' carries among their warps and get the sums left of and above their tiles by decoupled
/// look-back (8-bit tiles wait in shared memory for the second pass over them; wider pixels are read
/// again from L2). `three_pass` sums the tiles, scans the carries, then writes the table, reading the
/// image twice; its float sums are added in the same order on every run (single_pass's order depends
/// on timing, as in any look-back scan; integer tables are identical). `automatic` (the default)
/// takes single_pass for 8-bit images of at least 8192 tiles (64 × 128 pixels each) or with 8-byte
/// accumulators, three_pass otherwise (measured on the H100: docs/performance.md entry 15).
enum class sat_algorithm { automatic, single_pass, three_pass };

/// Names ("inclusive", "single_pass", ...; parse also reads hyphens for underscores).
std::string_view to_string(sat_layout l);
std::string_view to_string(sat_algorithm a);
std::optional<sat_layout> parse_sat_layout(std::string_view name);
std::optional<sat_algorithm> parse_sat_algorithm(std::string_view name);

/// The algorithm `automatic` stands for, for pixels and accumulators of the given sizes in bytes.
inline sat_algorithm resolve_sat_algorithm(sat_algorithm a, image_shape shape, int pixel_bytes, int acc_bytes) {
  if (a != sat_algorithm::automatic) return a;
  namespace t = device::sat_detail;  // the tile shape and the threshold: device/sat/tuning.cuh
  const std::int64_t tiles = ((shape.width + t::tile_cols - 1) / t::tile_cols) * ((shape.height + t::tile_rows - 1) / t::tile_rows);
  return pixel_bytes == 1 && (tiles >= t::single_pass_min_tiles || acc_bytes == 8) ? sat_algorithm::single_pass
                                                                                    : sat_algorithm::three_pass;
}

template <class In, class Acc>
cudaError_t summed_area_table(void* d_temp, std::size_t& temp_bytes, const In* d_image, std::size_t image_pitch,
                              Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                              bool squared = false, cudaStream_t stream = 0,
                              sat_algorithm algorithm = sat_algorithm::automatic);

/// One rectangle, corners inclusive: x0 ≤ x1 < width, y0 ≤ y1 < height.
struct sat_rect {
  std::int64_t x0, y0, x1, y1;
};

/// d_sums[i] = Σ over d_rects[i], read from a table made by summed_area_table with the same layout.
template <class Acc>
cudaError_t sat_rect_sums(const Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                          const sat_rect* d_rects, Acc* d_sums, std::int64_t count, cudaStream_t stream = 0);

/// d_out(y, x) = round(Σ window / pixels in window) over the (2r+1)² window clamped to the image;
/// d_out has the table's element count per row (width) and rows `out_pitch` bytes apart.
template <class Acc, class Out>
cudaError_t sat_box_filter(const Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                           int radius, Out* d_out, std::size_t out_pitch, cudaStream_t stream = 0);

}  // namespace parascan
