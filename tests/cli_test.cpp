// The tools as a user runs them: exit codes, messages on stderr naming the problem, no output file
// on failure; and, with a GPU, real runs on the bundled sample data. This file: every tool's common
// behaviour, scan and compact (cli_tools_test.cpp: sat, radix_sort, marching_cubes, --gpus).
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
      {PARASCAN_VALIDATE_EXE, "--shard 4/4", "validate: error: --shard"},
      {PARASCAN_VALIDATE_EXE, "--shard 1", "validate: error: --shard"},
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

TEST_F(cli_gpu, validate_shards_split_the_matrix) {
  // 'u32 m' is at least two cases (min, max): the runs of --shard 0/2 and 1/2 add up to the
  // unsharded run, and each shard passes.
  const auto runs_of = [](const result& r) {
    long long n = -1;
    for (auto p = r.out.find("validate: "); p != std::string::npos; p = r.out.find("validate: ", p + 1))
      if (std::sscanf(r.out.c_str() + p, "validate: %lld runs", &n) == 1) break;
    return n;
  };
  const std::string filter = "--quick -q --filter 'u32 m'";
  const auto whole = validate(filter);
  ASSERT_EQ(whole.code, 0) << whole.out << whole.err;
  long long sum = 0;
  for (int i = 0; i < 2; ++i) {
    const auto part = validate(filter + " --shard " + std::to_string(i) + "/2");
    EXPECT_EQ(part.code, 0) << part.out << part.err;
    EXPECT_NE(part.out.find("shard " + std::to_string(i) + "/2"), std::string::npos) << part.out;
    EXPECT_GT(runs_of(part), 0) << part.out;
    sum += runs_of(part);
  }
  EXPECT_GT(runs_of(whole), 0) << whole.out;
  EXPECT_EQ(sum, runs_of(whole));
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
