// Tuning of the scan kernels, in one place: threads per block and items per thread by accumulator size.
//
// A tile is block_threads × items_per_thread items. Larger tiles amortise the per-tile look-back and
// block scan; the limit is registers (items live in registers) and shared memory for the exchange.
// Measured choices are logged in docs/performance-log.md.
#pragma once
#include <cstddef>

namespace parascan::device {

template <int BlockThreads, int ItemsPerThread>
struct scan_policy_t {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
};

template <class Acc>
using scan_policy = scan_policy_t<256, (sizeof(Acc) <= 4 ? 16 : sizeof(Acc) <= 8 ? 8 : 4)>;

/// Single-pass selection keeps values in registers and needs no shared-memory tile, so it can hold
/// twice the items per thread (more loads in flight per SM). Rows × warps must not exceed the threads.
template <class V>
using select_policy = scan_policy_t<256, (sizeof(V) <= 4 ? 32 : 16)>;

/// Threads of the small helper kernels (status initialisation).
inline constexpr int helper_threads = 256;

}  // namespace parascan::device
