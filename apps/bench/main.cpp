// bench: throughput of parascan's primitives beside CUB and a device-to-device copy measured in the
// same process. Reports items/s, GB/s of minimal traffic, the fraction of the measured copy bandwidth
// and the ratio to CUB (> 1: parascan is faster), and checks every output against CUB's. One file per
// primitive over a shared runner (runner.hpp):
//   scan:     u32 exclusive sum, every block algorithm × device strategy; u64 and f32 (scan_bench.cpp)
//   select:   select_if on u32 and u64 keeping 10%, 50%, 90% (select_bench.cpp)
//   sort:     radix sort of every key width, pairs and argsort (sort_bench.cpp)
//   segmented: segmented sort of batches and ragged segments beside CUB's segmented sorts (segmented_bench.cpp)
//   axis:     f32 sums along rows and down columns of matrices (axis_scan_bench.cpp)
//   topk:     the k largest of every row, f32 and bf16 (topk_bench.cpp)
//   sat:      summed-area tables of u8 images (sat_bench.cpp)
//   pipeline: host arrays through the GPU with the transfers, beside the CPU (pipeline_bench.cpp)
//   sort_pipeline: keys sorted out of core from host memory (sort_pipeline_bench.cpp)
//   dist:     scan and sort over every GPU of the host with NCCL (dist_bench.cu, NCCL builds only)
//   mc:       marching cubes of the procedural fields (mc_bench.cpp)
// (The block-size study of the scan is experiments/scan_shape_sweep.cu.)
#include <cstdio>
#include <string>
#include <vector>
#include "../common/cli.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "array_io.hpp"
#include "parascan/device_info.hpp"
#include "parascan/validation/cub_count.hpp"
#include "runner.hpp"
#include "sort_bench.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct bench_args {
  bool quick = false;
  std::size_t memory_limit = 0;
  std::vector<int> log_sizes;
  std::string filter, csv, primitive = "all";
  bool beyond = false, every_sort_algorithm = false;
  common_options common;
};

std::string csv_of(const std::vector<row>& rows) {
  // cub_time_ms is the faster of cub_int_ms and cub_int64_ms (CUB called with an `int` or an
  // std::int64_t count); cub_version names the CUB headers measured.
  std::string s = "primitive,type,n,algorithm,strategy,time_ms,items_per_s,gb_per_s,copy_gb_per_s,fraction_of_copy,cub_time_ms,ratio_to_cub,check,passes,pass_ms,cub_pass_ms,cub_int_ms,cub_int64_ms,cub_version\n";
  const std::string version = validation::cub_version();
  for (const auto& r : rows) {
    char cub[64] = ",";  // empty cub_time_ms and ratio_to_cub where CUB has no same operation
    if (r.has_cub) std::snprintf(cub, sizeof cub, "%.6f,%.4f", r.cub_ms, r.cub_ms / r.ms);
    char forms[64] = ",";
    if (r.has_cub && r.cub_int32_ms > 0) std::snprintf(forms, sizeof forms, "%.6f,%.6f", r.cub_int32_ms, r.cub_int64_ms);
    char line[768];
    std::snprintf(line, sizeof line, "%s,%s,%lld,%s,%s,%.6f,%.6e,%.3f,%.3f,%.4f,%s,%s,%d,%.6f,%.6f,%s,%s\n", r.primitive.c_str(),
                  r.type.c_str(), static_cast<long long>(r.n), r.algorithm.c_str(), r.strategy.c_str(), r.ms,
                  r.items_per_s(), r.gbs(), r.copy_gbs, r.gbs() / r.copy_gbs, cub, r.ok ? "ok" : "mismatch", r.passes,
                  r.passes ? r.ms / r.passes : 0.0, r.passes && r.has_cub ? r.cub_ms / r.passes : 0.0, forms,
                  r.has_cub ? version.c_str() : "");
    s += line;
  }
  return s;
}

