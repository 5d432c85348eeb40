// Block-level scans of one value per thread (the per-thread partials of a tile), one per algorithm.
//
// Every algorithm gives each thread its inclusive value, its exclusive value (undefined for thread 0:
// no identity is needed, so user operators without one work) and the block aggregate, taken at the
// last valid thread so partial tiles are right (threads past `valid_threads` hold junk that only
// flows into later threads). Operands are always combined in order: non-commutative operators work.
//
// With p threads (Harris, Sengupta, Owens, GPU Gems 3 ch. 39; Blelloch 1990; Brent & Kung 1982):
//   hillis_steele    log2 p steps, p·log2 p operations, double-buffered shared array (2p words)
//   blelloch_padded  up-sweep + down-sweep, 2(p−1) operations, 2·log2 p steps, padded array
//   brent_kung       same up-sweep, inclusive down-sweep (p − log2 p − 1 operations), padded array
//   warp_shuffle     5 shuffle steps per warp, one warp scans the p/32 warp totals
#pragma once
#include "parascan/block/smem_padding.cuh"
#include "parascan/scan_algorithms.hpp"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::block {

template <block_algorithm Alg, class T, int BlockThreads>
struct block_scan;

namespace detail {
/// The shared epilogue: broadcast the inclusive value of the last valid thread.
template <class T>
__device__ __forceinline__ T broadcast_aggregate(T& slot, const T& inclusive, int valid_threads) {
  if (static_cast<int>(threadIdx.x) == valid_threads - 1) slot = inclusive;
  __syncthreads();
  return slot;
}
}  // namespace detail

template <class T, int BlockThreads>
struct block_scan<block_algorithm::hillis_steele, T, BlockThreads> {
  struct storage {
    T buffer[2][BlockThreads];
    T aggregate;
  };
  template <class Op>
  __device__ static void scan(storage& s, T x, Op op, int valid_threads, T& exclusive, T& inclusive, T& aggregate) {
    const int t = threadIdx.x;
    s.buffer[0][t] = x;
    __syncthreads();
    int in = 0;
#pragma unroll
    for (int offset = 1; offset < BlockThreads; offset <<= 1) {
      T v = s.buffer[in][t];
      if (t >= offset) v = op(s.buffer[in][t - offset], v);
      s.buffer[1 - in][t] = v;
      __syncthreads();
      in = 1 - in;
    }
    inclusive = s.buffer[in][t];
    if (t > 0) exclusive = s.buffer[in][t - 1];
    aggregate = detail::broadcast_aggregate(s.aggregate, inclusive, valid_threads);
  }
};

/// Shared storage of the two tree scans: the padded array and the aggregate slot.
template <class T, int BlockThreads>
struct tree_storage {
  T a[padded_size(BlockThreads)];
  T aggregate;
};

/// The Blelloch / Brent–Kung up-sweep over a padded array: a[(k+1)·2d − 1] becomes the reduction of
/// its 2d-element range.
template <class T, int BlockThreads, class Op>
__device__ __forceinline__ void upsweep(T* a, T x, Op op) {
  const int k = threadIdx.x;
  a[padded_index(k)] = x;
#pragma unroll
  for (int d = 1; d < BlockThreads; d <<= 1) {
    __syncthreads();
    if (k < BlockThreads / (2 * d)) {
      const int ai = (2 * k + 1) * d - 1, bi = (2 * k + 2) * d - 1;
      a[padded_index(bi)] = op(a[padded_index(ai)], a[padded_index(bi)]);
    }
  }
}

template <class T, int BlockThreads>
struct block_scan<block_algorithm::blelloch_padded, T, BlockThreads> {
  using storage = tree_storage<T, BlockThreads>;
  template <class Op>
  __device__ static void scan(storage& s, T x, Op op, int valid_threads, T& exclusive, T& inclusive, T& aggregate) {
    const int t = threadIdx.x;
    upsweep<T, BlockThreads>(s.a, x, op);
    // Down-sweep: the root's prefix is the identity. Rather than storing one, note that a node's
    // prefix is the identity exactly when its range starts at 0 (k == 0): its right child then gets
    // the left child's sum alone.
#pragma unroll
    for (int d = BlockThreads / 2; d >= 1; d >>= 1) {
      __syncthreads();
      if (t < BlockThreads / (2 * d)) {
        const int ai = padded_index((2 * t + 1) * d - 1), bi = padded_index((2 * t + 2) * d - 1);
        const T left = s.a[ai], prefix = s.a[bi];
        s.a[ai] = prefix;
        s.a[bi] = t == 0 ? left : op(prefix, left);
      }
    }
    __syncthreads();
    if (t > 0) exclusive = s.a[padded_index(t)];
    inclusive = t > 0 ? op(exclusive, x) : x;
    aggregate = detail::broadcast_aggregate(s.aggregate, inclusive, valid_threads);
  }
};

template <class T, int BlockThreads>
struct block_scan<block_algorithm::brent_kung, T, BlockThreads> {
  using storage = tree_storage<T, BlockThreads>;
  template <class Op>
  __device__ static void scan(storage& s, T x, Op op, int valid_threads, T& exclusive, T& inclusive, T& aggregate) {
    const int t = threadIdx.x;
    upsweep<T, BlockThreads>(s.a, x, op);
    // Inclusive down-sweep: each completed range end passes its value to the middle of the next range.
#pragma unroll
    for (int d = BlockThreads / 4; d >= 1; d >>= 1) {
      __syncthreads();
      const int idx = (t + 1) * 2 * d - 1;
      if (idx + d < BlockThreads) s.a[padded_index(idx + d)] = op(s.a[padded_index(idx)], s.a[padded_index(idx + d)]);
    }
    __syncthreads();
    inclusive = s.a[padded_index(t)];
    if (t > 0) exclusive = s.a[padded_index(t - 1)];
    aggregate = detail::broadcast_aggregate(s.aggregate, inclusive, valid_threads);
  }
};

template <class T, int BlockThreads>
struct block_scan<block_algorithm::warp_shuffle, T, BlockThreads> {
  static constexpr int warps = BlockThreads / warp::warp_threads;
  static_assert(BlockThreads % warp::warp_threads == 0 && warps <= warp::warp_threads, "1..32 whole warps");
  struct storage {
    T warp_totals[warps];
    T aggregate;
  };
  template <class Op>
  __device__ static void scan(storage& s, T x, Op op, int valid_threads, T& exclusive, T& inclusive, T& aggregate) {
    const int t = threadIdx.x, lane = t % warp::warp_threads, w = t / warp::warp_threads;
    inclusive = warp::inclusive_scan(x, op, lane);
    if (lane == warp::warp_threads - 1) s.warp_totals[w] = inclusive;
    __syncthreads();
    if (w == 0) {
      // Lanes past the last warp repeat its total; they come after the real ones and are dropped.
      T total = s.warp_totals[lane < warps ? lane : warps - 1];
      __syncwarp();  // every lane has read before any lane overwrites a total
      total = warp::inclusive_scan(total, op, lane);
      if (lane < warps) s.warp_totals[lane] = total;
    }
    __syncthreads();
    if (w > 0) inclusive = op(s.warp_totals[w - 1], inclusive);
    const T up = warp::shfl_up(inclusive, 1);
    if (lane > 0) exclusive = up;
    else if (w > 0) exclusive = s.warp_totals[w - 1];
    aggregate = detail::broadcast_aggregate(s.aggregate, inclusive, valid_threads);
  }
};

}  // namespace parascan::block
