// The device-wide scan kernels: a tile routine (load → thread reduce → block scan → tile prefix →
// thread scan → store) and the few kernels the strategies compose from it.
//
// Per tile of P·I items (P threads, I items each; Harris et al. GPU Gems 3 ch. 39, Merrill & Garland 2016):
//   1. load the tile coalesced (16-byte vectors where block_exchange takes them), transpose to a blocked
//      arrangement in padded shared memory, into registers unless the policy leaves it there  (read n)
//   2. each thread reduces its I items sequentially                                       (I−1 ops)
//   3. the block scans the P thread partials with the chosen block algorithm
//   4. the tile's exclusive prefix comes from nowhere (recursive pass 1), from an array of scanned
//      tile sums (reduce-then-scan, recursive pass 3), from the decoupled look-back (single pass), or,
//      when every tile is resident at once, from the earlier tiles' sums after a grid barrier
//   5. each thread rescans its items seeded with its prefix, and the tile is stored coalesced (write n)
// Kernels take a Loader (Acc load(int64 i)) and a Storer (store(int64 i, Acc)), so mixed input/output
// types and segmented scans reuse the same code.
#pragma once
#include <cooperative_groups.h>
#include <cstdint>
#include "parascan/block/block_exchange.cuh"
#include "parascan/block/block_scan.cuh"
#include "parascan/device/launch.cuh"
#include "parascan/device/look_back.cuh"
#include "parascan/device/scan_policy.cuh"
#include "parascan/thread/thread_scan.cuh"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device {

/// look_back_lines: the tiles form lines of 2^line_shift tiles (line_scan.cuh); a tile looks back to its
/// line's first tile only, which starts from the init value; a line's tiles past line_extent items hold
/// nothing and end at once.
enum class prefix_source { none, partials, look_back, look_back_lines };

/// What the caller asked for: exclusive or inclusive, and whether an init value seeds element 0 (of
/// every line, for look_back_lines, whose lines are 2^line_shift tiles holding line_extent items).
template <class Acc>
struct scan_mode {
  bool exclusive;
  bool has_init;
  Acc init;
  int line_shift = 0;
  std::int64_t line_extent = 0;
};

template <class In, class Acc>
struct pointer_loader {
  const In* in;
  __device__ __forceinline__ Acc operator()(std::int64_t i) const { return static_cast<Acc>(in[i]); }
};
template <class Acc>
struct pointer_storer {
  Acc* out;
  __device__ __forceinline__ void operator()(std::int64_t i, const Acc& v) const { out[i] = v; }
};

/// Whether a Loader reads / a Storer writes the accumulator type itself at a plain address, so that a
/// whole tile may move by 16-byte vectors (block_exchange::load_vectors, where the address allows).
template <class Loader, class Acc>
inline constexpr bool loads_plain_items = false;
template <class Acc>
inline constexpr bool loads_plain_items<pointer_loader<Acc, Acc>, Acc> = true;
template <class Storer, class Acc>
inline constexpr bool stores_plain_items = false;
template <class Acc>
inline constexpr bool stores_plain_items<pointer_storer<Acc>, Acc> = true;

template <class Policy, block_algorithm Alg, class Acc>
struct tile_scanner {
  static constexpr int threads = Policy::block_threads, items_per_thread = Policy::items_per_thread;
  static constexpr int tile_items = Policy::tile_items;
  using exchange = block::block_exchange<Acc, threads, items_per_thread>;
  using block_scan = block::block_scan<Alg, Acc, threads>;

  struct storage {
    typename exchange::storage items;
    typename block_scan::storage scan;
    Acc tile_prefix;
    std::int64_t tile;  // the tile taken from the counter (scan_tiles_kernel, when it is given one)
  };

  /// The tile into the shared tile, striped (16-byte vectors for a whole tile at a plain, aligned
  /// address); no barrier.
  template <bool Full, class Loader>
  __device__ static void to_shared(storage& s, const Loader& load, std::int64_t base, int valid) {
    if constexpr (loads_plain_items<Loader, Acc>) {
      exchange::template load_tile<Full>(s.items, load.in, load, base, valid);
    } else {
      exchange::template load_striped<Full>(s.items, load, base, valid);
    }
  }

  /// The shared tile out (after a barrier), as to_shared came in.
  template <bool Full, class Storer>
  __device__ static void from_shared(storage& s, const Storer& store, std::int64_t base, int valid) {
    if constexpr (Full && exchange::vectors && stores_plain_items<Storer, Acc>) {
      if (exchange::vector_aligned(store.out + base)) {
        exchange::store_vectors(s.items, store.out + base);
        return;
      }
    }
    exchange::template store_striped<Full>(s.items, store, base, valid);
  }

