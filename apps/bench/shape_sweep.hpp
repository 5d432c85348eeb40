// The block-size study of `bench --primitive sweep` (shape_sweep.cu).
#pragma once
#include <cstdint>
#include <vector>

namespace parascan::app {

struct shape_result {
  int threads, items;
  double ms;
  bool ok;  ///< the output matched the reference
};

/// The single-pass u32 exclusive sum of d_in (n items) at every swept tile shape; d_ref holds the
/// expected output. Median of `repeat` timed runs each.
std::vector<shape_result> scan_shape_sweep(const std::uint32_t* d_in, std::uint32_t* d_out, const std::uint32_t* d_ref,
                                           std::int64_t n, int repeat);

}  // namespace parascan::app
