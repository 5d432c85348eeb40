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

/// The shared options a tool offers beyond --json, --device, -q and --version (which every tool has).
enum offered_options : unsigned { offer_output = 1, offer_validate = 2, offer_repeat = 4, offer_all = 7 };

/// Add the offered options of -o, --validate, --repeat, then --json, --device, -q, --version and a
/// --help footer with `example`.
void add_common_options(CLI::App& app, common_options& opts, const std::string& example, unsigned offered = offer_all);

/// Check of a path the tool will write: not a folder, and its folder exists ('-' passes: stdout).
/// Checked while parsing, so a bad path is exit 2 before any device work.
CLI::Validator writable_file();

/// Check of an integer option that must be ≥ 0 ("--n: must be ≥ 0, got -5").
CLI::Validator non_negative();

/// Parse, run `body`, and map every failure to its documented exit code with one message
/// "<prog>: error: <what>" on stderr. Returns the exit code.
int run_tool(CLI::App& app, int argc, char** argv, const std::function<int()>& body);

}  // namespace parascan::app
