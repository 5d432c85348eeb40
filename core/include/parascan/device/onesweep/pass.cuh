// Onesweep, step 2: one digit pass, a block per tile of Threads × Items keys (Adinets & Merrill 2022;
// the ranking is CUB's BlockRadixRankMatchEarlyCounts).
//
//   1. tile id from an atomic counter (a tile's predecessors are always running or done); each warp
//      clears its own digit histogram; keys loaded warp-striped (warp w holds the tile's items
//      [w · 32 · Items, (w + 1) · 32 · Items), lane l item j · 32 + l of them: (j, lane) is input
//      order) and converted once to their order-preserving bits (key_codec).
//   2. early counts: per key one shared atomicAdd of 1 to its warp's count of its digit. Thread d sums
//      digit d over the warps (leaving each warp's exclusive start in the histogram) and publishes the
//      tile's count at once, before ranking, so successors rarely wait; an exclusive sum over the
//      digits gives each digit's first place in the tile.
//   3. rank, per key in input order: the lanes holding the same digit found by 8 ballots; the highest
//      of them adds their number to its warp's running place of the digit (one atomic, whose old value
//      is the group's first place, shared by one shuffle). A tile whose keys all share one digit keeps
//      input order and skips this step.
//   4. keys stored to shared memory at their rank (registers freed before waiting); values loaded.
//   5. look-back: thread d walks back over the predecessors' words for digit d until one carries an
//      inclusive prefix (decoupled look-back, Merrill & Garland 2016, one chain per digit). Then the
//      values (their loads done meanwhile) go to a shared stage of their own at the same ranks.
//   6. scatter: thread t writes the tile's sorted items t + Threads · k, so a digit's run is written
//      by consecutive threads; a value goes out beside its key, to the same position. (CUB passes
//      values through the keys' stage after the keys have left it: two more barriers and every item's
//      digit looked up again; 1–2% slower here, docs/performance.md entry 24.)
//   What a pass reads and writes, and how keys are converted on the way, comes from its Io
//   (onesweep/pass_io.cuh: the library's `buffers`, or an experiment's own).
//   Traffic: keys (and values) read once and written once per pass, plus 256 status words per tile.
//   Stable: within a tile keys rank by (digit, input position), and tiles come in input order.
//   Unstable (the kernel's `Unstable` form, for sorts of keys alone on all their bits): steps 2 and 3
//   are one shared atomicAdd a key whose old value is the key's place among its warp's keys of that
//   digit, in whatever order the lanes' atomics meet; it saves the 8 ballots, the leader's atomic and
//   the shuffle a key (performance.md entry 70). A warp decides for itself, from its keys:
//   - pass 0 orders nothing that a later pass must keep (an LSD sort needs every pass but the first to
//     be stable), and keys that differ nowhere cannot be told apart;
//   - a later pass p must keep input order only between keys of one digit whose bits under the digit
//     (L) differ. Its input is in order of L, and a warp's 32 · Items keys are consecutive, so where
//     the warp's first and last keys share L all of them do, and any order of its keys of one digit is
//     the stable one up to equal keys (later passes order them by the bits above, or they are equal).
//     Such warps are common only where n / 2^shift (the keys of one L) is large: a later pass takes
//     the Unstable kernel where that is ≥ unstable_group_keys (launch_by_stability);
//   - where more than crowded_warp_lanes keys of the warp's first row share one digit, the lanes'
//     atomics would queue at that count's address (skewed digits, runs of equal keys, keys of few
//     values within one L), so the warp ranks stably (entries 71, 74 and 76);
//   - float keys: −0.0 and +0.0 share their digits but not their bits, and a stable sort keeps the
//     zeros in input order; where the histogram saw a −0.0 (plan->signed_zeros) every warp ranks stably.
//   Only full tiles test: pass 0's partial tile (the sort's last) ranks unstably untested, a later
//   pass's stably (testing it spilled registers, entry 75). The rows sort keeps the stable form (rows.cuh).
//   Status words are 32-bit (2 flag bits, a 30-bit count), so a launch covers fewer than 2^30 keys
//   (policy::portion_keys: 2^28 rounded up to whole tiles).
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/block/block_exclusive_sum.cuh"
#include "parascan/device/launch.cuh"
#include "parascan/device/look_back.cuh"
#include "parascan/device/onesweep/histogram.cuh"
#include "parascan/device/onesweep/pass_io.cuh"
#include "parascan/warp/warp_match.cuh"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device::onesweep {

