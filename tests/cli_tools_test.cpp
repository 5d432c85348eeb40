// The tools as a user runs them (continued from cli_test.cpp): sat, radix_sort, marching_cubes, out of
// device memory, unwritable outputs and --gpus.
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include "array_io.hpp"
#include "cli_test.hpp"
#include "dtype.hpp"

namespace {

void write_bytes(const std::string& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f << bytes;
}

TEST_F(cli, sat_refuses_malformed_images_with_exit_2_and_writes_nothing) {
  const std::pair<std::string, std::string> cases[] = {
      {"P6 1 1 255\n\x01", "expected the magic number P2 or P5"},
      {"P5 2 2 255\n\x01\x02\x03", "truncated raster"},
      {"P5 1 1 255\n\x01\x02", "extra bytes after the raster"},
      {"P2 1 1 9\n10", "above maxval"},
  };
  for (const auto& [bytes, reason] : cases) {
    write_bytes(path("bad.pgm"), bytes);
    const result r = sat(path("bad.pgm") + " -o " + path("t.npy"));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("bad.pgm"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("t.npy")));
  }
  EXPECT_EQ(sat(path("missing.pgm")).code, 2);
}

TEST_F(cli, sat_refuses_options_before_touching_the_gpu) {
  const std::string coins = std::string(PARASCAN_DATA_DIR) + "/coins.pgm";
  const result overflow = sat(coins + " --squared --acc u32 -o " + path("t.npy"));
  EXPECT_EQ(overflow.code, 2);
  EXPECT_NE(overflow.err.find("can overflow"), std::string::npos) << overflow.err;
  const result rect = sat(coins + " --rect 0,0,384,10");
  EXPECT_EQ(rect.code, 2);
  EXPECT_NE(rect.err.find("--rect"), std::string::npos) << rect.err;
  EXPECT_EQ(sat(coins + " --rect 1,2,3").code, 2);
  EXPECT_EQ(sat(coins + " --layout diagonal").code, 2);
  EXPECT_EQ(sat(coins + " --algorithm fastest").code, 2);
  EXPECT_EQ(sat(coins + " --acc i8").code, 2);
  EXPECT_EQ(sat(coins + " --box 2 -o " + path("blur.npy")).code, 2);
  EXPECT_EQ(files_other_than_logs(), 0);
}

