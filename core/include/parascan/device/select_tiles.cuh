// The single-pass selection's kernels (the default path of select_pass, device_select.cuh): a block per
// tile, ranks from warp ballots, the tile's start in the output from the decoupled look-back (or, when
// every tile is resident at once, from a grid barrier), and each warp writing contiguous runs.
//   select_tiles_kernel         the tile in registers, a row of block_threads items at a time; the kept
//                               items go straight from registers to the output (1-, 2- and 8-byte values)
//   select_shared_tiles_kernel  the tile in shared memory (4-byte values: 16-byte loads, 40 registers,
//                               6 blocks an SM); each warp compacts its chunk in place, then writes its run;
//                               with the look-back (the one launch, where it fits, is the register kernel's)
// Both are safe in place: a tile writes only after all its threads have loaded (block barriers separate
// the two), at positions below the end of its own input; earlier tiles have loaded before any later
// tile learns its prefix. A padded selection (tail_fill on; out of place only) also writes each tile's
// unkept count of the fill value at the back of the output (fill_unkept).
#pragma once
#include <cooperative_groups.h>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include "parascan/block/block_exchange.cuh"
#include "parascan/device/device_scan.cuh"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device {

/// Steps 2–3 of the single-pass selection's look-back path, after the barrier that collects the tile's
/// `Segments` row-segment counts: warp 0 adds them, publishes the tile's count (tile 0: as its
/// inclusive prefix) and calls `look_back(count)` for the exclusive prefix, while warp 1 scans the
/// counts into `begin`. Lane 0 of warp 0 leaves the prefix and count in `prefix` and `count` (shared
/// memory); the caller's next barrier makes them and `begin` visible. The publish waits for no block
/// scan, and every later tile's look-back waits on it (performance.md entry 45).
template <int Segments, class Offset, class LookBack>
__device__ __forceinline__ void count_and_look_back(const Offset (&counts)[Segments], Offset (&begin)[Segments],
                                                    Offset& prefix, Offset& count, std::int64_t tile,
                                                    const tile_status<Offset>& status, LookBack look_back) {
  const int lane = threadIdx.x % warp::warp_threads, w = threadIdx.x / warp::warp_threads;
  if (w == 0) {
    Offset part = 0;
    for (int k = lane; k < Segments; k += warp::warp_threads) part += counts[k];
    const Offset total = warp::warp_sum(part);
    Offset p = 0;
    if (tile == 0) {
      if (lane == 0) status.publish(0, state_prefix, total);
    } else {
      p = look_back(total);
    }
    if (lane == 0) {
      prefix = p;
      count = total;
    }
  } else if (w == 1) {
    constexpr int per = (Segments + warp::warp_threads - 1) / warp::warp_threads;
    Offset c[per], run = 0;
#pragma unroll
    for (int k = 0; k < per; ++k) {
      const int at = lane * per + k;
      c[k] = at < Segments ? counts[at] : Offset(0);
      run += c[k];
    }
    Offset start = warp::exclusive_warp_sum(run, lane);
#pragma unroll
    for (int k = 0; k < per; ++k) {
      const int at = lane * per + k;
      if (at < Segments) begin[at] = start;
      start += c[k];
    }
  }
}

/// Rules with a runtime `negate` (keep_by_predicate, keep_by_flag: select_pass's rules) also give
/// `test(i, x)`, the rule before negation.
template <class Keep, class = void>
struct negatable_rule : std::false_type {};
template <class Keep>
struct negatable_rule<Keep, std::void_t<decltype(std::declval<const Keep&>().negate)>> : std::true_type {};

/// ~0u where a negatable rule is negated, else 0: taken once a kernel, XORed into each row's bits.
template <class Keep>
__device__ __forceinline__ unsigned negation_bits(const Keep& keep) {
  if constexpr (negatable_rule<Keep>::value) {
    return keep.negate ? warp::full_mask : 0u;
  } else {
    return 0u;
  }
}