  /// Steps 1–3: the tile's items in registers (or, with Policy::items_in_shared, left in s.items and
  /// `items` unused), each thread's exclusive prefix within the tile (undefined for thread 0) and the
  /// tile aggregate.
  template <bool Full, class Loader, class Op>
  __device__ static void load_and_scan(storage& s, const Loader& load, std::int64_t base, int valid, Op op,
                                       Acc (&items)[items_per_thread], Acc& thread_prefix, Acc& aggregate) {
    to_shared<Full>(s, load, base, valid);
    __syncthreads();
    const int thread_valid = valid - static_cast<int>(threadIdx.x) * items_per_thread;
    Acc partial;
    if constexpr (Policy::items_in_shared) {
      partial = thread::reduce_n<Full, items_per_thread, Acc>(exchange::blocked(s.items), thread_valid, op);
    } else {
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i) items[i] = exchange::blocked(s.items)[i];
      partial = thread::reduce<Full>(items, thread_valid, op);
    }
    const int valid_threads = Full ? threads : (valid + items_per_thread - 1) / items_per_thread;
    Acc inclusive;
    block_scan::scan(s.scan, partial, op, valid_threads, thread_prefix, inclusive, aggregate);
  }

  /// Steps 1–3 for tile `tile` of n items (the last may be partial): returns its item count.
  template <class Loader, class Op>
  __device__ static int scan_tile(storage& s, const Loader& load, std::int64_t n, std::int64_t tile, Op op,
                                  Acc (&items)[items_per_thread], Acc& thread_prefix, Acc& aggregate) {
    const std::int64_t base = tile * tile_items;
    const int valid = static_cast<int>(n - base < tile_items ? n - base : tile_items);
    if (valid == tile_items) load_and_scan<true>(s, load, base, valid, op, items, thread_prefix, aggregate);
    else load_and_scan<false>(s, load, base, valid, op, items, thread_prefix, aggregate);
    return valid;
  }

  /// Step 5: each thread's seed from the tile's exclusive prefix (if it has one), its sequential
  /// rescan, and the store.
  template <class Storer, class Op>
  __device__ static void rescan_and_store(storage& s, const Storer& store, std::int64_t tile, int valid, Op op,
                                          bool exclusive, Acc (&items)[items_per_thread], const Acc& thread_prefix,
                                          bool has_prefix, const Acc& prefix) {
    const std::int64_t base = tile * tile_items;
    const bool first = threadIdx.x == 0;
    const bool seeded = first ? has_prefix : true;
    const Acc seed = first ? prefix : (has_prefix ? op(prefix, thread_prefix) : thread_prefix);
    if constexpr (Policy::items_in_shared) {
      // Each thread rewrites only its own run, which no other thread has read since the load.
      thread::scan_n<items_per_thread>(exchange::blocked(s.items), exclusive, seeded, seed, op);
    } else {
      thread::scan(items, exclusive, seeded, seed, op);
      __syncthreads();  // the shared tile may still be read by the previous phase
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i) exchange::blocked(s.items)[i] = items[i];
    }
    __syncthreads();
    if (valid == tile_items) from_shared<true>(s, store, base, valid);
    else from_shared<false>(s, store, base, valid);
  }
};

/// A window of scalar statuses for look_back_walk(): each lane keeps its predecessor's value; the
/// taken lanes are reduced newest first, and that goes before what the nearer windows gave.
template <class Acc, class Op>
struct scalar_window {
  const tile_status<Acc>& status;
  Op op;
  Acc v{}, prefix{};
  bool have = false;
  __device__ __forceinline__ unsigned poll(std::int64_t t) {
    unsigned state;
    status.read(t, state, v);
    return state;
  }
  __device__ __forceinline__ void take(std::int64_t, int taken, bool) {
    const Acc older = warp::reduce_newest_first(v, op, static_cast<int>(threadIdx.x % warp::warp_threads), taken - 1);
    prefix = have ? op(older, prefix) : older;
    have = true;
    v = Acc{};  // not carried into the next window: a fresh value keeps its live range to one window
  }
  // (experiment marker)
  __device__ __forceinline__ void waited() {}
};

