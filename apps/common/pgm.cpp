// PGM reading and writing (netpbm pgm(5)).
#include "pgm.hpp"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include "array_io.hpp"
#include "exit_codes.hpp"

namespace parascan::app {
namespace {

[[noreturn]] void fail(const std::string& name, const std::string& what) { throw input_error(name + ": " + what); }

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

class cursor {
 public:
  cursor(const unsigned char* d, std::size_t n, const std::string& name) : d_(d), n_(n), name_(name) {}
  std::size_t pos() const { return i_; }
  std::size_t left() const { return n_ - i_; }
  /// Skip whitespace and (in the header) comments: '#' to the end of the line.
  void skip_space(bool comments) {
    while (i_ < n_) {
      if (is_space(d_[i_])) {
        ++i_;
      } else if (comments && d_[i_] == '#') {
        while (i_ < n_ && d_[i_] != '\n' && d_[i_] != '\r') ++i_;
      } else {
        break;
      }
    }
  }
  /// A decimal number of at most `limit`; `what` names it in messages.
  std::uint64_t number(const char* what, std::uint64_t limit, bool comments) {
    skip_space(comments);
    if (i_ >= n_) fail(name_, std::string("truncated: the file ends before the ") + what);
    if (d_[i_] < '0' || d_[i_] > '9')
      fail(name_, std::string("expected the ") + what + " (a decimal number) at byte " + std::to_string(i_) + ", found " +
                      describe(d_[i_]));
    std::uint64_t v = 0;
    while (i_ < n_ && d_[i_] >= '0' && d_[i_] <= '9') {
      v = v * 10 + static_cast<std::uint64_t>(d_[i_++] - '0');
      if (v > limit) fail(name_, std::string("the ") + what + " is larger than " + std::to_string(limit));
    }
    if (i_ < n_ && !is_space(d_[i_]) && !(comments && d_[i_] == '#'))
      fail(name_, std::string("the ") + what + " is followed by " + describe(d_[i_]) + " at byte " + std::to_string(i_) +
                      " (expected whitespace)");
    return v;
  }
  unsigned char byte() { return d_[i_++]; }
  const unsigned char* here() const { return d_ + i_; }
  void advance(std::size_t k) { i_ += k; }

