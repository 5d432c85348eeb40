// Element types the tools read and write: names (u32, f64, ...), NumPy descriptors, and a dispatcher
// that turns a runtime dtype into a compile-time type.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parascan::app {

enum class dtype { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };

std::string_view to_string(dtype t);
std::size_t size_of(dtype t);
bool is_float(dtype t);
/// "u32", "uint32", "f32", "float32", "float", "double", ...
std::optional<dtype> parse_dtype(std::string_view name);
/// NumPy descriptor such as "<u4", "|u1", "<f8" (little-endian or byte-order-free only).
std::optional<dtype> dtype_from_numpy(std::string_view descr);
std::string numpy_descr(dtype t);
/// The list of names, for --help and error messages.
std::string dtype_names();

template <class T> struct type_tag { using type = T; };

/// Call f(type_tag<T>{}) with the C++ type of t.
template <class F>
decltype(auto) visit_dtype(dtype t, F&& f) {
  switch (t) {
    case dtype::i8: return f(type_tag<std::int8_t>{});
    case dtype::u8: return f(type_tag<std::uint8_t>{});
    case dtype::i16: return f(type_tag<std::int16_t>{});
    case dtype::u16: return f(type_tag<std::uint16_t>{});
    case dtype::i32: return f(type_tag<std::int32_t>{});
    case dtype::u32: return f(type_tag<std::uint32_t>{});
    case dtype::i64: return f(type_tag<std::int64_t>{});
    case dtype::u64: return f(type_tag<std::uint64_t>{});
    case dtype::f32: return f(type_tag<float>{});
    case dtype::f64: break;
  }
  return f(type_tag<double>{});
}

template <class T> constexpr dtype dtype_of();
template <> constexpr dtype dtype_of<std::int8_t>() { return dtype::i8; }
template <> constexpr dtype dtype_of<std::uint8_t>() { return dtype::u8; }
template <> constexpr dtype dtype_of<std::int16_t>() { return dtype::i16; }
template <> constexpr dtype dtype_of<std::uint16_t>() { return dtype::u16; }
template <> constexpr dtype dtype_of<std::int32_t>() { return dtype::i32; }
template <> constexpr dtype dtype_of<std::uint32_t>() { return dtype::u32; }
template <> constexpr dtype dtype_of<std::int64_t>() { return dtype::i64; }
template <> constexpr dtype dtype_of<std::uint64_t>() { return dtype::u64; }
template <> constexpr dtype dtype_of<float>() { return dtype::f32; }
template <> constexpr dtype dtype_of<double>() { return dtype::f64; }

}  // namespace parascan::app