/// Warp 0 of tile `tile` (> 0): publish the aggregate, look back (look_back.cuh) to the nearest
/// inclusive prefix, publish this tile's. Returns the exclusive prefix in lane 0.
/// On large grids the warp first sleeps Policy::look_back_initial_ns after publishing its aggregate
/// (look_back_long_initial_ns on grids of look_back_long_grid tiles or more where LongGridSleep: the
/// flat scan, where it was measured; not the scans along lines), and Policy::look_back_poll_ns
/// between polls (as CUB's delay constructors do; entries 7, 61).
/// `chain`: the predecessors to walk at most, the last of which has always published P (tile 0, or the
/// first tile of the line).
template <class Policy, bool LongGridSleep = true, class Acc, class Op>
__device__ Acc look_back(const tile_status<Acc>& status, std::int64_t tile, std::int64_t chain, const Acc& aggregate,
                         Op op) {
  const int lane = threadIdx.x % warp::warp_threads;
  if (lane == 0) status.publish(tile, state_aggregate, aggregate);
  const bool delay = gridDim.x >= Policy::look_back_min_grid;
  const int first_ns = LongGridSleep && gridDim.x >= Policy::look_back_long_grid ? Policy::look_back_long_initial_ns
                                                                                  : Policy::look_back_initial_ns;
  if (first_ns > 0 && delay) __nanosleep(first_ns);
  scalar_window<Acc, Op> window{status, op};
  look_back_walk<warp::warp_threads>(window, tile, 1, chain, back_off<Policy::look_back_poll_ns>{delay});
  if (lane == 0) status.publish(tile, state_prefix, op(window.prefix, aggregate));
  return window.prefix;
}

/// Reduce-then-scan pass 1: one tile sum per block, in order (non-commutative operators work).
template <class Policy, block_algorithm Alg, class Acc, class Loader, class Op>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks)
    reduce_tiles_kernel(Loader load, std::int64_t n, Op op, Acc* tile_sums) {
  using scanner = tile_scanner<Policy, Alg, Acc>;
  __shared__ typename scanner::storage s;
  const std::int64_t tile = blockIdx.x;
  Acc items[Policy::items_per_thread], thread_prefix, aggregate;
  scanner::scan_tile(s, load, n, tile, op, items, thread_prefix, aggregate);
  if (threadIdx.x == 0) tile_sums[tile] = aggregate;
}

template <class Acc>
__global__ void init_status_kernel(tile_status<Acc> status, std::int64_t tiles, unsigned long long* tile_counter) {
  allow_next_grid();  // the look-back kernel may be launched now; it waits for this one's stores
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < tiles) status.init(i);
  if (i == 0) *tile_counter = 0;
}

/// The scan of whole tiles, with the tile prefix from `Source`.
///   none:      no prefix; the tile aggregate goes to tile_sums[tile] (recursive pass 1)
///   partials:  prefix tile_prefixes[tile] (exclusive scan of the tile sums, init included); tile 0's
///              prefix is the init value, if any (tile_prefixes may be null for a single tile)
///   look_back: prefix by decoupled look-back. The tile is the block's index, as in CUB's scan (blocks
///              start in index order, so a tile's predecessors have started when it looks back), or,
///              when `tile_counter` is given, the next from that counter, in the order blocks reach it
///              (scan_tiles_from_counter says when; performance.md entry 45)
template <class Policy, block_algorithm Alg, prefix_source Source, class Acc, class Loader, class Storer, class Op>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks)
    scan_tiles_kernel(Loader load, Storer store, std::int64_t n, Op op, scan_mode<Acc> mode, Acc* tile_sums,
                      const Acc* tile_prefixes, tile_status<Acc> status, unsigned long long* tile_counter) {
  using scanner = tile_scanner<Policy, Alg, Acc>;
  __shared__ typename scanner::storage s;
  constexpr bool looks_back = Source == prefix_source::look_back || Source == prefix_source::look_back_lines;
  std::int64_t tile = blockIdx.x;
  if constexpr (looks_back) {
    wait_for_previous_grid();  // launched during init_status_kernel (look_back_storage::launch)
    if (tile_counter != nullptr) {
      if (threadIdx.x == 0) s.tile = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
      __syncthreads();
      tile = s.tile;
    }
  }
  // Lines: this tile's place in its line (`first`: the line's first tile); a tile past the line's items
  // holds nothing, and no tile of the line looks back to it.
  std::int64_t first = 0;
  if constexpr (Source == prefix_source::look_back_lines) {
    first = tile >> mode.line_shift << mode.line_shift;
    if ((tile - first) * Policy::tile_items >= mode.line_extent) return;
  }
  Acc items[Policy::items_per_thread], thread_prefix, aggregate;
  const int valid = scanner::scan_tile(s, load, n, tile, op, items, thread_prefix, aggregate);

  // Step 4: the tile's exclusive prefix.
  bool has_prefix = false;
  Acc prefix{};
  if constexpr (Source == prefix_source::none) {
    if (threadIdx.x == 0) tile_sums[tile] = aggregate;
  } else if constexpr (Source == prefix_source::partials) {
    has_prefix = tile > 0 || mode.has_init;
    prefix = tile > 0 ? tile_prefixes[tile] : mode.init;
  } else {
    if (tile == first) {
      has_prefix = mode.has_init;
      prefix = mode.init;
      if (threadIdx.x == 0) status.publish(tile, state_prefix, has_prefix ? op(prefix, aggregate) : aggregate);
    } else {
      if (threadIdx.x < warp::warp_threads) {
        const Acc p = look_back<Policy, Source == prefix_source::look_back>(status, tile, tile - first, aggregate, op);
        if (threadIdx.x == 0) s.tile_prefix = p;
      }
      __syncthreads();
      has_prefix = true;
      prefix = s.tile_prefix;
    }
  }

  scanner::rescan_and_store(s, store, tile, valid, op, mode.exclusive, items, thread_prefix, has_prefix, prefix);
}

