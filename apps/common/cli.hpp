// The options every tool shares, and the one place that turns exceptions into exit codes.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace parascan::app {

struct common_options {
  std::string output;        // -o/--output
  bool validate = false;     // --validate
  int repeat = 5;            // --repeat N (median)
  std::string json;          // --json FILE|-
  int device = 0;            // --device ID
  bool quiet = false;        // -q/--quiet
};

/// Add -o, --validate, --repeat, --json, --device, -q, --version and a --help footer with `example`.
void add_common_options(CLI::App& app, common_options& opts, const std::string& example);

/// Parse, run `body`, and map every failure to its documented exit code with one message
/// "<prog>: error: <what>" on stderr. Returns the exit code.
int run_tool(CLI::App& app, int argc, char** argv, const std::function<int()>& body);

}  // namespace parascan::app
