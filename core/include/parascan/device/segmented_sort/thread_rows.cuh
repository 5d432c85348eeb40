// Segmented sort of many short rows (2..32 items each, a rows layout): a thread a row
// (block/block_short_rows.cuh). Each block stages its rows' keys (and values) in shared memory,
// every thread sorts its row's (image, position) pairs in registers, gathers its keys and values in
// that order from shared memory and writes them back in place; the block then stores its rows
// coalesced. One read and one write of each item in global memory; no temporary storage.
//
// Replaces, for these rows, the groups of W lanes of small.cuh (a shuffle pair per compare-exchange):
// at 2^20 rows of 16 f32 that path took 0.247 ms against CUB DeviceSegmentedSort's 0.103 ms (H200,
// docs/performance.md entry 39).
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/block/block_short_rows.cuh"
#include "parascan/device/segmented_sort/segments.cuh"

namespace parascan::device::segmented {

constexpr int thread_rows_max = block::short_rows_max;

/// Threads a block for rows of up to P keys U (and values V): block::short_rows_threads.
template <int P, class U, class V>
constexpr int thread_rows_threads() {
  return block::short_rows_threads<P, sizeof(U), std::is_same_v<V, no_values> ? 0 : sizeof(V)>();
}

template <int P, class U, class V>
__global__ void __launch_bounds__(thread_rows_threads<P, U, V>())
    thread_rows_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out, std::int64_t rows, int length,
                       sort_key<U> key_of) {
  constexpr int threads = thread_rows_threads<P, U, V>();
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  using rows_of = block::short_rows<threads, P>;
  __shared__ typename rows_of::template storage<U> keys;
  __shared__ std::conditional_t<has_values, typename rows_of::template storage<V>, char[1]> values;
  const int begin = static_cast<int>(threadIdx.x) * length;
  for (std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * threads; row0 < rows;
       row0 += static_cast<std::int64_t>(gridDim.x) * threads) {
    const int items = rows_of::stage(keys_in, row0, rows, length, keys);
    if constexpr (has_values) {
      if (values_in) rows_of::stage(values_in, row0, rows, length, values);
    }
    __syncthreads();
    if (row0 + threadIdx.x < rows) {
      U image[P];
      unsigned from[P];
      rows_of::sort_row(keys, begin, length, key_of, image, from);
      rows_of::permute_row(keys, begin, length, from, image);  // the raw keys (and values) in sorted order
      if constexpr (has_values) {
        if (values_in) {
          V moved[P];
          rows_of::permute_row(values, begin, length, from, moved);
        } else {  // argsort: the position within the row
#pragma unroll
          for (int j = 0; j < P; ++j)
            if (j < length) values[block::padded_index(begin + j)] = static_cast<V>(from[j]);
        }
      }
    }
    __syncthreads();
    rows_of::unstage(keys, items, row0, length, keys_out);
    if constexpr (has_values) rows_of::unstage(values, items, row0, length, values_out);
    __syncthreads();  // the buffers are staged again next trip
  }
}

/// Rows of 2..32 items: the kernel for P, the least power of two ≥ length.
template <class U, class V>
void launch_thread_rows(const U* keys_in, U* keys_out, const V* values_in, V* values_out, std::int64_t rows, int length,
                        const sort_key<U>& key_of, cudaStream_t stream) {
  block::with_network_size(length, [&](auto p) {
    constexpr int P = decltype(p)::value, threads = thread_rows_threads<P, U, V>();
    const std::int64_t blocks = (rows + threads - 1) / threads;
    thread_rows_kernel<P, U, V><<<static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20)), threads, 0, stream>>>(
        keys_in, keys_out, values_in, values_out, rows, length, key_of);
  });
}

}  // namespace parascan::device::segmented
