// One line of the benchmark's table: a variant's time beside CUB's and the copy bandwidth measured
// in the same run.
#pragma once
#include <cstdint>
#include <string>

namespace parascan::app {

struct row {
  std::string primitive, type, algorithm, strategy;
  std::int64_t n = 0;
  double bytes = 0, ms = 0, cub_ms = 0, copy_gbs = 0;  ///< bytes: the variant's minimal traffic
  bool ok = true;
  int passes = 0;  ///< sort rows: digit passes of the key width (time per pass = ms / passes)
  bool has_cub = true;  ///< false: CUB has no same operation (cub_ms unused; no ratio is reported)
  /// CUB's time with an `int` and with an std::int64_t count (validation/cub_count.hpp); cub_ms is
  /// the faster. Zero where only one form was timed.
  double cub_int32_ms = 0, cub_int64_ms = 0;
  double items_per_s() const { return n / (ms * 1e-3); }
  double gbs() const { return bytes / (ms * 1e-3) / 1e9; }
};

/// ⌊log2 n⌋, for the table.
inline int bench_log2(std::int64_t n) {
  int k = 0;
  while ((std::int64_t(1) << (k + 1)) <= n) ++k;
  return k;
}

/// A matrix's shape for a variant name: powers of two from 1024 up as 2^k ("2^20x32", "64x50257").
inline std::string bench_shape(std::int64_t rows, std::int64_t columns) {
  const auto dim = [](std::int64_t x) {
    return (x & (x - 1)) == 0 && x >= 1024 ? "2^" + std::to_string(bench_log2(x)) : std::to_string(x);
  };
  return dim(rows) + "x" + dim(columns);
}

}  // namespace parascan::app
