// Onesweep LSD radix sort (Adinets & Merrill 2022): 8-bit digits, one pass over the keys per digit.
// Include from a .cu file (device_radix_sort.cuh dispatches to it).
//
//   1. histogram: one read of the keys counts the digits of every pass at once (shared-memory
//      histograms, flushed with one global atomic per bin and block); an exclusive scan per pass turns
//      the counts into each digit's first output position.
//   2. per digit pass, a block per tile of 256 × 16 keys (tile ids from an atomic counter, so a tile's
//      predecessors are always running or done):
//      - rank: each warp ranks its 512 keys in input order — peers with the same digit found by eight
//        ballots, a per-warp running count per digit in shared memory — then a prefix across the warps
//        and an exclusive scan over the 256 digits give every key its place in the tile sorted by digit;
//      - look-back: thread d publishes the tile's count of digit d (flag "aggregate"), walks back over
//        the predecessors' words for digit d until one carries an inclusive prefix, and publishes its
//        own inclusive prefix (decoupled look-back, Merrill & Garland 2016, one chain per digit);
//      - scatter: the keys are placed in shared memory in sorted order and written out from there, so
//        consecutive threads write the consecutive positions of a digit's run (values the same way).
//   Stable: within a tile keys are ranked by (digit, input position), and tiles come in input order.
//   Status words are 32-bit: 2 flag bits and a 30-bit count, so a launch covers a portion of at most
//   2^28 keys; the last tile of a portion hands the running digit offsets to the next portion.
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/device/device_scan.cuh"
#include "parascan/device/radix_digits.cuh"

namespace parascan::device::onesweep {

using sort_detail::digit_of;
using sort_detail::digit_place;
using sort_detail::no_values;
using sort_detail::ordered_bits;

constexpr int radix_bits = 8;
constexpr int digits = 1 << radix_bits;
constexpr int threads = 256;  // one digit per thread in the look-back and the scans over digits
constexpr int warps = threads / 32;
constexpr int items = 16;
constexpr int tile_items = threads * items;
constexpr std::int64_t portion_keys = std::int64_t(1) << 28;  // a multiple of tile_items
constexpr int max_passes = 8;                                   // 64-bit keys
constexpr unsigned flag_aggregate = 1u << 30, flag_inclusive = 2u << 30, count_mask = flag_aggregate - 1u;
static_assert(portion_keys % tile_items == 0 && portion_keys <= count_mask);

/// The passes of one sort: pass p looks at bits [begin_bit + 8p, min(begin_bit + 8p + 8, end_bit)).
struct pass_set {
  int begin_bit, end_bit, passes;
  key_kind kind;
  bool descending;
  __host__ __device__ digit_place place(int p) const {
    const int shift = begin_bit + p * radix_bits;
    return {shift, end_bit - shift < radix_bits ? end_bit - shift : radix_bits, kind, descending};
  }
};

template <class Offset>
__device__ __forceinline__ void atomic_add_global(Offset* p, Offset v) {
  if constexpr (sizeof(Offset) == 8)
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  else
    atomicAdd(reinterpret_cast<unsigned*>(p), static_cast<unsigned>(v));
}

/// Exclusive sum over the block's 256 threads (one value each); `warp_totals` holds `warps` items.
/// Ends with a barrier, so `warp_totals` may be reused at once.
template <class T>
__device__ __forceinline__ T block_exclusive_sum(T v, T* warp_totals, T& total) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T x = v;
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    const T y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) warp_totals[warp] = x;
  __syncthreads();
  T before = 0, all = 0;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    const T t = warp_totals[w];
    before += w < warp ? t : T(0);
    all += t;
  }
  __syncthreads();
  total = all;
  return before + x - v;
}

