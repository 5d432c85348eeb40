// The tools as a user runs them: exit codes, messages on stderr naming the problem, no output file
// on failure; and, with a GPU, real runs on the bundled sample data.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "array_io.hpp"
#include "dtype.hpp"
#include <cuda_runtime_api.h>
#include "parascan/device_info.hpp"

namespace fs = std::filesystem;

namespace {
struct result {
  int code;
  std::string out, err;
};

class cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("parascan_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  result run(const std::string& args) { return run_with_env("", args); }
  result compact(const std::string& args) { return run_with_env("", args, PARASCAN_COMPACT_EXE); }
  result sat(const std::string& args) { return run_with_env("", args, PARASCAN_SAT_EXE); }
  result sort(const std::string& args) { return run_with_env("", args, PARASCAN_SORT_EXE); }
  result mc(const std::string& args) { return run_with_env("", args, PARASCAN_MC_EXE); }
  result bench(const std::string& args) { return run_with_env("", args, PARASCAN_BENCH_EXE); }
  result validate(const std::string& args) { return run_with_env("", args, PARASCAN_VALIDATE_EXE); }
  result run_with_env(const std::string& env, const std::string& args, const std::string& exe = PARASCAN_SCAN_EXE) {
    const auto out = (dir / "stdout").string(), err = (dir / "stderr").string();
    const std::string cmd = (env.empty() ? "" : "env " + env + " ") + exe + " " + args + " > " + out + " 2> " + err;
    const int status = std::system(cmd.c_str());
    auto slurp = [](const std::string& p) {
      std::ifstream f(p);
      std::stringstream s;
      s << f.rdbuf();
      return s.str();
    };
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }
  std::string path(const std::string& name) { return (dir / name).string(); }
  int files_other_than_logs() {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir))
      n += e.path().filename() != "stdout" && e.path().filename() != "stderr";
    return n;
  }
  fs::path dir;
};

class cli_gpu : public cli {
 protected:
  void SetUp() override {
    if (!parascan::cuda_device_available()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
    cli::SetUp();
  }
};

// The tools' --gpus N runs (ctest label multigpu, like gpu_dist_tests): they skip on fewer than 2 GPUs.
class cli_multigpu : public cli {
 protected:
  void SetUp() override {
    int gpus = 0;
    if (!parascan::cuda_device_available() || cudaGetDeviceCount(&gpus) != cudaSuccess || gpus < 2)
      GTEST_SKIP() << "fewer than 2 CUDA devices: multi-GPU test skipped";
    cli::SetUp();
  }
};
}  // namespace

TEST_F(cli, help_has_an_example_and_exit_codes) {
  const auto r = run("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Example"), std::string::npos);
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos);
  EXPECT_NE(r.out.find("--algorithm"), std::string::npos);
  EXPECT_EQ(run("--version").code, 0);
}

