// References for the segmented sort: CUB's two segmented sorts (cub_segmented_sort.cu) and the CPU
// stable sort of every segment.
#pragma once
#include <cuda_runtime_api.h>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/validation/cub_count.hpp"
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

/// Segment bounds on the device in both offset types CUB takes (`int`, std::int64_t), so that each
/// CUB segmented sort is timed in both count forms (cub_count.hpp); begin64/end64 serve parascan's
/// segment_layout::offsets too. The `int` copies are meaningful only below 2^31 items.
class cub_segment_bounds {
 public:
  cub_segment_bounds(const std::vector<std::int64_t>& begin, const std::vector<std::int64_t>& end)
      : begin32_(begin.size()), end32_(end.size()), begin64_(begin.size()), end64_(end.size()) {
    const std::vector<int> b32(begin.begin(), begin.end()), e32(end.begin(), end.end());
    begin32_.copy_from_host(b32.data(), b32.size());
    end32_.copy_from_host(e32.data(), e32.size());
    begin64_.copy_from_host(begin.data(), begin.size());
    end64_.copy_from_host(end.data(), end.size());
    PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());  // the host vectors above are temporaries
  }
  std::int64_t count() const { return static_cast<std::int64_t>(begin64_.size()); }
  const std::int64_t* begin64() const { return begin64_.data(); }
  const std::int64_t* end64() const { return end64_.data(); }

  /// cub_segmented_sort over these segments, with the offset type of `form`.
  template <class Key, class Value>
  cudaError_t sort(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                   Value* d_values_out, std::int64_t n, bool descending, cub_segmented which, cub_count form,
                   cudaStream_t stream = 0) const {
    return form == cub_count::int32
               ? cub_segmented_sort(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, count(),
                                    begin32_.data(), end32_.data(), descending, which, stream)
               : cub_segmented_sort(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, count(),
                                    begin64_.data(), end64_.data(), descending, which, stream);
  }

 private:
  device_buffer<int> begin32_, end32_;
  device_buffer<std::int64_t> begin64_, end64_;
};

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
