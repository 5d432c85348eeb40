// Common options and exit-code mapping for every parascan tool.
#include "cli.hpp"
#include <cstdio>
#include <iostream>
#include "exit_codes.hpp"
#include "parascan/buffer.hpp"
#include "parascan/config.hpp"
#include "parascan/version.hpp"
#include "parascan/device_info.hpp"
#include "parascan/error.hpp"

namespace parascan::app {

void add_common_options(CLI::App& app, common_options& o, const std::string& example) {
  app.add_option("-o,--output", o.output, "Write the result here (.npy by extension, raw otherwise)");
  app.add_flag("--validate", o.validate, "Check the result against CUB and a CPU reference (exit 1 on mismatch)");
  app.add_option("--repeat", o.repeat, "Timed repetitions after one warm-up; the median is reported")
      ->check(CLI::Range(1, 100000));
  app.add_option("--json", o.json, "Also write a JSON report to FILE ('-' for stdout)");
  app.add_option("--device", o.device, "CUDA device ID")->check(CLI::NonNegativeNumber);
  app.add_flag("-q,--quiet", o.quiet, "Print only errors");
  app.set_version_flag("--version", std::string("parascan ") + PARASCAN_VERSION_STRING);
  app.footer("Example:\n  " + example +
             "\n\nExit codes: 0 ok, 1 validation mismatch, 2 bad input or usage, 3 CUDA error (including out of\n"
             "memory), 4 no usable CUDA device. Results go to stdout, diagnostics to stderr.");
}

int run_tool(CLI::App& app, int argc, char** argv, const std::function<int()>& body) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : exit_bad_input;
  }
  const std::string prog = app.get_name();
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