TEST_F(cli_gpu, sat_on_coins_gives_the_known_sums) {
  const std::string coins = std::string(PARASCAN_DATA_DIR) + "/coins.pgm";
  const result r = sat(coins + " --rect 96,75,191,150 --validate -o " + path("t.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("total: 11269333"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rect 96,75,191,150: 762366"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
  const auto table = parascan::app::read_array(path("t.npy"), std::nullopt);
  EXPECT_EQ(table.count, 385 * 304);
  EXPECT_EQ(table.type, parascan::app::dtype::u32);
  EXPECT_EQ(table.as<std::uint32_t>()[table.count - 1], 11269333u);
  const result three = sat(coins + " --algorithm three-pass --rect 96,75,191,150 --validate");
  ASSERT_EQ(three.code, 0) << three.err;
  EXPECT_NE(three.out.find("rect 96,75,191,150: 762366"), std::string::npos) << three.out;
  EXPECT_NE(three.out.find("three_pass"), std::string::npos) << "printed in the one spelling: " << three.out;
  const result sq = sat(coins + " --squared --layout inclusive --validate");
  ASSERT_EQ(sq.code, 0) << sq.err;
  EXPECT_NE(sq.out.find("total: 1416849277"), std::string::npos) << sq.out;
  const result box = sat(coins + " --box 3 --validate -o " + path("blur.pgm"));
  ASSERT_EQ(box.code, 0) << box.err;
  std::ifstream f(path("blur.pgm"), std::ios::binary);
  std::string head(15, '\0');
  f.read(head.data(), 15);
  EXPECT_EQ(head, "P5\n384 303\n255\n");
}

}  // namespace

namespace {

TEST_F(cli, radix_sort_refuses_bad_ranges_and_values_before_the_gpu) {
  auto r = sort("--type u32 --bits 40");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--bits 40"), std::string::npos) << r.err;
  r = sort("--type u16 --begin-bit 17");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--begin-bit 17"), std::string::npos) << r.err;
  r = sort("--algorithm quick");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--algorithm"), std::string::npos) << r.err;
  r = sort("--dist gaussian");
  EXPECT_EQ(r.code, 2);
  const std::vector<std::uint32_t> keys = {3, 1, 2, 5, 4};
  const std::vector<std::uint16_t> values = {1, 2, 3, 4};
  parascan::app::write_array(path("k.npy"), parascan::app::dtype::u32, keys.data(), 5);
  parascan::app::write_array(path("v.npy"), parascan::app::dtype::u16, values.data(), 4);
  r = sort(path("k.npy") + " --values " + path("v.npy") + " -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("v.npy: holds 4 values, but there are 5 keys"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("out.npy")));
  r = sort(path("missing.npy") + " -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(path("out.npy")));
}

TEST_F(cli_gpu, radix_sort_sorts_pairs_and_permutations) {
  const std::vector<float> keys = {2.5f, -1.0f, 0.0f, -0.0f, 2.5f, -7.25f};
  const std::vector<std::uint16_t> values = {10, 11, 12, 13, 14, 15};
  parascan::app::write_array(path("k.npy"), parascan::app::dtype::f32, keys.data(), 6);
  parascan::app::write_array(path("v.npy"), parascan::app::dtype::u16, values.data(), 6);
  for (const char* alg : {"split1", "split4", "split8", "onesweep"}) {
    auto r = sort(path("k.npy") + " --values " + path("v.npy") + " --validate --algorithm " + alg + " -o " + path("s.npy") +
                  " --values-out " + path("sv.npy"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
    auto s = parascan::app::read_array(path("s.npy"), std::nullopt);
    auto sv = parascan::app::read_array(path("sv.npy"), std::nullopt);
    ASSERT_EQ(s.count, 6);
    EXPECT_EQ(sv.type, parascan::app::dtype::u16);
    // -0.0 and +0.0 are equal and keep their input order; equal 2.5s too.
    EXPECT_EQ(std::vector<std::uint16_t>(sv.as<std::uint16_t>(), sv.as<std::uint16_t>() + 6),
              (std::vector<std::uint16_t>{15, 11, 12, 13, 10, 14})) << alg;
  }
  auto r = sort(path("k.npy") + " --argsort --descending --validate -o " + path("p.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto p = parascan::app::read_array(path("p.npy"), std::nullopt);
  EXPECT_EQ(p.type, parascan::app::dtype::i64);
  EXPECT_EQ(std::vector<std::int64_t>(p.as<std::int64_t>(), p.as<std::int64_t>() + 6),
            (std::vector<std::int64_t>{0, 4, 2, 3, 1, 5}));
  r = sort("--n 1000003 --type u64 --dist few-unique --repeat 2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
}

TEST_F(cli, radix_sort_refuses_bad_segments_before_the_gpu) {
  const std::vector<float> keys = {3, 1, 2, 5, 4, 0};
  parascan::app::write_array(path("k.npy"), parascan::app::dtype::f32, keys.data(), 6);
  auto r = sort(path("k.npy") + " --rows 4 -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--rows 4: 6 keys do not split into rows of equal length"), std::string::npos) << r.err;
  const std::vector<std::int64_t> short_offsets = {0, 2, 5};
  parascan::app::write_array(path("o.npy"), parascan::app::dtype::i64, short_offsets.data(), 3);
  r = sort(path("k.npy") + " --segments " + path("o.npy") + " -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("o.npy: the offsets must run from 0 to the 6 keys"), std::string::npos) << r.err;
  const std::vector<std::int32_t> falling = {0, 4, 2, 6};
  parascan::app::write_array(path("f.npy"), parascan::app::dtype::i32, falling.data(), 4);
  r = sort(path("k.npy") + " --segments " + path("f.npy") + " -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("f.npy: offset 2 (2) is smaller than the one before (4)"), std::string::npos) << r.err;
  r = sort(path("k.npy") + " --rows 2 --algorithm split4");
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(path("out.npy")));
}

TEST_F(cli_gpu, radix_sort_sorts_segments_and_rows) {
  const std::vector<float> keys = {2.5f, -1.0f, 0.0f, -0.0f, 9.0f, -7.25f, 4.0f, 1.0f};
  parascan::app::write_array(path("k.npy"), parascan::app::dtype::f32, keys.data(), 8);
  const std::vector<std::int64_t> offsets = {0, 3, 3, 8};  // [0,3), an empty segment, [3,8)
  parascan::app::write_array(path("o.npy"), parascan::app::dtype::i64, offsets.data(), 4);
  auto r = sort(path("k.npy") + " --segments " + path("o.npy") + " --argsort --validate -o " + path("p.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
  auto p = parascan::app::read_array(path("p.npy"), std::nullopt);
  EXPECT_EQ(std::vector<std::int64_t>(p.as<std::int64_t>(), p.as<std::int64_t>() + 8),
            (std::vector<std::int64_t>{1, 2, 0, 2, 0, 4, 3, 1}));  // positions within each segment
  r = sort(path("k.npy") + " --rows 2 --descending --validate -o " + path("s.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto s = parascan::app::read_array(path("s.npy"), std::nullopt);
  EXPECT_EQ(std::vector<float>(s.as<float>(), s.as<float>() + 8),
            (std::vector<float>{2.5f, 0.0f, -0.0f, -1.0f, 9.0f, 4.0f, 1.0f, -7.25f}));  // 0.0 ties -0.0: input order
  r = sort("--n 1000000 --rows 1000 --type f32 --repeat 2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CUB DeviceSegmentedSort"), std::string::npos) << r.out;
}

TEST_F(cli, radix_sort_refuses_bad_topk_before_the_gpu) {
  const std::vector<float> keys = {3, 1, 2, 5, 4, 0};
  parascan::app::write_array(path("k.npy"), parascan::app::dtype::f32, keys.data(), 6);
  auto r = sort(path("k.npy") + " --topk 4 --rows 2 -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--topk 4: more than the 3 keys of a row"), std::string::npos) << r.err;
  r = sort(path("k.npy") + " --topk 1 --rows 4 -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--rows 4: 6 keys do not split into rows of equal length"), std::string::npos) << r.err;
  r = sort(path("k.npy") + " --topk 1 --argsort -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  r = sort(path("k.npy") + " --smallest -o " + path("out.npy"));  // --smallest needs --topk
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(path("out.npy")));
}

TEST_F(cli_gpu, radix_sort_topk_of_rows) {
  const std::vector<float> keys = {3, 9, 1, 9, -2, 0.5f, 7, 7};  // 2 rows of 4
  parascan::app::write_array(path("k.npy"), parascan::app::dtype::f32, keys.data(), 8);
  auto r = sort(path("k.npy") + " --rows 2 --topk 2 --validate -o " + path("v.npy") + " --values-out " + path("i.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
  auto v = parascan::app::read_array(path("v.npy"), std::nullopt);
  auto i = parascan::app::read_array(path("i.npy"), std::nullopt);
  EXPECT_EQ(std::vector<float>(v.as<float>(), v.as<float>() + 4), (std::vector<float>{9, 9, 7, 7}));
  EXPECT_EQ(std::vector<std::int64_t>(i.as<std::int64_t>(), i.as<std::int64_t>() + 4),
            (std::vector<std::int64_t>{1, 3, 2, 3}));  // ties: the earliest first
  r = sort(path("k.npy") + " --rows 2 --topk 1 --smallest -o " + path("s.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto s = parascan::app::read_array(path("s.npy"), std::nullopt);
  EXPECT_EQ(std::vector<float>(s.as<float>(), s.as<float>() + 2), (std::vector<float>{1, -2}));
  r = sort("--n 3216448 --rows 64 --topk 50 --type f32 --repeat 2");  // 64 rows of 50257
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CUB DeviceSegmentedSort of the whole rows"), std::string::npos) << r.out;
}

TEST_F(cli, scan_refuses_bad_rows_before_the_gpu) {
  const std::vector<std::int32_t> items = {3, 1, 2, 5, 4, 0};
  parascan::app::write_array(path("x.npy"), parascan::app::dtype::i32, items.data(), 6);
  auto r = run(path("x.npy") + " --rows 4 -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("x.npy: 6 items are not 4 rows of equal length"), std::string::npos) << r.err;
  r = run(path("x.npy") + " --axis 0 -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--axis needs --rows"), std::string::npos) << r.err;
  r = run(path("x.npy") + " --rows 2 --op xor -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--rows: xor scans of i32 -> i32 along an axis are not built"), std::string::npos) << r.err;
  r = run(path("x.npy") + " --rows 2 --strategy recursive -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(path("out.npy")));
}

TEST_F(cli_gpu, scan_along_rows_and_down_columns) {
  const std::vector<std::int32_t> items = {3, 1, 2, 5, 4, 0};  // 2 rows of 3
  parascan::app::write_array(path("x.npy"), parascan::app::dtype::i32, items.data(), 6);
  auto r = run(path("x.npy") + " --rows 2 --inclusive --validate -o " + path("rows.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
  auto got = parascan::app::read_array(path("rows.npy"), std::nullopt);
  EXPECT_EQ(std::vector<std::int32_t>(got.as<std::int32_t>(), got.as<std::int32_t>() + 6),
            (std::vector<std::int32_t>{3, 4, 6, 5, 9, 9}));
  r = run(path("x.npy") + " --rows 2 --axis 0 --init 10 --validate -o " + path("cols.npy"));  // exclusive, init 10
  ASSERT_EQ(r.code, 0) << r.err;
  got = parascan::app::read_array(path("cols.npy"), std::nullopt);
  EXPECT_EQ(std::vector<std::int32_t>(got.as<std::int32_t>(), got.as<std::int32_t>() + 6),
            (std::vector<std::int32_t>{10, 10, 10, 13, 11, 12}));
  r = run("--n 1048576 --rows 32768 --axis 0 --type f32 --inclusive --repeat 2");  // (32768, 32) down the columns
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS (matches the CPU reference of each column"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CUB 1-D scan of the same items"), std::string::npos) << r.out;
  r = run("--n 1000000 --rows 1000 --type u8 --acc u32 --repeat 2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS (matches CUB and the CPU reference"), std::string::npos) << r.out;
}

TEST_F(cli, marching_cubes_refuses_bad_volumes_and_options_before_the_gpu) {
  std::ofstream(path("v.raw"), std::ios::binary) << std::string(1000, '\x07');
  const std::string out = " -o " + path("m.ply");
  struct refusal {
    std::string args, message;
  };
  const std::vector<refusal> cases = {
      {path("v.raw") + " --dims 10,10,11 --type u8 --iso 3", "v.raw: holds 1000 bytes, but 10×10×11 samples of u8 need 1100"},
      {path("v.raw") + " --type u8 --iso 3", "a raw volume needs --dims X,Y,Z"},
      {path("v.raw") + " --dims 10,10,10 --type u8", "--iso: needed with an input volume"},
      {path("v.raw") + " --dims 10,10,10 --type u8 --iso nan", "--iso: NaN is not an iso value"},
      {path("v.raw") + " --dims 10,10,10 --type u8 --iso 1e50", "outside the float range"},
      {path("v.raw") + " --dims 10,10,10 --type u8 --iso seven", "--iso 'seven': not a number"},
      {path("v.raw") + " --dims 10,0,10 --type u8 --iso 3", "every count must be at least 1"},
      {path("v.raw") + " --dims 10,10 --type u8 --iso 3", "expected X,Y,Z"},
      {path("v.raw") + " --dims 10,10,10 --type i32 --iso 3", "volumes are u8, u16 or f32"},
      {path("v.raw") + " --dims 10,10,10 --type u8 --iso 3 -o " + path("m.stl"), "unknown mesh format"},
      {path("missing.raw") + " --dims 10,10,10 --type u8 --iso 3", "cannot open"},
      {"--field cube", "--field: unknown 'cube'"},
      {path("v.raw") + " --field sphere --iso 3", "not both"},
  };
  for (const auto& c : cases) {
    const auto r = mc(c.args + (c.args.find(" -o ") == std::string::npos ? out : ""));
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
  // A 2-D .npy, and an f32 volume with a NaN sample.
  const std::vector<float> plane(12, 1.0f);
  parascan::app::write_array(path("plane.npy"), parascan::app::dtype::f32, plane.data(), std::vector<std::int64_t>{3, 4});
  auto r = mc(path("plane.npy") + " --iso 0.5" + out);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("must have 3 dimensions"), std::string::npos) << r.err;
  std::vector<float> cube(27, 1.0f);
  cube[5] = std::nanf("");
  parascan::app::write_array(path("nan.npy"), parascan::app::dtype::f32, cube.data(), std::vector<std::int64_t>{3, 3, 3});
  r = mc(path("nan.npy") + " --iso 0.5" + out);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("sample (2, 1, 0) is not finite"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("m.ply")));
  EXPECT_FALSE(fs::exists(path("m.stl")));
  r = run_with_env("CUDA_VISIBLE_DEVICES=", "--field sphere --grid 8" + out, PARASCAN_MC_EXE);
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("marching_cubes: error: no CUDA device"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("m.ply")));
}

namespace {
std::string header_of(const std::string& file) {
  std::ifstream f(file, std::ios::binary);
  std::string line, head;
  while (std::getline(f, line) && line != "end_header") head += line + "\n";
  return head;
}
int lines_starting(const std::string& file, const std::string& prefix) {
  std::ifstream f(file);
  std::string line;
  int n = 0;
  while (std::getline(f, line)) n += line.rfind(prefix, 0) == 0;
  return n;
}
}  // namespace

TEST_F(cli_gpu, marching_cubes_meshes_a_voxel_and_the_fields) {
  // One inside voxel in a 3×3×3 u8 volume: 8 active cells, 8 triangles, 24 vertices (6 when welded).
  std::string voxels(27, '\x0a');
  voxels[13] = 0;
  std::ofstream(path("v.raw"), std::ios::binary) << voxels;
  auto r = mc(path("v.raw") + " --dims 3,3,3 --type u8 --iso 5 --validate -o " + path("m.ply"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("active 8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("triangles 8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
  std::string head = header_of(path("m.ply"));
  EXPECT_NE(head.find("format binary_little_endian 1.0"), std::string::npos) << head;
  EXPECT_NE(head.find("element vertex 24\n"), std::string::npos) << head;
  EXPECT_NE(head.find("property float nx"), std::string::npos) << head;
  EXPECT_NE(head.find("element face 8\n"), std::string::npos) << head;
  // Header + 24 × 6 floats + 8 × (1 + 3 × 4) bytes.
  const auto head_bytes = head.size() + std::string("end_header\n").size();
  EXPECT_EQ(fs::file_size(path("m.ply")), head_bytes + 24 * 24 + 8 * 13);
  r = mc(path("v.raw") + " --dims 3,3,3 --type u8 --iso 5 --weld --no-normals --validate -o " + path("w.obj"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines_starting(path("w.obj"), "v "), 6);
  EXPECT_EQ(lines_starting(path("w.obj"), "vn "), 0);
  EXPECT_EQ(lines_starting(path("w.obj"), "f "), 8);
  // A .npy volume (shape nz, ny, nx) gives the same mesh.
  parascan::app::write_array(path("v.npy"), parascan::app::dtype::u8, voxels.data(), std::vector<std::int64_t>{3, 3, 3});
  r = mc(path("v.npy") + " --iso 5 --validate -q");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* field : {"sphere", "torus", "metaballs", "gyroid"}) {
    r = mc(std::string("--field ") + field + " --grid 40 --validate --repeat 2 --weld --json " + path("r.json"));
    ASSERT_EQ(r.code, 0) << field << ": " << r.err;
    EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stages (ms): classify"), std::string::npos) << r.out;
    std::ifstream j(path("r.json"));
    std::stringstream s;
    s << j.rdbuf();
    EXPECT_NE(s.str().find("\"triangles_per_s\""), std::string::npos) << s.str();
  }
}

TEST_F(cli_gpu, out_of_device_memory_is_exit_3_and_writes_nothing) {
  // 4096³ f32 samples = 256 GiB: more than any device holds, refused with the bytes asked for and free.
  const auto r = mc("--field sphere --grid 4096 -o " + path("m.ply"));
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("marching_cubes: error: out of device memory: requested 274877906944 bytes"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("bytes free"), std::string::npos) << r.err;
  EXPECT_EQ(files_other_than_logs(), 0);
}

TEST_F(cli, an_unwritable_output_is_refused_before_any_work) {
  // The output name is an existing folder, or lies in a missing one: refused while parsing (exit 2,
  // the path and the problem named), before the mesh is computed, and nothing is left behind. A write
  // that fails later (the rename of the temporary) is covered by files_test's failed_writes_leave_nothing_behind.
  fs::create_directories(path("taken.ply"));
  auto r = mc("--field torus --grid 24 -o " + path("taken.ply"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("taken.ply' is a folder"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("triangles"), std::string::npos) << "no work before the refusal: " << r.out;
  r = run("--n 1000 -o " + path("taken.ply"));
  EXPECT_EQ(r.code, 2) << r.err;
  r = mc("--field torus --grid 24 -o " + path("no_such_folder/m.ply"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("no_such_folder' of"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"stderr", "stdout", "taken.ply"}));
  EXPECT_TRUE(fs::is_empty(path("taken.ply")));
}

}  // namespace

TEST_F(cli, gpus_refuses_what_it_cannot_run_before_the_device) {
  // Every refusal is exit 2 with the option named, on any machine (with or without a GPU or NCCL).
  struct expect { result r; std::string message; };
  const std::vector<expect> cases = {
      {run("--n 100 --gpus 0"), "--gpus: must be 1 or more"},
      {compact("--n 100 --gpus -3"), "--gpus: must be 1 or more"},
      {sort("--n 100 --gpus 0"), "--gpus: must be 1 or more"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.r.code, 2) << c.r.err;
    EXPECT_NE(c.r.err.find(c.message), std::string::npos) << c.r.err;
  }
#ifdef PARASCAN_HAVE_NCCL
  const std::vector<expect> nccl_cases = {
      {compact("--n 100 --gpus 2 --indices"), "--gpus: --indices and --split run on one GPU"},
      {compact("--n 100 --type u8 --gpus 2"), "--gpus: selections of u8 over several GPUs are not built"},
      {sort("--n 100 --gpus 2 --algorithm split4"), "--gpus: the multi-GPU sort runs onesweep"},
      {sort("--n 100 --gpus 2 --device-memory-limit 1M"), "--gpus: the multi-GPU sort runs onesweep"},
      {run("--n 100 --gpus 2 --acc u64"), "over several GPUs are not built"},
      {run("--n 100 --gpus 2 --inclusive --init 3"), "--gpus: an inclusive scan over several GPUs takes no --init"},
  };
#else
  const std::vector<expect> nccl_cases = {{sort("--n 100 --gpus 2"), "this build has no NCCL"}};
#endif
  for (const auto& c : nccl_cases) {
    EXPECT_EQ(c.r.code, 2) << c.r.err;
    EXPECT_NE(c.r.err.find(c.message), std::string::npos) << c.r.err;
  }
  EXPECT_EQ(files_other_than_logs(), 0);
}

#ifdef PARASCAN_HAVE_NCCL
TEST_F(cli, gpus_beyond_the_host_is_exit_4) {
  const auto r = run_with_env("CUDA_VISIBLE_DEVICES=", "--n 1000 --gpus 2 -o " + path("out.npy"), PARASCAN_SORT_EXE);
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("--gpus 2: this host has 0 usable CUDA devices"), std::string::npos) << r.err;
  EXPECT_EQ(files_other_than_logs(), 0);
}

TEST_F(cli_multigpu, gpus_2_matches_one_gpu_and_cub) {
  // Odd sizes (shards of unequal length), every mode the tools offer over several GPUs.
  struct run_case { result r; const char* what; };
  const std::vector<run_case> cases = {
      {run("--n 1000003 --gpus 2 --validate --repeat 2 -o " + path("scan.npy")), "scan"},
      {run("--n 999999 --type f32 --inclusive --gpus 2 --validate --repeat 2"), "scan f32"},
      {run("--n 77777 --type i32 --op max --gpus 2 --validate --repeat 2"), "scan max"},
      {compact("--n 1000003 --gpus 2 --validate --repeat 2 -o " + path("kept.npy")), "compact"},
      {compact("--n 300001 --type f64 --keep gt:500 --gpus 2 --validate --repeat 2"), "compact f64"},
      {sort("--n 1000003 --gpus 2 --validate --repeat 2 -o " + path("sorted.npy")), "sort"},
      {sort("--n 500001 --type f32 --dist few-unique --argsort --descending --gpus 2 --validate --repeat 2"), "argsort"},
      {sort("--n 300007 --type u64 --dist all-equal --gpus 2 --validate --repeat 2"), "sort all equal"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.r.code, 0) << c.what << ": " << c.r.err;
    EXPECT_NE(c.r.out.find("2 GPUs: "), std::string::npos) << c.what << ": " << c.r.out;
    EXPECT_NE(c.r.out.find("validation: the multi-GPU result"), std::string::npos) << c.what << ": " << c.r.out;
    EXPECT_NE(c.r.out.find("PASS"), std::string::npos) << c.what << ": " << c.r.out;
  }
  EXPECT_EQ(parascan::app::read_array(path("scan.npy"), std::nullopt).count, 1000003);
  EXPECT_EQ(parascan::app::read_array(path("sorted.npy"), std::nullopt).count, 1000003);
}
#endif
