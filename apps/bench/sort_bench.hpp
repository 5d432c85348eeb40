// bench --primitive sort: the radix sort beside cub::DeviceRadixSort in the same process.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include "bench_row.hpp"
#include "parascan/device_info.hpp"

namespace parascan::app {

struct sort_bench_options {
  int repeat = 10;
  std::string filter;           ///< only cases whose "type mode/dist" contains this text
  bool every_algorithm = false; ///< the split sorts on every case, not only on u32 keys
};

/// Rows for n keys: keys u8/u16/u32/u64/f32/f64 on uniform, few-distinct, sorted and all-equal
/// inputs; pairs of u32/u64/f32 keys with u32 and u64 values; argsort (u32 indices) of u32/f32/u64
/// keys. Each beside CUB (SortKeys, or SortPairs with an index array for argsort), timed with an
/// `int` and with an std::int64_t count (the faster is the ratio's denominator; the CSV has both),
/// and each output compared word for word with CUB's. The split sorts run on u32
/// keys (every case with `every_algorithm`). Cases whose buffers would not fit in free device
/// memory are reported as skipped.
void bench_sort(std::int64_t n, const sort_bench_options& o, const std::function<void(const row&)>& add);

}  // namespace parascan::app