  static std::string describe(unsigned char c) {
    if (c >= 0x21 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
    return buf;
  }

 private:
  const unsigned char* d_;
  std::size_t n_, i_ = 0;
  const std::string& name_;
};

}  // namespace

pgm_image parse_pgm(const unsigned char* data, std::size_t size, const std::string& name, std::int64_t max_pixels) {
  if (size < 2 || data[0] != 'P' || (data[1] != '2' && data[1] != '5')) {
    std::string magic;
    for (std::size_t i = 0; i < size && i < 2; ++i) magic += cursor::describe(data[i]) + (i == 0 && size > 1 ? " " : "");
    fail(name, "not a PGM file: it starts with " + (magic.empty() ? std::string("nothing (empty file)") : magic) +
                   ", expected the magic number P2 or P5");
  }
  const bool plain = data[1] == '2';
  cursor c(data, size, name);
  c.advance(2);
  if (c.left() > 0 && !is_space(*c.here()) && *c.here() != '#')
    fail(name, "the magic number P" + std::string(1, static_cast<char>(data[1])) + " is followed by " +
                   cursor::describe(*c.here()) + " (expected whitespace)");
  pgm_image img;
  const std::uint64_t w = c.number("width", static_cast<std::uint64_t>(max_pixels), true);
  const std::uint64_t h = c.number("height", static_cast<std::uint64_t>(max_pixels), true);
  if (w == 0 || h == 0) fail(name, "the image is " + std::to_string(w) + "×" + std::to_string(h) + ": width and height must be at least 1");
  if (w > static_cast<std::uint64_t>(max_pixels) / h)
    fail(name, "the image is " + std::to_string(w) + "×" + std::to_string(h) + ", more than the " +
                   std::to_string(max_pixels) + " pixels this tool accepts");
  const std::uint64_t maxval = c.number("maxval", 65535, true);
  if (maxval == 0) fail(name, "maxval is 0; it must be 1..65535");
  img.width = static_cast<std::int64_t>(w);
  img.height = static_cast<std::int64_t>(h);
  img.maxval = static_cast<int>(maxval);
  const std::uint64_t pixels = w * h;
  if (!plain) {
    if (c.left() == 0) fail(name, "truncated: no raster after maxval");
    if (!is_space(*c.here()))
      fail(name, "maxval must be followed by exactly one whitespace byte, found " + cursor::describe(*c.here()));
    c.advance(1);  // exactly one whitespace byte (number() checked that it is whitespace)
    const std::uint64_t bps = maxval > 255 ? 2 : 1;
    const std::uint64_t want = pixels * bps;
    if (c.left() < want)
      fail(name, "truncated raster: " + std::to_string(w) + "×" + std::to_string(h) + " with maxval " +
                     std::to_string(maxval) + " needs " + std::to_string(want) + " bytes, the file has " +
                     std::to_string(c.left()));
    if (c.left() > want)
      fail(name, std::to_string(c.left() - want) + " extra bytes after the raster (the raster needs " +
                     std::to_string(want) + "; only one image per file is supported)");
    img.samples.resize(pixels);
    const unsigned char* r = c.here();
    for (std::uint64_t i = 0; i < pixels; ++i) {
      const unsigned v = bps == 2 ? (static_cast<unsigned>(r[2 * i]) << 8 | r[2 * i + 1]) : r[i];
      if (v > maxval)
        fail(name, "sample " + std::to_string(v) + " at row " + std::to_string(i / w) + ", column " +
                       std::to_string(i % w) + " is above maxval " + std::to_string(maxval));
      img.samples[i] = static_cast<std::uint16_t>(v);
    }
    return img;
  }
  // P2: every sample takes at least two bytes (a digit and a separator), except possibly the last.
  if (pixels > c.left() / 2 + 1)
    fail(name, "truncated raster: " + std::to_string(pixels) + " samples need at least " + std::to_string(2 * pixels - 1) +
                   " bytes, the file has " + std::to_string(c.left()) + " after the header");
  img.samples.resize(pixels);
  for (std::uint64_t i = 0; i < pixels; ++i) {
    c.skip_space(false);
    if (c.left() == 0)
      fail(name, "truncated raster: found " + std::to_string(i) + " of " + std::to_string(pixels) + " samples");
    const std::uint64_t v = c.number("sample", 65535, false);
    if (v > maxval)
      fail(name, "sample " + std::to_string(v) + " at row " + std::to_string(i / w) + ", column " + std::to_string(i % w) +
                     " is above maxval " + std::to_string(maxval));
    img.samples[i] = static_cast<std::uint16_t>(v);
  }
  c.skip_space(false);
  if (c.left() > 0)
    fail(name, "extra data after the raster at byte " + std::to_string(c.pos()) + " (" + cursor::describe(*c.here()) + ")");
  return img;
}

pgm_image read_pgm(const std::string& path, std::int64_t max_pixels) {
  std::ifstream f(path, std::ios::binary);
  if (!f) fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<unsigned char> all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) fail(path, "read error");
  return parse_pgm(all.data(), all.size(), path, max_pixels);
}

std::vector<unsigned char> encode_pgm(const pgm_image& image) {
  const std::string head = "P5\n" + std::to_string(image.width) + " " + std::to_string(image.height) + "\n" +
                           std::to_string(image.maxval) + "\n";
  std::vector<unsigned char> out(head.begin(), head.end());
  const bool wide = image.maxval > 255;
  out.reserve(out.size() + image.samples.size() * (wide ? 2 : 1));
  for (std::uint16_t v : image.samples) {
    if (wide) out.push_back(static_cast<unsigned char>(v >> 8));
    out.push_back(static_cast<unsigned char>(v & 0xff));
  }
  return out;
}

void write_pgm(const std::string& path, const pgm_image& image) {
  const std::vector<unsigned char> bytes = encode_pgm(image);
  write_file_atomic(path, {}, bytes.data(), bytes.size());
}

}  // namespace parascan::app
