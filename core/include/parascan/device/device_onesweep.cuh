// Onesweep LSD radix sort (Adinets & Merrill 2022): 8-bit digits, one pass over the keys per digit.
// Include from a .cu file (device_radix_sort.cuh dispatches to it).
//
//   1. histogram: one read of the keys counts the digits of every pass at once (shared-memory
//      histograms, flushed with one global atomic per bin and block); an exclusive scan per pass turns
//      the counts into each digit's first output position.
//   2. per digit pass, a block per tile of 256 × 28 keys (256 × 14 with 8-byte keys or values; tile
//      ids from an atomic counter, so a tile's predecessors are always running or done):
//      - early counts: the tile's digit counts by shared atomics; thread d publishes the count of
//        digit d at once (flag "aggregate"), before the ranking, so successors rarely wait;
//      - rank: each warp ranks its keys in input order — the lanes sharing a digit found with a
//        shared-memory atomicOr per digit, a per-warp running count per digit — then a prefix across
//        the warps and an exclusive scan over the 256 digits give every key its place in the tile;
//      - look-back: thread d walks back over the predecessors' words for digit d until one carries an
//        inclusive prefix, and publishes its own (decoupled look-back, Merrill & Garland 2016, one
//        chain per digit);
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
constexpr int threads = 256;       // histogram and bin scan: one digit per thread
constexpr int warps = threads / 32;
// Digit passes (H100 sweep, experiments/onesweep_variants.cu; docs/performance.md entry 12): 256
// threads × 28 keys with two blocks per SM beat 384 × 16–20 and 512 × 10–14 (one block per SM
// idles through the block's barriers and look-back; 512 × 12 at two blocks ties 256 × 24).
constexpr int sort_threads = 256;  // threads 0..255 also own a digit each (Threads ≥ 256 works too)
constexpr int items_4byte = 28;    // keys per thread when keys and values are at most 4 bytes
constexpr int items_8byte = 14;    // with 8-byte keys or values (the staging buffer's size)
constexpr int min_blocks = 2;
constexpr int max_passes = 8;  // 64-bit keys
constexpr unsigned flag_aggregate = 1u << 30, flag_inclusive = 2u << 30, count_mask = flag_aggregate - 1u;

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

/// Exclusive sum over the block's Threads threads (one value each); `warp_totals` holds Threads / 32
/// items. Ends with a barrier, so `warp_totals` may be reused at once.
template <int Threads, class T>
__device__ __forceinline__ T block_exclusive_sum(T v, T* warp_totals, T& total) {
  constexpr int n_warps = Threads / 32;
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
  for (int w = 0; w < n_warps; ++w) {
    const T t = warp_totals[w];
    before += w < warp ? t : T(0);
    all += t;
  }
  __syncthreads();
  total = all;
  return before + x - v;
}

/// The digit of a raw key with the order's branches folded into masks: the ordered bits are
/// (raw, with −0.0 as +0.0) xor (sign set ? flip_set : flip_clear) (see ordered_bits).
template <class U>
struct digit_reader {
  U flip_clear, flip_set;
  bool zero_fix;
  int shift;
  unsigned mask;
  static constexpr U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  __host__ __device__ explicit digit_reader(const digit_place& p)
      : flip_clear(ordered_bits(U(0), p.kind, p.descending) ^ U(0)),
        flip_set(ordered_bits(static_cast<U>(sign | U(1)), p.kind, p.descending) ^ static_cast<U>(sign | U(1))),
        zero_fix(p.kind == key_kind::floating),
        shift(p.shift),
        mask((1u << p.bits) - 1u) {}
  __device__ __forceinline__ unsigned operator()(U raw) const {
    if (zero_fix && raw == sign) raw = 0;
    const U b = raw ^ ((raw & sign) ? flip_set : flip_clear);
    return static_cast<unsigned>(b >> shift) & mask;
  }
};

constexpr int hist_items = 16;
constexpr std::int64_t hist_tile = std::int64_t(threads) * hist_items;
constexpr std::int64_t hist_max_blocks = 2048;

