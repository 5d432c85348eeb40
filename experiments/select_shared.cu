// Experiment: the single-pass u32 select with its tile in shared memory, as the 4-byte scan keeps it
// since performance.md entry 53 (16-byte loads, few registers, 6–8 blocks an SM). select_vectors found
// 16-byte loads into registers slower than select_if at 50 and 90% kept: each lane's four consecutive
// items scatter across the warp's run in four stores. Here the tile goes to shared memory by
// block_exchange::load_vectors (item by item for a partial or unaligned tile); warp w then owns the
// chunk of 32 · Items consecutive items [w · 32 · Items, …) and reads it row by row (32 consecutive
// items a row: conflict-free), one ballot a row; lane r keeps row r's ballot (one register, not Items).
// The warps' counts, their scan, the publish and the look-back are the library's (count_and_look_back,
// look_back). Then each kept item goes to tile prefix + warp start + row start + popc(lower lanes):
//   direct     straight from shared memory to the output, one run a row (select_if's write pattern);
//   two-phase  first compacted within the warp's own chunk of shared memory (in place: a kept item only
//              moves down, into rows already read), then the warp's run written by consecutive lanes.
// Beside the library's select_if and CUB's DeviceSelect::If (both count types, the faster dividing),
// keeping x < threshold for 10 / 50 / 90% of random u32; every output and count compared with CUB's.
//   select_shared [log2 n ...]      (default 22 24 28); exit 1 on a mismatch; ROUND3=1: the library's kernel
//                                   launched as the variants are, beside the leader; ROUND5=1: the library's
//                                   call with keep_rule (Python's rules: the kind taken once, keep_rule::visit)
//                                   against a switch an item, range_rule and the bare rule
// Measured (H100, stop 50, docs/select-shared-stop50-h100.txt): 256 x 32, two-phase, 6 blocks an SM
// took 2^28 from 0.604 / 0.733 / 0.888 ms (select_if, 10 / 50 / 90% kept) to 0.527 / 0.652 / 0.793;
// the library's select_shared_tiles_kernel (select_tiles.cuh) is this kernel.
#include <cstdlib>
#include "parascan/block/block_exchange.cuh"
#include "select_harness.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;
using u32 = std::uint32_t;

