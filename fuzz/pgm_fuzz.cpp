// libFuzzer target: the PGM (P2/P5) parser. A clean parse must give dimensions and samples that
// agree; anything but a parse or input_error is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include "exit_codes.hpp"
#include "pgm.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parascan::app;
  try {
    const pgm_image img = parse_pgm(data, size, "fuzz.pgm", std::int64_t(1) << 24);
    if (img.width < 1 || img.height < 1 || img.maxval < 1 || img.maxval > 65535) std::abort();
    if (static_cast<std::int64_t>(img.samples.size()) != img.width * img.height) std::abort();
    for (auto p : img.samples)
      if (p > img.maxval) std::abort();
    // What we write must read back the same.
    const auto bytes = encode_pgm(img);
    const pgm_image again = parse_pgm(bytes.data(), bytes.size(), "again.pgm", std::int64_t(1) << 24);
    if (again.width != img.width || again.height != img.height || again.samples != img.samples) std::abort();
  } catch (const input_error&) {
  }
  return 0;
}