/// Digit counts of every pass in one read of the keys; `bins[p · 256 + d]` must start at zero.
/// Blocks stride over tiles of 256 × 16 keys (16 independent loads in flight per thread), count in
/// shared memory (a thread's run of equal digits with one atomic) and flush with one global atomic
/// per non-empty bin.
template <class U, class Offset>
__global__ void __launch_bounds__(threads) histogram_kernel(const U* keys, std::int64_t n, pass_set ps, Offset* bins) {
  __shared__ unsigned hist[max_passes][digits];
  for (int i = threadIdx.x; i < max_passes * digits; i += threads) (&hist[0][0])[i] = 0;
  __syncthreads();
  constexpr int passes_max = sizeof(U) * 8 / radix_bits;
  const U flip_clear = ordered_bits(U(0), ps.kind, ps.descending);
  const U flip_set = ordered_bits(static_cast<U>(digit_reader<U>::sign | U(1)), ps.kind, ps.descending) ^
                     static_cast<U>(digit_reader<U>::sign | U(1));
  const bool zero_fix = ps.kind == key_kind::floating;
  for (std::int64_t tile = blockIdx.x; tile * hist_tile < n; tile += gridDim.x) {
    const std::int64_t begin = tile * hist_tile;
    U b[hist_items];
#pragma unroll
    for (int j = 0; j < hist_items; ++j) {
      const std::int64_t i = begin + j * threads + threadIdx.x;
      U raw = i < n ? keys[i] : U(0);
      if (zero_fix && raw == digit_reader<U>::sign) raw = 0;
      b[j] = raw ^ ((raw & digit_reader<U>::sign) ? flip_set : flip_clear);
    }
    const int valid = n - begin < hist_tile ? static_cast<int>(n - begin) : static_cast<int>(hist_tile);
#pragma unroll
    for (int p = 0; p < passes_max; ++p) {
      if (p >= ps.passes) break;
      const digit_place pl = ps.place(p);
      const unsigned mask = (1u << pl.bits) - 1u;
      // Runs of one digit among the thread's keys (sorted input, few distinct keys) are counted in a
      // register and added once: 32 lanes adding to one shared word would serialise.
      unsigned run_digit = static_cast<unsigned>(b[0] >> pl.shift) & mask, run = 0;
#pragma unroll
      for (int j = 0; j < hist_items; ++j) {
        if (j * threads + static_cast<int>(threadIdx.x) >= valid) break;
        const unsigned dj = static_cast<unsigned>(b[j] >> pl.shift) & mask;
        if (dj != run_digit) {
          atomicAdd(&hist[p][run_digit], run);
          run_digit = dj;
          run = 0;
        }
        ++run;
      }
      if (run != 0) atomicAdd(&hist[p][run_digit], run);
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
  b[threadIdx.x] = block_exclusive_sum<threads>(v, warp_totals, total);
}

template <class T>
__device__ __forceinline__ T load_volatile(const T* p) {
  return *reinterpret_cast<const volatile T*>(p);
}

/// Tile shape: `Items` keys per thread of `Threads`; a launch covers a portion of whole tiles, at
/// most 2^28 keys (status counts have 30 bits).
template <int Threads, int Items>
struct tiling {
  static constexpr int tile_items = Threads * Items;
  static constexpr std::int64_t portion_keys = ((std::int64_t(1) << 28) / tile_items) * tile_items;
  static_assert(portion_keys <= count_mask && Threads >= digits && Threads % 32 == 0);
};
/// Items per thread: 8-byte keys or values take a smaller tile (the staging buffer's size).
template <class U, class V>
constexpr int items_for() {
  return sizeof(U) >= 8 || (!std::is_same_v<V, no_values> && sizeof(V) >= 8) ? items_8byte : items_4byte;
}

/// One digit pass over the keys [portion_begin, portion_begin + portion_n): a block per tile.
/// bins_in[d]: where digit d of this portion starts in the output; the portion's last tile writes
/// bins_out[d] (the next portion's bins_in) unless bins_out is null. `status` holds 256 zeroed words
/// per tile, `tile_counter` a zeroed word.
template <class U, class V, class Offset, int Items, int Threads = sort_threads, int MinBlocks = min_blocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
    onesweep_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out, std::int64_t portion_begin,
                    std::int64_t portion_n, digit_place pl, const Offset* bins_in, Offset* bins_out, unsigned* status,
                    unsigned* tile_counter) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  constexpr int tile_items = tiling<Threads, Items>::tile_items, n_warps = Threads / 32;
  using staged = std::conditional_t<(sizeof(V) > sizeof(U)) && has_values, V, U>;
  constexpr std::size_t stage_bytes = sizeof(staged) * tile_items, mask_bytes = sizeof(unsigned) * n_warps * digits;
  // The tile's keys (then values) in sorted order; before that, per warp, the lanes holding a digit.
  __shared__ alignas(16) unsigned char stage_raw[stage_bytes > mask_bytes ? stage_bytes : mask_bytes];
  __shared__ unsigned warp_hist[n_warps][digits];  // per warp: running count, then first rank of a digit
  __shared__ Offset base[digits];                  // output position of the tile's sorted item 0 of a digit
  __shared__ unsigned warp_totals[n_warps];
  __shared__ unsigned block_hist[digits];          // the tile's digit counts
  __shared__ unsigned tile_shared;
  staged* stage = reinterpret_cast<staged*>(stage_raw);
  unsigned(*peer_mask)[digits] = reinterpret_cast<unsigned(*)[digits]>(stage_raw);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, d = threadIdx.x;
  const bool owns_digit = d < digits;  // threads 0..255 own digit d in the counts and the look-back
  const digit_reader<U> digit_of_key(pl);
  if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1u);
  for (int i = threadIdx.x; i < n_warps * digits; i += Threads) (&warp_hist[0][0])[i] = (&peer_mask[0][0])[i] = 0;
  if (owns_digit) block_hist[d] = 0;
  __syncthreads();
  const unsigned tile = tile_shared;
  const std::int64_t tile_begin = portion_begin + static_cast<std::int64_t>(tile) * tile_items;
  const std::int64_t left = portion_begin + portion_n - tile_begin;
  const int tile_n = left < tile_items ? static_cast<int>(left) : tile_items;
  const bool last_tile = tile_begin + tile_items >= portion_begin + portion_n;

  // Load: warp w owns the tile's items [w · 32 · Items, (w + 1) · 32 · Items), lane l item j · 32 + l
  // of them, so (j, lane) order is input order. Items past the end take digit 255 and, being last in
  // input order, rank after every real key of that digit: they fill the places [tile_n, tile_items).
  U key[Items];
  const int warp_begin = warp * 32 * Items;
  if (tile_n == tile_items) {
#pragma unroll
    for (int j = 0; j < Items; ++j) key[j] = keys_in[tile_begin + warp_begin + j * 32 + lane];
  } else {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = warp_begin + j * 32 + lane;
      key[j] = i < tile_n ? keys_in[tile_begin + i] : U(0);
    }
  }
  // Early counts (as CUB's onesweep): the tile's digit counts by shared atomics, published before the
  // ranking so that successors find them without waiting.
  unsigned* my_status = status + static_cast<std::int64_t>(tile) * digits + d;
