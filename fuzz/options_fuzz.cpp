// libFuzzer target: option values — numbers of every type (parse_value), compact's --keep rules,
// sat's --rect and marching_cubes' --dims. The first byte picks the parser; the rest is the text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include "exit_codes.hpp"
#include "option_parsers.hpp"
#include "volume_io.hpp"

namespace {
template <class T>
void values_and_rules(const std::string& text) {
  using namespace parascan::app;
  try {
    (void)parse_value<T>(text, "--value");
  } catch (const input_error&) {
  }
  try {
    (void)parse_keep<T>(text);
  } catch (const input_error&) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parascan::app;
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 7) {
    case 0: values_and_rules<std::int8_t>(text); break;
    case 1: values_and_rules<std::uint32_t>(text); break;
    case 2: values_and_rules<std::int64_t>(text); break;
    case 3: values_and_rules<std::uint64_t>(text); break;
    case 4: values_and_rules<double>(text); break;
    case 5:
      try {  // --dims: three counts ≥ 1 whose product (× 8 bytes) fits in 64 bits
        const auto d = parse_dims(text);
        if (d[0] < 1 || d[1] < 1 || d[2] < 1 || d[0] > INT64_MAX / 8 / d[1] / d[2]) std::abort();
      } catch (const input_error&) {
      }
      break;
    default:
      try {
        const auto r = parse_rect(text, 384, 303);
        if (r.x0 < 0 || r.y0 < 0 || r.x1 >= 384 || r.y1 >= 303 || r.x0 > r.x1 || r.y0 > r.y1) std::abort();
      } catch (const input_error&) {
      }
  }
  return 0;
}