/// Tile shape and residency of the pass kernel. LookBackReads: how many predecessors' words a digit's
/// thread reads at once in the look-back (1: one dependent load per predecessor, as CUB; 2: the
/// default for keys alone and for 4- or 8-byte keys with 4-byte values, device_onesweep.cuh; performance.md
/// entries 26–27 and 65).
template <int Threads, int Items, int MinBlocks, warp::match_method Match = warp::match_method::ballots,
          int LookBackReads = 1>
struct policy {
  static constexpr int threads = Threads, items = Items, min_blocks = MinBlocks;
  static constexpr warp::match_method match = Match;
  static constexpr int look_back_reads = LookBackReads;
  static constexpr int tile_items = Threads * Items;
  /// Keys per launch: 2^28 rounded up to whole tiles, so that 2^28 keys take one launch and 2^30 four
  /// (rounded down, 2^28 keys took a second launch a pass for their last 2048: 4 launches of ~9 µs and
  /// their status clears more in a sort of 2^28 u32 keys, performance.md entry 59); far below the 2^30
  /// that status counts (30 bits) allow.
  static constexpr std::int64_t portion_keys = (((std::int64_t(1) << 28) + tile_items - 1) / tile_items) * tile_items;
  static_assert(Threads >= digits && Threads % 32 == 0 && portion_keys <= counted_status::count_mask);
  // ptxas 13.0 miscompiles 256 × 36 at 3 blocks an SM (96 bytes of spills): one histogram store takes
  // its address from a register it has just overwritten (an invalid shared write found by memcheck,
  // performance.md entry 66). No shape of more than 32 items a thread has been checked since.
  static_assert(Items <= 32, "no tile of more than 32 items a thread has passed compute-sanitizer");
};

/// The keys' stage of the pass kernel: first the warps' digit counts, then the tile's keys in sorted order.
template <class Policy, class U>
constexpr std::size_t keys_stage_bytes() {
  const std::size_t counts = std::size_t(Policy::threads / 32) * digits * sizeof(unsigned);
  const std::size_t keys = sizeof(U) * Policy::tile_items;
  return counts > keys ? counts : keys;
}
/// Whether the keys' stage lies in dynamic shared memory: where it and the kernel's other static arrays
/// (two per digit, one per warp, two words, 64 bytes for alignment) would pass the 48 KB a kernel's
/// static shared memory may hold. Such tiles (default_policy's 384 × 20 of 8-byte keys with 4-byte
/// values; 384 × 32 of 4-byte keys in sort_tile_shapes `big`) put the stage behind the values'.
template <class Policy, class U, class Offset>
constexpr bool keys_stage_dynamic() {
  const std::size_t others = digits * (sizeof(Offset) + sizeof(unsigned)) + (Policy::threads / 32 + 2) * sizeof(unsigned);
  return keys_stage_bytes<Policy, U>() + others + 64 > std::size_t(48) << 10;
}
/// Where the values' stage ends in dynamic shared memory (the keys' stage, when dynamic, starts there).
template <class Policy, class V>
constexpr std::size_t values_stage_bytes() {
  return std::is_same_v<V, no_values> ? 0 : (sizeof(V) * Policy::tile_items + 15) / 16 * 16;
}
/// Dynamic shared memory of the pass kernel: the values' stage (none for keys only), then the keys'
/// stage where keys_stage_dynamic. Values wait there, at their keys' ranks, while the keys wait in
/// theirs; one loop scatters both.
template <class Policy, class U, class V, class Offset>
constexpr std::size_t pass_dynamic_smem() {
  return values_stage_bytes<Policy, V>() + (keys_stage_dynamic<Policy, U, Offset>() ? keys_stage_bytes<Policy, U>() : 0);
}

/// The keys' stage: the static one, or the dynamic one at `dynamic`.
template <bool Dynamic, class Storage, class Static>
__device__ __forceinline__ Storage& keys_stage(Static& static_stage, unsigned char* dynamic) {
  if constexpr (Dynamic) return *reinterpret_cast<Storage*>(dynamic);
  else return static_stage;
}

