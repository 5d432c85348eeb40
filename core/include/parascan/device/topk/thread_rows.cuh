// Top-k of many short rows (2..32 keys each), a thread a row (block/block_short_rows.cuh): each
// block stages its rows in shared memory, every thread sorts its row's (image, position) pairs in
// registers and keeps the first k (ties to the earlier position), in rank order (sorted) or in row
// order (the chosen positions as a bit mask, read lowest first); the block stores the k keys and
// positions of its rows coalesced. One read of each key, one write of each result.
//
// Replaces, for these rows, the warp-a-row kernel (k rounds of warp-wide minima over a warp that the
// row fills half of at most): at 2^20 rows of 16 f32, k = 4, that took 0.97 ms (H200, entry 39).
#pragma once
#include <cstdint>
#include "parascan/block/block_short_rows.cuh"
#include "parascan/device/topk/filter.cuh"

namespace parascan::device::topk_detail {

constexpr std::int64_t thread_rows_max = block::short_rows_max;

/// Threads a block for rows of up to P keys U staged beside their 4-byte chosen positions.
template <int P, class U>
constexpr int thread_rows_threads() {
  return block::short_rows_threads<P, sizeof(U), sizeof(unsigned)>();
}

template <int P, class U>
__global__ void __launch_bounds__(thread_rows_threads<P, U>())
    topk_thread_kernel(const U* keys, std::int64_t rows, int length, int k, ordered_key<U> ordered, bool sorted,
                       U* out_keys, std::int64_t* out_at) {
  constexpr int threads = thread_rows_threads<P, U>();
  using rows_of = block::short_rows<threads, P>;
  __shared__ typename rows_of::template storage<U> staged;
  __shared__ typename rows_of::template storage<unsigned> chosen_at;
  for (std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * threads; row0 < rows;
       row0 += static_cast<std::int64_t>(gridDim.x) * threads) {
    const int items = rows_of::stage(keys, row0, rows, length, staged);
    __syncthreads();
    const bool mine = row0 + threadIdx.x < rows;
    U image[P];
    unsigned from[P];
    if (mine) {
      rows_of::sort_row(staged, static_cast<int>(threadIdx.x) * length, length, ordered, image, from);
      if (!sorted) {  // row order: the chosen positions, lowest first
        unsigned mask = 0;
#pragma unroll
        for (int j = 0; j < P; ++j)
          if (j < k) mask |= 1u << from[j];
#pragma unroll
        for (int j = 0; j < P; ++j)
          if (j < k) {
            from[j] = static_cast<unsigned>(__ffs(mask) - 1);
            mask &= mask - 1;
          }
      }
#pragma unroll
      for (int j = 0; j < P; ++j)
        if (j < k) image[j] = staged[block::padded_index(static_cast<int>(threadIdx.x) * length + static_cast<int>(from[j]))];
    }
    __syncthreads();  // every row read before the results overwrite the staged keys
    if (mine) {
#pragma unroll
      for (int j = 0; j < P; ++j)
        if (j < k) {
          staged[block::padded_index(static_cast<int>(threadIdx.x) * k + j)] = image[j];
          chosen_at[block::padded_index(static_cast<int>(threadIdx.x) * k + j)] = from[j];
        }
    }
    __syncthreads();
    const int results = items / length * k;
    rows_of::unstage(staged, results, row0, k, out_keys);
    rows_of::unstage(chosen_at, results, row0, k, out_at);
    __syncthreads();  // the buffers are staged again next trip
  }
}

/// Rows of 2..32 keys, 1 ≤ k ≤ length: the kernel for P, the least power of two ≥ length.
template <class U>
void launch_topk_thread_rows(const U* keys, std::int64_t rows, int length, int k, ordered_key<U> ordered, bool sorted,
                             U* out_keys, std::int64_t* out_at, cudaStream_t stream) {
  block::with_network_size(length, [&](auto p) {
    constexpr int P = decltype(p)::value, threads = thread_rows_threads<P, U>();
    const std::int64_t blocks = (rows + threads - 1) / threads;
    topk_thread_kernel<P, U><<<static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20)), threads, 0, stream>>>(
        keys, rows, length, k, ordered, sorted, out_keys, out_at);
  });
}

}  // namespace parascan::device::topk_detail