template <int Threads, int Items, int MinBlocks, bool TwoPhase, int InitialNs, int PollNs, class Rule>
__global__ void __launch_bounds__(Threads, MinBlocks)
    select_shared_kernel(const u32* in, Rule keep, u32* out, std::int64_t n, std::int64_t* count_out,
                         tile_status<u32> status) {
  static_assert(Items <= 32 && Items % 4 == 0, "lane r keeps row r's ballot; whole vectors a thread");
  using policy = scan_policy_t<Threads, Items, InitialNs, PollNs>;
  using exchange = block::block_exchange<u32, Threads, Items>;
  constexpr int warps = Threads / 32, tile_items = Threads * Items, chunk = 32 * Items;
  __shared__ typename exchange::storage tile_smem;
  __shared__ u32 warp_count[warps], warp_begin[warps];
  __shared__ u32 tile_prefix, tile_count;
  const std::int64_t tile = blockIdx.x, first = tile * tile_items;
  const int valid = static_cast<int>(n - first < tile_items ? n - first : tile_items);
  const bool full = valid == tile_items;
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32, base = w * chunk;
  const auto load = [in](std::int64_t i) { return in[i]; };
  if (full && exchange::vector_aligned(in + first)) {
    exchange::load_vectors(tile_smem, in + first);
  } else if (full) {
    exchange::template load_striped<true>(tile_smem, load, first, valid);
  } else {
    exchange::template load_striped<false>(tile_smem, load, first, valid);
  }
  __syncthreads();
  unsigned my_bits = 0;
#pragma unroll
  for (int r = 0; r < Items; ++r) {
    const int k = base + 32 * r + lane;
    const unsigned b = __ballot_sync(~0u, (full || k < valid) && keep(tile_smem[block::padded_index(k)]));
    if (lane == r) my_bits = b;
  }
  const u32 my_count = __popc(my_bits);
  const u32 row_start = warp::exclusive_warp_sum(my_count, lane);
  const u32 warp_total = __shfl_sync(~0u, row_start + my_count, 31);
  if (lane == 0) warp_count[w] = warp_total;
  __syncthreads();
  count_and_look_back(warp_count, warp_begin, tile_prefix, tile_count, tile, status,
                      [&](u32 total) { return look_back<policy>(status, tile, tile, total, sum{}); });
  __syncthreads();
  const std::int64_t out_first = static_cast<std::int64_t>(tile_prefix) + warp_begin[w];
  const unsigned lower = (1u << lane) - 1u;
#pragma unroll
  for (int r = 0; r < Items; ++r) {
    const unsigned b = __shfl_sync(~0u, my_bits, r);
    const u32 at = __shfl_sync(~0u, row_start, r) + __popc(b & lower);
    const u32 x = tile_smem[block::padded_index(base + 32 * r + lane)];
    if constexpr (TwoPhase) {
      __syncwarp();  // every lane has read row r before any writes into it
      if ((b >> lane) & 1u) tile_smem[block::padded_index(base + static_cast<int>(at))] = x;
    } else {
      if ((b >> lane) & 1u) out[out_first + at] = x;
    }
  }
  if constexpr (TwoPhase) {
    __syncwarp();
#pragma unroll
    for (int r = 0; r < Items; ++r) {
      const int i = 32 * r + lane;
      if (static_cast<u32>(i) < warp_total) out[out_first + i] = tile_smem[block::padded_index(base + i)];
    }
  }
  if (tile == static_cast<std::int64_t>(gridDim.x) - 1 && threadIdx.x == 0)
    *count_out = static_cast<std::int64_t>(tile_prefix) + tile_count;
}

/// Look-back delays in ns: the library's select's (1150, 76) unless given.
template <int Threads, int Items, int MinBlocks, bool TwoPhase, int InitialNs = 1150, int PollNs = 76>
select_row run_shared(const select_case& s) {
  char shape[64];
  std::snprintf(shape, sizeof shape, "shared %d x %d /%d %s %d/%d", Threads, Items, MinBlocks,
                TwoPhase ? "two-phase" : "direct", InitialNs, PollNs);
  return s.run_kernel(shape, select_shared_kernel<Threads, Items, MinBlocks, TwoPhase, InitialNs, PollNs, below>,
                      Threads, Threads * Items);
}

/// The library's kernel (select_tiles.cuh) launched as the variants are (no dependent launch), with the
/// rule as the library wraps it (keep_by_predicate) or bare: where the library's call differs from its
/// kernel.
struct below_at {
  below rule;
  __device__ bool operator()(std::int64_t, u32 x) const { return rule(x); }
};
template <class Keep>
select_row run_library_kernel(const select_case& s, const char* name, Keep keep) {
  using policy = select_policy<u32>;
  const auto kernel = select_kernel_for<policy, u32, u32, u32, Keep>();
  return s.run_kernel_as(name, kernel, policy::block_threads, policy::tile_items,
                         [&](unsigned tiles, tile_status<u32> st) {
                           kernel<<<tiles, policy::block_threads>>>(s.in, keep, s.out, s.n, s.count, nullptr, st,
                                                                   tail_fill<u32>{});
                         });
}

/// keep_rule tested item by item through its own operator() (a switch on the kind an item): the library's
/// path before entry 55, which now takes the kind once (keep_rule::visit in the kernels). ROUND5 in stop
/// 50's form also tried the comparisons by a table of kinds: slower than the switch (0.679 against
/// 0.598 ms at 2^28, 10% kept; docs/select-round5-stop51-h100.txt).
template <class T>
struct switch_rule {
  keep_rule<T> rule;
  __host__ __device__ bool operator()(const T& x) const { return rule(x); }
};

