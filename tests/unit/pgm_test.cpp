// The PGM parser against pgm(5): a matrix of good files (P2 and P5 of the same image decode alike)
// and malformed ones, each refused with a message naming the file and the problem.
#include <gtest/gtest.h>
#include <string>
#include <vector>
#include "exit_codes.hpp"
#include "pgm.hpp"

namespace {
using parascan::app::input_error;
using parascan::app::parse_pgm;
using parascan::app::pgm_image;

pgm_image parse(const std::string& s) {
  return parse_pgm(reinterpret_cast<const unsigned char*>(s.data()), s.size(), "test.pgm");
}
std::string refusal(const std::string& s) {
  try {
    parse(s);
  } catch (const input_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(pgm, p2_and_p5_of_the_same_image_decode_alike) {
  const pgm_image plain = parse("P2\n# a comment\n3 2\n# another\n255\n0 1 2\n 253\t254\n255\n");
  const pgm_image raw = parse(std::string("P5 3 2 255\n") + std::string("\x00\x01\x02\xfd\xfe\xff", 6));
  EXPECT_EQ(plain.width, 3);
  EXPECT_EQ(plain.height, 2);
  EXPECT_EQ(plain.maxval, 255);
  EXPECT_EQ(plain.samples, raw.samples);
  EXPECT_EQ(raw.samples, (std::vector<std::uint16_t>{0, 1, 2, 253, 254, 255}));
}

TEST(pgm, sixteen_bit_samples_are_big_endian) {
  const pgm_image img = parse(std::string("P5\n2 1\n65535\n") + std::string("\x01\x02\xff\xfe", 4));
  EXPECT_EQ(img.samples, (std::vector<std::uint16_t>{0x0102, 0xfffe}));
  const pgm_image p2 = parse("P2 2 1 65535 258 65534");
  EXPECT_EQ(p2.samples, (std::vector<std::uint16_t>{258, 65534}));
}

TEST(pgm, comments_and_any_whitespace_between_header_tokens) {
  const pgm_image img = parse(std::string("P5#c\n\t1\r\n#x y z\n1\f\v#k\n7\n") + std::string("\x07", 1));
  EXPECT_EQ(img.width, 1);
  EXPECT_EQ(img.maxval, 7);
  EXPECT_EQ(img.samples[0], 7);
}

TEST(pgm, raster_bytes_that_look_like_whitespace_are_samples) {
  // Exactly one whitespace byte after maxval: the next '\n' (10) is the first sample.
  const pgm_image img = parse(std::string("P5 2 1 255\n\n ", 13));
  EXPECT_EQ(img.samples, (std::vector<std::uint16_t>{10, 32}));
}

TEST(pgm, encode_then_parse_round_trips) {
  pgm_image img;
  img.width = 3;
  img.height = 1;
  img.maxval = 1000;
  img.samples = {0, 999, 1000};
  const auto bytes = parascan::app::encode_pgm(img);
  const pgm_image back = parse_pgm(bytes.data(), bytes.size(), "x.pgm");
  EXPECT_EQ(back.samples, img.samples);
  EXPECT_EQ(back.maxval, 1000);
}

TEST(pgm, malformed_files_are_refused_with_the_reason) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "not a PGM file"},
      {"P6 1 1 255\n\x01", "not a PGM file"},
      {"P1 1 1\n1", "not a PGM file"},
      {"P5", "truncated"},
      {"P5x 1 1 255\n\x01", "followed by"},
      {"P5 1", "truncated"},
      {"P5 -1 1 255\n\x01", "expected the width"},
      {"P5 0 1 255\n", "at least 1"},
      {"P5 1 0 255\n", "at least 1"},
      {"P5 1 1 0\n\x00", "maxval is 0"},
      {"P5 1 1 65536\n\x01", "larger than 65535"},
      {"P5 1 1 255", "no raster"},
      {"P5 1 1 255#\x01", "followed by"},
      {"P5 2 2 255\n\x01\x02\x03", "truncated raster"},
      {"P5 1 1 255\n\x01\x02", "extra bytes after the raster"},
      {"P5 1 1 100\n\x65", "above maxval"},
      {std::string("P5 1 1 300\n\x01\x2d", 13), "above maxval"},
      {"P2 2 1 255\n1", "truncated raster"},
      {"P2 2 1 255\n1 2 3", "extra data after the raster"},
      {"P2 2 1 255\n1 x", "expected the sample"},
      {"P2 1 1 255\n256", "above maxval"},
      {"P2 1 1 255\n1# c", "followed by"},
      {"P5 9999999 9999999 255\n", "pixels this tool accepts"},
      {"P5 99999999999 1 255\n", "the width is larger than"},
      {"P5 999999999999999999999999 1 255\n", "larger than"},
  };
  for (const auto& [file, reason] : cases) {
    const std::string msg = refusal(file);
    EXPECT_NE(msg.find("test.pgm"), std::string::npos) << "file: " << file << "\nmessage: " << msg;
    EXPECT_NE(msg.find(reason), std::string::npos) << "file: " << file << "\nmessage: " << msg;
  }
}

}  // namespace