/// f(keep), with a run-time rule's choice taken once: where Keep offers visit (keep_by_predicate over a
/// keep_rule), f gets the rule for its kind fixed, so the loop f holds makes one comparison an item
/// rather than keep_rule's switch (10% of the u32 select's time at 2^28, 10% kept; entry 55).
template <class Keep, class = void>
struct visitable_rule : std::false_type {};
template <class Keep>
struct visitable_rule<Keep, std::void_t<decltype(std::declval<const Keep&>().visit(0))>> : std::true_type {};
template <class Keep, class F>
__device__ __forceinline__ void fixed_rule_visit(const Keep& keep, F&& f) {
  if constexpr (visitable_rule<Keep>::value) {
    keep.visit(f);
  } else {
    f(keep);
  }
}

/// The keep bits of a warp's row: bit l set when lane l's item (index i, value x) is valid and kept.
/// A negatable rule is balloted before negation and the row's bits flipped by `flip`
/// (negation_bits) rather than each item's test: negating every item cost the u32 select 4–5% at 10%
/// kept (entry 54).
template <class Keep, class T>
__device__ __forceinline__ unsigned keep_ballot(const Keep& keep, unsigned flip, bool full, bool valid, std::int64_t i,
                                                const T& x) {
  if constexpr (negatable_rule<Keep>::value) {
    const unsigned bits = __ballot_sync(warp::full_mask, valid && keep.test(i, x));
    return bits ^ (full ? flip : flip & __ballot_sync(warp::full_mask, valid));
  } else {
    return __ballot_sync(warp::full_mask, valid && keep(i, x));
  }
}

/// Steps 2–3 of both kernels, after the barrier that collects the tile's `Segments` counts (in item
/// order): each segment's start within the tile into `begin`, and the tile's start in the output and
/// its count, for every thread; ends past a barrier, so `begin` is visible.
///   look-back  count_and_look_back (the publish waits for no block scan);
///   Resident   every tile publishes its count, meets every other tile at a grid barrier and adds the
///              counts of the tiles before it (no status reset, no look-back).
template <class Offset>
struct tile_place {
  Offset prefix;  // kept items of the tiles before this one
  Offset count;   // kept items of this tile
};
template <class Policy, bool Resident, int Segments, class Offset>
__device__ __forceinline__ tile_place<Offset> place_tile(const Offset (&counts)[Segments], Offset (&begin)[Segments],
                                                         std::int64_t tile, const tile_status<Offset>& status) {
  constexpr int threads = Policy::block_threads;
  static_assert(Segments <= threads && threads >= 2 * warp::warp_threads, "one count a thread; two warps at least");
  if constexpr (Resident) {
    using counts_scan = block::block_scan<block_algorithm::warp_shuffle, Offset, threads>;
    __shared__ typename counts_scan::storage scan_storage;
    const Offset count = threadIdx.x < Segments ? counts[threadIdx.x] : Offset(0);
    Offset before = 0, inclusive, aggregate;
    counts_scan::scan(scan_storage, count, sum{}, threads, before, inclusive, aggregate);  // ends with a barrier
    if (threadIdx.x == 0) before = 0;
    if (threadIdx.x < Segments) begin[threadIdx.x] = before;
    if (threadIdx.x == 0) status.publish(tile, state_aggregate, aggregate);
    cooperative_groups::this_grid().sync();  // every tile's count is published (and scan_storage free)
    const Offset prefix = tile > 0 ? earlier_tiles<threads, counts_scan>(scan_storage, status, tile, sum{}) : Offset(0);
    return {prefix, aggregate};
  } else {
    __shared__ Offset prefix, count;
    count_and_look_back(counts, begin, prefix, count, tile, status,
                        [&](Offset total) { return look_back<Policy>(status, tile, tile, total, sum{}); });
    __syncthreads();
    return {prefix, count};
  }
}

/// A padded selection's fill (select_if_padded): when `on`, every item a tile does not keep puts one
/// `value` at the back of the output, so the output holds n items, the kept ones first.
template <class V>
struct tail_fill {
  bool on = false;
  V value{};
};

