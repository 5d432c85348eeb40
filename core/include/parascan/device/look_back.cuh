// The decoupled look-back (Merrill & Garland 2016): one walk for every single-pass algorithm — the
// scan and select (a warp over a line of scalar tile statuses), the summed-area table (a warp over
// vectors, along tile rows and down tile columns) and Onesweep (a thread per digit over its chain).
// The status layouts and their memory ordering are tile_status.cuh's.
//
// The walk reads the predecessors tile − stride, tile − 2·stride, … (a chain of `count` tiles whose
// last — the first of its line — has always published P), `Lanes` at a time, nearest first: lane i
// polls the i-th of the window. A window is ready when every tile in it has published (as CUB's
// look-back waits); its tiles up to the nearest inclusive prefix (P) are taken (combined by the
// caller), and the walk stops there, or goes on to the next window if there was none.
#pragma once
#include <cstdint>
#include "parascan/device/tile_status.cuh"

namespace parascan::device {

/// How a walk waits for a window that is not ready, called with the count of polls so far:
/// `EarlyNs` after each of the first `EarlyPolls` polls, `LateNs` after later ones (0: spin), when
/// `enabled`. Compile-time delays: a runtime schedule cost the u64 scan 16 registers (64 → 80, one
/// block less per SM, 4–5% slower; docs/ab-scan-h100.txt). Polling at once mostly finds predecessors
/// still unpublished, and many warps spinning on the same few lines slow the publishes they wait for
/// (docs/performance.md, entry 7).
template <unsigned EarlyNs, unsigned LateNs = EarlyNs, int EarlyPolls = 0>
struct back_off {
  bool enabled = true;
  __device__ __forceinline__ void operator()(int poll) const {
    const unsigned ns = poll < EarlyPolls ? EarlyNs : LateNs;
    if (ns > 0 && enabled) __nanosleep(ns);
  }
};
using no_back_off = back_off<0>;

/// The walk. `Lanes`: 32 (a whole warp calls it) or 1 (one thread). Its shape is kept lean on
/// purpose: a per-window readiness mask and a runtime back-off schedule cost the u64 scan 16 registers
/// (64 → 80, one block less per SM, 4–5% slower; docs/ab-scan-h100.txt). `window` provides
///   unsigned poll(std::int64_t t)       the state of predecessor t (this lane's), keeping its value;
///   void take(std::int64_t tile, int taken, bool at_prefix)
///                                       combine the window's `taken` nearest tiles (tile − stride …
///                                       tile − taken·stride; the last of them is P if at_prefix);
///   void waited()                       a poll found the window not ready (statistics; may do nothing).
/// `delay(polls)` waits between polls (back_off).
template <int Lanes, class Window, class Delay>
__device__ __forceinline__ void look_back_walk(Window& window, std::int64_t tile, std::int64_t stride, std::int64_t count,
                                               Delay delay) {
  static_assert(Lanes == 1 || Lanes == 32, "a walk is one thread or one warp");
  if constexpr (Lanes == 1) {  // a window of one: the same walk with the ballots and masks folded away
    for (int poll = 0; count > 0; tile -= stride, --count, poll = 0) {
      unsigned state;
      while ((state = window.poll(tile - stride)) == state_invalid) {
        window.waited();
        delay(poll++);
      }
      window.take(tile, 1, state == state_prefix);
      if (state == state_prefix) return;
    }
    return;
  }
  const int lane = static_cast<int>(threadIdx.x % 32);
  for (std::int64_t left = count;; left -= 32, tile -= 32 * stride) {
    // Lanes past the chain's end read as P: the chain's last tile is P, so they are never taken.
    const bool in_chain = lane < left;
    const std::int64_t mine = tile - (lane + 1) * stride;
    unsigned state;
    for (int poll = 0;; ++poll) {
      state = in_chain ? window.poll(mine) : unsigned(state_prefix);
      if (!__any_sync(0xffffffffu, state == state_invalid)) break;
      window.waited();
      delay(poll);
    }
    const unsigned prefix_lanes = __ballot_sync(0xffffffffu, state == state_prefix);
    window.take(tile, prefix_lanes ? __ffs(prefix_lanes) : 32, prefix_lanes != 0);
    if (prefix_lanes) return;
  }
}

}  // namespace parascan::device
