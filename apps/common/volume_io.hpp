// Reading scalar volumes for marching_cubes: a 3-D .npy of shape (nz, ny, nx), or a raw little-endian
// file with --dims X,Y,Z and --type. Every problem is an input_error naming the file or option.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "dtype.hpp"

namespace parascan::app {

struct host_volume {
  dtype type = dtype::f32;
  std::int64_t nx = 0, ny = 0, nz = 0;
  std::vector<unsigned char> bytes;  // nx·ny·nz samples, x fastest
};

/// "X,Y,Z": three positive integers whose product fits in 64 bits. Exposed for tests and fuzzing.
std::array<std::int64_t, 3> parse_dims(const std::string& text);

/// Volume sample types marching_cubes reads: u8, u16, f32.
bool is_volume_type(dtype t);

/// Reads `path` (.npy by its magic, raw otherwise). `dims` and `type` describe a raw file; for a .npy
/// they are optional and must agree with its header. f32 samples must be finite.
host_volume read_volume(const std::string& path, std::optional<dtype> type,
                        std::optional<std::array<std::int64_t, 3>> dims);

}  // namespace parascan::app
