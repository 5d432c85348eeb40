// Experiment: variants of the single-pass select kernel beside CUB, u32 (or u64 built with
// -DSELECT_U64), keeping x below a threshold: half the items, or the fraction in $KEEP (e.g. KEEP=0.1).
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/select_variants.cu
//   select_variants [log2 n] [scan | delays]  (scan: the scan sweep, u32 builds only; delays: the look-back's
//   sleeps at the library's shape, tile = blockIdx.x); exit 1 on a wrong output
#include <cub/device/device_select.cuh>
#include <cub/device/device_scan.cuh>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <string>
#include "parascan/device/device_select.cuh"
#include "experiment_timing.cuh"

using namespace parascan;
using namespace parascan::device;

#ifdef SELECT_U64
using elem = std::uint64_t;
#else
using elem = std::uint32_t;
#endif
/// Keeps x < threshold (set from $KEEP in main; half by default).
struct half_rule {
  elem threshold = elem(1) << (8 * sizeof(elem) - 1);
  __host__ __device__ bool operator()(elem x) const { return x < threshold; }
};
half_rule g_rule;

__device__ unsigned long long g_stats[4];  // look-back ns, polls, windows, tiles
/// The scan's window (scan_kernels.cuh) counting its polls and windows.
struct counting_window : scalar_window<std::uint32_t, sum> {
  unsigned long long polls = 0, windows = 0;
  __device__ unsigned poll(std::int64_t t) { ++polls; return scalar_window::poll(t); }
  __device__ void waited() {}
  __device__ void take(std::int64_t tile, int taken, bool at_prefix) { ++windows; scalar_window::take(tile, taken, at_prefix); }
};
/// The single-pass select's look-back with its time, polls and windows counted.
template <int InitialNs, int PollNs, bool Stats>
__device__ std::uint32_t look_back_sleep(const tile_status<std::uint32_t>& status, std::int64_t tile, std::uint32_t aggregate) {
  const int lane = threadIdx.x % 32;
  unsigned long long t0 = 0;
  if (Stats) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  if (lane == 0) status.publish(tile, state_aggregate, aggregate);
  if (InitialNs > 0) __nanosleep(InitialNs);
  counting_window window{{status, sum{}}};
  look_back_walk<32>(window, tile, 1, tile, back_off<PollNs>{});
  const std::uint32_t prefix = window.prefix;
  if (lane == 0) status.publish(tile, state_prefix, prefix + aggregate);
  if (Stats && lane == 0) {
    unsigned long long t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    atomicAdd(&g_stats[0], t1 - t0);
    atomicAdd(&g_stats[1], window.polls);
    atomicAdd(&g_stats[2], window.windows);
    atomicAdd(&g_stats[3], 1ull);
  }
  return prefix;
}

/// The select's look-back with one poll before any sleep (stop 45: 20–30% slower from 2^24 up):
/// publish the count, poll the window at once, and only if it is not ready sleep FirstNs, then PollNs
/// between later polls (the library sleeps its initial 1150 ns before the first poll, as CUB's fixed
/// delay does).
template <int FirstNs, int PollNs>
__device__ std::uint32_t look_back_first_poll(const tile_status<std::uint32_t>& status, std::int64_t tile, std::uint32_t aggregate) {
  const int lane = threadIdx.x % 32;
  if (lane == 0) status.publish(tile, state_aggregate, aggregate);
  scalar_window<std::uint32_t, sum> window{status, sum{}};
  look_back_walk<32>(window, tile, 1, tile, back_off<FirstNs, PollNs, 1>{gridDim.x >= 512});
  if (lane == 0) status.publish(tile, state_prefix, window.prefix + aggregate);
  return window.prefix;
}

