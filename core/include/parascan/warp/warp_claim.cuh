// A warp's claim of slots on a counter shared by warps (warp-aggregated appends to a list): every lane
// asks for some slots, the lanes' counts are scanned by shuffles (warp::inclusive_scan), and one lane
// makes the warp's single atomicAdd. Used by the top-k's filter (one claim a warp on a row's global
// counter, device/topk/filter.cuh) and block::appender (one on the block's shared count).
#pragma once
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::warp {

/// Every lane asks for `mine` slots; the warp makes one atomicAdd on *counter (none when it asks for
/// nothing). Returns the warp's first slot; `before` gets the slots of the lanes below this one and
/// `total` the warp's. Every lane of the warp calls it.
__device__ __forceinline__ unsigned claim(unsigned mine, unsigned* counter, unsigned& before, unsigned& total) {
  const int lane = static_cast<int>(threadIdx.x % warp_threads);
  const unsigned inclusive = inclusive_scan(mine, sum{}, lane);
  before = inclusive - mine;
  total = lane_value(inclusive, warp_threads - 1);
  unsigned base = 0;
  if (lane == warp_threads - 1 && total != 0) base = atomicAdd(counter, total);
  return lane_value(base, warp_threads - 1);
}

}  // namespace parascan::warp
