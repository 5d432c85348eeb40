// Top-k of every row (topk.hpp): the kernels' dispatch and the launches. Include from a .cu file.
//
// Rows of 2..32 keys: a thread a row, the row sorted in registers (topk/thread_rows.cuh).
// Rows of at most 256 keys, k ≤ 32: a warp a row, k rounds of a warp-wide smallest (warp/warp_topk.cuh),
// written in rank order (sorted) or, after a bitonic sort of the k positions, in row order.
// Rows of at most 256 keys, larger k: each row sorted whole (segmented argsort) and its first k kept.
// Rows shorter than topk_detail::wide_from (8192 keys), and more than 512 rows shorter than 128 KB:
//   1. topk_rows_kernel, a block of 512 per row: the row copied to shared memory when it fits (the
//      select then reads it there once per digit), the k-th key found by block::radix_select over the
//      order-preserving image of the keys (complemented for the largest), the chosen keys and
//      positions written in row order
// Other rows: where k is small beside the row, a threshold from a sample of each row and one read of
// the row listing every key at or below it (topk/sampled.cuh); every row where k is not small, and rows
// longer than 2^18 that the sample did not serve, take rounds of a histogram of an 11-bit digit and a
// filter, over the row and then over the candidates, by several blocks a row (topk/filter.cuh); a block
// a row to finish among the last candidates (or, for a shorter row the sample did not serve, among the
// whole row); with k ≤ 2048 that block then orders the row's k in shared memory and writes them
// (block::bitonic_sort: by image and position when sorted, else by position); with larger k the k
// positions of each row sorted (segmented sort of rows of k) and their keys gathered: the chosen in
// row order.
//   2. sorted (k > 2048, or 8-byte keys): the k of each row sorted by the segmented sort (rows of k;
//      stable, so ties stay in position order), from temporary storage into the outputs
// Launches are sized from rows, length and k alone: nothing is read back, the call is graph-capturable.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>
#include "parascan/block/block_radix_select.cuh"
#include "parascan/device/device_attribute.cuh"
#include "parascan/device/launch.cuh"
#include "parascan/device/radix_digits.cuh"
#include "parascan/device/topk/filter.cuh"
#include "parascan/device/topk/sampled.cuh"
#include "parascan/device/topk/thread_rows.cuh"
#include "parascan/warp/warp_sort.cuh"
#include "parascan/warp/warp_topk.cuh"
#include "parascan/segmented_sort.hpp"
#include "parascan/topk.hpp"

namespace parascan::device::topk_detail {

template <class U>
__global__ void __launch_bounds__(threads)
    topk_rows_kernel(const U* keys, std::int64_t length, std::int64_t k, key_kind kind, bool largest, bool cache,
                     U* out_keys, std::int64_t* out_indices) {
  using select = block::radix_select<threads, U>;
  __shared__ typename select::storage s;
  extern __shared__ __align__(16) unsigned char row_cache[];
  const std::int64_t row = blockIdx.x;
  const U* src = keys + row * length;
  const unsigned n = static_cast<unsigned>(length);
  if (cache) {
    U* c = reinterpret_cast<U*>(row_cache);
    for (unsigned i = threadIdx.x; i < n; i += threads) c[i] = src[i];
    __syncthreads();
    src = c;
  }
  const ordered_key<U> ordered{kind, largest};
  const auto r = select::select(s, src, n, static_cast<unsigned>(k), ordered);
  U* chosen_keys = out_keys + row * k;
  std::int64_t* chosen_at = out_indices + row * k;
  select::list(s, src, n, r, ordered, [&](unsigned rank, unsigned i) {
    chosen_keys[rank] = src[i];
    chosen_at[rank] = i;
  });
}

/// Shared memory a block may have on this device (opt-in), asked once per device.
inline cudaError_t block_smem_limit(std::int64_t& bytes) {
  return remembered_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, -3, bytes);
}

}  // namespace parascan::device::topk_detail