/// The select's look-back reading two windows at once (stop 45: no faster at the same 3 blocks an
/// SM): lane i polls the predecessors tile − 1 − i and tile − 33 − i in one round trip. Stop 44's
/// statistics counted 1.7–1.9 windows a tile, each a further L2 round trip after the last. The near
/// window is taken as soon as it is ready and holds an inclusive prefix; otherwise the far one too
/// once it is ready.
template <int InitialNs, int PollNs>
__device__ std::uint32_t look_back_two_windows(const tile_status<std::uint32_t>& status, std::int64_t tile,
                                               std::uint32_t aggregate) {
  const int lane = threadIdx.x % 32;
  const bool sleeps = gridDim.x >= 512;
  if (lane == 0) status.publish(tile, state_aggregate, aggregate);
  if (InitialNs > 0 && sleeps) __nanosleep(InitialNs);
  const auto read = [&](std::int64_t t, unsigned& state, std::uint32_t& v) {
    if (t < 0) { state = state_prefix; v = 0; } else status.read(t, state, v);
  };
  std::uint32_t prefix = 0;
  for (std::int64_t at = tile;; at -= 64) {
    unsigned sn, sf;
    std::uint32_t vn, vf;
    read(at - 1 - lane, sn, vn);
    read(at - 33 - lane, sf, vf);
    for (;;) {
      if (!__any_sync(0xffffffffu, sn == state_invalid)) {
        const unsigned pn = __ballot_sync(0xffffffffu, sn == state_prefix);
        if (pn) {
          prefix += __reduce_add_sync(0xffffffffu, lane < __ffs(pn) ? vn : 0u);
          if (lane == 0) status.publish(tile, state_prefix, prefix + aggregate);
          return prefix;
        }
        if (!__any_sync(0xffffffffu, sf == state_invalid)) {
          prefix += __reduce_add_sync(0xffffffffu, vn);
          const unsigned pf = __ballot_sync(0xffffffffu, sf == state_prefix);
          prefix += __reduce_add_sync(0xffffffffu, !pf || lane < __ffs(pf) ? vf : 0u);
          if (pf) {
            if (lane == 0) status.publish(tile, state_prefix, prefix + aggregate);
            return prefix;
          }
          break;  // the next two windows
        }
      }
      if (PollNs > 0 && sleeps) __nanosleep(PollNs);
      if (sn == state_invalid) read(at - 1 - lane, sn, vn);
      if (sf == state_invalid) read(at - 33 - lane, sf, vf);
    }
  }
}

