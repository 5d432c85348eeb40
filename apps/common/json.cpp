// Writing --json reports.
#include "json.hpp"
#include <iostream>
#include "array_io.hpp"

namespace parascan::app {

void write_json(const std::string& path, const std::string& json) {
  if (path == "-") {
    std::cout << json << "\n";
    return;
  }
  const std::string text = json + "\n";
  write_file_atomic(path, {}, text.data(), text.size());
}

}  // namespace parascan::app
