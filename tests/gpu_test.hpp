// The fixture every GPU test derives from: skips (reported as skipped, not passed) with no device.
#pragma once
#include <gtest/gtest.h>
#include <cstdlib>
#include "parascan/device_info.hpp"

namespace parascan::test {

class gpu_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!parascan::cuda_device_available()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  }
};

/// PARASCAN_TEST_SMALL=1 (set by the sanitizer runs) keeps sizes small enough for compute-sanitizer.
inline bool small_sizes_only() {
  const char* v = std::getenv("PARASCAN_TEST_SMALL");
  return v && *v && *v != '0';
}

}  // namespace parascan::test
