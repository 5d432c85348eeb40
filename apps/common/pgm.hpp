// PGM images (netpbm): P2 (plain) and P5 (raw), read exactly as the format says, written as P5.
// Every problem is an input_error naming the file and saying what is wrong.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace parascan::app {

struct pgm_image {
  std::int64_t width = 0, height = 0;
  int maxval = 0;                       // 1..65535
  std::vector<std::uint16_t> samples;   // row-major, width × height, each ≤ maxval
};

/// Parse a whole PGM file held in memory. Rules (netpbm's pgm(5)): magic P2 or P5; width, height and
/// maxval as decimal numbers separated by whitespace, with '#' comments running to the end of a line;
/// width, height ≥ 1; maxval 1..65535. P5: exactly one whitespace byte after maxval, then width ×
/// height samples of 1 byte (maxval < 256) or 2 bytes, big-endian; nothing after the raster. P2:
/// whitespace-separated decimal samples, then only whitespace. Every sample ≤ maxval.
/// `max_pixels` bounds width × height (dimensions beyond it are refused before any allocation).
pgm_image parse_pgm(const unsigned char* data, std::size_t size, const std::string& name,
                    std::int64_t max_pixels = std::int64_t(1) << 36);

/// Read and parse `path`.
pgm_image read_pgm(const std::string& path, std::int64_t max_pixels = std::int64_t(1) << 36);

/// The P5 encoding of an image (2-byte big-endian samples when maxval > 255).
std::vector<unsigned char> encode_pgm(const pgm_image& image);

/// Write a P5 file atomically (temporary file + rename).
void write_pgm(const std::string& path, const pgm_image& image);

}  // namespace parascan::app
