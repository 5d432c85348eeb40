// radix_sort --segments / --rows: the keys sorted segment by segment (parascan::segmented_sort_*),
// timed beside cub::DeviceSegmentedSort for f32 keys, checked against a CPU stable sort of every
// segment.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "array_io.hpp"
#include "cli.hpp"
#include "parascan/segmented_sort.hpp"

namespace parascan::app {

/// The segments of a run: rows of equal length, or offsets (segment s = [offsets[s], offsets[s+1])).
struct segments_spec {
  std::int64_t rows = -1, length = 0;
  std::vector<std::int64_t> offsets;
  std::int64_t count() const { return rows >= 0 ? rows : static_cast<std::int64_t>(offsets.size()) - 1; }
  std::int64_t begin_of(std::int64_t s) const { return rows >= 0 ? s * length : offsets[s]; }
  std::int64_t end_of(std::int64_t s) const { return rows >= 0 ? (s + 1) * length : offsets[s + 1]; }
};

/// --segments FILE (a 1-D .npy of integers, or raw i64: count + 1 offsets, non-decreasing, from 0 to
/// n) or --rows R (R must divide n): checked here, before any device work; throws input_error
/// naming the file and the problem.
segments_spec read_segments(const std::string& file, std::int64_t rows, std::int64_t n);

struct segmented_run {
  std::string what;  ///< "keys", "argsort" or "pairs"
  const host_array* keys = nullptr;   ///< null: generated
  const host_array* values = nullptr; ///< 4- or 8-byte values to move, or null
  bool argsort = false;
  segmented_sort_options options;
};

/// Sorts, times, validates and writes -o (keys, or i64 positions within each segment with --argsort)
/// and --values-out. Returns the exit code.
template <class Key>
int run_segmented(const segments_spec& seg, const std::vector<Key>& keys, const segmented_run& r, const common_options& c,
                  const std::string& values_out, const std::string& input_name);

}  // namespace parascan::app