namespace parascan::device::topk_detail {

/// Bits that hold every position of a row of `length` keys.
inline int position_bits(std::int64_t length) {
  int bits = 1;
  while ((std::int64_t{1} << bits) < length) ++bits;
  return bits;
}

/// Blocks of 256 for a grid-stride loop over `total` items.
inline unsigned item_grid(std::int64_t total) {
  return static_cast<unsigned>(std::min<std::int64_t>((total + 255) / 256, 4096));
}

/// The chosen positions of each row (rows of k, any order) sorted, and the keys at them gathered: the
/// k of each row in row order. Temporary storage: `sort_bytes` (query with sort_temp == nullptr).
template <class U>
cudaError_t sort_positions_and_gather(char* sort_temp, std::size_t& sort_bytes, const U* keys, std::int64_t rows,
                                      std::int64_t length, std::int64_t k, const unsigned* chosen, unsigned* in_order,
                                      bool debug, U* out_keys, std::int64_t* out_at, cudaStream_t stream) {
  segmented_sort_options so;
  so.end_bit = position_bits(length);
  so.debug_synchronous = debug;
  const std::int64_t total = rows * k;
  const cudaError_t e = segmented_sort_bits<std::uint32_t>(sort_temp, sort_bytes, chosen, in_order, total,
                                                           segment_layout::rows(rows, k), key_kind::unsigned_int, so,
                                                           stream);
  if (e != cudaSuccess || sort_temp == nullptr) return e;
  gather_kernel<<<item_grid(total), 256, 0, stream>>>(keys, length, k, total, plain_positions{in_order}, out_keys, out_at);
  return check_launch(stream, debug);
}

/// The filter path's temporary storage, carved in this order. Sorted output of keys of up to 4 bytes
/// sorts (image << position bits | position) once (`composite`); otherwise the positions are sorted
/// and the keys gathered in row order (for 8-byte sorted keys the caller then sorts those pairs).
struct wide_layout {
  std::int64_t capacity = 0;  // candidates a row
  int sample_size = 0;         // keys sampled a row (topk/sampled.cuh)
  unsigned sample_rank = 0;    // the sample's threshold rank; 0: no sample, the rounds for every row
  bool composite = false;
  int position_bits = 0;
  std::size_t counters = 0, candidates = 0, positions = 0, ordered = 0, sort = 0;
  std::size_t total() const { return counters + 2 * candidates + positions + 2 * ordered + sort; }
};

/// Rows of at least wide_from keys take the filter path when they are few (at most 512) or long (128 KB
/// and more): its 24 KB of counters a row stay small beside the rows.
inline bool takes_filter(std::int64_t rows, std::int64_t length, std::size_t key_bytes) {
  return length >= wide_from && (rows <= 512 || length * static_cast<std::int64_t>(key_bytes) >= (128 << 10));
}

template <class U>
cudaError_t plan_wide(std::int64_t rows, std::int64_t length, std::int64_t k, bool sorted, bool debug,
                      cudaStream_t stream, wide_layout& w) {
  w.capacity = candidate_capacity(length);
  w.sample_size = sample_size(length);
  w.sample_rank = sample_rank(k, length, w.sample_size);
  w.composite = sorted && sizeof(U) <= 4;
  w.position_bits = position_bits(length);
  const auto chosen = static_cast<std::size_t>(rows * k);
  w.counters = align_up(static_cast<std::size_t>(rows * row_words) * sizeof(unsigned));
  w.candidates = align_up(static_cast<std::size_t>(rows * w.capacity) * sizeof(unsigned));
  w.positions = align_up(chosen * sizeof(unsigned));
  w.ordered = align_up(chosen * (w.composite ? sizeof(std::uint64_t) : sizeof(unsigned)));
  if (!w.composite)
    return sort_positions_and_gather<U>(nullptr, w.sort, nullptr, rows, length, k, nullptr, nullptr, debug, nullptr,
                                        nullptr, stream);
  segmented_sort_options so;
  so.end_bit = w.position_bits + static_cast<int>(8 * sizeof(U));
  so.debug_synchronous = debug;
  return segmented_sort_bits<std::uint64_t>(nullptr, w.sort, static_cast<const std::uint64_t*>(nullptr),
                                            static_cast<std::uint64_t*>(nullptr), rows * k,
                                            segment_layout::rows(rows, k), key_kind::unsigned_int, so, stream);
}

/// The filter path: the k of each row into out_keys / out_at, sorted when w.composite, else in row order.
template <class U>
cudaError_t topk_wide(char* temp, const wide_layout& w, const U* keys, std::int64_t rows, std::int64_t length,
                      std::int64_t k, key_kind kind, bool largest, bool debug, U* out_keys, std::int64_t* out_at,
                      cudaStream_t stream) {
  unsigned* words = reinterpret_cast<unsigned*>(temp);
  unsigned* lists[2] = {reinterpret_cast<unsigned*>(temp + w.counters),
                        reinterpret_cast<unsigned*>(temp + w.counters + w.candidates)};
  char* next = temp + w.counters + 2 * w.candidates;
  unsigned* chosen = reinterpret_cast<unsigned*>(next);
  char* ordered_in = next + w.positions;
  char* ordered_out = ordered_in + w.ordered;
  char* sort_temp = ordered_out + w.ordered;
  const ordered_key<U> ordered{kind, largest};
  const chunking row_chunks = chunks_for(rows, length);
  // The counters cleared, and (sample_rank > 0) the sampled path; the rounds below skip the rows it served.
  sample_kernel<U><<<static_cast<unsigned>(rows), threads, 0, stream>>>(keys, length, w.sample_size, w.sample_rank,
                                                                        ordered, words);
  cudaError_t e = check_launch(stream, debug);
  if (e != cudaSuccess) return e;
  if (w.sample_rank > 0) {
    append_kernel<U><<<static_cast<unsigned>(rows * row_chunks.per_row), filter_threads, 0, stream>>>(
        keys, length, row_chunks, ordered, words, lists[1], w.capacity);
    if ((e = check_launch(stream, debug)) != cudaSuccess) return e;
  }
  // The rounds, for rows the sample did not serve; with a sample and rows of at most finish_fallback_max,
  // not launched at all: finish_kernel selects such a row whole.
  const bool rounds = w.sample_rank == 0 || length > finish_fallback_max;
  if (rounds) {
    histogram_kernel<U><<<static_cast<unsigned>(rows * row_chunks.per_row), filter_threads, 0, stream>>>(
        keys, length, row_chunks, k, ordered, words, w.capacity);  // round 0's counts; later rounds' from the filters
    if ((e = check_launch(stream, debug)) != cudaSuccess) return e;
  }
  for (int round = 0; rounds && round < rounds_for<U>(); ++round) {
    // Round 0 reads the row; later rounds the previous round's candidates (a block a chunk of the list).
    const chunking c = round == 0 ? row_chunks : chunks_for(rows, w.capacity);
    const auto blocks = static_cast<unsigned>(rows * c.per_row);
    const unsigned* list_in = lists[(round + 1) % 2];
    filter_kernel<U><<<blocks, filter_threads, 0, stream>>>(keys, length, c, k, ordered, round, words, chosen, list_in,
                                                           lists[round % 2], w.capacity);
    if ((e = check_launch(stream, debug)) != cudaSuccess) return e;
  }
  std::int64_t smem_limit = 0;
  if ((e = block_smem_limit(smem_limit)) != cudaSuccess) return e;
  // k ≤ fused_k_max: finish_kernel orders the row's k and writes them (no sort or gather launched after).
  const bool fused = k <= fused_k_max;
  const bool cache = finish_cache_bytes<U> + finish_order_bytes + static_cast<std::int64_t>(sizeof(finish_storage<U>)) +
                         1024 <= smem_limit;
  const auto finish = finish_kernel<U>;
  // One ceiling for every call (a lower one set for one call would hold back a later, larger launch).
  if ((e = allow_dynamic_smem(finish, (cache ? finish_cache_bytes<U> : 0) + finish_order_bytes)) != cudaSuccess) return e;
  const int dynamic = (cache ? finish_cache_bytes<U> : 0) + (fused ? finish_order_bytes : 0);
  const finish_output output = !fused ? finish_output::chosen
                               : w.composite ? finish_output::sorted
                                             : finish_output::row_order;
  auto* in = reinterpret_cast<std::uint64_t*>(ordered_in);  // composite keys, when sorted here
  finish<<<static_cast<unsigned>(rows), threads, dynamic, stream>>>(
      keys, length, k, ordered, words, lists[0], lists[1], w.capacity, cache, rounds, chosen,
      w.composite && !fused ? in : nullptr, w.position_bits, output, out_keys, out_at);
  if ((e = check_launch(stream, debug)) != cudaSuccess || fused) return e;

  std::size_t sort_bytes = w.sort;
  if (!w.composite)
    return sort_positions_and_gather(sort_temp, sort_bytes, keys, rows, length, k, chosen,
                                     reinterpret_cast<unsigned*>(ordered_out), debug, out_keys, out_at, stream);
  const std::int64_t total = rows * k;
  auto* out = reinterpret_cast<std::uint64_t*>(ordered_out);
  segmented_sort_options so;
  so.end_bit = w.position_bits + static_cast<int>(8 * sizeof(U));
  so.debug_synchronous = debug;
  e = segmented_sort_bits<std::uint64_t>(sort_temp, sort_bytes, in, out, total, segment_layout::rows(rows, k),
                                         key_kind::unsigned_int, so, stream);
  if (e != cudaSuccess) return e;
  gather_kernel<<<item_grid(total), 256, 0, stream>>>(keys, length, k, total, composite_positions{out, w.position_bits},
                                                      out_keys, out_at);
  return check_launch(stream, debug);
}

/// Rows of at most short_max keys with k ≤ warp_k: a warp a row, 8 keys a lane striped.
constexpr std::int64_t warp_k = 32;

template <class U>
__global__ void __launch_bounds__(256)
    topk_warp_kernel(const U* keys, std::int64_t rows, std::int64_t length, int k, ordered_key<U> ordered, bool sorted,
                     U* out_keys, std::int64_t* out_at) {
  constexpr int items = 8, warps = 256 / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * warps;
  // `row` is the same on every lane of a warp, so whole warps run each row (the shuffles need them).
  for (std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * warps + threadIdx.x / 32; row < rows;
       row += stride) {
    const U* src = keys + row * length;
    U image[items];
    unsigned alive = 0;
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const std::int64_t p = static_cast<std::int64_t>(j) * 32 + lane;
      image[j] = p < length ? ordered(src[p]) : U(~U(0));
      if (p < length) alive |= 1u << j;
    }
    unsigned at = warp::smallest_positions<items>(image, alive, k);
    if (!sorted) {  // row order: the k positions ascending (lanes from k on hold 0xffffffff and stay last)
      unsigned index = lane;
      warp::bitonic_sort<32>(at, index);
    }
    if (lane < static_cast<unsigned>(k)) {
      out_keys[row * k + lane] = src[at];
      out_at[row * k + lane] = at;
    }
  }
}

