// Rows longer than a tile, fewer than the lanes-a-row kernel wants (device_axis_scan.cuh): reduce-then-scan
// over tiles that never straddle a row, so no head flags travel with the values.
//   1. row_tile_reduce_kernel: each tile's total, in order (tiles[row][j])             (read n)
//   2. the totals scanned inclusive along each row, in place (row_scan_kernel, lanes a row)
//   3. row_tile_scan_kernel: each tile scanned, seeded with init and the row's earlier tiles (read n, write n)
// A tile is 256 threads × 16 consecutive items, read and written coalesced and exchanged through padded
// shared memory (block/block_exchange.cuh); a row's last tile may be partial. Rows of one tile skip steps
// 1 and 2. Operands are combined in order, so the operator need not be commutative.
#pragma once
#include <cstdint>
#include "parascan/axis_scan.hpp"
#include "parascan/block/block_exchange.cuh"
#include "parascan/device/scan_kernels.cuh"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device {

/// A partial result that may be empty (no item yet): combined in order, no identity needed.
template <class T>
struct maybe {
  T value;
  bool has;
  template <class Op>
  __device__ __forceinline__ maybe then(const maybe& later, Op op) const {
    if (!has) return later;
    if (!later.has) return *this;
    return {op(value, later.value), true};
  }
};

struct row_tile_policy {
  static constexpr int threads = 256, items = 16, warps = threads / 32;
  static constexpr std::int64_t tile = static_cast<std::int64_t>(threads) * items;
  static std::int64_t tiles_a_row(std::int64_t extent) { return (extent + tile - 1) / tile; }
};

/// Where tile `t` (of `tpr` a row) lies: its first item's index and how many items it holds.
struct row_tile {
  std::int64_t base;
  int valid;
  __device__ row_tile(std::int64_t t, std::int64_t tpr, std::int64_t extent) {
    const std::int64_t row = t / tpr, start = (t % tpr) * row_tile_policy::tile;
    base = row * extent + start;
    const std::int64_t left = extent - start;
    valid = static_cast<int>(left < row_tile_policy::tile ? left : row_tile_policy::tile);
  }
};

template <class Out>
using row_tile_exchange = block::block_exchange<Out, row_tile_policy::threads, row_tile_policy::items>;

/// Tile `tile` loaded coalesced and handed out blocked (each thread 16 consecutive items), then this
/// thread's inclusive scan of them in `v`; returns how many of its items are valid.
template <class In, class Out, class Op>
__device__ __forceinline__ int load_row_tile(typename row_tile_exchange<Out>::storage& smem, const In* in,
                                             const row_tile& tile, Out (&v)[row_tile_policy::items], Op op) {
  constexpr int V = row_tile_policy::items;
  const pointer_loader<In, Out> loader{in};
  if (tile.valid == static_cast<int>(row_tile_policy::tile)) {
    row_tile_exchange<Out>::template load<true>(smem, loader, tile.base, tile.valid, v);
  } else {
    row_tile_exchange<Out>::template load<false>(smem, loader, tile.base, tile.valid, v);
  }
  const int left = tile.valid - static_cast<int>(threadIdx.x) * V;
  const int valid = left <= 0 ? 0 : (left < V ? left : V);
#pragma unroll
  for (int k = 1; k < V; ++k) {
    if (k < valid) v[k] = op(v[k - 1], v[k]);
  }
  return valid;
}

/// The block's threads' partials combined in thread order: `before` gets the threads' before this one,
/// the return value the whole block's.
template <class Out, class Op>
__device__ __forceinline__ maybe<Out> block_in_order(maybe<Out> mine, Op op, maybe<Out>& before) {
  __shared__ maybe<Out> warp_totals[row_tile_policy::warps];
  const int lane = static_cast<int>(threadIdx.x % 32), w = static_cast<int>(threadIdx.x / 32);
  maybe<Out> inc = mine;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const maybe<Out> up = warp::shfl_up(inc, o);
    if (lane >= o) inc = up.then(inc, op);
  }
  maybe<Out> lanes_before = warp::shfl_up(inc, 1);
  if (lane == 0) lanes_before.has = false;
  if (lane == 31) warp_totals[w] = inc;
  __syncthreads();
  maybe<Out> warps_before{Out{}, false}, total{Out{}, false};
  for (int k = 0; k < row_tile_policy::warps; ++k) {
    if (k == w) warps_before = total;
    total = total.then(warp_totals[k], op);
  }
  before = warps_before.then(lanes_before, op);
  return total;
}

template <class In, class Out, class Op>
__global__ void __launch_bounds__(row_tile_policy::threads)
    row_tile_reduce_kernel(const In* in, std::int64_t extent, std::int64_t tpr, Out* totals, Op op) {
  __shared__ typename row_tile_exchange<Out>::storage smem;
  Out v[row_tile_policy::items];
  const row_tile tile(blockIdx.x, tpr, extent);
  const int valid = load_row_tile(smem, in, tile, v, op);
  maybe<Out> before;
  const maybe<Out> total = block_in_order(maybe<Out>{valid > 0 ? v[valid > 0 ? valid - 1 : 0] : Out{}, valid > 0},
                                          op, before);
  if (threadIdx.x == 0) totals[blockIdx.x] = total.value;  // every tile holds at least one item
}

template <class In, class Out, class Op>
__global__ void __launch_bounds__(row_tile_policy::threads)
    row_tile_scan_kernel(const In* in, Out* out, std::int64_t extent, std::int64_t tpr, const Out* scanned_totals,
                         Op op, scan_mode<Out> mode) {
  constexpr int V = row_tile_policy::items;
  __shared__ typename row_tile_exchange<Out>::storage smem;
  Out v[V];
  const std::int64_t t = blockIdx.x;
  const row_tile tile(t, tpr, extent);
  const int valid = load_row_tile(smem, in, tile, v, op);
  maybe<Out> before;
  block_in_order(maybe<Out>{valid > 0 ? v[valid > 0 ? valid - 1 : 0] : Out{}, valid > 0}, op, before);
  maybe<Out> prefix{mode.init, mode.has_init};
  if (t % tpr > 0) prefix = prefix.then(maybe<Out>{scanned_totals[t - 1], true}, op);
  prefix = prefix.then(before, op);
  Out result[V];
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const maybe<Out> mine{mode.exclusive ? (k > 0 ? v[k - 1] : Out{}) : v[k], !mode.exclusive || k > 0};
    result[k] = k < valid ? prefix.then(mine, op).value : Out{};  // exclusive scans have an init: never empty
  }
  const pointer_storer<Out> storer{out};
  if (tile.valid == static_cast<int>(row_tile_policy::tile)) {
    row_tile_exchange<Out>::template store<true>(smem, storer, tile.base, tile.valid, result);
  } else {
    row_tile_exchange<Out>::template store<false>(smem, storer, tile.base, tile.valid, result);
  }
}

}  // namespace parascan::device
