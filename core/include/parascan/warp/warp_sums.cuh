// Warp-wide sums of values of any width (whole words shuffled): the total, one lane's value, and
// each lane's exclusive sum.
#pragma once
#include <type_traits>
#include "parascan/ops.hpp"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::warp {

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = warp_threads / 2; offset > 0; offset >>= 1)
    v = v + shuffle_words(v, [offset](unsigned w) { return __shfl_xor_sync(full_mask, w, offset); });
  return v;
}

template <class T>
__device__ __forceinline__ T lane_value(T v, int lane) {
  return shuffle_words(v, [lane](unsigned w) { return __shfl_sync(full_mask, w, lane); });
}

/// Σ of v over the lanes below this one (integers subtract; floats shift, so that no rounding differs).
template <class T>
__device__ __forceinline__ T exclusive_warp_sum(T v, int lane) {
  const T inc = inclusive_scan(v, sum{}, lane);
  if constexpr (std::is_integral_v<T>) {
    return inc - v;
  } else {
    const T up = shfl_up(inc, 1);
    return lane == 0 ? T(0) : up;
  }
}

}  // namespace parascan::warp
