// Reading and writing 1-D arrays: NumPy .npy (dtype from the header) and raw little-endian (dtype
// from --type). Every problem is an input_error naming the file; outputs are written atomically.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "dtype.hpp"

namespace parascan::app {

struct host_array {
  dtype type = dtype::u32;
  std::int64_t count = 0;
  std::vector<unsigned char> bytes;  // count × size_of(type), little-endian
  std::vector<std::int64_t> shape;   // the .npy shape (C order); {count} for a raw file
  bool npy = false;                  // read from a .npy file
  template <class T> const T* as() const { return reinterpret_cast<const T*>(bytes.data()); }
  template <class T> T* as() { return reinterpret_cast<T*>(bytes.data()); }
};

/// Parse a .npy header from the start of `data` (size `size`); sets type, count and the data offset.
/// Throws input_error("<name>: ...") on anything malformed. Exposed for tests and fuzzing.
void parse_npy_header(const unsigned char* data, std::size_t size, const std::string& name, dtype& type,
                      std::int64_t& count, std::size_t& data_offset, std::vector<std::int64_t>* shape = nullptr);

/// Read `path`: .npy when the file starts with the NumPy magic, raw otherwise (raw needs `raw_type`).
/// If `raw_type` is given for a .npy file, it must agree with the header, unless `must_match` is false
/// (then it is only the type of a raw file).
host_array read_array(const std::string& path, std::optional<dtype> raw_type, bool must_match = true);

/// The header of a .npy file (format 1.0) holding a 1-D array of `count` items.
std::vector<unsigned char> npy_header(dtype type, std::int64_t count);
/// The same for any C-ordered shape, e.g. {height, width} for an image.
std::vector<unsigned char> npy_header(dtype type, const std::vector<std::int64_t>& shape);

/// Write to `path` atomically: a temporary file in the same folder, renamed on success. .npy when the
/// name ends in .npy, raw otherwise. Throws input_error when the folder cannot be written.
void write_array(const std::string& path, dtype type, const void* data, std::int64_t count);
/// The same for a C-ordered array of `shape` (the .npy header records it; raw output is the bytes).
void write_array(const std::string& path, dtype type, const void* data, const std::vector<std::int64_t>& shape);

/// Write arbitrary bytes atomically (temporary file + rename); removes the temporary on failure.
void write_file_atomic(const std::string& path, const std::vector<unsigned char>& head, const void* body,
                       std::size_t body_bytes);

bool ends_with(const std::string& s, const std::string& suffix);

}  // namespace parascan::app
