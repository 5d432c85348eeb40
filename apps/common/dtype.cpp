// Names and NumPy descriptors of the element types.
#include "dtype.hpp"
#include <array>
#include <utility>

namespace parascan::app {

namespace {
struct dtype_info {
  dtype t;
  std::string_view name, long_name;
  std::size_t size;
  char kind;  // NumPy kind: i, u, f
};
constexpr std::array<dtype_info, 10> infos = {{{dtype::i8, "i8", "int8", 1, 'i'},
                                                {dtype::u8, "u8", "uint8", 1, 'u'},
                                                {dtype::i16, "i16", "int16", 2, 'i'},
                                                {dtype::u16, "u16", "uint16", 2, 'u'},
                                                {dtype::i32, "i32", "int32", 4, 'i'},
                                                {dtype::u32, "u32", "uint32", 4, 'u'},
                                                {dtype::i64, "i64", "int64", 8, 'i'},
                                                {dtype::u64, "u64", "uint64", 8, 'u'},
                                                {dtype::f32, "f32", "float32", 4, 'f'},
                                                {dtype::f64, "f64", "float64", 8, 'f'}}};
const dtype_info& info(dtype t) { return infos[static_cast<std::size_t>(t)]; }
}  // namespace

std::string_view to_string(dtype t) { return info(t).name; }
std::size_t size_of(dtype t) { return info(t).size; }
bool is_float(dtype t) { return info(t).kind == 'f'; }

std::optional<dtype> parse_dtype(std::string_view name) {
  if (name == "float") return dtype::f32;
  if (name == "double") return dtype::f64;
  for (const auto& i : infos)
    if (i.name == name || i.long_name == name) return i.t;
  return std::nullopt;
}

std::optional<dtype> dtype_from_numpy(std::string_view d) {
  if (d.size() < 3) return std::nullopt;
  const char order = d[0];
  const char kind = d[1];
  const std::string_view bytes = d.substr(2);
  if (order != '<' && order != '|' && order != '=') return std::nullopt;
  for (const auto& i : infos) {
    if (i.kind == kind && bytes == std::to_string(i.size)) {
      if (order == '|' && i.size != 1) return std::nullopt;  // '|' is only for single bytes
      return i.t;
    }
  }
  return std::nullopt;
}

std::string numpy_descr(dtype t) {
  const auto& i = info(t);
  return std::string(1, i.size == 1 ? '|' : '<') + i.kind + std::to_string(i.size);
}

std::string dtype_names() {
  std::string s;
  for (const auto& i : infos) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

}  // namespace parascan::app
