// Experiment: where the time of one small scan goes (2^16 to 2^24 u32 items, inclusive sum), for the
// Python target of issue 18 (scan ≥ torch.cumsum at 2^20, timed one call after a synchronisation).
//   1. host cost of each runtime call a scan makes (empty kernel launches, with and without the
//      dependent-launch attribute, pool allocation and free, device queries), averaged over 2000;
//   2. per size, one call after a synchronisation timed between two events, as python -m
//      parascan.bench times it ("latency": the host's launches included), and the same behind a
//      50 µs hold kernel ("gpu": the launches hidden): CUB's InclusiveSum, the library's
//      inclusive_scan, and the status reset + look-back scan launched by hand at several tile shapes,
//      each plain (the scan after the reset) and as a dependent launch (the scan's blocks launched
//      while the reset runs). Every output is checked against CUB's. docs/performance.md entry 25.
//   3. the candidate for one launch instead of two: a cooperative grid (every tile resident at once)
//      that reduces its tile with the items kept in registers, stores the tile sum, meets the other
//      tiles at a grid barrier, combines the sums of the tiles before it in order, then scans and
//      stores: no status words to reset, no look-back, read n and write n. Only where every tile fits
//      on the GPU at once (occupancy × SMs).
//   scan_latency [log2 n ...]      (default 16 20 22 24); exit 1 on a mismatch
#include <cub/device/device_scan.cuh>
#include <cooperative_groups.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "parascan/device/device_scan.cuh"
#include "experiment_timing.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;
using u32 = std::uint32_t;

__global__ void empty_kernel(int) {}

template <class F>
double host_us(F f, int reps = 2000) {
  for (int i = 0; i < 10; ++i) f();
  CK(cudaDeviceSynchronize());
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  const auto t1 = std::chrono::steady_clock::now();
  CK(cudaDeviceSynchronize());
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / reps;
}

void host_costs() {
  cudaMemPool_t pool;
  CK(cudaDeviceGetDefaultMemPool(&pool, 0));
  std::uint64_t keep = std::uint64_t(1) << 30;
  CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  int dev = 0, major = 0;
  std::printf("host cost per call (us, mean of 2000):\n");
  std::printf("  %-44s %6.2f\n", "empty kernel <<<>>>", host_us([] { empty_kernel<<<1, 32>>>(0); }));
  std::printf("  %-44s %6.2f\n", "empty kernel cudaLaunchKernelEx, dependent",
              host_us([] { CK(launch_after_previous(true, empty_kernel, 1, 32, 0, nullptr, 0)); }));
  std::printf("  %-44s %6.2f\n", "cudaMallocFromPoolAsync + cudaFreeAsync (4 KB)", host_us([&] {
                void* p;
                CK(cudaMallocFromPoolAsync(&p, 4096, pool, nullptr));
                CK(cudaFreeAsync(p, nullptr));
              }));
  std::printf("  %-44s %6.2f\n", "cudaGetDevice", host_us([&] { CK(cudaGetDevice(&dev)); }));
  std::printf("  %-44s %6.2f\n", "cudaDeviceGetAttribute (major)",
              host_us([&] { CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)); }));
  std::printf("  %-44s %6.2f\n", "cudaPeekAtLastError", host_us([] { CK(cudaPeekAtLastError()); }));
}

struct setup {
  std::int64_t n;
  u32 *in, *out, *ref;
  std::vector<u32> want;
  void* temp;
};

bool matches(const setup& s) {
  std::vector<u32> got(static_cast<std::size_t>(s.n));
  CK(cudaMemcpy(got.data(), s.out, got.size() * 4, cudaMemcpyDeviceToHost));
  return got == s.want;
}

template <class F>
void row(const char* name, setup& s, F f, double cub_latency) {
  CK(cudaMemset(s.out, 0x5a, static_cast<std::size_t>(s.n) * 4));
  f();
  CK(cudaDeviceSynchronize());
  const bool ok = matches(s);
  const double lat = 1000.0 * median_ms({60, 3, 0}, f), gpu = 1000.0 * median_ms({60, 3, 50}, f);
  std::printf("  %-40s latency %7.2f us  gpu %7.2f us  %5.2fx CUB latency  %s\n", name, lat, gpu,
              cub_latency > 0 ? cub_latency / lat : 1.0, ok ? "ok" : "WRONG");
  if (!ok) std::exit(1);
}

