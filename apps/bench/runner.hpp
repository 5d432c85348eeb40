// bench's shared runner: the timer, the copy bandwidth measured in the same run, the variant filter and
// the table's rows; one entry point per primitive (one file each: scan_bench.cpp, select_bench.cpp,
// sat_bench.cpp, pipeline_bench.cpp, sort_pipeline_bench.cpp, sort_bench.cpp, mc_bench.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "../common/timing.hpp"
#include "bench_row.hpp"
#include "parascan/device_info.hpp"

namespace parascan::app {

class runner {
 public:
  runner(const device_description& d, int repeat, std::string filter) : d_(d), repeat_(repeat), filter_(std::move(filter)) {}
  const device_description& device() const { return d_; }
  int repeat() const { return repeat_; }
  /// Copies of an input of `bytes` so that, for sizes that fit in L2, consecutive runs read cold data.
  int rotations(double bytes) const;
  /// Median device time of f (ms) over repeat() runs after a warm-up (apps/common/timing.hpp).
  double time(const std::function<void()>& f);
  /// CUB's call run(count) timed with both count forms; the row for CUB itself, whose cub_ms (the
  /// faster form) the variants' rows then carry through with_cub.
  cub_times time_cub(const std::function<void(validation::cub_count)>& run);
  /// GB/s of a device-to-device copy of `bytes` (read + write), measured now.
  double copy_gbs(const void* src, void* dst, std::size_t bytes);
  /// Whether the variant name contains --filter.
  bool wanted(const std::string& variant) const { return filter_.empty() || variant.find(filter_) != std::string::npos; }
  /// Adds a row and prints it.
  void add(const row& r);
  const std::vector<row>& rows() const { return rows_; }

 private:
  const device_description& d_;
  int repeat_;
  std::string filter_;
  std::vector<row> rows_;
};

/// `r` with CUB's times filled from `t` (cub_ms the faster form).
inline row with_cub(row r, const cub_times& t) {
  r.cub_ms = t.best_ms();
  r.cub_int32_ms = t.int32_ms;
  r.cub_int64_ms = t.int64_ms;
  return r;
}

void bench_scan(runner& r, std::int64_t n);
void bench_select(runner& r, std::int64_t n);
void bench_sat(runner& r, bool quick);
/// Segmented sorts of f32 keys (keys and argsort) on batches and ragged segments beside CUB's two
/// segmented sorts (segmented_bench.cpp).
void bench_segmented(runner& r);
/// f32 sums along the rows and down the columns of matrices beside CUB (axis_scan_bench.cpp).
void bench_axis_scan(runner& r);
/// Top-k of rows of f32 and bf16 beside CUB's segmented sorts of the whole rows (topk_bench.cpp).
void bench_topk(runner& r);
void bench_pipeline(runner& r, std::int64_t n);
void bench_pipeline_beyond_gpu_memory(runner& r);
/// u32 keys sorted out of core from pinned host memory (limit 0: a quarter of the keys' bytes).
void bench_sort_pipeline(runner& r, std::int64_t n, std::size_t limit);
/// Scan and sort of n u32 items on every GPU of the host beside one GPU, and the exchange beside the
/// peer-to-peer bandwidth (built with NCCL only: dist_bench.cu).
void bench_dist(runner& r, std::int64_t n);
/// Marching cubes of the procedural fields on grids of 128³, 256³ (and 512³ unless quick), f32.
void bench_mc(runner& r, bool quick);

}  // namespace parascan::app