/// Digit counts of every pass in one read of the keys; `bins[p · 256 + d]` must start at zero.
template <class U, class Offset>
__global__ void __launch_bounds__(threads) histogram_kernel(const U* keys, std::int64_t n, pass_set ps, Offset* bins) {
  __shared__ unsigned hist[max_passes][digits];
  for (int i = threadIdx.x; i < max_passes * digits; i += threads) (&hist[0][0])[i] = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * threads;
  // Whole-warp strides: every lane of a warp is active in the loop, so a warp whose keys share a digit
  // (sorted or few distinct keys) adds them with one atomic instead of 32 on one address.
  const std::int64_t n_warps = (n + 31) / 32 * 32;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * threads + threadIdx.x; i < n_warps; i += stride) {
    const bool valid = i < n;
    const U b = valid ? ordered_bits(keys[i], ps.kind, ps.descending) : U(0);
    for (int p = 0; p < ps.passes; ++p) {
      const digit_place pl = ps.place(p);
      const unsigned d = static_cast<unsigned>(b >> pl.shift) & ((1u << pl.bits) - 1u);
      const unsigned first = __shfl_sync(0xffffffffu, d, 0);
      const unsigned uniform = __ballot_sync(0xffffffffu, valid && d == first);
      if (uniform == 0xffffffffu) {
        if (lane == 0) atomicAdd(&hist[p][d], 32u);
      } else if (valid) {
        atomicAdd(&hist[p][d], 1u);
      }
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < ps.passes * digits; i += threads) {
    const unsigned c = (&hist[0][0])[i];
    if (c != 0) atomic_add_global(bins + i, static_cast<Offset>(c));
  }
}

/// bins[p · 256 + d] → the exclusive sum over the digits of pass p (block p).
template <class Offset>
__global__ void __launch_bounds__(threads) scan_bins_kernel(Offset* bins) {
  __shared__ Offset warp_totals[warps];
  Offset* b = bins + static_cast<std::int64_t>(blockIdx.x) * digits;
  Offset total;
  const Offset v = b[threadIdx.x];
  b[threadIdx.x] = block_exclusive_sum(v, warp_totals, total);
}

/// The lanes of the warp whose 8-bit digit equals this lane's (eight ballots).
__device__ __forceinline__ unsigned same_digit_lanes(unsigned d) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < radix_bits; ++b) {
    const bool set = (d >> b) & 1u;
    const unsigned ones = __ballot_sync(0xffffffffu, set);
    peers &= set ? ones : ~ones;
  }
  return peers;
}

template <class T>
__device__ __forceinline__ T load_volatile(const T* p) {
  return *reinterpret_cast<const volatile T*>(p);
}

/// One digit pass over the keys [portion_begin, portion_begin + portion_n): a block per tile.
/// bins_in[d]: where digit d of this portion starts in the output; the portion's last tile writes
/// bins_out[d] (the next portion's bins_in) unless bins_out is null. `status` holds 256 zeroed words
/// per tile, `tile_counter` a zeroed word.
template <class U, class V, class Offset>
__global__ void __launch_bounds__(threads)
    onesweep_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out, std::int64_t portion_begin,
                    std::int64_t portion_n, digit_place pl, const Offset* bins_in, Offset* bins_out, unsigned* status,
                    unsigned* tile_counter) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  using staged = std::conditional_t<(sizeof(V) > sizeof(U)) && has_values, V, U>;
  __shared__ staged stage[tile_items];                // the tile's keys (then values) in sorted order
  __shared__ unsigned warp_hist[warps][digits];       // per warp: running count, then first rank of a digit
  __shared__ Offset base[digits];                     // output position of the tile's sorted item 0 of a digit
  __shared__ unsigned warp_totals[warps];
  __shared__ unsigned tile_shared;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, d = threadIdx.x;
  if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1u);
  for (int i = threadIdx.x; i < warps * digits; i += threads) (&warp_hist[0][0])[i] = 0;
  __syncthreads();
  const unsigned tile = tile_shared;
  const std::int64_t tile_begin = portion_begin + static_cast<std::int64_t>(tile) * tile_items;
  const std::int64_t left = portion_begin + portion_n - tile_begin;
  const int tile_n = left < tile_items ? static_cast<int>(left) : tile_items;
  const bool last_tile = tile_begin + tile_items >= portion_begin + portion_n;

  // Load: warp w owns the tile's items [w · 512, (w + 1) · 512), lane l item j · 32 + l of them, so
  // (j, lane) order is input order. Items past the end take digit 255 and, being last in input order,
  // rank after every real key of that digit: they fill the tile's places [tile_n, tile_items).
  U key[items];
  unsigned digit[items];
  const int warp_begin = warp * 32 * items;