template <int Threads, int Items>
void by_hand(setup& s, bool dependent, double cub_latency) {
  using policy = scan_policy_t<Threads, Items, 2000, 100>;
  const std::int64_t tiles = (s.n + policy::tile_items - 1) / policy::tile_items;
  const auto storage = look_back_storage<u32>::carve(s.temp, tiles);
  const auto kernel = scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back, u32,
                                        pointer_loader<u32, u32>, pointer_storer<u32>, sum>;
  char name[64];
  std::snprintf(name, sizeof name, "reset + scan %d x %d%s", Threads, Items, dependent ? " dependent" : "");
  row(name, s, [&] {
    CK(storage.init(tiles, nullptr, false));
    CK(launch_after_previous(dependent, kernel, static_cast<unsigned>(tiles), Threads, 0, nullptr,
                             pointer_loader<u32, u32>{s.in}, pointer_storer<u32>{s.out}, s.n, sum{},
                             scan_mode<u32>{false, false, 0u}, static_cast<u32*>(nullptr),
                             static_cast<const u32*>(nullptr), storage.status, storage.counter));
  }, cub_latency);
}

/// One launch, every tile resident (cooperative launch): the tile's items stay in registers across
/// the grid barrier, the tile's prefix is the ordered combination of the earlier tiles' sums.
template <class Policy, class Op>
__global__ void __launch_bounds__(Policy::block_threads)
    resident_scan_kernel(pointer_loader<u32, u32> load, pointer_storer<u32> store, std::int64_t n, Op op,
                         scan_mode<u32> mode, u32* tile_sums) {
  using scanner = tile_scanner<Policy, block_algorithm::warp_shuffle, u32>;
  __shared__ typename scanner::storage s;
  const std::int64_t tile = blockIdx.x, base = tile * Policy::tile_items;
  const int valid = static_cast<int>(n - base < Policy::tile_items ? n - base : Policy::tile_items);
  const bool full = valid == Policy::tile_items;
  u32 items[Policy::items_per_thread], thread_prefix, aggregate;
  if (full) scanner::template load_and_scan<true>(s, load, base, valid, op, items, thread_prefix, aggregate);
  else scanner::template load_and_scan<false>(s, load, base, valid, op, items, thread_prefix, aggregate);
  if (threadIdx.x == 0) tile_sums[tile] = aggregate;
  cooperative_groups::this_grid().sync();
  bool has_prefix = mode.has_init;
  u32 prefix = mode.init;
  if (tile > 0) {  // the sums of tiles [0, tile), a run of `per` of them per thread, combined in order
    const int per = static_cast<int>((tile + Policy::block_threads - 1) / Policy::block_threads);
    const std::int64_t first = static_cast<std::int64_t>(threadIdx.x) * per;
    u32 part{};
    for (int k = 0; k < per; ++k)
      if (first + k < tile) part = k == 0 ? __ldcg(tile_sums + first + k) : op(part, __ldcg(tile_sums + first + k));
    const int valid_threads = static_cast<int>((tile + per - 1) / per);
    u32 exclusive, inclusive, earlier;
    scanner::block_scan::scan(s.scan, part, op, valid_threads, exclusive, inclusive, earlier);
    prefix = has_prefix ? op(prefix, earlier) : earlier;
    has_prefix = true;
  }
  const bool first_thread = threadIdx.x == 0;
  const u32 seed = first_thread ? prefix : (has_prefix ? op(prefix, thread_prefix) : thread_prefix);
  thread::scan(items, mode.exclusive, first_thread ? has_prefix : true, seed, op);
  if (full) scanner::exchange::template store<true>(s.items, store, base, valid, items);
  else scanner::exchange::template store<false>(s.items, store, base, valid, items);
}

