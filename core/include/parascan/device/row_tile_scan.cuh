// Rows longer than a tile, fewer than the lanes-a-row kernel wants (device_axis_scan.cuh): reduce-then-scan
// over tiles that never straddle a row, so no head flags travel with the values.
//   1. row_tile_reduce_kernel: each tile's total, in order (tiles[row][j])             (read n)
//   2. the totals scanned inclusive along each row, in place (row_scan_kernel, lanes a row)
//   3. row_tile_scan_kernel: each tile scanned, seeded with init and the row's earlier tiles (read n, write n)
// A tile is 256 threads × 16 consecutive items; a row's last tile may be partial. Rows of one tile skip
// steps 1 and 2. Operands are combined in order, so the operator need not be commutative.
#pragma once
#include <cstdint>
#include "parascan/axis_scan.hpp"
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

/// This thread's items of tile `t` (of `tpr` a row): the inclusive scan of them in `v`, the count valid.
template <class In, class Out, class Op>
__device__ __forceinline__ int load_row_tile(const In* in, std::int64_t extent, std::int64_t t, std::int64_t tpr,
                                             Out (&v)[row_tile_policy::items], Op op, std::int64_t& first) {
  constexpr int V = row_tile_policy::items;
  const std::int64_t row = t / tpr, j = t % tpr;
  const std::int64_t start = j * row_tile_policy::tile + static_cast<std::int64_t>(threadIdx.x) * V;
  first = row * extent + start;
  const std::int64_t left = extent - start;
  const int valid = left <= 0 ? 0 : (left < V ? static_cast<int>(left) : V);
#pragma unroll
  for (int k = 0; k < V; ++k) {
    if (k < valid) {
      const Out x = static_cast<Out>(in[first + k]);
      v[k] = k == 0 ? x : op(v[k - 1], x);
    }
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
  Out v[row_tile_policy::items];
  std::int64_t first;
  const std::int64_t t = blockIdx.x;
  const int valid = load_row_tile(in, extent, t, tpr, v, op, first);
  maybe<Out> before;
  const maybe<Out> total = block_in_order(maybe<Out>{valid > 0 ? v[valid > 0 ? valid - 1 : 0] : Out{}, valid > 0},
                                          op, before);
  if (threadIdx.x == 0) totals[t] = total.value;  // every tile holds at least one item
}

template <class In, class Out, class Op>
__global__ void __launch_bounds__(row_tile_policy::threads)
    row_tile_scan_kernel(const In* in, Out* out, std::int64_t extent, std::int64_t tpr, const Out* scanned_totals,
                         Op op, scan_mode<Out> mode) {
  constexpr int V = row_tile_policy::items;
  Out v[V];
  std::int64_t first;
  const std::int64_t t = blockIdx.x;
  const int valid = load_row_tile(in, extent, t, tpr, v, op, first);
  maybe<Out> before;
  block_in_order(maybe<Out>{valid > 0 ? v[valid > 0 ? valid - 1 : 0] : Out{}, valid > 0}, op, before);
  maybe<Out> prefix{mode.init, mode.has_init};
  if (t % tpr > 0) prefix = prefix.then(maybe<Out>{scanned_totals[t - 1], true}, op);
  prefix = prefix.then(before, op);
#pragma unroll
  for (int k = 0; k < V; ++k) {
    if (k < valid) {
      const maybe<Out> mine{mode.exclusive ? (k > 0 ? v[k - 1] : Out{}) : v[k], !mode.exclusive || k > 0};
      out[first + k] = prefix.then(mine, op).value;  // exclusive scans have an init: never empty
    }
  }
}

}  // namespace parascan::device