/// keep_rule of an unsigned type as one range test, made on the host (ROUND5): keep iff (x − lo) ≤ span,
/// != invert. gt v: [v + 1, max]; ge: [v, max]; lt: [0, v − 1]; le: [0, v]; eq: [v, v]; ne: not [v, v];
/// nonzero: not [0, 0]; an empty range is the whole range inverted. Two instructions an item and a
/// compare where keep_rule switches on its kind.
struct range_rule {
  u32 lo, span;
  bool invert;
  static range_rule from(const keep_rule<u32>& r) {
    const u32 v = r.value, top = ~0u;
    switch (r.kind) {
      case keep_kind::gt: return v == top ? range_rule{0, top, true} : range_rule{v + 1, top - v - 1, false};
      case keep_kind::ge: return {v, top - v, false};
      case keep_kind::lt: return v == 0 ? range_rule{0, top, true} : range_rule{0, v - 1, false};
      case keep_kind::le: return {0, v, false};
      case keep_kind::eq: return {v, 0, false};
      case keep_kind::ne: return {v, 0, true};
      default: return {0, 0, true};  // nonzero (the experiment passes no other kind)
    }
  }
  __host__ __device__ bool operator()(u32 x) const { return ((x - lo) <= span) != invert; }
};

/// The library's select_if with the predicate `pred` (its whole call: status reset and kernel).
template <class Pred>
select_row run_library_call(const select_case& s, const char* name, Pred pred) {
  std::size_t bytes = 0;
  CK(parascan::select_if(nullptr, bytes, s.in, s.out, s.count, s.n, pred));
  void* t = nullptr;
  CK(cudaMalloc(&t, bytes));
  const select_row r = s.time_and_check(name, [&] { CK(parascan::select_if(t, bytes, s.in, s.out, s.count, s.n, pred)); });
  CK(cudaFree(t));
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  return run_select_table(argc, argv, [](const select_case& s) {
    // Round 1 (H100, stop 50): 256 x 32 two-phase at 6 and 5 blocks an SM led; direct lost to two-phase
    // at every shape; 256 x 16 /8, 512 x 16 /4, 384 x 16 /5 and 128 x 32 /12 trailed. Round 2: delays
    // and the shapes around the leader.
    // Round 5: the library's call with the rule Python's keep="lt:t" passes (keep_rule) against the same
    // rule tested by a switch an item, by one range test, and the bare rule. Stop 50's tree (a switch an
    // item): 0.598 / 0.696 / 0.824 ms at 2^28 against the bare rule's 0.541 / 0.654 / 0.788.
    if (std::getenv("ROUND5")) {
      const keep_rule<u32> rule{keep_kind::lt, s.rule.threshold};
      return std::vector<select_row>{run_library_call(s, "library select_if, keep_rule (visit)", rule),
                                     run_library_call(s, "library select_if, switch an item", switch_rule<u32>{rule}),
                                     run_library_call(s, "library select_if, range_rule", range_rule::from(rule)),
                                     run_library_call(s, "library select_if, bare rule", s.rule),
                                     run_library_call(s, "library select_if, keep_rule (visit)", rule)};
    }
    // Round 3: the library's kernel as the variants launch it.
    if (std::getenv("ROUND3"))
      return std::vector<select_row>{
          run_shared<256, 32, 6, true>(s),
          run_library_kernel(s, "library kernel, keep_by_predicate", keep_by_predicate<u32, below>{s.rule, false}),
          run_library_kernel(s, "library kernel, bare rule", below_at{s.rule}), run_shared<256, 32, 6, true>(s)};
    return std::vector<select_row>{
        run_shared<256, 32, 6, true>(s),           run_shared<256, 32, 6, true, 2000, 100>(s),
        run_shared<256, 32, 6, true, 500, 50>(s),  run_shared<256, 32, 6, true, 0, 0>(s),
        run_shared<256, 32, 5, true>(s),           run_shared<256, 32, 5, true, 2000, 100>(s),
        run_shared<256, 24, 8, true>(s),
        run_shared<256, 28, 7, true>(s)};
  });
}