/// The codec a pass's ends use: key_codec::integer_form() where Digit::float_keys is false (integer
/// keys), so the kernel drops the select on the sign bit from every load and store; digits of an
/// experiment's own type keep the codec.
template <class Digit, class = void>
struct digit_float_keys : std::true_type {};
template <class Digit>
struct digit_float_keys<Digit, std::void_t<decltype(Digit::float_keys)>> : std::bool_constant<Digit::float_keys> {};
template <class Digit, class Codec>
__device__ __forceinline__ Codec integer_codec(const Codec& c) {
  if constexpr (!digit_float_keys<Digit>::value) return c.integer_form();
  else return c;
}

/// A later pass takes the Unstable kernel where the keys sharing their bits under its digit number at
/// least this many on average (n / 2^shift): pass 1 from 2^20 keys, pass 2 from 2^28 (a warp of the
/// u32 keys' tile holds 1024 keys; performance.md entry 74).
/// PARASCAN_ONESWEEP_UNSTABLE_GROUP_KEYS overrides it for an A/B build (scripts/ab_build.sh; 1 << 40:
/// only pass 0 ranks unstably).
#ifndef PARASCAN_ONESWEEP_UNSTABLE_GROUP_KEYS
#define PARASCAN_ONESWEEP_UNSTABLE_GROUP_KEYS 4096
#endif
constexpr std::int64_t unstable_group_keys = PARASCAN_ONESWEEP_UNSTABLE_GROUP_KEYS;
/// A warp whose first row holds more keys of one digit than this ranks stably: the lanes' atomics on
/// that count's address would queue one behind another. Uniform digits put at most 3–4 lanes on one
/// digit; a low byte of 16 values ~5–6 (the unstable ranking gains), of 4 values ~11 (break-even), of 2
/// ~19 and runs of equal keys 32 (it loses; performance.md entries 71 and 76). Keys whose bits are each
/// set with probability 1/8 put ~13 on digit 0: with entry 75's test (lanes alike with their right-hand
/// lane, ~4 of 31 for them) every pass of theirs ranked unstably and took 10% longer (H100, entry 76).
/// PARASCAN_ONESWEEP_CROWDED_WARP_LANES overrides it for an A/B build (32: no warp counts as crowded).
#ifndef PARASCAN_ONESWEEP_CROWDED_WARP_LANES
#define PARASCAN_ONESWEEP_CROWDED_WARP_LANES 8
#endif
constexpr int crowded_warp_lanes = PARASCAN_ONESWEEP_CROWDED_WARP_LANES;

/// A warp's value of lane `src`, for items of 1, 2, 4 or 8 bytes.
template <class U>
__device__ __forceinline__ U shfl_item(U v, int src) {
  using W = std::conditional_t<(sizeof(U) == 8), unsigned long long, unsigned>;
  return static_cast<U>(__shfl_sync(0xffffffffu, static_cast<W>(v), src));
}

/// Whether a warp of a full tile in an Unstable pass may rank by its atomics (the file's header): no
/// digit holds more than crowded_warp_lanes keys of its first row and, in a later pass (below ≠ 0),
/// its first and last keys share the bits `below`. Warp-uniform; every lane must call it (each
/// collective is a statement of its own, never an operand of && or ?:).
template <int Items, class U, class Digit>
__device__ __forceinline__ bool warp_ranks_unstably(const U (&key)[Items], const Digit& digit, U below) {
  const unsigned peers = __match_any_sync(0xffffffffu, digit(key[0]));
  const unsigned most = warp::warp_max(static_cast<unsigned>(__popc(peers)));
  const U first = shfl_item(key[0], 0), last = shfl_item(key[Items - 1], 31);
  return most <= static_cast<unsigned>(crowded_warp_lanes) && ((first ^ last) & below) == 0;
}

/// One digit's chain of tile counts for look_back_walk (one thread, counts summed as taken).
struct digit_chain {
  const unsigned* words;  // the digit's word of tile 0; tile t's is t · digits further
  unsigned count = 0, exclusive = 0;
  __device__ __forceinline__ unsigned poll(std::int64_t t) { return counted_status::read(words + t * digits, count); }
  __device__ __forceinline__ void take(std::int64_t, int, bool) { exclusive += count; }
  __device__ __forceinline__ void waited() {}