TEST_F(cli, missing_input_is_exit_2_and_writes_nothing) {
  const auto r = run(path("nope.npy") + " -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("scan: error: " + path("nope.npy") + ": cannot open"), std::string::npos) << r.err;
  EXPECT_EQ(files_other_than_logs(), 0);
}

TEST_F(cli, raw_input_of_the_wrong_size_is_exit_2) {
  std::ofstream(path("odd.bin"), std::ios::binary) << std::string(4194303, 'x');
  const auto r = run(path("odd.bin") + " --type u32 -o " + path("out.bin"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("file holds 4194303 bytes, not a multiple of 4 (u32)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("out.bin")));
}

TEST_F(cli, bad_option_values_are_exit_2) {
  EXPECT_EQ(run("--op median").code, 2);
  EXPECT_NE(run("--op median").err.find("unknown operator 'median'"), std::string::npos);
  EXPECT_EQ(run("--algorithm quick").code, 2);
  EXPECT_EQ(run("--strategy fast").code, 2);
  EXPECT_EQ(run("--type u33").code, 2);
  EXPECT_EQ(run("--repeat 0").code, 2);
  EXPECT_EQ(run("--inclusive --exclusive").code, 2);
  EXPECT_EQ(run("--type f32 --op xor").code, 2);  // not built: no GPU needed to say so
}

// Each of these is exit 2 with a message before the GPU is asked for, so they run with no device visible
// (CUDA_VISIBLE_DEVICES="") and pass on any machine: a device check first would make them exit 4.
TEST_F(cli, bad_values_and_output_paths_are_exit_2_before_the_device) {
  const std::string no_gpu = "CUDA_VISIBLE_DEVICES=";
  const auto npy = path("x.npy");
  parascan::app::write_array(npy, parascan::app::dtype::u32, std::vector<std::uint32_t>{1, 2, 3}.data(), 3);
  struct expect { std::string exe, args, message; };
  const expect cases[] = {
      {PARASCAN_SCAN_EXE, npy + " --init abc", "scan: error: --init"},
      {PARASCAN_SCAN_EXE, npy + " -o " + path("missing/dir/y.npy"), "does not exist"},
      {PARASCAN_SCAN_EXE, npy + " -o " + dir.string(), "is a folder"},
      {PARASCAN_SCAN_EXE, npy + " --json " + path("missing/r.json"), "does not exist"},
      {PARASCAN_SORT_EXE, npy + " --argsort --values-out " + dir.string(), "is a folder"},
      {PARASCAN_BENCH_EXE, "--log-sizes 99", "bench: error: --log-sizes"},
      {PARASCAN_BENCH_EXE, "--csv " + path("missing/b.csv"), "does not exist"},
      {PARASCAN_SCAN_EXE, "--bogus", "scan: error: the following argument was not expected: --bogus"},
      {PARASCAN_COMPACT_EXE, "--n -5", "compact: error: --n: must be >= 0, got -5"},
      {PARASCAN_SORT_EXE, "--n -5", "radix_sort: error: --n: must be >= 0, got -5"},
      {PARASCAN_SORT_EXE, "--device-memory-limit 12Q", "radix_sort: error: --device-memory-limit: '12Q' is not"},
      {PARASCAN_SORT_EXE, "--device-memory-limit 1G --algorithm split4", "the out-of-core sort runs onesweep"},
      {PARASCAN_SCAN_EXE, "--device -1", "scan: error: --device: must be >= 0"},
  };
  for (const auto& c : cases) {
    const auto r = run_with_env(no_gpu, c.args, c.exe);
    EXPECT_EQ(r.code, 2) << c.exe << " " << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.exe << " " << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.find("179769313486231"), std::string::npos) << r.err;  // no 300-digit range bound
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  }
  EXPECT_FALSE(fs::exists(path("missing")));
}

TEST_F(cli, help_offers_only_the_options_a_tool_reads) {
  const auto v = validate("--help"), b = bench("--help"), s = sort("--help");
  EXPECT_EQ(v.code, 0);
  for (const char* opt : {"--output", "--validate", "--repeat"}) EXPECT_EQ(v.out.find(opt), std::string::npos) << opt;
  EXPECT_EQ(b.code, 0);
  for (const char* opt : {"--output", "--validate"}) EXPECT_EQ(b.out.find(opt), std::string::npos) << opt;
  EXPECT_NE(b.out.find("--repeat"), std::string::npos);
  EXPECT_EQ(b.out.find("sweep"), std::string::npos);  // the block-size study is an experiment now
  EXPECT_NE(b.out.find("mc: marching cubes"), std::string::npos);  // one of bench's primitives
  EXPECT_EQ(bench("--primitive sweep").code, 2);
  EXPECT_EQ(s.out.find("raw u32; same length; 1, 2, 4 or 8 bytes"), std::string::npos);
}

TEST_F(cli, no_cuda_device_is_exit_4) {
  // CUDA_VISIBLE_DEVICES="" hides every device, so this runs (and must pass) with or without a GPU.
  const auto r = run_with_env("CUDA_VISIBLE_DEVICES=", "--n 1000 -o " + path("out.npy"));
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("scan: error: no CUDA device or driver was found"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("insufficient"), std::string::npos) << "no advice to upgrade a driver: " << r.err;
  EXPECT_EQ(files_other_than_logs(), 0);
}

TEST_F(cli_gpu, generated_data_is_validated_and_timed) {
  const auto r = run("--n 100003 --repeat 3 --json " + path("r.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ratio to CUB"), std::string::npos);
  std::ifstream j(path("r.json"));
  std::stringstream s;
  s << j.rdbuf();
  EXPECT_NE(s.str().find("\"ratio_to_cub\""), std::string::npos);
}

TEST_F(cli_gpu, sort_out_of_core_under_a_device_memory_limit) {
  const auto keys = path("k.npy"), out = path("sorted.npy"), perm = path("perm.npy");
  std::vector<float> k(200003);
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<float>((i * 2654435761u) % 100000) - 5e4f;
  parascan::app::write_array(keys, parascan::app::dtype::f32, k.data(), static_cast<std::int64_t>(k.size()));
  const auto r = sort(keys + " --device-memory-limit 2M --validate --repeat 1 -o " + out);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("out of core (two round trips)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("validation: PASS (keys match a CPU stable sort)"), std::string::npos) << r.out;
  const auto got = parascan::app::read_array(out, std::nullopt);
  ASSERT_EQ(got.count, static_cast<std::int64_t>(k.size()));
  std::vector<float> want = k;
  std::stable_sort(want.begin(), want.end());
  EXPECT_EQ(std::memcmp(got.as<float>(), want.data(), want.size() * sizeof(float)), 0);
  const auto a = sort(keys + " --argsort --descending --device-memory-limit 2M --validate --repeat 1 -o " + perm);
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.out.find("the permutation matches the CPU"), std::string::npos) << a.out;
}

TEST_F(cli_gpu, empty_input_is_fine) {
  const auto r = run("--n 0 -o " + path("empty.npy"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("0 items"), std::string::npos) << r.out;
  EXPECT_EQ(parascan::app::read_array(path("empty.npy"), std::nullopt).count, 0);
}

TEST_F(cli_gpu, coins_sum_matches_the_known_total) {
  // data/coins_u8.npy holds the pixels of data/coins.pgm; their sum is 11,269,333 (data/SOURCES.md).
  const auto r = run(std::string(PARASCAN_DATA_DIR) + "/coins_u8.npy --acc u64 --inclusive --validate -o " + path("p.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("last value: 11269333"), std::string::npos) << r.out;
  const auto a = parascan::app::read_array(path("p.npy"), std::nullopt);
  ASSERT_EQ(a.count, 384 * 303);
  EXPECT_EQ(a.as<std::uint64_t>()[a.count - 1], 11269333u);
}

TEST_F(cli, compact_refuses_bad_rules_and_mismatched_flags) {
  const std::vector<std::uint32_t> v = {1, 0, 2, 0, 3};
  parascan::app::write_array(path("v.npy"), parascan::app::dtype::u32, v.data(), 5);
  const std::vector<std::uint8_t> f = {1, 0, 1};
  parascan::app::write_array(path("f.npy"), parascan::app::dtype::u8, f.data(), 3);
  auto r = compact(path("v.npy") + " --flags " + path("f.npy") + " -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("holds 3 flags, but the input has 5 items"), std::string::npos) << r.err;
  r = compact(path("v.npy") + " --keep gt:abc -o " + path("out.npy"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--keep gt: 'abc'"), std::string::npos) << r.err;
  EXPECT_EQ(compact(path("v.npy") + " --keep median").code, 2);
  EXPECT_EQ(compact("--type f32 --keep odd").code, 2);
  EXPECT_EQ(compact("--indices --split").code, 2);
  EXPECT_EQ(compact("--strategy recursive").code, 2);
  EXPECT_FALSE(fs::exists(path("out.npy")));
}

TEST_F(cli_gpu, compact_keeps_splits_and_indexes) {
  const std::vector<std::int32_t> v = {5, -1, 0, 7, 2, -3, 9};
  parascan::app::write_array(path("v.npy"), parascan::app::dtype::i32, v.data(), 7);
  auto r = compact(path("v.npy") + " --keep gt:1 --validate -o " + path("kept.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("kept: 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("validation: PASS (matches CUB and the CPU)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ratio to CUB"), std::string::npos) << r.out;
  auto a = parascan::app::read_array(path("kept.npy"), std::nullopt);
  ASSERT_EQ(a.count, 4);
  EXPECT_EQ(std::vector<std::int32_t>(a.as<std::int32_t>(), a.as<std::int32_t>() + 4), (std::vector<std::int32_t>{5, 7, 2, 9}));
  r = compact(path("v.npy") + " --keep gt:1 --split --validate -o " + path("split.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("second part starts at 4"), std::string::npos) << r.out;
  // The verdict names what ran: Thrust for a rule split, not for a flag split; no CUB ratio for a split.
  EXPECT_NE(r.out.find("PASS (matches thrust::stable_partition and the CPU)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CUB: no same operation"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ratio to CUB"), std::string::npos) << r.out;
  a = parascan::app::read_array(path("split.npy"), std::nullopt);
  EXPECT_EQ(std::vector<std::int32_t>(a.as<std::int32_t>(), a.as<std::int32_t>() + 7),
            (std::vector<std::int32_t>{5, 7, 2, 9, -1, 0, -3}));
  const std::vector<std::uint8_t> flags = {1, 0, 0, 1, 1, 0, 1};
  parascan::app::write_array(path("f.npy"), parascan::app::dtype::u8, flags.data(), 7);
  r = compact(path("v.npy") + " --flags " + path("f.npy") + " --split --validate");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("PASS (matches the CPU's stable split)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("thrust"), std::string::npos) << r.out;
  r = compact(path("v.npy") + " --keep odd --indices --validate -o " + path("idx.npy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("PASS (the positions match the CPU's)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ratio to CUB"), std::string::npos) << r.out;
  a = parascan::app::read_array(path("idx.npy"), std::nullopt);
  EXPECT_EQ(a.type, parascan::app::dtype::i64);
  EXPECT_EQ(std::vector<std::int64_t>(a.as<std::int64_t>(), a.as<std::int64_t>() + a.count),
            (std::vector<std::int64_t>{0, 1, 3, 5, 6}));
  r = compact("--n 1000003 --repeat 2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("validation: PASS"), std::string::npos);
}

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