/// Rows of at most short_max keys: every row sorted whole (stable segmented argsort; ties keep position
/// order) and its first k kept — a block of 512 a row would idle on them.
constexpr std::int64_t short_max = 256;

struct short_layout {
  std::size_t keys = 0, positions = 0, chosen = 0, sort = 0;
  std::size_t total() const { return keys + positions + 2 * chosen + sort; }
};

template <class U>
cudaError_t plan_short(std::int64_t rows, std::int64_t length, std::int64_t k, key_kind kind, topk_options o,
                       cudaStream_t stream, short_layout& l) {
  const std::int64_t n = rows * length;
  l.keys = align_up(static_cast<std::size_t>(n) * sizeof(U));
  l.positions = align_up(static_cast<std::size_t>(n) * sizeof(unsigned));
  segmented_sort_options so;
  so.descending = o.largest;
  so.debug_synchronous = o.debug_synchronous;
  cudaError_t e = segmented_sort_bits_pairs<U, std::uint32_t>(nullptr, l.sort, static_cast<const U*>(nullptr),
                                                              static_cast<U*>(nullptr),
                                                              static_cast<const std::uint32_t*>(nullptr),
                                                              static_cast<std::uint32_t*>(nullptr), n,
                                                              segment_layout::rows(rows, length), kind, so, stream);
  if (e != cudaSuccess || o.sorted) return e;
  l.chosen = align_up(static_cast<std::size_t>(rows * k) * sizeof(unsigned));
  std::size_t b = 0;
  e = sort_positions_and_gather<U>(nullptr, b, nullptr, rows, length, k, nullptr, nullptr, o.debug_synchronous, nullptr,
                                   nullptr, stream);
  if (b > l.sort) l.sort = b;
  return e;
}