  /// The walk from `tile` back with the words of R predecessors loaded at once, then taken nearest
  /// first; a word not yet published is polled again alone. Words read early may be stale, which only
  /// makes the walk go further (a stale aggregate is still the tile's count). Tile 0 is always a prefix.
  template <int R>
  __device__ __forceinline__ void walk_reading(std::int64_t tile) {
    constexpr unsigned shift = counted_status::state_shift;
    for (std::int64_t next = tile - 1;; next -= R) {
      unsigned w[R];
#pragma unroll
      for (int i = 0; i < R; ++i) w[i] = next - i >= 0 ? load_relaxed(words + (next - i) * digits) : state_prefix << shift;
#pragma unroll
      for (int i = 0; i < R; ++i) {
        while ((w[i] >> shift) == state_invalid) w[i] = load_relaxed(words + (next - i) * digits);
        exclusive += w[i] & counted_status::count_mask;
        if ((w[i] >> shift) == state_prefix) return;
      }
    }
  }
};

/// Where a tile's keys lie and which chain of tiles it belongs to: `segment` picks the tile's digit
/// offsets (bins_in[segment · 256 + d]), `first` starts a look-back chain (published as a prefix), and
/// `segment_begin` is where the segment starts (argsort's first pass writes positions from there).
struct tile_span {
  std::int64_t begin, n, segment, segment_begin;
  bool first;
};

/// The plain sort: tiles of tile_items keys one after another over [portion_begin, portion_begin + n),
/// one chain, positions counted from 0.
template <int TileItems>
struct flat_tiling {
  std::int64_t portion_begin, portion_n;
  __device__ __forceinline__ tile_span span(unsigned tile) const {
    const std::int64_t begin = portion_begin + static_cast<std::int64_t>(tile) * TileItems;
    return {begin, portion_begin + portion_n - begin, 0, 0, tile == 0};
  }
  __device__ __forceinline__ bool last(std::int64_t begin) const { return begin + TileItems >= portion_begin + portion_n; }
};

/// Rows of `length` keys sorted each on its own (onesweep/rows.cuh): a row's tiles never cross into the
/// next row, each row is a segment with its own digit offsets and chains.
template <int TileItems>
struct row_tiling {
  std::int64_t length, tiles_a_row;
  __device__ __forceinline__ tile_span span(unsigned tile) const {
    const std::int64_t row = tile / tiles_a_row, j = tile % tiles_a_row;
    const std::int64_t row_begin = row * length, begin = row_begin + j * TileItems;
    return {begin, length - j * TileItems, row, row_begin, j == 0};
  }
  __device__ __forceinline__ bool last(std::int64_t) const { return false; }  // no portions
};

/// One digit pass over the keys [portion_begin, portion_begin + portion_n). bins_in[d]: where digit
/// d of this portion starts in the output; the portion's last tile writes bins_out[d] (the next
/// portion's bins_in) unless bins_out is null. `status` holds 256 zeroed words per tile,
/// `tile_counter` a zeroed word.
/// Unstable: ranks taken by the early counts' atomics, in no set order within a digit, by the warps that
/// may (keys alone on all their bits; the file's header).
template <class Policy, class Io, class Digit, class Offset, class Tiling = flat_tiling<Policy::tile_items>,
          bool Unstable = false>
