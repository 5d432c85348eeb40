// The decoupled look-back (Merrill & Garland 2016): one walk for every single-pass algorithm — the
// scan and select (a warp over a line of scalar tile statuses), the summed-area table (a warp over
// vectors, along tile rows and down tile columns) and Onesweep (a thread per digit over its chain).
// The status layouts and their memory ordering are tile_status.cuh's.
//
// The walk reads the predecessors tile − stride, tile − 2·stride, … (at most `count` of them),
// `Lanes` at a time, nearest first: lane i polls the i-th of the window. A window is ready when every
// lane up to the nearest inclusive prefix (P) has published; those tiles are taken (combined by the
// caller) and the walk stops at that P, or goes on to the next window if there was none.
#pragma once
#include <cstdint>
#include "parascan/device/tile_status.cuh"

namespace parascan::device {

/// How a walk waits for a window that is not ready: `early_ns` after each of the first `early_polls`
/// polls, `late_ns` after later ones (0: spin). Polling at once mostly finds predecessors still
/// unpublished, and many warps spinning on the same few lines slow the publishes they wait for
/// (docs/performance.md, entry 7).
struct back_off {
  unsigned early_ns = 0, late_ns = 0;
  int early_polls = 0;
  __device__ __forceinline__ void wait(int poll) const {
    const unsigned ns = poll < early_polls ? early_ns : late_ns;
    if (ns > 0) __nanosleep(ns);
  }
};

template <int Lanes>
__device__ __forceinline__ unsigned lanes_where(bool b) {
  if constexpr (Lanes == 1) return b ? 1u : 0u;
  else return __ballot_sync(0xffffffffu, b);
}

/// The walk. `Lanes`: 32 (a whole warp calls it) or 1 (one thread). `window` provides
///   unsigned poll(std::int64_t t)       the state of predecessor t (this lane's), keeping its value;
///   void take(std::int64_t tile, int taken, bool at_prefix)
///                                       combine the window's `taken` nearest tiles (tile − stride …
///                                       tile − taken·stride; the last of them is P if at_prefix);
///   void waited()                       a poll found the window not ready (statistics; may do nothing).
template <int Lanes, class Window>
__device__ __forceinline__ void look_back_walk(Window& window, std::int64_t tile, std::int64_t stride, std::int64_t count,
                                          back_off delay) {
  static_assert(Lanes == 1 || Lanes == 32, "a walk is one thread or one warp");
  if constexpr (Lanes == 1) {  // a window of one: the same walk with the ballots and masks folded away
    for (int poll = 0; count > 0; tile -= stride, --count, poll = 0) {
      unsigned state;
      while ((state = window.poll(tile - stride)) == state_invalid) {
        window.waited();
        delay.wait(poll++);
      }
      window.take(tile, 1, state == state_prefix);
      if (state == state_prefix) return;
    }
    return;
  }
  const int lane = static_cast<int>(threadIdx.x % 32);
  while (count > 0) {
    const int n = count < Lanes ? static_cast<int>(count) : Lanes;
    unsigned prefix_lanes = 0;
    int take = n;
    for (int poll = 0;; ++poll) {
      const unsigned state = lane < n ? window.poll(tile - (lane + 1) * stride) : unsigned(state_invalid);
      prefix_lanes = lanes_where<Lanes>(state == state_prefix);
      const unsigned ready = lanes_where<Lanes>(state != state_invalid);
      take = prefix_lanes ? __ffs(prefix_lanes) : n;
      const unsigned needed = take == 32 ? ~0u : (1u << take) - 1u;
      if ((ready & needed) == needed) break;
      window.waited();
      delay.wait(poll);
    }
    window.take(tile, take, prefix_lanes != 0);
    if (prefix_lanes) return;
    tile -= n * stride;
    count -= n;
  }
}

}  // namespace parascan::device