// TwoPhase: kept items are compacted into shared memory, then the tile writes its run coalesced.
template <int Threads, int Rows, bool TwoPhase, int MinBlocks, bool DynamicId = true, int Ablation = 0, int InitialNs = -1, int PollNs = 0, bool Stats = false>
__global__ void __launch_bounds__(Threads, MinBlocks)
    variant_kernel(const elem* in, elem* out, std::int64_t n, std::int64_t* count_out,
                   tile_status<std::uint32_t> status, unsigned long long* tile_counter, half_rule keep) {
  using V = elem;
  using Offset = std::uint32_t;
  constexpr int threads = Threads, rows = Rows, tile_items = Threads * Rows;
  constexpr int warps = threads / 32, segments = rows * warps;
  static_assert(segments <= threads, "");
  using counts_scan = block::block_scan<block_algorithm::warp_shuffle, Offset, threads>;
  __shared__ typename counts_scan::storage scan_storage;
  __shared__ Offset segment_start[segments];
  __shared__ Offset tile_prefix;
  __shared__ std::int64_t tile_id;
  __shared__ V staged[TwoPhase ? tile_items : 1];
  if constexpr (DynamicId) {
    if (threadIdx.x == 0) tile_id = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    __syncthreads();
  } else {
    if (threadIdx.x == 0) tile_id = blockIdx.x;
  }
  const std::int64_t tile = DynamicId ? tile_id : static_cast<std::int64_t>(blockIdx.x), first = tile * tile_items;
  const int valid = static_cast<int>(n - first < tile_items ? n - first : tile_items);
  const bool full = valid == tile_items;
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  V v[rows];
  unsigned bits[rows];
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    const int local = r * threads + static_cast<int>(threadIdx.x);
    if (full || local < valid) v[r] = in[first + local];
  }
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    const int local = r * threads + static_cast<int>(threadIdx.x);
    bool k = (full || local < valid) && keep(v[r]);
    bits[r] = __ballot_sync(0xffffffffu, k);
  }
  if (lane == 0) {
#pragma unroll
    for (int r = 0; r < rows; ++r) segment_start[r * warps + w] = static_cast<Offset>(__popc(bits[r]));
  }
  __syncthreads();
  if constexpr (Ablation == 3 || Ablation == 4 || Ablation == 5) {  // the library's steps 2–3 since stop 45
    // (count_and_look_back: warp 0 adds the counts, publishes and looks back, warp 1 scans them), with
    // the library's look-back (3), one poll before any sleep (4) or two windows a poll (5)
    __shared__ Offset segment_begin[segments];
    __shared__ Offset tile_total;
    count_and_look_back(segment_start, segment_begin, tile_prefix, tile_total, tile, status, [&](Offset total) {
      constexpr int initial = InitialNs > 0 ? InitialNs : 0;
      if constexpr (Ablation == 4) return look_back_first_poll<initial, PollNs>(status, tile, total);
      else if constexpr (Ablation == 5) return look_back_two_windows<initial, PollNs>(status, tile, total);
      else return look_back<scan_policy_t<Threads, Rows, initial, PollNs>>(status, tile, tile, total, sum{});
    });
    __syncthreads();
    const Offset prefix = tile_prefix, total = tile_total;
    const std::int64_t out_first = static_cast<std::int64_t>(prefix);
    const unsigned lower = (1u << lane) - 1u;
#pragma unroll
    for (int r = 0; r < rows; ++r)
      if ((bits[r] >> lane) & 1u)
        out[out_first + static_cast<std::int64_t>(segment_begin[r * warps + w]) + __popc(bits[r] & lower)] = v[r];
    if (tile == static_cast<std::int64_t>(gridDim.x) - 1 && threadIdx.x == 0)
      *count_out = static_cast<std::int64_t>(prefix) + static_cast<std::int64_t>(total);
    return;
  }
  const Offset count = threadIdx.x < segments ? segment_start[threadIdx.x] : Offset(0);
  Offset before = 0, inclusive, aggregate;
  counts_scan::scan(scan_storage, count, sum{}, threads, before, inclusive, aggregate);
  if (threadIdx.x == 0) before = 0;
  if (threadIdx.x < segments) segment_start[threadIdx.x] = before;
  const unsigned lower = (1u << lane) - 1u;
  if constexpr (TwoPhase) {
    __syncthreads();
#pragma unroll
    for (int r = 0; r < rows; ++r)
      if ((bits[r] >> lane) & 1u) staged[segment_start[r * warps + w] + __popc(bits[r] & lower)] = v[r];
  }
  Offset prefix = 0;
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, state_prefix, aggregate);
  } else if (Ablation == 1) {
    if (threadIdx.x == 0) tile_prefix = static_cast<Offset>(first / 2);
  } else if (threadIdx.x < 32) {
    const Offset p = Stats ? look_back_sleep<(InitialNs > 0 ? InitialNs : 0), PollNs, Stats>(status, tile, aggregate) : look_back<scan_policy_t<Threads, Rows, (InitialNs > 0 ? InitialNs : 0), PollNs>>(status, tile, tile, aggregate, sum{});
    if (threadIdx.x == 0) tile_prefix = p;
  }
  __syncthreads();
  if (tile > 0) prefix = tile_prefix;
  const std::int64_t out_first = static_cast<std::int64_t>(prefix);
  if constexpr (Ablation == 2) {
    if (threadIdx.x == 0 && aggregate == 12345) out[out_first] = 1;
  } else if constexpr (TwoPhase) {
    for (int j = threadIdx.x; j < static_cast<int>(aggregate); j += threads) out[out_first + j] = staged[j];
  } else {
#pragma unroll
    for (int r = 0; r < rows; ++r)
      if ((bits[r] >> lane) & 1u)
        out[out_first + static_cast<std::int64_t>(segment_start[r * warps + w]) + __popc(bits[r] & lower)] = v[r];
  }
  if (tile == static_cast<std::int64_t>(gridDim.x) - 1 && threadIdx.x == 0)
    *count_out = static_cast<std::int64_t>(prefix) + static_cast<std::int64_t>(aggregate);
}