__global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    pass_kernel(Io io, const pass_plan* plan, int pass, Tiling tiling, Digit digit, const Offset* bins_in,
                Offset* bins_out, unsigned* status, unsigned* tile_counter) {
  using U = typename Io::item_type;
  using V = typename Io::value_type;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  static_assert(!(Unstable && has_values), "values would show the order of equal keys: only keys alone rank unstably");
  constexpr int threads = Policy::threads, items = Policy::items, n_warps = threads / 32;
  constexpr int tile_items = Policy::tile_items;
  union storage {
    unsigned warp_hist[n_warps][digits];  // per warp: count, then running place of each digit
    U stage[tile_items];                  // the tile's keys in sorted order
  };
  constexpr bool stage_dynamic = keys_stage_dynamic<Policy, U, Offset>();
  __shared__ alignas(16) std::conditional_t<stage_dynamic, unsigned, storage> static_stage;
  __shared__ Offset base[digits];  // first the digit's first place in the tile, then the output
                                   // position of the tile's sorted item 0, per digit (modular)
  __shared__ unsigned tile_count[digits];
  __shared__ unsigned warp_totals[n_warps];
  __shared__ unsigned tile_shared;
  __shared__ int one_digit;  // ≥ 0: every key of the tile has this digit
  extern __shared__ __align__(16) unsigned char pass_dynamic[];  // the values' stage, then the keys' if dynamic
  storage& s = keys_stage<stage_dynamic, storage>(static_stage, pass_dynamic + values_stage_bytes<Policy, V>());

  // Launched after the previous kernel by programmatic dependent launch (when the sort's status words
  // are cleared up front): every block of this pass has started before the next one's blocks may, so
  // waiting blocks of the next pass never hold back this one's; nothing of the previous kernel's is
  // read before it is complete.
  allow_next_grid();
  wait_for_previous_grid();
  // The plan is read while thread 0 takes the tile, so that the two latencies overlap.
  if (threadIdx.x == 0) {
    tile_shared = atomicAdd(tile_counter, 1u);
    one_digit = -1;
  }
  const int order = plan->order[pass];
  if (order < 0) return;  // every key has the same digit here: the pass would move nothing
  // Unstable ranking where float keys hold no −0.0, then as each warp decides (the file's header).
  bool unstable = Unstable && (!digit_float_keys<Digit>::value || plan->signed_zeros == 0);
  const typename Io::ends ends = io.at(order, plan->performed, integer_codec<Digit>(digit.codec));

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, d = threadIdx.x;
  const bool owns_digit = d < digits;

  // 1. Tile, cleared histograms, keys.
#pragma unroll
  for (int b = lane; b < digits; b += 32) s.warp_hist[warp][b] = 0;
  __syncthreads();
  const unsigned tile = tile_shared;
  const tile_span span = tiling.span(tile);
  const std::int64_t tile_begin = span.begin;
  const std::int64_t left = span.n;
  const bool full = left >= tile_items;
  const int tile_n = full ? tile_items : static_cast<int>(left);
  const int warp_begin = warp * 32 * items;
  const auto real = [&](int j) { return full || warp_begin + j * 32 + lane < tile_n; };  // not padding
  U key[items];
  if (full) {
#pragma unroll
    for (int j = 0; j < items; ++j) key[j] = ends.load(tile_begin + warp_begin + j * 32 + lane);
  } else {
    // Items past the end take the largest bits, so the largest digit: last in input order, they
    // rank after every real key and fill the places [tile_n, tile_items).
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int i = warp_begin + j * 32 + lane;
      key[j] = i < tile_n ? ends.load(tile_begin + i) : static_cast<U>(~U(0));
    }
  }
  if constexpr (Unstable) {
    if (unstable) {  // uniform over the block
      const U below = pass == 0 ? U(0) : static_cast<U>((U(1) << digit.shift) - 1u);
      unstable = full ? warp_ranks_unstably(key, digit, below) : pass == 0;
    }
  }

  // 2. Early counts, published; each digit's first place in the tile. Unstable: the count's old value
  //    is the key's place among its warp's keys of the digit (the tile's padding is not counted).
  unsigned rank[items];
  if (unstable) {
#pragma unroll
    for (int j = 0; j < items; ++j)
      if (real(j)) rank[j] = atomicAdd(&s.warp_hist[warp][digit(key[j])], 1u);
  } else {
#pragma unroll
    for (int j = 0; j < items; ++j) atomicAdd(&s.warp_hist[warp][digit(key[j])], 1u);
  }
  __syncthreads();
  unsigned count = 0;
  if (owns_digit) {
#pragma unroll
    for (int w = 0; w < n_warps; ++w) {
      const unsigned c = s.warp_hist[w][d];
      s.warp_hist[w][d] = count;
      count += c;
    }
    counted_status::publish(status + static_cast<std::int64_t>(tile) * digits + d,
                            span.first ? state_prefix : state_aggregate, count);
    tile_count[d] = count;
    if (count == static_cast<unsigned>(tile_items)) one_digit = d;
  }
  unsigned tile_total;
  const unsigned digit_start = block::exclusive_sum<threads>(count, warp_totals, tile_total);
  if (owns_digit) {
#pragma unroll
    for (int w = 0; w < n_warps; ++w) s.warp_hist[w][d] += digit_start;
    base[d] = digit_start;  // kept in shared memory, not in registers, through the ranking
  }
  __syncthreads();

  // 3. Ranks: each key's place in the tile's sorted order.
  if (unstable) {
#pragma unroll
    for (int j = 0; j < items; ++j)
      if (real(j)) rank[j] += s.warp_hist[warp][digit(key[j])];
  } else if (one_digit >= 0) {
#pragma unroll
    for (int j = 0; j < items; ++j) rank[j] = warp_begin + j * 32 + lane;
  } else {
    const unsigned lanes_le = warp::lanemask_le();
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const unsigned dj = digit(key[j]);
      const unsigned peers = warp::match_label<radix_bits, Policy::match>(dj);
      const int leader = 31 - __clz(peers);
      const unsigned below = __popc(peers & lanes_le);
      unsigned first = 0;
      if (lane == leader) first = atomicAdd(&s.warp_hist[warp][dj], below);
      first = __shfl_sync(0xffffffffu, first, leader);
      rank[j] = first + below - 1;
    }
  }
  __syncthreads();  // every rank is taken: the histograms' space becomes the stage

  // 4. Keys to shared memory in sorted order; values loaded meanwhile.
  U* key_stage = reinterpret_cast<U*>(s.stage);
