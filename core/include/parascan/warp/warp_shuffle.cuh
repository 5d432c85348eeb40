// Warp-level building blocks: shuffles of any trivially copyable type, an inclusive warp scan, and
// an order-preserving warp reduction (for look-back, where lane 0 is the newest element).
#pragma once
#include <cstring>

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

}  // namespace parascan::warp
