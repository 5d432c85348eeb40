// The tools' test fixtures (cli_test.cpp, cli_tools_test.cpp): each test runs a tool as a user would,
// in a folder of its own, and gets its exit code, stdout and stderr.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <cuda_runtime_api.h>
#include "parascan/device_info.hpp"

namespace parascan::cli_test {
namespace fs = std::filesystem;

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
}  // namespace parascan::cli_test

// The test files name the fixtures as gtest's TEST_F needs them: unqualified.
namespace fs = std::filesystem;
using parascan::cli_test::cli;
using parascan::cli_test::cli_gpu;
using parascan::cli_test::cli_multigpu;
using parascan::cli_test::result;
