#include "volume_io.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include "array_io.hpp"
#include "exit_codes.hpp"

namespace parascan::app {

std::array<std::int64_t, 3> parse_dims(const std::string& text) {
  std::array<std::int64_t, 3> d{};
  std::size_t i = 0;
  for (int k = 0; k < 3; ++k) {
    if (k > 0) {
      if (i >= text.size() || text[i] != ',') throw input_error("--dims '" + text + "': expected X,Y,Z (three counts of samples)");
      ++i;
    }
    if (i >= text.size() || text[i] < '0' || text[i] > '9')
      throw input_error("--dims '" + text + "': expected X,Y,Z (three counts of samples)");
    std::int64_t v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) throw input_error("--dims '" + text + "': a count is too large");
      v = v * 10 + (text[i++] - '0');
    }
    if (v == 0) throw input_error("--dims '" + text + "': every count must be at least 1");
    d[k] = v;
  }
  if (i != text.size()) throw input_error("--dims '" + text + "': expected X,Y,Z (three counts of samples)");
  if (d[0] > std::numeric_limits<std::int64_t>::max() / 8 / d[1] / d[2])
    throw input_error("--dims '" + text + "': the sample count overflows 64 bits");
  return d;
}

bool is_volume_type(dtype t) { return t == dtype::u8 || t == dtype::u16 || t == dtype::f32; }

host_volume read_volume(const std::string& path, std::optional<dtype> type,
                        std::optional<std::array<std::int64_t, 3>> dims) {
  if (type && !is_volume_type(*type))
    throw input_error("--type " + std::string(to_string(*type)) + ": volumes are u8, u16 or f32");
  host_array a = read_array(path, type, true);
  host_volume v;
  v.type = a.type;
  const std::string what = path + ": ";
  if (a.npy) {  // shape (nz, ny, nx)
    if (a.shape.size() != 3)
      throw input_error(what + "a .npy volume must have 3 dimensions (nz, ny, nx); this one has " +
                        std::to_string(a.shape.size()));
    v.nz = a.shape[0], v.ny = a.shape[1], v.nx = a.shape[2];
    if (dims && ((*dims)[0] != v.nx || (*dims)[1] != v.ny || (*dims)[2] != v.nz))
      throw input_error(what + "the .npy shape (" + std::to_string(v.nz) + ", " + std::to_string(v.ny) + ", " +
                        std::to_string(v.nx) + ") is X,Y,Z = " + std::to_string(v.nx) + "," + std::to_string(v.ny) + "," +
                        std::to_string(v.nz) + ", not --dims " + std::to_string((*dims)[0]) + "," +
                        std::to_string((*dims)[1]) + "," + std::to_string((*dims)[2]));
  } else {
    if (!dims) throw input_error(what + "a raw volume needs --dims X,Y,Z (and --type)");
    v.nx = (*dims)[0], v.ny = (*dims)[1], v.nz = (*dims)[2];
    const auto need = static_cast<std::uint64_t>(v.nx * v.ny * v.nz) * size_of(v.type);
    if (a.bytes.size() != need)
      throw input_error(what + "holds " + std::to_string(a.bytes.size()) + " bytes, but " + std::to_string(v.nx) + "×" +
                        std::to_string(v.ny) + "×" + std::to_string(v.nz) + " samples of " +
                        std::string(to_string(v.type)) + " need " + std::to_string(need));
  }
  if (!is_volume_type(v.type))
    throw input_error(what + "samples of type " + std::string(to_string(v.type)) + ": volumes are u8, u16 or f32");
  if (v.type == dtype::f32) {
    const float* f = reinterpret_cast<const float*>(a.bytes.data());
    const std::int64_t n = v.nx * v.ny * v.nz;
    for (std::int64_t i = 0; i < n; ++i)
      if (!std::isfinite(f[i])) {
        const std::int64_t x = i % v.nx, y = (i / v.nx) % v.ny, z = i / v.nx / v.ny;
        throw input_error(what + "sample (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) +
                          ") is not finite (" + std::to_string(f[i]) + ")");
      }
  }
  v.bytes = std::move(a.bytes);
  return v;
}

}  // namespace parascan::app