/// The first k of each sorted row: keys and positions (sorted output), or the positions alone.
template <class U>
__global__ void slice_kernel(const U* sorted, const unsigned* positions, std::int64_t length, std::int64_t k,
                             std::int64_t total, U* out_keys, std::int64_t* out_at, unsigned* out_positions) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t from = (i / k) * length + i % k;
    if (out_positions != nullptr) {
      out_positions[i] = positions[from];
    } else {
      out_keys[i] = sorted[from];
      out_at[i] = positions[from];
    }
  }
}

template <class U>
cudaError_t topk_short(char* temp, const short_layout& l, const U* keys, std::int64_t rows, std::int64_t length,
                       std::int64_t k, key_kind kind, topk_options o, U* out_keys, std::int64_t* out_at,
                       cudaStream_t stream) {
  U* sorted = reinterpret_cast<U*>(temp);
  auto* positions = reinterpret_cast<std::uint32_t*>(temp + l.keys);
  auto* chosen = reinterpret_cast<std::uint32_t*>(temp + l.keys + l.positions);
  auto* in_order = reinterpret_cast<std::uint32_t*>(temp + l.keys + l.positions + l.chosen);
  char* sort_temp = temp + l.keys + l.positions + 2 * l.chosen;
  segmented_sort_options so;
  so.descending = o.largest;
  so.debug_synchronous = o.debug_synchronous;
  std::size_t bytes = l.sort;
  cudaError_t e = segmented_sort_bits_pairs<U, std::uint32_t>(sort_temp, bytes, keys, sorted, nullptr, positions,
                                                              rows * length, segment_layout::rows(rows, length), kind,
                                                              so, stream);
  if (e != cudaSuccess) return e;
  const std::int64_t total = rows * k;
  slice_kernel<U><<<item_grid(total), 256, 0, stream>>>(sorted, positions, length, k, total, out_keys, out_at,
                                                        o.sorted ? nullptr : chosen);
  if ((e = check_launch(stream, o.debug_synchronous)) != cudaSuccess || o.sorted) return e;
  return sort_positions_and_gather(sort_temp, bytes, keys, rows, length, k, chosen, in_order, o.debug_synchronous,
                                   out_keys, out_at, stream);
}

}  // namespace parascan::device::topk_detail

