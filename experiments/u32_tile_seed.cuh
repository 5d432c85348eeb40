// The u32 sum experiments' step from a thread's partial sum to the seed of its rescan: the block's
// exclusive scan of the partials, the tile's prefix by the library's decoupled look-back (warp 0; tile 0
// publishes its inclusive prefix at once), and their sum. Shared by scan_loads.cu and scan_prefetch.cu.
//   u32_tile_seed<Delays, BlockScan>(scan_storage, tile_prefix, status, tile, partial)
// Delays: a policy with look_back_initial_ns / look_back_poll_ns / look_back_min_grid (and, through
// scan_policy_t, the long-grid sleep); `tile_prefix` a __shared__ word; every thread of the block calls it.
#pragma once
#include <cstdint>
#include "parascan/device/scan_kernels.cuh"

template <class Delays, class BlockScan>
__device__ std::uint32_t u32_tile_seed(typename BlockScan::storage& scan_storage, std::uint32_t& tile_prefix,
                                       const parascan::device::tile_status<std::uint32_t>& status, long long tile,
                                       std::uint32_t partial) {
  using namespace parascan;
  using namespace parascan::device;
  const int t = static_cast<int>(threadIdx.x);
  std::uint32_t thread_prefix = 0, inclusive, aggregate;
  BlockScan::scan(scan_storage, partial, sum{}, static_cast<int>(blockDim.x), thread_prefix, inclusive, aggregate);
  std::uint32_t prefix = 0;
  if (tile == 0) {
    if (t == 0) status.publish(0, state_prefix, aggregate);
  } else {
    if (t < warp::warp_threads) {
      const std::uint32_t p = look_back<Delays>(status, tile, tile, aggregate, sum{});
      if (t == 0) tile_prefix = p;
    }
    __syncthreads();
    prefix = tile_prefix;
  }
  return prefix + (t == 0 ? 0u : thread_prefix);
}
