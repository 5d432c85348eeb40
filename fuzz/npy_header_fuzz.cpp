// libFuzzer target: the .npy header parser. Anything but a clean parse or input_error is a bug
// (libFuzzer reports the crash; AddressSanitizer and UBSan catch memory and arithmetic errors).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include "array_io.hpp"
#include "exit_codes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parascan::app;
  dtype type{};
  std::int64_t count = -1;
  std::size_t offset = 0;
  try {
    parse_npy_header(data, size, "fuzz.npy", type, count, offset);
  } catch (const input_error&) {
    return 0;
  }
  // Accepted: the header must lie inside the file and describe a sane array.
  if (offset > size || offset < 10 || count < 0) std::abort();
  return 0;
}