template <int Threads, int Items>
void resident(setup& s, double cub_latency) {
  using policy = scan_policy_t<Threads, Items, 2000, 100>;
  const std::int64_t tiles = (s.n + policy::tile_items - 1) / policy::tile_items;
  const auto kernel = resident_scan_kernel<policy, sum>;
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Threads, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  char name[64];
  std::snprintf(name, sizeof name, "one launch, resident %d x %d", Threads, Items);
  if (tiles > static_cast<std::int64_t>(per_sm) * sms) {
    std::printf("  %-40s not run: %lld tiles, %d resident\n", name, (long long)tiles, per_sm * sms);
    return;
  }
  u32* sums = static_cast<u32*>(s.temp);
  row(name, s, [&] {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(tiles));
    config.blockDim = dim3(Threads);
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeCooperative;
    attribute[0].val.cooperative = 1;
    config.attrs = attribute;
    config.numAttrs = 1;
    CK(cudaLaunchKernelEx(&config, kernel, pointer_loader<u32, u32>{s.in}, pointer_storer<u32>{s.out}, s.n, sum{},
                          scan_mode<u32>{false, false, 0u}, sums));
  }, cub_latency);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> logs;
  for (int i = 1; i < argc; ++i) logs.push_back(std::atoi(argv[i]));
  if (logs.empty()) logs = {16, 20, 22, 24};
  host_costs();
  for (int k : logs) {
    setup s;
    s.n = std::int64_t(1) << k;
    std::vector<u32> h(static_cast<std::size_t>(s.n));
    std::uint64_t x = 99 + s.n;
    for (auto& v : h) v = static_cast<u32>((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 40);
    CK(cudaMalloc(&s.in, s.n * 4));
    CK(cudaMalloc(&s.out, s.n * 4));
    CK(cudaMalloc(&s.ref, s.n * 4));
    CK(cudaMemcpy(s.in, h.data(), s.n * 4, cudaMemcpyHostToDevice));
    std::size_t cub_bytes = 0, ours_bytes = 0;
    CK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, s.in, s.ref, static_cast<int>(s.n)));
    CK(inclusive_scan(nullptr, ours_bytes, s.in, s.out, s.n, sum{}, nullptr, scan_options{}));
    void* cub_temp;
    CK(cudaMalloc(&cub_temp, cub_bytes));
    CK(cudaMalloc(&s.temp, ours_bytes + (1 << 20)));  // room for the smaller tiles' statuses
    CK(cub::DeviceScan::InclusiveSum(cub_temp, cub_bytes, s.in, s.ref, static_cast<int>(s.n)));
    s.want.resize(h.size());
    CK(cudaMemcpy(s.want.data(), s.ref, s.n * 4, cudaMemcpyDeviceToHost));
    std::printf("n = 2^%d\n", k);
    const auto cub_call = [&] { CK(cub::DeviceScan::InclusiveSum(cub_temp, cub_bytes, s.in, s.out, static_cast<int>(s.n))); };
    const double cub_latency = 1000.0 * median_ms({60, 3, 0}, cub_call);
    row("CUB InclusiveSum", s, cub_call, cub_latency);
    row("parascan::inclusive_scan", s, [&] {
      std::size_t b = ours_bytes;
      CK(inclusive_scan(s.temp, b, s.in, s.out, s.n, sum{}, nullptr, scan_options{}));
    }, cub_latency);
    by_hand<256, 32>(s, false, cub_latency);
    by_hand<256, 32>(s, true, cub_latency);
    by_hand<256, 16>(s, true, cub_latency);
    by_hand<256, 8>(s, true, cub_latency);
    by_hand<128, 16>(s, true, cub_latency);
    by_hand<512, 16>(s, true, cub_latency);
    resident<256, 32>(s, cub_latency);
    resident<256, 16>(s, cub_latency);
    resident<512, 16>(s, cub_latency);
    CK(cudaFree(s.in));
    CK(cudaFree(s.out));
    CK(cudaFree(s.ref));
    CK(cudaFree(cub_temp));
    CK(cudaFree(s.temp));
  }
  return 0;
}