/// A tile's share of a padded selection's fill: its unkept items' count of `fill` at
/// out[n − unkept up to and with this tile, n − unkept before it). The tiles' shares, from the last
/// item backwards, cover [kept in all, n) exactly, so no tile needs the total (one pass, where a fill
/// after the selection would read the count and write the tail again: 0.19 ms of 2^28 u32, half kept,
/// on the H200, entry 63). The writes are coalesced runs; they land past every item kept, so they
/// cannot overlap the tiles' kept runs (out must not alias the input: select_pass refuses that).
template <int Threads, class V, class Offset>
__device__ __forceinline__ void fill_unkept(V* out, std::int64_t n, std::int64_t first, int valid,
                                            const tile_place<Offset>& place, const V& value) {
  const std::int64_t before = first - static_cast<std::int64_t>(place.prefix);
  const int mine = valid - static_cast<int>(place.count);
  V* at = out + (n - before - mine);
  for (int i = static_cast<int>(threadIdx.x); i < mine; i += Threads) at[i] = value;
}

/// The tile in registers (1-, 2- and 8-byte values). A tile is `rows` rows of block_threads items;
/// thread t holds item r·block_threads + t of each row r in registers (coalesced loads, no shared
/// memory transpose: selection needs ranks, not a blocked arrangement).
///   1. load all rows, then each warp ballots its keep bits per row: a row-segment of 32 items
///   2–3. place_tile: each segment's start, the tile's start and count
///   4. each kept item goes to start + segment start + popc(lower lanes' bits): a warp writes one
///      contiguous run per row
/// The tile is the block's index, as in CUB's select: blocks start in index order, so a tile's
/// predecessors have started (or finished) before it looks back. Against a tile taken from an atomic
/// counter this starts the loads one global round trip sooner: 2–7% at 2^24–2^28 (entry 44).
template <class Policy, class V, class Offset, class T, class Keep, bool Resident = false>
__global__ void __launch_bounds__(Policy::block_threads)
    select_tiles_kernel(const T* in, Keep keep, V* out, std::int64_t n, std::int64_t* count_out,
                        const std::int64_t* base, tile_status<Offset> status, tail_fill<V> fill) {
  constexpr int threads = Policy::block_threads, rows = Policy::items_per_thread, tile_items = Policy::tile_items;
  constexpr int warps = threads / warp::warp_threads, segments = rows * warps;
  __shared__ Offset segment_count[segments], segment_begin[segments];
  wait_for_previous_grid();  // launched during init_status_kernel (look_back_storage::launch)
  const std::int64_t tile = blockIdx.x, first = tile * tile_items;
  const int valid = static_cast<int>(n - first < tile_items ? n - first : tile_items);
  const bool full = valid == tile_items;
  const int lane = threadIdx.x % warp::warp_threads, w = threadIdx.x / warp::warp_threads;

  // 1. Rows to registers, then the keep bits of every row-segment.
  const V* values = reinterpret_cast<const V*>(in);
  const unsigned flip = negation_bits(keep);
  V v[rows];
  unsigned bits[rows];
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    const int local = r * threads + static_cast<int>(threadIdx.x);
    if (full || local < valid) v[r] = values[first + local];
  }
  fixed_rule_visit(keep, [&](const auto& rule) {
#pragma unroll
    for (int r = 0; r < rows; ++r) {
      const int local = r * threads + static_cast<int>(threadIdx.x);
      T x;
      memcpy(&x, &v[r], sizeof(T));  // unset past `valid`: keep_ballot does not test it there
      bits[r] = keep_ballot(rule, flip, full, full || local < valid, first + local, x);
    }
  });
  if (lane == 0) {
#pragma unroll
    for (int r = 0; r < rows; ++r) segment_count[r * warps + w] = static_cast<Offset>(__popc(bits[r]));
  }
  __syncthreads();
  // 2–3. Segment starts within the tile, the tile's count and its start in the output.
  const tile_place<Offset> place = place_tile<Policy, Resident>(segment_count, segment_begin, tile, status);
  // 4. Scatter the kept items straight from registers.
  const std::int64_t out_first = (base ? *base : 0) + static_cast<std::int64_t>(place.prefix);
  const unsigned lower = (1u << lane) - 1u;
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    if ((bits[r] >> lane) & 1u)
      out[out_first + static_cast<std::int64_t>(segment_begin[r * warps + w]) + __popc(bits[r] & lower)] = v[r];
  }
  if (fill.on) fill_unkept<threads>(out, n, first, valid, place, fill.value);
  if (tile == static_cast<std::int64_t>(gridDim.x) - 1 && threadIdx.x == 0)
    *count_out = static_cast<std::int64_t>(place.prefix) + static_cast<std::int64_t>(place.count);
}