namespace parascan {

template <class Bits>
cudaError_t topk_bits(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys, std::int64_t rows, std::int64_t length,
                      std::int64_t k, key_kind kind, Bits* d_out_keys, std::int64_t* d_out_indices, topk_options options,
                      cudaStream_t stream) {
  using namespace device;
  if (rows < 0 || length < 0 || k < 0 || k > length || length > INT_MAX || rows > INT_MAX) return cudaErrorInvalidValue;
  const std::int64_t chosen = rows * k;
  const segment_layout layout = segment_layout::rows(rows, k);
  segmented_sort_options so;
  so.descending = options.largest;
  so.debug_synchronous = options.debug_synchronous;
  std::size_t sort_bytes = 0, keys_bytes = 0, indices_bytes = 0;
  cudaError_t e;
  if (chosen > 0 && length >= 2 && length <= topk_detail::thread_rows_max) {  // a thread a row
    if (d_temp == nullptr) {
      temp_bytes = 1;
      return cudaSuccess;
    }
    topk_detail::launch_topk_thread_rows<Bits>(d_keys, rows, static_cast<int>(length), static_cast<int>(k),
                                               topk_detail::ordered_key<Bits>{kind, options.largest}, options.sorted,
                                               d_out_keys, d_out_indices, stream);
    return check_launch(stream, options.debug_synchronous);
  }
  if (chosen > 0 && length <= topk_detail::short_max && k <= topk_detail::warp_k) {  // a warp a row
    if (d_temp == nullptr) {
      temp_bytes = 1;
      return cudaSuccess;
    }
    const std::int64_t blocks = (rows + 7) / 8;
    topk_detail::topk_warp_kernel<Bits><<<static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20)), 256, 0, stream>>>(
        d_keys, rows, length, static_cast<int>(k), topk_detail::ordered_key<Bits>{kind, options.largest}, options.sorted, d_out_keys,
        d_out_indices);
    return check_launch(stream, options.debug_synchronous);
  }
  if (chosen > 0 && length <= topk_detail::short_max) {
    topk_detail::short_layout l;
    if ((e = topk_detail::plan_short<Bits>(rows, length, k, kind, options, stream, l)) != cudaSuccess) return e;
    if (d_temp == nullptr) {
      temp_bytes = l.total();
      return cudaSuccess;
    }
    if (temp_bytes < l.total()) return cudaErrorInvalidValue;
    return topk_detail::topk_short<Bits>(static_cast<char*>(d_temp), l, d_keys, rows, length, k, kind, options,
                                         d_out_keys, d_out_indices, stream);
  }
  const bool wide = topk_detail::takes_filter(rows, length, sizeof(Bits)) && chosen > 0;
  topk_detail::wide_layout w;
  if (wide && (e = topk_detail::plan_wide<Bits>(rows, length, k, options.sorted, options.debug_synchronous, stream, w)) !=
                  cudaSuccess)
    return e;
  // Sorted output but for the filter path's own sort: the k of each row in row order into temporary
  // storage, then sorted by the segmented sort of rows of k (stable: ties stay in position order).
  const bool staged = options.sorted && !w.composite && chosen > 0;
  if (staged) {
    e = segmented_sort_bits_pairs<Bits, std::uint64_t>(nullptr, sort_bytes, static_cast<const Bits*>(nullptr),
                                                       static_cast<Bits*>(nullptr),
                                                       static_cast<const std::uint64_t*>(nullptr),
                                                       static_cast<std::uint64_t*>(nullptr), chosen, layout, kind, so,
                                                       stream);
    if (e != cudaSuccess) return e;
    keys_bytes = align_up(static_cast<std::size_t>(chosen) * sizeof(Bits));
    indices_bytes = align_up(static_cast<std::size_t>(chosen) * sizeof(std::int64_t));
    sort_bytes = align_up(sort_bytes);
  }
  const std::size_t need = keys_bytes + indices_bytes + sort_bytes + w.total();
  if (d_temp == nullptr) {
    temp_bytes = need > 0 ? need : 1;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  if (chosen == 0) return cudaSuccess;

  char* temp = static_cast<char*>(d_temp);
  Bits* keys_out = staged ? reinterpret_cast<Bits*>(temp) : d_out_keys;
  std::int64_t* indices_out = staged ? reinterpret_cast<std::int64_t*>(temp + keys_bytes) : d_out_indices;
  char* sort_temp = temp + keys_bytes + indices_bytes;
  if (wide) {
    e = topk_detail::topk_wide<Bits>(sort_temp + sort_bytes, w, d_keys, rows, length, k, kind, options.largest,
                                     options.debug_synchronous, keys_out, indices_out, stream);
    if (e != cudaSuccess) return e;
  } else {
    std::int64_t smem_limit = 0;
    if ((e = topk_detail::block_smem_limit(smem_limit)) != cudaSuccess) return e;
    const auto kernel = topk_detail::topk_rows_kernel<Bits>;
    const std::int64_t row_bytes = length * static_cast<std::int64_t>(sizeof(Bits));
    const std::int64_t static_bytes = sizeof(typename block::radix_select<topk_detail::threads, Bits>::storage);
    const std::int64_t most = smem_limit - static_bytes - 1024;  // dynamic shared memory a block may take
    const bool cache = row_bytes > 0 && row_bytes <= most;
    const int dynamic = cache ? static_cast<int>(row_bytes) : 0;
    // The attribute is a ceiling: set once to the most any row takes (set per size, a smaller row's
    // call would lower it under a larger row's launch).
    if (cache && (e = allow_dynamic_smem(kernel, static_cast<int>(most))) != cudaSuccess) return e;
    kernel<<<static_cast<unsigned>(rows), topk_detail::threads, dynamic, stream>>>(
        d_keys, length, k, kind, options.largest, cache, keys_out, indices_out);
    if ((e = check_launch(stream, options.debug_synchronous)) != cudaSuccess) return e;
  }
  if (!staged) return cudaSuccess;
  return segmented_sort_bits_pairs<Bits, std::uint64_t>(sort_temp, sort_bytes, keys_out, d_out_keys,
                                                        reinterpret_cast<const std::uint64_t*>(indices_out),
                                                        reinterpret_cast<std::uint64_t*>(d_out_indices), chosen, layout,
                                                        kind, so, stream);
}

}  // namespace parascan

#define PARASCAN_INSTANTIATE_TOPK(U)                                                                             \
  template cudaError_t parascan::topk_bits<U>(void*, std::size_t&, const U*, std::int64_t, std::int64_t,        \
                                              std::int64_t, parascan::key_kind, U*, std::int64_t*,              \
                                              parascan::topk_options, cudaStream_t);
