// Common options and exit-code mapping for every parascan tool.
#include "cli.hpp"
#include <cstdio>
#include <filesystem>
#include <iostream>
#include "exit_codes.hpp"
#include "parascan/buffer.hpp"
#include "parascan/config.hpp"
#include "parascan/version.hpp"
#include "parascan/device_info.hpp"
#include "parascan/error.hpp"

namespace parascan::app {

void add_common_options(CLI::App& app, common_options& o, const std::string& example, unsigned offered) {
  if (offered & offer_output)
    app.add_option("-o,--output", o.output, "Write the result here (.npy by extension, raw otherwise)")->check(writable_file());
  if (offered & offer_validate)
    app.add_flag("--validate", o.validate, "Check the result against CUB and a CPU reference (exit 1 on mismatch)");
  if (offered & offer_repeat)
    app.add_option("--repeat", o.repeat, "Timed repetitions after one warm-up; the median is reported")
        ->check(CLI::Range(1, 100000));
  app.add_option("--json", o.json, "Also write a JSON report to FILE ('-' for stdout)")->check(writable_file());
  app.add_option("--device", o.device, "CUDA device ID")->check(non_negative());
  app.add_flag("-q,--quiet", o.quiet, "Print only errors");
  app.set_version_flag("--version", std::string("parascan ") + PARASCAN_VERSION_STRING);
  app.footer("Example:\n  " + example +
             "\n\nExit codes: 0 ok, 1 validation mismatch, 2 bad input or usage, 3 CUDA error (including out of\n"
             "memory), 4 no usable CUDA device. Results go to stdout, diagnostics to stderr.");
}

CLI::Validator writable_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        namespace fs = std::filesystem;
        if (path == "-") return {};
        if (path.empty()) return "an empty path";
        std::error_code ec;
        if (fs::is_directory(path, ec)) return "'" + path + "' is a folder; give a file name";
        fs::path folder = fs::path(path).parent_path();
        if (folder.empty()) folder = ".";
        if (!fs::exists(folder, ec)) return "folder '" + folder.string() + "' of '" + path + "' does not exist";
        if (!fs::is_directory(folder, ec)) return "'" + folder.string() + "' (in '" + path + "') is not a folder";
        return {};
      },
      "FILE");
}

CLI::Validator non_negative() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        const auto first = v.find_first_not_of(" \t");
        if (first != std::string::npos && v[first] == '-') return "must be >= 0, got " + v;
        return {};
      },
      "N>=0");
}

int run_tool(CLI::App& app, int argc, char** argv, const std::function<int()>& body) {
  const std::string prog = app.get_name();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // CLI11's own errors in the tools' one format, "<prog>: error: <what>", exit 2.
    std::string what = e.what();
    if (!what.empty() && what[0] >= 'A' && what[0] <= 'Z' && (what.size() < 2 || !(what[1] >= 'A' && what[1] <= 'Z')))
      what[0] = static_cast<char>(what[0] - 'A' + 'a');
    std::cerr << prog << ": error: " << what << " (" << prog << " --help lists the options)\n";
    return exit_bad_input;
  }
  auto report = [&](const std::string& what) { std::cerr << prog << ": error: " << what << "\n"; };
  try {
    return body();
  } catch (const mismatch_error& e) {
    report(e.what());
    return exit_mismatch;
  } catch (const input_error& e) {
    report(e.what());
    return exit_bad_input;
  } catch (const no_cuda_device& e) {
    report(e.what());
    return exit_no_device;
  } catch (const out_of_memory& e) {
    report(e.what());
    return exit_cuda_error;
  } catch (const cuda_error& e) {
    if (e.code() == cudaErrorNoDevice || e.code() == cudaErrorInsufficientDriver) {
      report(std::string("no usable CUDA device: ") + e.what());
      return exit_no_device;
    }
    report(std::string("CUDA error: ") + e.what());
    return exit_cuda_error;
  } catch (const std::bad_alloc&) {
    report("out of host memory");
    return exit_cuda_error;
  } catch (const std::exception& e) {
    report(e.what());
    return exit_cuda_error;
  }
}

}  // namespace parascan::app
