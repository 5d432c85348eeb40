// Host-only: examples/consumer's two translation units each include every public header (README: the
// headers must link into one program twice), so a header added to core/include is checked for
// duplicate symbols by the consumer build.
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {
std::set<std::string> public_headers() {
  std::set<std::string> h;
  const fs::path root = fs::path(PARASCAN_SOURCE_DIR) / "core" / "include";
  for (const auto& e : fs::recursive_directory_iterator(root / "parascan"))
    if (e.is_regular_file() && (e.path().extension() == ".hpp" || e.path().extension() == ".cuh"))
      h.insert(fs::relative(e.path(), root).generic_string());
  h.erase("parascan/distributed.hpp");  // needs nccl.h: only a package built with NCCL has parascan::dist
  return h;
}

TEST(package, both_consumer_units_include_every_public_header) {
  const auto headers = public_headers();
  ASSERT_GT(headers.size(), 30u);
  for (const char* unit : {"scan_and_select.cu", "sort_and_sat.cu"}) {
    std::ifstream f(fs::path(PARASCAN_SOURCE_DIR) / "examples" / "consumer" / unit);
    ASSERT_TRUE(f) << unit;
    std::stringstream text;
    text << f.rdbuf();
    for (const auto& h : headers)
      EXPECT_NE(text.str().find("#include \"" + h + "\""), std::string::npos) << unit << " does not include " << h;
  }
}
}  // namespace
