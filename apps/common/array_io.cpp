// NumPy .npy (format versions 1.0, 2.0, 3.0) and raw array files.
#include "array_io.hpp"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <string_view>
#include <unistd.h>
#include "exit_codes.hpp"

namespace parascan::app {

namespace {
constexpr unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

[[noreturn]] void fail(const std::string& name, const std::string& what) { throw input_error(name + ": " + what); }

/// The value text of 'key' in the header dict, up to the next top-level ',' or '}'.
std::string_view dict_value(std::string_view dict, std::string_view key, const std::string& name) {
  const std::string k1 = "'" + std::string(key) + "'", k2 = "\"" + std::string(key) + "\"";
  std::size_t p = dict.find(k1);
  std::size_t klen = k1.size();
  if (p == std::string_view::npos) {
    p = dict.find(k2);
    klen = k2.size();
  }
  if (p == std::string_view::npos) fail(name, "bad .npy header: no '" + std::string(key) + "' entry");
  p = dict.find(':', p + klen);
  if (p == std::string_view::npos) fail(name, "bad .npy header: no value for '" + std::string(key) + "'");
  ++p;
  while (p < dict.size() && (dict[p] == ' ' || dict[p] == '\t')) ++p;
  std::size_t e = p;
  int depth = 0;
  for (; e < dict.size(); ++e) {
    const char c = dict[e];
    if (c == '(' || c == '[') ++depth;
    else if ((c == ')' || c == ']') && depth > 0) --depth;
    else if ((c == ',' || c == '}') && depth == 0) break;
  }
  std::string_view v = dict.substr(p, e - p);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

std::string unquote(std::string_view v, const std::string& name) {
  if (v.size() < 2 || (v.front() != '\'' && v.front() != '"') || v.back() != v.front())
    fail(name, "bad .npy header: descr is not a quoted string (structured dtypes are not supported)");
  return std::string(v.substr(1, v.size() - 2));
}
}  // namespace

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void parse_npy_header(const unsigned char* data, std::size_t size, const std::string& name, dtype& type,
                      std::int64_t& count, std::size_t& data_offset, std::vector<std::int64_t>* shape_out) {
  if (size < 10 || std::memcmp(data, npy_magic, 6) != 0) fail(name, "not a .npy file (no \\x93NUMPY magic)");
  const int major = data[6];
  std::size_t header_len = 0, prefix = 0;
  if (major == 1) {
    header_len = data[8] | (static_cast<std::size_t>(data[9]) << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) fail(name, "truncated .npy header");
    header_len = data[8] | (static_cast<std::size_t>(data[9]) << 8) | (static_cast<std::size_t>(data[10]) << 16) |
                 (static_cast<std::size_t>(data[11]) << 24);
    prefix = 12;
  } else {
    fail(name, "unsupported .npy format version " + std::to_string(major));
  }
  if (header_len > size - prefix) fail(name, "truncated .npy header (says " + std::to_string(header_len) + " bytes)");
  const std::string_view dict(reinterpret_cast<const char*>(data + prefix), header_len);
  if (dict.find('{') == std::string_view::npos) fail(name, "bad .npy header: not a dictionary");

  const std::string descr = unquote(dict_value(dict, "descr", name), name);
  const auto t = dtype_from_numpy(descr);
  if (!t) fail(name, "unsupported dtype '" + descr + "' (supported: little-endian " + dtype_names() + ")");
  const std::string_view fortran = dict_value(dict, "fortran_order", name);
  if (fortran == "True") {
    // Only matters for more than one dimension; checked below with the shape.
  } else if (fortran != "False") {
    fail(name, "bad .npy header: fortran_order is '" + std::string(fortran) + "'");
  }
  std::string_view shape = dict_value(dict, "shape", name);
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') fail(name, "bad .npy header: shape is not a tuple");
  shape = shape.substr(1, shape.size() - 2);
  std::int64_t total = 1;
  int dims = 0;
  if (shape_out) shape_out->clear();
  std::size_t i = 0;
  while (i < shape.size()) {
    while (i < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i >= shape.size()) break;
    if (shape[i] < '0' || shape[i] > '9') fail(name, "bad .npy header: shape has a non-number '" + std::string(shape) + "'");
    std::int64_t d = 0;
    while (i < shape.size() && shape[i] >= '0' && shape[i] <= '9') {
      if (d > (std::numeric_limits<std::int64_t>::max() - 9) / 10) fail(name, "bad .npy header: dimension too large");
      d = d * 10 + (shape[i++] - '0');
    }
    if (i < shape.size() && shape[i] == 'L') ++i;  // Python 2 long suffix
    if (d != 0 && total > std::numeric_limits<std::int64_t>::max() / 8 / d)
      fail(name, "bad .npy header: shape overflows 64-bit element count");
    total *= d;
    ++dims;
    if (shape_out) shape_out->push_back(d);
  }
  if (fortran == "True" && dims > 1) fail(name, "Fortran-ordered arrays are not supported; save with C order");
  type = *t;
  count = total;
  data_offset = prefix + header_len;
}

host_array read_array(const std::string& path, std::optional<dtype> raw_type, bool must_match) {
  std::ifstream f(path, std::ios::binary);
  if (!f) fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<unsigned char> all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) fail(path, "read error");
  host_array a;
  if (all.size() >= 6 && std::memcmp(all.data(), npy_magic, 6) == 0) {
    std::size_t offset = 0;
    parse_npy_header(all.data(), all.size(), path, a.type, a.count, offset, &a.shape);
    a.npy = true;
    if (raw_type && must_match && *raw_type != a.type)
      fail(path, "the .npy header says dtype " + std::string(to_string(a.type)) + " but --type says " +
                     std::string(to_string(*raw_type)));
    const std::size_t want = static_cast<std::size_t>(a.count) * size_of(a.type);
    const std::size_t have = all.size() - offset;
    if (have != want)
      fail(path, "header promises " + std::to_string(a.count) + " × " + std::string(to_string(a.type)) + " = " +
                     std::to_string(want) + " bytes of data, file holds " + std::to_string(have));
    a.bytes.assign(all.begin() + static_cast<std::ptrdiff_t>(offset), all.end());
    return a;
  }
  if (ends_with(path, ".npy")) fail(path, "not a .npy file (no \\x93NUMPY magic)");
  if (!raw_type) fail(path, "raw file: say its element type with --type (" + dtype_names() + ")");
  a.type = *raw_type;
  const std::size_t s = size_of(a.type);
  if (all.size() % s != 0)
    fail(path, "file holds " + std::to_string(all.size()) + " bytes, not a multiple of " + std::to_string(s) + " (" +
                   std::string(to_string(a.type)) + ")");
  a.count = static_cast<std::int64_t>(all.size() / s);
  a.shape = {a.count};
  a.bytes = std::move(all);
  return a;
}

std::vector<unsigned char> npy_header(dtype type, std::int64_t count) { return npy_header(type, std::vector<std::int64_t>{count}); }

std::vector<unsigned char> npy_header(dtype type, const std::vector<std::int64_t>& shape) {
  std::string dims;
  for (std::int64_t d : shape) dims += std::to_string(d) + ",";
  if (shape.size() > 1) dims.pop_back();  // (n,) for one dimension, (h,w) for two
  std::string dict = "{'descr': '" + numpy_descr(type) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Pad with spaces so magic + version + length + dict + '\n' is a multiple of 64 bytes.
  const std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');
  std::vector<unsigned char> out(npy_magic, npy_magic + 6);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<unsigned char>(dict.size() & 0xff));
  out.push_back(static_cast<unsigned char>(dict.size() >> 8));
  out.insert(out.end(), dict.begin(), dict.end());
  return out;
}

void write_file_atomic(const std::string& path, const std::vector<unsigned char>& head, const void* body,
                       std::size_t body_bytes) {
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) fail(path, std::string("cannot create output: ") + std::strerror(errno));
  bool ok = true;
  auto put = [&](const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    while (ok && n > 0) {
      const ssize_t w = ::write(fd, c, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        ok = false;
        break;
      }
      c += w;
      n -= static_cast<std::size_t>(w);
    }
  };
  put(head.data(), head.size());
  put(body, body_bytes);
  const int saved = errno;
  if (::close(fd) != 0) ok = false;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = ok ? errno : saved;
    std::remove(tmp.c_str());
    fail(path, std::string("cannot write output: ") + std::strerror(e));
  }
}

void write_array(const std::string& path, dtype type, const void* data, std::int64_t count) {
  write_array(path, type, data, std::vector<std::int64_t>{count});
}

void write_array(const std::string& path, dtype type, const void* data, const std::vector<std::int64_t>& shape) {
  std::size_t body = size_of(type);
  for (std::int64_t d : shape) body *= static_cast<std::size_t>(d);
  write_file_atomic(path, ends_with(path, ".npy") ? npy_header(type, shape) : std::vector<unsigned char>{}, data, body);
}

}  // namespace parascan::app