/// The tile in shared memory (Policy::items_in_shared; 4-byte values take it). Warp w owns the chunk of
/// 32 · items_per_thread consecutive items from w · 32 · items_per_thread, read row by row (32
/// consecutive items a row: no bank conflicts).
///   1. the tile into shared memory: by 16-byte loads when it is whole and aligned, else item by item;
///      then each warp ballots its rows; lane r keeps row r's ballot (one register, not one a row)
///   2–3. place_tile over the warps' counts
///   4. each warp compacts its kept items within its own chunk (in place: an item only moves down, into
///      rows already read), then writes them as one run from consecutive lanes
/// Against select_tiles_kernel at 384 × 16 (u32 on the H100, experiments/select_shared.cu, entry 54):
/// 2^28 0.606 → 0.527 ms at 10% kept, 0.733 → 0.652 at 50%, 0.883 → 0.793 at 90%; 2^24 within 2%.
/// Writing each row's run straight from shared memory was 3–5% slower than the compaction.
template <class Policy, class V, class Offset, class T, class Keep>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks)
    select_shared_tiles_kernel(const T* in, Keep keep, V* out, std::int64_t n, std::int64_t* count_out,
                               const std::int64_t* base, tile_status<Offset> status, tail_fill<V> fill) {
  constexpr int threads = Policy::block_threads, items = Policy::items_per_thread, tile_items = Policy::tile_items;
  constexpr int warps = threads / warp::warp_threads, chunk = warp::warp_threads * items;
  static_assert(items <= warp::warp_threads, "lane r keeps row r's ballot");
  using exchange = block::block_exchange<V, threads, items>;
  __shared__ typename exchange::storage tile_smem;
  __shared__ Offset warp_count[warps], warp_begin[warps];
  wait_for_previous_grid();  // launched during init_status_kernel (look_back_storage::launch)
  const std::int64_t tile = blockIdx.x, first = tile * tile_items;
  const int valid = static_cast<int>(n - first < tile_items ? n - first : tile_items);
  const bool full = valid == tile_items;
  const int lane = threadIdx.x % warp::warp_threads, w = threadIdx.x / warp::warp_threads, own = w * chunk;

  // 1. The tile to shared memory, then the keep bits of every row of the warp's chunk.
  const V* values = reinterpret_cast<const V*>(in);
  const unsigned flip = negation_bits(keep);
  const auto load = [values](std::int64_t i) { return values[i]; };
  if (full) {
    exchange::template load_tile<true>(tile_smem, values, load, first, valid);
  } else {
    exchange::template load_tile<false>(tile_smem, values, load, first, valid);
  }
  __syncthreads();
  unsigned my_bits = 0;
  fixed_rule_visit(keep, [&](const auto& rule) {
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const int k = own + r * warp::warp_threads + lane;
      T x;
      memcpy(&x, &tile_smem[block::padded_index(k)], sizeof(T));  // unset past `valid`: not tested there
      const unsigned b = keep_ballot(rule, flip, full, full || k < valid, first + k, x);
      if (lane == r) my_bits = b;
    }
  });
  const unsigned my_count = __popc(my_bits);
  const unsigned row_start = warp::exclusive_warp_sum(my_count, lane);
  const unsigned warp_total = __shfl_sync(warp::full_mask, row_start + my_count, warp::warp_threads - 1);
  if (lane == 0) warp_count[w] = static_cast<Offset>(warp_total);
  __syncthreads();
  // 2–3. The warps' starts within the tile, the tile's count and its start in the output.
  const tile_place<Offset> place = place_tile<Policy, false>(warp_count, warp_begin, tile, status);
  // 4. Compact the warp's chunk in place, then write it out as one run.
  const unsigned lower = (1u << lane) - 1u;
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const unsigned b = __shfl_sync(warp::full_mask, my_bits, r);
    const unsigned at = __shfl_sync(warp::full_mask, row_start, r) + __popc(b & lower);
    const V x = tile_smem[block::padded_index(own + r * warp::warp_threads + lane)];
    __syncwarp();  // every lane has read row r before any writes into it
    if ((b >> lane) & 1u) tile_smem[block::padded_index(own + static_cast<int>(at))] = x;
  }
  __syncwarp();
  const std::int64_t out_first = (base ? *base : 0) + static_cast<std::int64_t>(place.prefix) +
                                 static_cast<std::int64_t>(warp_begin[w]);
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const int i = r * warp::warp_threads + lane;
    if (static_cast<unsigned>(i) < warp_total) out[out_first + i] = tile_smem[block::padded_index(own + i)];
  }
  if (fill.on) fill_unkept<threads>(out, n, first, valid, place, fill.value);
  if (tile == static_cast<std::int64_t>(gridDim.x) - 1 && threadIdx.x == 0)
    *count_out = static_cast<std::int64_t>(place.prefix) + static_cast<std::int64_t>(place.count);
}

