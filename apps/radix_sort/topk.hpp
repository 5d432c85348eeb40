// radix_sort --topk K: the K largest (--smallest: smallest) keys of each row (--rows R; the whole input
// is one row without it) and their positions, by parascan::topk, checked against a CPU stable sort of
// every row; beside cub::DeviceSegmentedSort of the whole rows for f32 keys (CUB 3.0.1 has no top-k).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "cli.hpp"

namespace parascan::app {

struct topk_run {
  std::int64_t rows = 1, k = 0;
  bool smallest = false;
};

/// The run that `--topk K [--rows R] [--smallest]` asks for over `keys` keys (rows < 0: one row);
/// throws input_error (exit 2) for rows that do not divide the keys, K beyond a row, or other options
/// (`other_options`: values, argsort, bit ranges, descending, algorithm, memory limit, GPUs).
topk_run topk_args(std::int64_t keys, std::int64_t rows, std::int64_t k, bool smallest, bool other_options);

/// Selects, times, validates, writes -o (R × K keys, row by row) and --values-out (their i64
/// positions within the row). Returns the exit code. rows divides the key count and k ≤ its length
/// (checked before the GPU).
template <class Key>
int run_topk(const topk_run& r, const std::vector<Key>& keys, const common_options& c, const std::string& values_out,
             const std::string& input_name);

}  // namespace parascan::app