#pragma unroll
  for (int j = 0; j < items; ++j) {
    const int i = warp_begin + j * 32 + lane;
    const bool valid = i < tile_n;
    key[j] = valid ? keys_in[tile_begin + i] : U(0);
    digit[j] = valid ? digit_of(key[j], pl) : digits - 1u;
  }
  // Rank within the warp, in input order.
  const unsigned lanes_below = (1u << lane) - 1u;
  unsigned rank[items];
#pragma unroll
  for (int j = 0; j < items; ++j) {
    const unsigned peers = same_digit_lanes(digit[j]);
    const unsigned below = __popc(peers & lanes_below);
    const unsigned before = warp_hist[warp][digit[j]];
    __syncwarp();
    if (below == 0) warp_hist[warp][digit[j]] = before + __popc(peers);
    __syncwarp();
    rank[j] = before + below;
  }
  __syncthreads();
  // Thread d: the tile's count of digit d (without the padding items), and each warp's first rank.
  unsigned per_warp[warps], count = 0;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    per_warp[w] = warp_hist[w][d];
    count += per_warp[w];
  }
  if (d == digits - 1) count -= static_cast<unsigned>(tile_items - tile_n);
  // Publish the count at once, so successors can look past this tile while it ranks.
  unsigned* my_status = status + static_cast<std::int64_t>(tile) * digits + d;
  *reinterpret_cast<volatile unsigned*>(my_status) = (tile == 0 ? flag_inclusive : flag_aggregate) | count;
  unsigned tile_total;
  const unsigned start = block_exclusive_sum(count, warp_totals, tile_total);
  unsigned first = start;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    warp_hist[w][d] = first;
    first += per_warp[w];
  }
  // Look-back over the predecessors' counts of digit d.
  unsigned exclusive = 0;
  if (tile > 0) {
    for (std::int64_t t = static_cast<std::int64_t>(tile) - 1; t >= 0; --t) {
      const unsigned* w = status + t * digits + d;
      unsigned s = load_volatile(w);
      while ((s & ~count_mask) == 0) s = load_volatile(w);
      exclusive += s & count_mask;
      if (s & flag_inclusive) break;
    }
    *reinterpret_cast<volatile unsigned*>(my_status) = flag_inclusive | (exclusive + count);
  }
  const Offset digit_begin = bins_in[d] + exclusive;  // output position of this tile's first key of d
  base[d] = digit_begin - start;                      // modular: base + (its place in the tile)
  if (last_tile && bins_out != nullptr) bins_out[d] = digit_begin + count;
  __syncthreads();  // warp_hist holds first ranks, base is complete

#pragma unroll
  for (int j = 0; j < items; ++j) {
    rank[j] += warp_hist[warp][digit[j]];
    stage[rank[j]] = key[j];
  }
  __syncthreads();
  Offset place[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int i = k * threads + threadIdx.x;
    if (i < tile_n) {
      const U k_sorted = stage[i];
      place[k] = base[digit_of(k_sorted, pl)] + static_cast<Offset>(i);
      keys_out[place[k]] = k_sorted;
    }
  }
  if constexpr (has_values) {
    __syncthreads();  // every key has left the stage
    V* vstage = reinterpret_cast<V*>(stage);
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int i = warp_begin + j * 32 + lane;
      if (i < tile_n)
        vstage[rank[j]] = values_in ? values_in[tile_begin + i] : static_cast<V>(tile_begin + i);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int i = k * threads + threadIdx.x;
      if (i < tile_n) values_out[place[k]] = vstage[i];
    }
  }
}

