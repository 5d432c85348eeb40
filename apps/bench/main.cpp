// bench: throughput of parascan's scans — every block algorithm × device strategy — beside CUB and a
// device-to-device copy measured in the same process. Reports items/s, GB/s of minimal traffic
// (read n + write n), the fraction of the measured copy bandwidth and the ratio to CUB (> 1: faster).
#include <cstdio>
#include <string>
#include <vector>
#include "../common/cli.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/timing.hpp"
#include "array_io.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device_info.hpp"
#include "parascan/scan.hpp"
#include "parascan/validation/cub_scan.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct bench_args {
  bool quick = false;
  std::vector<int> log_sizes;
  std::string filter, csv;
  common_options common;
};

struct row {
  std::string variant, algorithm, strategy;
  std::int64_t n = 0;
  double ms = 0, cub_ms = 0, copy_gbs = 0;
  std::int64_t differences = 0;
  double items_per_s() const { return n / (ms * 1e-3); }
  double gbs() const { return 2.0 * n * sizeof(std::uint32_t) / (ms * 1e-3) / 1e9; }
};

/// Copies of the input so that, for sizes that fit in L2, consecutive runs read cold data.
int rotation_count(std::int64_t n, const device_description& d) {
  const double bytes = 2.0 * n * sizeof(std::uint32_t);
  const int k = static_cast<int>(4.0 * d.l2_bytes / bytes) + 1;
  return k > 16 ? 16 : k;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench: parascan scan throughput beside CUB and the copy bandwidth", "bench"};
  bench_args a;
  app.add_flag("--quick", a.quick, "Sizes 2^20, 2^24, 2^28 and 3 repeats (a minute or so)");
  app.add_option("--log-sizes", a.log_sizes, "Sizes as powers of two (default 16 20 24 28 30)")->delimiter(',');
  app.add_option("--filter", a.filter, "Only variants whose 'algorithm/strategy' contains this text");
  app.add_option("--csv", a.csv, "Also write the rows as CSV to FILE");
  common_options& c = a.common;
  c.repeat = 20;
  add_common_options(app, c, "bench --quick --csv scan.csv");
  return run_tool(app, argc, argv, [&]() -> int {
    const auto d = select_device(c.device);
    if (a.log_sizes.empty()) a.log_sizes = a.quick ? std::vector<int>{20, 24, 28} : std::vector<int>{16, 20, 24, 28, 30};
    const int repeat = a.quick ? 3 : c.repeat;
    for (int k : a.log_sizes)
      if (k < 1 || k > 34) throw input_error("--log-sizes: 2^" + std::to_string(k) + " is outside 2^1 .. 2^34");
    std::printf("bench: u32 exclusive sum scan on %s (sm_%d%d, %d SMs, %.0f MB L2), median of %d, driver %d, runtime %d\n",
                d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count, d.l2_bytes / 1e6, repeat, d.driver_version,
                d.runtime_version);
    std::printf("%-6s %-16s %-17s %10s %9s %8s %7s %7s %s\n", "n", "algorithm", "strategy", "time_ms", "Gitems/s",
                "GB/s", "of_copy", "vs_CUB", "check");
    std::vector<row> rows;
    for (int k : a.log_sizes) {
      const std::int64_t n = std::int64_t(1) << k;
      const int rot = rotation_count(n, d);
      device_buffer<std::uint32_t> in(static_cast<std::size_t>(n) * rot), out(n), ref(n);
      PARASCAN_CUDA_CHECK(validation::fill_random_words(in.data(), in.size(), 1234 + k));
      int turn = 0;
      auto next_in = [&] { return in.data() + static_cast<std::size_t>(n) * (turn++ % rot); };

      // The yardsticks: a device copy of the same bytes, and CUB on the same data.
      const double copy_ms = median_ms(repeat, [&] {
        PARASCAN_CUDA_CHECK(validation::device_copy(out.data(), next_in(), n * sizeof(std::uint32_t)));
      });
      const double copy_gbs = 2.0 * n * sizeof(std::uint32_t) / (copy_ms * 1e-3) / 1e9;
      std::size_t cub_bytes = 0;
      PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(nullptr, cub_bytes, in.data(), ref.data(), n, sum{}, 0u));
      device_buffer<char> cub_temp(cub_bytes);
      const double cub_ms = median_ms(repeat, [&] {
        PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(cub_temp.data(), cub_bytes, next_in(), ref.data(), n, sum{}, 0u));
      });
      PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(cub_temp.data(), cub_bytes, in.data(), ref.data(), n, sum{}, 0u));
      row cub_row{"cub", "CUB", "DeviceScan", n, cub_ms, cub_ms, copy_gbs, 0};
      rows.push_back(cub_row);

      for (auto alg : all_block_algorithms) {
        for (auto strat : all_device_strategies) {
          const std::string variant = std::string(to_string(alg)) + "/" + std::string(to_string(strat));
          if (!a.filter.empty() && variant.find(a.filter) == std::string::npos) continue;
          scan_options o;
          o.algorithm = alg;
          o.strategy = strat;
          std::size_t bytes = 0;
          PARASCAN_CUDA_CHECK(exclusive_scan(nullptr, bytes, in.data(), out.data(), n, sum{}, 0u, 0, o));
          device_buffer<char> temp(bytes);
          const double ms = median_ms(repeat, [&] {
            PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), bytes, next_in(), out.data(), n, sum{}, 0u, 0, o));
          });
          // Check this variant's output on the first input against CUB's, on the device.
          out.poison();
          PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), bytes, in.data(), out.data(), n, sum{}, 0u, 0, o));
          row r{variant, std::string(to_string(alg)), std::string(to_string(strat)), n, ms, cub_ms, copy_gbs, 0};
          PARASCAN_CUDA_CHECK(validation::count_word_differences(out.data(), ref.data(), n, r.differences));
          rows.push_back(r);
        }
      }
      // Print this size's rows (CUB first, then ours), then the copy line.
      for (const auto& r : rows) {
        if (r.n != n) continue;
        std::printf("2^%-4d %-16s %-17s %10.4f %9.2f %8.1f %6.0f%% %6.2fx %s\n", k, r.algorithm.c_str(),
                    r.strategy.c_str(), r.ms, r.items_per_s() / 1e9, r.gbs(), 100.0 * r.gbs() / copy_gbs,
                    r.cub_ms / r.ms, r.differences == 0 ? "ok" : "MISMATCH");
      }
      std::printf("2^%-4d %-16s %-17s %10.4f %9s %8.1f %6.0f%%\n", k, "copy", "cudaMemcpy D2D", copy_ms, "-", copy_gbs, 100.0);
      std::fflush(stdout);
    }
    std::int64_t bad = 0;
    for (const auto& r : rows) bad += r.differences != 0;
    if (!a.csv.empty()) {
      std::string s = "primitive,type,n,algorithm,strategy,time_ms,items_per_s,gb_per_s,copy_gb_per_s,fraction_of_copy,cub_time_ms,ratio_to_cub,check\n";
      for (const auto& r : rows) {
        char line[512];
        std::snprintf(line, sizeof line, "exclusive_scan,u32,%lld,%s,%s,%.6f,%.6e,%.3f,%.3f,%.4f,%.6f,%.4f,%s\n",
                      static_cast<long long>(r.n), r.algorithm.c_str(), r.strategy.c_str(), r.ms, r.items_per_s(),
                      r.gbs(), r.copy_gbs, r.gbs() / r.copy_gbs, r.cub_ms, r.cub_ms / r.ms,
                      r.differences == 0 ? "ok" : "mismatch");
        s += line;
      }
      write_file_atomic(a.csv, {}, s.data(), s.size());
    }
    if (!c.json.empty()) {
      std::string arr = "[";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        json_object j;
        j.add("n", rows[i].n).add("algorithm", rows[i].algorithm).add("strategy", rows[i].strategy)
            .add("time_ms", rows[i].ms).add("gb_per_s", rows[i].gbs()).add("ratio_to_cub", rows[i].cub_ms / rows[i].ms)
            .add("fraction_of_copy", rows[i].gbs() / rows[i].copy_gbs).add("check", rows[i].differences == 0);
        arr += (i ? ", " : "") + j.str();
      }
      json_object top;
      top.add("tool", "bench").add("device", d.name).raw("rows", arr + "]");
      write_json(c.json, top.str());
    }
    if (bad) throw mismatch_error(std::to_string(bad) + " variants differ from CUB");
    return exit_ok;
  });
}
