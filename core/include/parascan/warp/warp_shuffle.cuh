// Warp-level building blocks: shuffles of any trivially copyable type, an inclusive warp scan, an
// order-preserving warp reduction (for look-back, where lane 0 is the newest element), warp sums and
// the warp maximum.
#pragma once
#include <cstring>
#include <type_traits>
#include "parascan/ops.hpp"

namespace parascan::warp {

inline constexpr int warp_threads = 32;
inline constexpr unsigned full_mask = 0xffffffffu;

/// Apply a 32-bit shuffle to every word of a trivially copyable T.
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(T v, Shuffle shuffle) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned w[words] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = shuffle(w[i]);
  memcpy(&v, w, sizeof(T));
  return v;
}

/// __shfl_up_sync / __shfl_down_sync for any trivially copyable T.
template <class T>
__device__ __forceinline__ T shfl_up(T v, int delta) {
  return shuffle_words(v, [delta](unsigned w) { return __shfl_up_sync(full_mask, w, delta); });
}
template <class T>
__device__ __forceinline__ T shfl_down(T v, int delta) {
  return shuffle_words(v, [delta](unsigned w) { return __shfl_down_sync(full_mask, w, delta); });
}

/// Inclusive scan across the 32 lanes (Kogge–Stone with shuffles): 5 steps, no shared memory.
template <class T, class Op>
__device__ __forceinline__ T inclusive_scan(T v, Op op, int lane) {
#pragma unroll
  for (int offset = 1; offset < warp_threads; offset <<= 1) {
    T up = shfl_up(v, offset);
    if (lane >= offset) v = op(up, v);
  }
  return v;
}

/// Reduce lanes 0..last (inclusive) where higher lanes hold OLDER elements: lane 0 receives
/// v[last] ⊕ … ⊕ v[1] ⊕ v[0]. Other lanes' results are unspecified.
template <class T, class Op>
__device__ __forceinline__ T reduce_newest_first(T v, Op op, int lane, int last) {
#pragma unroll
  for (int offset = 1; offset < warp_threads; offset <<= 1) {
    T older = shfl_down(v, offset);
    if (lane + offset <= last) v = op(older, v);
  }
  return v;
}

/// Sums over the warp of values of any width (whole words shuffled): the total in every lane, one
/// lane's value, and each lane's exclusive sum (the summed-area tables' tiles).
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = warp_threads / 2; offset > 0; offset >>= 1)
    v = v + shuffle_words(v, [offset](unsigned w) { return __shfl_xor_sync(full_mask, w, offset); });
  return v;
}

/// The largest of the 32 lanes' values, in every lane, by a butterfly of 5 shuffles (any GPU).
__device__ __forceinline__ unsigned warp_max_by_shuffles(unsigned v) {
#pragma unroll
  for (int offset = warp_threads / 2; offset > 0; offset >>= 1) {
    const unsigned o = __shfl_xor_sync(full_mask, v, offset);
    v = o > v ? o : v;
  }
  return v;
}

/// The same by one redux.sync on sm_80 and later; sm_75 (the oldest GPU CUDA 13 builds for) has no
/// __reduce_max_sync and takes the shuffles.
__device__ __forceinline__ unsigned warp_max(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(full_mask, v);
#else
  return warp_max_by_shuffles(v);
#endif
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