std::int64_t g_n;
elem *g_in, *g_out, *g_ref;
std::int64_t* g_count;
void* g_temp;
std::int64_t g_ref_count;
bool g_all_ok = true;  // every checked output equal to CUB's (the exit status)

template <int Threads, int Rows, bool TwoPhase, int MinBlocks, bool DynamicId = true, int Ablation = 0, int InitialNs = -1, int PollNs = 0, bool Stats = false>
void run_variant(const char* name, float cub_ms) {
  const std::int64_t tiles = (g_n + Threads * Rows - 1) / (Threads * Rows);
  auto storage = look_back_storage<std::uint32_t>::carve(g_temp, tiles);
  auto k = variant_kernel<Threads, Rows, TwoPhase, MinBlocks, DynamicId, Ablation, InitialNs, PollNs, Stats>;
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, k));
  int blocks = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, Threads, 0));
  auto go = [&] {
    CK(storage.init(tiles, 0, false));
    k<<<(unsigned)tiles, Threads>>>(g_in, g_out, g_n, g_count, storage.status, storage.counter, g_rule);
  };
  CK(cudaMemset(g_out, 0xAB, g_n * sizeof(elem)));
  go();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::int64_t c = -1;
  CK(cudaMemcpy(&c, g_count, 8, cudaMemcpyDeviceToHost));
  std::vector<elem> a(c > 0 ? c : 0), b(c > 0 ? c : 0);
  bool ok = c == g_ref_count;
  if (ok) {
    CK(cudaMemcpy(a.data(), g_out, c * sizeof(elem), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), g_ref, c * sizeof(elem), cudaMemcpyDeviceToHost));
    ok = a == b;
  }
  unsigned long long zero[4] = {0, 0, 0, 0}, st[4];
  CK(cudaMemcpyToSymbol(g_stats, zero, sizeof zero));
  const float ms = median_ms({20, 2}, go);
  CK(cudaMemcpyFromSymbol(st, g_stats, sizeof st));
  if (Stats && st[3]) std::printf("    look-back: %.0f ns/tile, %.2f polls/tile, %.2f windows/tile\n", double(st[0]) / st[3], double(st[1]) / st[3], double(st[2]) / st[3]);
  g_all_ok = g_all_ok && (Ablation == 1 || Ablation == 2 || ok);
  std::printf("%-28s regs %3d occ %d blk/SM  %8.4f ms  ratio %.3f  %s\n", name, attr.numRegs, blocks, ms, cub_ms / ms,
              Ablation == 1 || Ablation == 2 ? "(ablation)" : ok ? "ok" : "WRONG");
}

