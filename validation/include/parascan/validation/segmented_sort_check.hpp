// References for the segmented sort: CUB's two segmented sorts (cub_segmented_sort.cu) and the CPU
// stable sort of every segment.
#pragma once
#include <cuda_runtime_api.h>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "parascan/validation/sort_check.hpp"

namespace parascan::validation {

enum class cub_segmented { stable_sort, radix_sort };
const char* to_string(cub_segmented which);

/// cub::DeviceSegmentedSort::StableSort{Keys,Pairs}[Descending] or
/// cub::DeviceSegmentedRadixSort::Sort{Keys,Pairs}[Descending] (which needs n and the segment count
/// below 2^31) over segments [d_begin[s], d_end[s]); keys only when d_values_in is null. Instantiated
/// for f32 keys with u32 values and `int` or std::int64_t offsets (the benchmark's peers).
template <class Key, class Value, class Offset>
cudaError_t cub_segmented_sort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                               const Value* d_values_in, Value* d_values_out, std::int64_t n, std::int64_t segments,
                               const Offset* d_begin, const Offset* d_end, bool descending, cub_segmented which,
                               cudaStream_t stream = 0);

/// For each segment [begin[s], end[s]) the permutation of its stable sort (positions within it),
/// written at the segment's place in `order`; items in no segment keep -1.
template <class Key>
std::vector<std::int64_t> cpu_segmented_order(const std::vector<Key>& keys, const std::vector<std::int64_t>& begin,
                                              const std::vector<std::int64_t>& end, int begin_bit, int end_bit,
                                              bool descending) {
  std::vector<std::int64_t> order(keys.size(), -1);
  for (std::size_t s = 0; s < begin.size(); ++s) {
    if (end[s] <= begin[s]) continue;
    const std::vector<Key> part(keys.begin() + begin[s], keys.begin() + end[s]);
    const auto o = cpu_sort_order(part, begin_bit, end_bit, descending);
    for (std::size_t i = 0; i < o.size(); ++i) order[static_cast<std::size_t>(begin[s]) + i] = o[i];
  }
  return order;
}

}  // namespace parascan::validation