/// Bytes of temporary storage past the keys' and values' second buffers.
template <class Offset>
inline std::size_t temp_bytes(std::int64_t n, int passes) {
  const std::int64_t portion = n < portion_keys ? n : portion_keys;
  const std::int64_t tiles = (portion + tile_items - 1) / tile_items;
  const std::int64_t portions = (n + portion_keys - 1) / portion_keys;
  return align_up(static_cast<std::size_t>(passes + 2) * digits * sizeof(Offset)) +
         align_up(static_cast<std::size_t>(passes * portions) * sizeof(unsigned)) +
         align_up(static_cast<std::size_t>(tiles) * digits * sizeof(unsigned));
}

/// The passes of a sort, reading `kb.source(p)` and writing `kb.target(p)` (ping_pong of
/// device_radix_sort.cuh). `temp` holds temp_bytes<Offset>(n, passes).
template <class Offset, class U, class V, class Buffers, class ValueBuffers>
cudaError_t run(void* temp, const Buffers& kb, const ValueBuffers& vb, const V* values_in, std::int64_t n,
                const pass_set& ps, cudaStream_t stream, bool sync) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  const std::int64_t portions = (n + portion_keys - 1) / portion_keys;
  char* t = static_cast<char*>(temp);
  Offset* bins = reinterpret_cast<Offset*>(t);  // passes × 256, then two × 256 handed between portions
  Offset* handoff = bins + static_cast<std::int64_t>(ps.passes) * digits;
  t += align_up(static_cast<std::size_t>(ps.passes + 2) * digits * sizeof(Offset));
  unsigned* counters = reinterpret_cast<unsigned*>(t);
  t += align_up(static_cast<std::size_t>(ps.passes * portions) * sizeof(unsigned));
  unsigned* status = reinterpret_cast<unsigned*>(t);  // 256 words per tile of the largest portion

  cudaError_t e;
  if ((e = cudaMemsetAsync(bins, 0, static_cast<std::size_t>(ps.passes) * digits * sizeof(Offset), stream)) != cudaSuccess)
    return e;
  if ((e = cudaMemsetAsync(counters, 0, static_cast<std::size_t>(ps.passes * portions) * sizeof(unsigned), stream)) !=
      cudaSuccess)
    return e;
  const std::int64_t hist_blocks_needed = (n + static_cast<std::int64_t>(threads) * 16 - 1) / (threads * 16);
  const unsigned hist_blocks = static_cast<unsigned>(hist_blocks_needed < 2048 ? hist_blocks_needed : 2048);
  histogram_kernel<U, Offset><<<hist_blocks, threads, 0, stream>>>(kb.in, n, ps, bins);
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  scan_bins_kernel<Offset><<<static_cast<unsigned>(ps.passes), threads, 0, stream>>>(bins);
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  for (int p = 0; p < ps.passes; ++p) {
    const digit_place pl = ps.place(p);
    const V* vin = nullptr;
    V* vout = nullptr;
    if constexpr (has_values) {
      vin = p == 0 ? values_in : vb.source(p);  // null on argsort's first pass: the kernel writes indices
      vout = vb.target(p);
    }
    for (std::int64_t q = 0; q < portions; ++q) {
      const std::int64_t begin = q * portion_keys;
      const std::int64_t count = n - begin < portion_keys ? n - begin : portion_keys;
      const std::int64_t blocks = (count + tile_items - 1) / tile_items;
      if ((e = cudaMemsetAsync(status, 0, static_cast<std::size_t>(blocks) * digits * sizeof(unsigned), stream)) !=
          cudaSuccess)
        return e;
      const Offset* bins_in = q == 0 ? bins + static_cast<std::int64_t>(p) * digits : handoff + ((q - 1) % 2) * digits;
      Offset* bins_out = q + 1 < portions ? handoff + (q % 2) * digits : nullptr;
      onesweep_kernel<U, V, Offset><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
          kb.source(p), kb.target(p), vin, vout, begin, count, pl, bins_in, bins_out, status,
          counters + p * portions + q);
      if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
    }
  }
  return cudaSuccess;
}

}  // namespace parascan::device::onesweep