#ifndef SELECT_U64
template <int Threads, int Items, int I, int P>
void run_scan(const char* name, float cub_ms) {
  using pol = scan_policy_t<Threads, Items, I, P>;
  const std::int64_t tiles = (g_n + pol::tile_items - 1) / pol::tile_items;
  auto storage = look_back_storage<std::uint32_t>::carve(g_temp, tiles);
  auto k = scan_tiles_kernel<pol, block_algorithm::warp_shuffle, prefix_source::look_back, std::uint32_t,
                             pointer_loader<std::uint32_t, std::uint32_t>, pointer_storer<std::uint32_t>, sum>;
  int blocks = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, Threads, 0));
  auto go = [&] {
    CK(storage.init(tiles, 0, false));
    k<<<(unsigned)tiles, Threads>>>(pointer_loader<std::uint32_t, std::uint32_t>{g_in}, pointer_storer<std::uint32_t>{g_out},
                                    g_n, sum{}, scan_mode<std::uint32_t>{true, false, 0u}, nullptr, nullptr, storage.status, storage.counter);
  };
  CK(cudaMemset(g_out, 0xAB, g_n * sizeof(elem)));
  go();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<std::uint32_t> a(g_n), b(g_n);
  CK(cudaMemcpy(a.data(), g_out, g_n * sizeof(elem), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), g_ref, g_n * sizeof(elem), cudaMemcpyDeviceToHost));
  const float ms = median_ms({20, 2}, go);
  g_all_ok = g_all_ok && a == b;
  std::printf("scan %-23s occ %d blk/SM  %8.4f ms  ratio %.3f  %s\n", name, blocks, ms, cub_ms / ms, a == b ? "ok" : "WRONG");
}
#endif