std::string json_of(const std::vector<row>& rows, const std::string& device) {
  std::string arr = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    json_object j;
    j.add("primitive", r.primitive).add("type", r.type).add("n", r.n).add("algorithm", r.algorithm)
        .add("strategy", r.strategy).add("time_ms", r.ms).add("gb_per_s", r.gbs());
    if (r.has_cub) j.add("ratio_to_cub", r.cub_ms / r.ms).add("cub_time_ms", r.cub_ms);
    if (r.has_cub && r.cub_int32_ms > 0) j.add("cub_int_ms", r.cub_int32_ms).add("cub_int64_ms", r.cub_int64_ms);
    j.add("fraction_of_copy", r.gbs() / r.copy_gbs).add("check", r.ok);
    if (r.passes) j.add("passes", r.passes).add("pass_ms", r.ms / r.passes).add("cub_pass_ms", r.cub_ms / r.passes);
    arr += (i ? ", " : "") + j.str();
  }
  json_object top;
  top.add("tool", "bench").add("device", device).add("cub_version", validation::cub_version()).raw("rows", arr + "]");
  return top.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench: parascan primitives beside CUB and the copy bandwidth", "bench"};
  bench_args a;
  app.add_flag("--quick", a.quick, "Sizes 2^20, 2^24, 2^28 and 3 repeats (a minute or so)");
  app.add_option("--primitive", a.primitive,
                 "scan, select, sort, segmented, axis, topk, sat, pipeline, mc or all (axis: f32 sums along the rows and down the "
                 "columns of matrices, (2^20, 32) among them, beside CUB's InclusiveScanByKey (row keys computed) and its 1-D scan of the same bytes; "
                 "topk: the 50 or 1024 largest of rows of f32 and bf16, beside CUB's segmented sorts of the whole rows (and cub::DeviceBatchedTopK, sorted and unsorted, where the CUB built against has it: 3.6 and on); segmented: f32 keys and argsort over rows "
                 "(1x2^24, 8x2^20, 64x50257, 256x128256, 2^16x256, 2^20x16) and 2^20 ragged segments, beside CUB's "
                 "DeviceSegmentedSort and DeviceSegmentedRadixSort; sort: radix sort of keys of every width, pairs and "
                 "argsort on uniform, few_distinct, sorted, all_equal and runs64 keys beside CUB; sat: 1024² to 16384² u8 images, "
                 "8192² with --quick; pipeline: host arrays through the GPU with the transfers, beside the CPU (one core "
                 "and every core) and the PCIe copy bound; sort_pipeline: u32 keys sorted out of core from host memory beside "
                 "two PCIe round trips and the all-core CPU sort; dist: scan and sort of u32 items on every GPU of the host "
                 "beside one GPU, and the exchange beside the peer-to-peer bandwidth (NCCL builds); mc: marching cubes of procedural fields on 128³ to 512³ "
                 "grids; all is scan, select and sat)")
      ->check(CLI::IsMember({"scan", "select", "sort", "segmented", "axis", "topk", "sat", "pipeline", "sort_pipeline", "dist", "mc", "all"}))
      ->capture_default_str();
  app.add_option("--log-sizes", a.log_sizes, "Sizes as powers of two, 1 to 34 (default 16 20 24 28 30)")->delimiter(',')->check(CLI::Range(1, 34));
  app.add_flag("--beyond-gpu-memory", a.beyond,
               "With --primitive pipeline: also scan one pinned u32 array 5% larger than the GPU's memory, in place "
               "(needs that much host memory; a minute or more)");
  app.add_option("--device-memory-limit", a.memory_limit,
                 "With --primitive sort_pipeline: bytes of device memory the sort may use (default a quarter of the keys' bytes)")
      ->check(CLI::PositiveNumber);
  app.add_option("--filter", a.filter, "Only scan variants whose 'algorithm/strategy' contains this text; sort cases whose 'type mode/input' does (e.g. 'u32 keys/')");
  app.add_flag("--every-algorithm", a.every_sort_algorithm, "With --primitive sort: the split sorts on every case (by default on u32 keys only)");
  app.add_option("--csv", a.csv, "Also write the rows as CSV to FILE")->check(writable_file());
  common_options& c = a.common;
  c.repeat = 20;
  add_common_options(app, c, "bench --quick --csv bench.csv", offer_repeat);
  return run_tool(app, argc, argv, [&]() -> int {
    const auto d = select_device(c.device);
    if (a.log_sizes.empty()) a.log_sizes = a.quick ? std::vector<int>{20, 24, 28} : std::vector<int>{16, 20, 24, 28, 30};
    const int repeat = a.quick ? 3 : c.repeat;
    std::printf("bench: %s (sm_%d%d, %d SMs, %.0f MB L2), median of %d, driver %d, runtime %d\n", d.name.c_str(), d.cc_major,
                d.cc_minor, d.sm_count, d.l2_bytes / 1e6, repeat, d.driver_version, d.runtime_version);
    std::printf("bench: beside %s, each call timed with an `int` and an int64 count; vs_CUB divides by the faster\n",
                validation::cub_version().c_str());
    std::printf("%-7s %-4s %-5s %-16s %-17s %10s %9s %8s %7s %7s %s\n", "prim", "type", "n", "algorithm", "strategy",
                "time_ms", "Gitems/s", "GB/s", "of_copy", "vs_CUB", "check");
    runner r(d, repeat, a.filter);
    const std::string& p = a.primitive;
    if (p == "pipeline") {
      std::printf("(pipe rows: 'vs_CUB' is the speedup over one CPU core, 'of_copy' the fraction of the pinned pipeline's PCIe copy bound)\n");
      for (int k : a.log_sizes) bench_pipeline(r, std::int64_t(1) << k);
      if (a.beyond) bench_pipeline_beyond_gpu_memory(r);
    }
    if (p == "dist") {
#ifdef PARASCAN_HAVE_NCCL
      std::printf("(dist rows: 'vs_CUB' is the speedup over one GPU; the exchange row's 'of_copy' the fraction of peer-to-peer bandwidth)\n");
      for (int k : a.log_sizes) bench_dist(r, std::int64_t(1) << k);
#else
      throw input_error("--primitive dist: this bench was built without NCCL (PARASCAN_WITH_NCCL)");
#endif
    }
    if (p == "sort_pipeline") {
      std::printf("(sortpipe rows: 'vs_CUB' is the speedup over the all-core CPU sort, 'of_copy' the fraction of two PCIe round trips)\n");
      for (int k : a.log_sizes) bench_sort_pipeline(r, std::int64_t(1) << k, a.memory_limit);
    }
    if (p == "all" || p == "scan" || p == "select" || p == "sort") {
      for (int k : a.log_sizes) {
        const std::int64_t n = std::int64_t(1) << k;
        if (p == "all" || p == "scan") bench_scan(r, n);
        if (p == "sort") {
          sort_bench_options so;
          so.repeat = repeat;
          so.filter = a.filter;
          so.every_algorithm = a.every_sort_algorithm;
          bench_sort(n, so, [&](const row& line) { r.add(line); });
        }
        if (p == "all" || p == "select") bench_select(r, n);
      }
    }
    if (p == "segmented") bench_segmented(r);
    if (p == "axis") bench_axis_scan(r);
    if (p == "topk") bench_topk(r);
    if (p == "sat" || p == "all") bench_sat(r, a.quick);
    if (p == "mc") bench_mc(r, a.quick);
    std::int64_t bad = 0;
    for (const auto& line : r.rows()) bad += !line.ok;
    if (!a.csv.empty()) {
      const std::string s = csv_of(r.rows());
      write_file_atomic(a.csv, {}, s.data(), s.size());
    }
    if (!c.json.empty()) write_json(c.json, json_of(r.rows(), d.name));
    if (bad) throw mismatch_error(std::to_string(bad) + " rows failed their check");
    return exit_ok;
  });
}