#pragma unroll
  for (int j = 0; j < Items; ++j)
    if (warp_begin + j * 32 + lane < tile_n) atomicAdd(&block_hist[digit_of_key(key[j])], 1u);
  __syncthreads();
  const unsigned count = owns_digit ? block_hist[d] : 0u;
  if (owns_digit)
    *reinterpret_cast<volatile unsigned*>(my_status) = (tile == 0 ? flag_inclusive : flag_aggregate) | count;
  // Rank within the warp, in input order: the lanes sharing a digit set their bits in the warp's
  // mask of that digit (shared-memory atomicOr: cheaper than __match_any_sync or eight ballots on
  // sm_90); the lowest of them adds their number to the warp's running count of the digit and
  // clears the mask. rank[j] packs the digit (bits 16..23) with the rank in the warp's run of it.
  const unsigned lanes_below = (1u << lane) - 1u;
  unsigned rank[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const unsigned dj = warp_begin + j * 32 + lane < tile_n ? digit_of_key(key[j]) : digits - 1u;
    atomicOr(&peer_mask[warp][dj], 1u << lane);
    __syncwarp();
    const unsigned peers = peer_mask[warp][dj];
    const unsigned below = __popc(peers & lanes_below);
    const unsigned before = warp_hist[warp][dj];
    __syncwarp();
    if (below == 0) {
      warp_hist[warp][dj] = before + __popc(peers);
      peer_mask[warp][dj] = 0;
    }
    __syncwarp();
    rank[j] = (dj << 16) | (before + below);
  }
  __syncthreads();
  unsigned per_warp[n_warps];  // thread d: each warp's count of digit d
  if (owns_digit) {
#pragma unroll
    for (int w = 0; w < n_warps; ++w) per_warp[w] = warp_hist[w][d];
  }
  unsigned tile_total;
  const unsigned start = block_exclusive_sum<Threads>(count, warp_totals, tile_total);
  if (owns_digit) {
    unsigned first = start;
#pragma unroll
    for (int w = 0; w < n_warps; ++w) {
      warp_hist[w][d] = first;
      first += per_warp[w];
    }
    // Look-back over the predecessors' counts of digit d, nearest first, until an inclusive prefix.
    unsigned exclusive = 0;
    if (tile > 0) {
      for (std::int64_t t = static_cast<std::int64_t>(tile) - 1;; --t) {
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
  }
  __syncthreads();  // warp_hist holds first ranks, base is complete, the masks are done with

#pragma unroll
  for (int j = 0; j < Items; ++j) {
    rank[j] = warp_hist[warp][rank[j] >> 16] + (rank[j] & 0xffffu);
    stage[rank[j]] = key[j];
  }
  __syncthreads();
  Offset place[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int i = k * Threads + threadIdx.x;
    if (i < tile_n) {
      const U k_sorted = stage[i];
      place[k] = base[digit_of_key(k_sorted)] + static_cast<Offset>(i);
      keys_out[place[k]] = k_sorted;
    }
  }
  if constexpr (has_values) {
    __syncthreads();  // every key has left the stage
    V* vstage = reinterpret_cast<V*>(stage);
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = warp_begin + j * 32 + lane;
      if (i < tile_n)
        vstage[rank[j]] = values_in ? values_in[tile_begin + i] : static_cast<V>(tile_begin + i);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const int i = k * Threads + threadIdx.x;
      if (i < tile_n) values_out[place[k]] = vstage[i];
    }
  }
}