int main(int argc, char** argv) {
  const int log_n = argc > 1 ? std::atoi(argv[1]) : 28;
  g_n = std::int64_t(1) << log_n;
  if (const char* keep = std::getenv("KEEP")) {
    const double f = std::atof(keep);
    g_rule.threshold = static_cast<elem>(f * 2.0 * static_cast<double>(elem(1) << (8 * sizeof(elem) - 1)));
  }
  CK(cudaMalloc(&g_in, g_n * sizeof(elem)));
  CK(cudaMalloc(&g_out, g_n * sizeof(elem)));
  CK(cudaMalloc(&g_ref, g_n * sizeof(elem)));
  CK(cudaMalloc(&g_count, 8));
  CK(cudaMalloc(&g_temp, 64 << 20));
  fill_hashed<<<1024, 256>>>(g_in, g_n);
  CK(cudaDeviceSynchronize());
  std::size_t cub_bytes = 0;
  CK(cub::DeviceSelect::If(nullptr, cub_bytes, g_in, g_ref, g_count, g_n, g_rule));
  void* cub_temp;
  CK(cudaMalloc(&cub_temp, cub_bytes));
  auto cub_go = [&] { CK(cub::DeviceSelect::If(cub_temp, cub_bytes, g_in, g_ref, g_count, g_n, g_rule)); };
  cub_go();
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(&g_ref_count, g_count, 8, cudaMemcpyDeviceToHost));
  const float cub_ms = median_ms({20, 2}, cub_go);
  const float copy_ms = median_ms({20, 2}, [&] { CK(cudaMemcpyAsync(g_out, g_in, g_n * sizeof(elem), cudaMemcpyDeviceToDevice)); });
  std::printf("n=2^%d kept %lld  CUB %.4f ms  copy %.4f ms (%.0f GB/s)\n", log_n, (long long)g_ref_count, cub_ms,
              copy_ms, 2.0 * g_n * sizeof(elem) / copy_ms / 1e6);
  if (sizeof(elem) == 4 && argc > 2 && std::string(argv[2]) == "scan") {  // scan sweep (u32 builds)
#ifndef SELECT_U64
    std::size_t sb = 0;
    CK(cub::DeviceScan::ExclusiveSum(nullptr, sb, g_in, g_ref, g_n));
    void* st;
    CK(cudaMalloc(&st, sb));
    auto cs = [&] { CK(cub::DeviceScan::ExclusiveSum(st, sb, g_in, g_ref, g_n)); };
    cs();
    const float cub_scan = median_ms({20, 2}, cs);
    std::printf("CUB scan %.4f ms\n", cub_scan);
    run_scan<256, 16, 0, 0>("256x16 0/0", cub_scan);
    run_scan<256, 16, 500, 76>("256x16 500/76", cub_scan);
    run_scan<256, 16, 1000, 76>("256x16 1000/76", cub_scan);
    run_scan<256, 16, 1500, 76>("256x16 1500/76", cub_scan);
    run_scan<256, 16, 1000, 200>("256x16 1000/200", cub_scan);
    run_scan<256, 16, 2000, 100>("256x16 2000/100", cub_scan);
    run_scan<384, 16, 1000, 76>("384x16 1000/76", cub_scan);
    run_scan<256, 24, 1000, 76>("256x24 1000/76", cub_scan);
    run_scan<128, 16, 1000, 76>("128x16 1000/76", cub_scan);
    run_scan<256, 12, 1000, 76>("256x12 1000/76", cub_scan);
    run_scan<256, 16, 0, 0>("256x16 0/0 again", cub_scan);
#endif
    return g_all_ok ? 0 : 1;
  }
  if (argc > 2 && std::string(argv[2]) == "delays") {  // the look-back's sleeps at the library's shape (stop 45)
    run_variant<384, 16, false, 1, false, 1, 0, 0>("384x16 no look-back", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 1150, 76>("384x16 1150/76 (library)", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 0, 0>("384x16 0/0", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 0, 76>("384x16 0/76", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 300, 76>("384x16 300/76", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 600, 76>("384x16 600/76", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 900, 76>("384x16 900/76", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 600, 40>("384x16 600/40", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 1150, 40>("384x16 1150/40", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 1150, 150>("384x16 1150/150", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 1600, 76>("384x16 1600/76", cub_ms);
    run_variant<256, 16, false, 1, false, 0, 600, 76>("256x16 600/76", cub_ms);
    run_variant<256, 16, false, 1, false, 0, 1150, 76>("256x16 1150/76", cub_ms);
    run_variant<384, 16, false, 1, false, 3, 1150, 76>("384x16 early 1150/76", cub_ms);
    run_variant<384, 16, false, 1, false, 3, 600, 76>("384x16 early 600/76", cub_ms);
    run_variant<384, 16, false, 1, false, 3, 1150, 150>("384x16 early 1150/150", cub_ms);
    run_variant<384, 16, false, 1, false, 3, 800, 76>("384x16 early 800/76", cub_ms);
    run_variant<384, 17, false, 1, false, 3, 1150, 76>("384x17 early 1150/76", cub_ms);
    run_variant<256, 16, false, 1, false, 3, 1150, 76>("256x16 early 1150/76", cub_ms);
    run_variant<384, 16, false, 1, false, 0, 1150, 76>("384x16 1150/76 again", cub_ms);
    run_variant<384, 16, false, 1, false, 3, 1150, 76>("384x16 early 1150/76 again", cub_ms);
    // One poll before any sleep, then FirstNs, then PollNs between polls
    run_variant<384, 16, false, 1, false, 4, 1150, 76>("384x16 poll, 1150, 76", cub_ms);
    run_variant<384, 16, false, 1, false, 4, 800, 76>("384x16 poll, 800, 76", cub_ms);
    run_variant<384, 16, false, 1, false, 4, 500, 76>("384x16 poll, 500, 76", cub_ms);
    run_variant<384, 16, false, 1, false, 4, 1150, 150>("384x16 poll, 1150, 150", cub_ms);
    // Two windows a poll
    // (at 63 registers two windows fit 2 blocks an SM: held to 3, as the library's kernel fits)
    run_variant<384, 16, false, 3, false, 5, 1150, 76>("384x16 two windows 1150/76 3/SM", cub_ms);
    run_variant<384, 16, false, 3, false, 5, 800, 76>("384x16 two windows 800/76 3/SM", cub_ms);
    run_variant<384, 16, false, 1, false, 3, 1150, 76>("384x16 early 1150/76 third", cub_ms);
    run_variant<384, 16, false, 3, false, 5, 1150, 76>("384x16 two windows 1150/76 3/SM again", cub_ms);
    return g_all_ok ? 0 : 1;
  }
#ifdef SELECT_U64
  // 8-byte values: the library's 384 × 8 beside other shapes (stop 44)
  run_variant<384, 8, false, 1, true, 0, 1150, 76>("384x8 1150/76", cub_ms);
  run_variant<384, 12, false, 1, true, 0, 1150, 76>("384x12 1150/76", cub_ms);
  run_variant<256, 8, false, 1, true, 0, 1150, 76>("256x8 1150/76", cub_ms);
  run_variant<256, 12, false, 1, true, 0, 1150, 76>("256x12 1150/76", cub_ms);
  run_variant<256, 16, false, 1, true, 0, 1150, 76>("256x16 1150/76", cub_ms);
  run_variant<128, 16, false, 1, true, 0, 1150, 76>("128x16 1150/76", cub_ms);
  run_variant<128, 24, false, 1, true, 0, 1150, 76>("128x24 1150/76", cub_ms);
  run_variant<512, 8, false, 1, true, 0, 1150, 76>("512x8 1150/76", cub_ms);
  run_variant<384, 8, true, 1, true, 0, 1150, 76>("384x8 2ph 1150/76", cub_ms);
  run_variant<256, 16, false, 1, false, 0, 1150, 76>("256x16 blockIdx 1150/76", cub_ms);
  run_variant<384, 8, false, 1, true, 0, 1150, 76>("384x8 1150/76 again", cub_ms);
#else
  run_variant<256, 32, false, 1>("256x32 direct", cub_ms);
  run_variant<256, 32, false, 1, true, 0, 1150, 76>("256x32 1150/76", cub_ms);
  run_variant<256, 32, false, 1, true, 0, 1500, 76>("256x32 1500/76", cub_ms);
  run_variant<256, 32, false, 1, true, 0, 2000, 76>("256x32 2000/76", cub_ms);
  run_variant<256, 32, false, 1, true, 0, 1150, 200>("256x32 1150/200", cub_ms);
  run_variant<384, 16, false, 1, true, 0, 1150, 76>("384x16 1150/76", cub_ms);
  run_variant<384, 16, false, 1, true, 0, 1500, 100>("384x16 1500/100", cub_ms);
  run_variant<384, 20, false, 1, true, 0, 1150, 76>("384x20 1150/76", cub_ms);
  run_variant<256, 20, false, 1, true, 0, 1150, 76>("256x20 1150/76", cub_ms);
  run_variant<256, 24, true, 1, true, 0, 1150, 76>("256x24 2ph 1150/76", cub_ms);
  run_variant<384, 16, true, 1, true, 0, 1150, 76>("384x16 2ph 1150/76", cub_ms);
  run_variant<512, 16, false, 1, true, 0, 1150, 76>("512x16 1150/76", cub_ms);
  run_variant<512, 12, false, 1, true, 0, 1150, 76>("512x12 1150/76", cub_ms);
  // Narrower blocks (stop 44: 128 × 32 won for 8-byte scans, seven blocks an SM against five)
  run_variant<128, 16, false, 1, true, 0, 1150, 76>("128x16 1150/76", cub_ms);
  run_variant<128, 24, false, 1, true, 0, 1150, 76>("128x24 1150/76", cub_ms);
  run_variant<128, 32, false, 1, true, 0, 1150, 76>("128x32 1150/76", cub_ms);
  run_variant<192, 16, false, 1, true, 0, 1150, 76>("192x16 1150/76", cub_ms);
  run_variant<256, 16, false, 1, true, 0, 1150, 76>("256x16 1150/76", cub_ms);
  run_variant<384, 16, false, 1, false, 0, 1150, 76>("384x16 blockIdx 1150/76", cub_ms);  // tile = blockIdx.x (CUB's way)
  run_variant<384, 16, false, 1, true, 0, 1150, 76, true>("384x16 stats 1150/76", cub_ms);
  run_variant<384, 16, false, 1, true, 0, 1150, 76>("384x16 1150/76 again", cub_ms);
#endif
  return g_all_ok ? 0 : 1;
}