#pragma unroll
  for (int j = 0; j < items; ++j)
    if (!unstable || real(j)) key_stage[rank[j]] = key[j];
  [[maybe_unused]] std::conditional_t<has_values, V, char> value[items];
  if constexpr (has_values) {
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int i = warp_begin + j * 32 + lane;
      if (ends.values_src != nullptr && (full || i < tile_n)) value[j] = ends.values_src[tile_begin + i];
    }
  }

  // 5. Look-back over the predecessors' counts of digit d, nearest first, until an inclusive prefix.
  if (owns_digit) {
    const unsigned own = tile_count[d];
    unsigned exclusive = 0;
    if (!span.first) {
      digit_chain chain{status + d};
      if constexpr (Policy::look_back_reads == 1) look_back_walk<1>(chain, tile, 1, tile, no_back_off{});
      else chain.template walk_reading<Policy::look_back_reads>(tile);
      exclusive = chain.exclusive;
      counted_status::publish(status + static_cast<std::int64_t>(tile) * digits + d, state_prefix, exclusive + own);
    }
    const Offset digit_begin = bins_in[span.segment * digits + d] + exclusive;  // this tile's first key of d
    base[d] = digit_begin - base[d];  // modular: base + (its place in the tile)
    if (bins_out != nullptr && tiling.last(tile_begin)) bins_out[d] = digit_begin + own;
  }
  [[maybe_unused]] V* value_stage = reinterpret_cast<V*>(pass_dynamic);
  if constexpr (has_values) {
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int i = warp_begin + j * 32 + lane;
      if (full || i < tile_n)
        value_stage[rank[j]] = ends.values_src ? value[j] : static_cast<V>(tile_begin - span.segment_begin + i);
    }
  }
  __syncthreads();

  // 6. Scatter from the stages: consecutive threads write consecutive places of a digit's run.
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int i = k * threads + threadIdx.x;
    if (full || i < tile_n) {
      const U b = key_stage[i];
      const Offset at = base[digit(b)] + static_cast<Offset>(i);
      if constexpr (has_values) ends.store(at, b, value_stage[i]);
      else ends.store(at, b, no_values{});
    }
  }
}

/// Calls `launch(std::bool_constant<Unstable>{})` for pass p of the flat sort of n keys over `ps`:
/// Unstable (pass_kernel's form, in which each warp still ranks stably where it must) for keys alone on
/// all their bits, in pass 0 and in a later pass whose keys of one L are many enough
/// (unstable_group_keys; the file's header); the stable form otherwise.
template <class Io, class Launch>
cudaError_t launch_by_stability(const pass_set& ps, int p, std::int64_t n, Launch&& launch) {
  // Keys alone, ranked as themselves (an experiment's packed items carry values in their low bits).
  if constexpr (std::is_same_v<typename Io::value_type, no_values> &&
                std::is_same_v<typename Io::key_type, typename Io::item_type>) {
    if (ps.begin_bit == 0 && ps.end_bit == static_cast<int>(8 * sizeof(typename Io::item_type)) &&
        (p == 0 || (n >> ps.place(p).shift) >= unstable_group_keys))
      return launch(std::true_type{});
  }
  return launch(std::false_type{});
}

/// When the plan runs no pass (every pass's keys share one digit), the output is the input.
template <class Io>
__global__ void copy_when_no_pass_kernel(Io io, const pass_plan* plan, std::int64_t n) {
  wait_for_previous_grid();
  if (plan->performed != 0) return;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    io.copy(i);
}

}  // namespace parascan::device::onesweep
