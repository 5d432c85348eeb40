// Exclusive sum of one value per thread across a block, by warp shuffles and one shared word per
// warp (the small block scan of the radix sort's digit counts).
#pragma once

namespace parascan::block {

/// Exclusive sum over the block's Threads threads (one value each); `warp_totals` holds Threads / 32
/// items. `total` receives the block's sum. Ends with a barrier, so `warp_totals` may be reused at once.
template <int Threads, class T>
__device__ __forceinline__ T exclusive_sum(T v, T* warp_totals, T& total) {
  constexpr int n_warps = Threads / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T x = v;
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    const T y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) warp_totals[warp] = x;
  __syncthreads();
  T before = 0, all = 0;
#pragma unroll
  for (int w = 0; w < n_warps; ++w) {
    const T t = warp_totals[w];
    before += w < warp ? t : T(0);
    all += t;
  }
  __syncthreads();
  total = all;
  return before + x - v;
}

}  // namespace parascan::block