/// The look-back kernel the policy names: the tile in shared memory or in registers.
template <class Policy, class V, class Offset, class T, class Keep>
constexpr auto select_kernel_for() {
  if constexpr (Policy::items_in_shared) {
    return select_shared_tiles_kernel<Policy, V, Offset, T, Keep>;
  } else {
    return select_tiles_kernel<Policy, V, Offset, T, Keep>;
  }
}

template <class Policy>
std::int64_t select_tiles_for(std::int64_t n) {
  return (n + Policy::tile_items - 1) / Policy::tile_items;
}

/// Temporary bytes of the single pass: status words for the look-back's tiles or the one launch's,
/// whichever are more.
template <class V, class Offset>
std::size_t select_single_pass_bytes(std::int64_t n) {
  return look_back_storage<Offset>::bytes(
      std::max(select_tiles_for<select_policy<V>>(n), select_tiles_for<select_resident_policy<V>>(n)));
}

/// The single pass: one cooperative launch of the register kernel where all its tiles fit at once
/// (options.one_launch; select_resident_policy), else the status reset and the look-back kernel of
/// select_policy. For 4-byte values that is the shared-memory kernel, whose own one launch lost to its
/// look-back by 2–9% of device time at 2^20–2^22 u32 items (experiments/ab_select.cu ONE_LAUNCH=0,
/// H100, entry 54).
template <class V, class Offset, class T, class Keep>
cudaError_t select_single_pass(void* d_temp, const T* in, Keep keep, V* out, std::int64_t* count_out,
                               const std::int64_t* base, std::int64_t n, cudaStream_t stream, scan_options options,
                               tail_fill<V> fill) {
  using policy = select_policy<V>;
  using one_launch_policy = select_resident_policy<V>;
  const std::int64_t tiles = select_tiles_for<policy>(n), one_launch_tiles = select_tiles_for<one_launch_policy>(n);
  if (std::max(tiles, one_launch_tiles) > INT_MAX) return cudaErrorInvalidValue;
  const bool sync = options.debug_synchronous;
  bool launched = false;
  cudaError_t e = try_launch_resident(
      options.one_launch, launched, select_tiles_kernel<one_launch_policy, V, Offset, T, Keep, true>, one_launch_tiles,
      one_launch_policy::block_threads, stream, in, keep, out, n, count_out, base,
      look_back_storage<Offset>::carve(d_temp, one_launch_tiles).status, fill);
  if (e != cudaSuccess) return e;
  if (launched) return check_launch(stream, sync);
  const auto storage = look_back_storage<Offset>::carve(d_temp, tiles);
  return storage.launch(tiles, select_kernel_for<policy, V, Offset, T, Keep>(), static_cast<unsigned>(tiles),
                        policy::block_threads, stream, sync, in, keep, out, n, count_out, base, storage.status, fill);
}

}  // namespace parascan::device