/// In a resident launch (every tile on the GPU at once), after the grid barrier: the aggregates that
/// tiles [0, tile) published in `sums`, combined in tile order (tile > 0). Thread t combines a run of
/// ⌈tile / Threads⌉ of them, then the block scans the runs (BlockScan over `storage`, ending with a
/// barrier); every thread gets the total. Used by scan_resident_kernel and the resident selection.
template <int Threads, class BlockScan, class Acc, class Op>
__device__ Acc earlier_tiles(typename BlockScan::storage& storage, const tile_status<Acc>& sums, std::int64_t tile,
                             Op op) {
  const int per = static_cast<int>((tile + Threads - 1) / Threads);
  const std::int64_t first = static_cast<std::int64_t>(threadIdx.x) * per;
  Acc part{};
  for (int k = 0; k < per && first + k < tile; ++k) {
    unsigned state;
    Acc v;
    sums.read(first + k, state, v);
    part = k == 0 ? v : op(part, v);
  }
  Acc exclusive, inclusive, total;
  BlockScan::scan(storage, part, op, static_cast<int>((tile + per - 1) / per), exclusive, inclusive, total);
  return total;
}

/// The single pass when every tile is resident at once (a cooperative launch; run_scan checks the
/// fit): each block scans its tile into registers and publishes the tile's aggregate; after a
/// grid-wide barrier it combines the aggregates of the tiles before it, in order, into its prefix.
/// One launch, no status words to reset, no look-back: at 2^20 u32 items 11.5 µs a call on the H100
/// against 15.7 for the reset + look-back scan (docs/performance.md entry 25). `sums` holds a word
/// per tile (any contents: each is written before the barrier and read after it).
template <class Policy, block_algorithm Alg, class Acc, class Loader, class Storer, class Op>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks)
    scan_resident_kernel(Loader load, Storer store, std::int64_t n, Op op, scan_mode<Acc> mode, tile_status<Acc> sums) {
  using scanner = tile_scanner<Policy, Alg, Acc>;
  constexpr int threads = Policy::block_threads;
  __shared__ typename scanner::storage s;
  const std::int64_t tile = blockIdx.x;
  Acc items[Policy::items_per_thread], thread_prefix, aggregate;
  const int valid = scanner::scan_tile(s, load, n, tile, op, items, thread_prefix, aggregate);
  if (threadIdx.x == 0) sums.publish(tile, state_aggregate, aggregate);
  cooperative_groups::this_grid().sync();  // every tile's aggregate is published (and s.scan free again)

  bool has_prefix = mode.has_init;
  Acc prefix = mode.init;
  if (tile > 0) {
    const Acc earlier = earlier_tiles<threads, typename scanner::block_scan>(s.scan, sums, tile, op);
    prefix = has_prefix ? op(prefix, earlier) : earlier;
    has_prefix = true;
  }
  scanner::rescan_and_store(s, store, tile, valid, op, mode.exclusive, items, thread_prefix, has_prefix, prefix);
}

/// Recursive pass 3: out[k] = prefix[tile] ⊕ out[k]; for an exclusive scan the tile's first element
/// (which pass 1 could not know) becomes prefix[tile]. Tile 0 has no prefix unless there is an init.
template <class Policy, class Acc, class Op>
__global__ void __launch_bounds__(Policy::block_threads)
    add_tile_prefix_kernel(Acc* out, std::int64_t n, Op op, const Acc* tile_prefixes, bool exclusive, bool has_init) {
  const std::int64_t tile = blockIdx.x, base = tile * Policy::tile_items;
  if (tile == 0 && !has_init) return;
  const Acc prefix = tile_prefixes[tile];
#pragma unroll
  for (int i = 0; i < Policy::items_per_thread; ++i) {
    const std::int64_t k = base + i * Policy::block_threads + threadIdx.x;
    if (k < n) out[k] = (exclusive && k == base) ? prefix : op(prefix, out[k]);
  }
}

}  // namespace parascan::device