/// Bytes of temporary storage past the keys' and values' second buffers.
template <class Offset, int Items>
inline std::size_t temp_bytes(std::int64_t n, int passes) {
  using shape = tiling<sort_threads, Items>;
  constexpr std::int64_t portion_keys = shape::portion_keys, tile_items = shape::tile_items;
  const std::int64_t portion = n < portion_keys ? n : portion_keys;
  const std::int64_t tiles = (portion + tile_items - 1) / tile_items;
  const std::int64_t portions = (n + portion_keys - 1) / portion_keys;
  return align_up(static_cast<std::size_t>(passes + 2) * digits * sizeof(Offset)) +
         align_up(static_cast<std::size_t>(passes * portions) * sizeof(unsigned)) +
         align_up(static_cast<std::size_t>(tiles) * digits * sizeof(unsigned));
}

/// The passes of a sort, reading `kb.source(p)` and writing `kb.target(p)` (ping_pong of
/// device_radix_sort.cuh). `temp` holds temp_bytes<Offset, Items>(n, passes).
template <class Offset, class U, class V, int Items = items_for<U, V>(), class Buffers, class ValueBuffers>
cudaError_t run(void* temp, const Buffers& kb, const ValueBuffers& vb, const V* values_in, std::int64_t n,
                const pass_set& ps, cudaStream_t stream, bool sync) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  using shape = tiling<sort_threads, Items>;
  constexpr std::int64_t portion_keys = shape::portion_keys, tile_items = shape::tile_items;
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
  const std::int64_t hist_tiles = (n + hist_tile - 1) / hist_tile;
  const unsigned hist_blocks = static_cast<unsigned>(hist_tiles < hist_max_blocks ? hist_tiles : hist_max_blocks);
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
      onesweep_kernel<U, V, Offset, Items><<<static_cast<unsigned>(blocks), sort_threads, 0, stream>>>(
          kb.source(p), kb.target(p), vin, vout, begin, count, pl, bins_in, bins_out, status,
          counters + p * portions + q);
      if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
    }
  }
  return cudaSuccess;
}

}  // namespace parascan::device::onesweep
