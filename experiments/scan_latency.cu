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
//   3. one launch instead of two (scan_resident_kernel, the library's single pass where every tile
//      fits on the GPU at once): a cooperative grid that scans its tile into registers, publishes
//      the tile sum, meets the other tiles at a grid barrier, combines the sums of the tiles before
//      it in order, then rescans and stores: no status words to reset, no look-back. At tile shapes
//      other than the library's too. (The library's inclusive_scan row takes it where it fits.)
//   4. selection the same way (u32 values, u8 flags, about a third dropped, as `parascan.select(x,
//      mask=m)` calls it): CUB's DeviceSelect::Flagged, parascan::select_flagged in one launch and with
//      the look-back, and the one-launch call followed by the count's read-back and a synchronisation
//      (what Python does to size its result) into pageable and into pinned host memory.
//   scan_latency [log2 n ...]      (default 16 20 22 24); exit 1 on a mismatch
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "parascan/device/device_scan.cuh"
#include "parascan/device/device_select.cuh"
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

/// One row: `poison` the outputs, run f once and check them with `right`, then time f as a latency
/// (one call after a synchronisation) and, unless `gpu_too` is false (calls that synchronise
/// themselves), behind a hold kernel. Exits on a wrong result.
template <class Poison, class F, class Right>
void timed_row(const char* name, Poison poison, F f, Right right, double cub_latency, bool gpu_too = true) {
  poison();
  f();
  CK(cudaDeviceSynchronize());
  const bool ok = right();
  const double lat = 1000.0 * median_ms({60, 3, 0}, f);
  const double gpu = gpu_too ? 1000.0 * median_ms({60, 3, 50}, f) : 0.0;
  std::printf("  %-40s latency %7.2f us  gpu %7.2f us  %5.2fx CUB latency  %s\n", name, lat, gpu,
              cub_latency > 0 ? cub_latency / lat : 1.0, ok ? "ok" : "WRONG");
  if (!ok) std::exit(1);
}

template <class F>
void row(const char* name, setup& s, F f, double cub_latency) {
  timed_row(name, [&] { CK(cudaMemset(s.out, 0x5a, static_cast<std::size_t>(s.n) * 4)); }, f, [&] { return matches(s); },
            cub_latency);
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

template <int Threads, int Items>
void resident(setup& s, double cub_latency) {
  using policy = scan_policy_t<Threads, Items, 2000, 100>;
  const std::int64_t tiles = (s.n + policy::tile_items - 1) / policy::tile_items;
  const auto kernel = scan_resident_kernel<policy, block_algorithm::warp_shuffle, u32, pointer_loader<u32, u32>,
                                           pointer_storer<u32>, sum>;
  std::int64_t capacity = 0;
  CK(resident_capacity(kernel, Threads, capacity));
  char name[64];
  std::snprintf(name, sizeof name, "one launch, resident %d x %d", Threads, Items);
  if (tiles > capacity) {
    std::printf("  %-40s not run: %lld tiles, %lld resident\n", name, (long long)tiles, (long long)capacity);
    return;
  }
  const auto sums = look_back_storage<u32>::carve(s.temp, tiles).status;
  row(name, s, [&] {
    CK(launch_cooperative(kernel, static_cast<unsigned>(tiles), Threads, nullptr, pointer_loader<u32, u32>{s.in},
                          pointer_storer<u32>{s.out}, s.n, sum{}, scan_mode<u32>{false, false, 0u}, sums));
  }, cub_latency);
}

void select_rows(int k) {
  const std::int64_t n = std::int64_t(1) << k;
  std::vector<u32> h(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> f(h.size());
  std::uint64_t x = 7 + n;
  for (std::size_t i = 0; i < h.size(); ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    h[i] = static_cast<u32>(x >> 32);
    f[i] = static_cast<std::uint8_t>((x >> 20) % 3);  // 0 drops, 1 and 2 keep
  }
  u32 *in, *out, *ref;
  std::uint8_t* flags;
  std::int64_t* count;
  int* cub_count;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&ref, n * 4));
  CK(cudaMalloc(&flags, n));
  CK(cudaMalloc(&count, sizeof(std::int64_t)));
  CK(cudaMalloc(&cub_count, sizeof(int)));
  CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(flags, f.data(), n, cudaMemcpyHostToDevice));
  std::size_t cub_bytes = 0, ours_bytes = 0;
  CK(cub::DeviceSelect::Flagged(nullptr, cub_bytes, in, flags, ref, cub_count, static_cast<int>(n)));
  CK(select_flagged(nullptr, ours_bytes, in, flags, out, count, n, nullptr, scan_options{}));
  void *cub_temp, *temp;
  CK(cudaMalloc(&cub_temp, cub_bytes));
  CK(cudaMalloc(&temp, ours_bytes));
  CK(cub::DeviceSelect::Flagged(cub_temp, cub_bytes, in, flags, ref, cub_count, static_cast<int>(n)));
  int kept = 0;
  CK(cudaMemcpy(&kept, cub_count, sizeof kept, cudaMemcpyDeviceToHost));
  std::vector<u32> want(static_cast<std::size_t>(kept));
  CK(cudaMemcpy(want.data(), ref, want.size() * 4, cudaMemcpyDeviceToHost));
  std::int64_t* pinned;
  CK(cudaMallocHost(&pinned, sizeof(std::int64_t)));
  std::int64_t pageable = 0;
  const auto ours = [&](bool one_launch) {
    scan_options o;
    o.one_launch = one_launch;
    std::size_t b = ours_bytes;
    CK(select_flagged(temp, b, in, flags, out, count, n, nullptr, o));
  };
  const auto ok = [&] {
    std::int64_t c = -1;
    CK(cudaMemcpy(&c, count, sizeof c, cudaMemcpyDeviceToHost));
    std::vector<u32> got(want.size());
    CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
    return c == kept && got == want;
  };
  const auto cub_call = [&] { CK(cub::DeviceSelect::Flagged(cub_temp, cub_bytes, in, flags, out, cub_count, static_cast<int>(n))); };
  const double cub_latency = 1000.0 * median_ms({60, 3, 0}, cub_call);
  std::printf("select, n = 2^%d, %d kept\n", k, kept);
  const auto poison = [&] {
    CK(cudaMemset(out, 0x5a, static_cast<std::size_t>(n) * 4));
    CK(cudaMemset(count, 0xff, sizeof(std::int64_t)));
  };
  // parascan's rows write its count and output (checked against CUB's); CUB's row writes its own.
  const auto select_row = [&](const char* name, auto call, bool gpu_too) {
    timed_row(name, poison, call, ok, cub_latency, gpu_too);
  };
  timed_row("CUB DeviceSelect::Flagged", poison, cub_call, [] { return true; }, cub_latency);
  select_row("parascan select_flagged, one launch", [&] { ours(true); }, true);
  select_row("parascan select_flagged, look-back", [&] { ours(false); }, true);
  select_row("one launch + count read, pageable", [&] {
    ours(true);
    CK(cudaMemcpyAsync(&pageable, count, sizeof pageable, cudaMemcpyDeviceToHost, nullptr));
    CK(cudaStreamSynchronize(nullptr));
  }, false);
  select_row("one launch + count read, pinned", [&] {
    ours(true);
    CK(cudaMemcpyAsync(pinned, count, sizeof(std::int64_t), cudaMemcpyDeviceToHost, nullptr));
    CK(cudaStreamSynchronize(nullptr));
  }, false);
  CK(cudaFreeHost(pinned));
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(ref), static_cast<void*>(flags),
                  static_cast<void*>(count), static_cast<void*>(cub_count), cub_temp, temp})
    CK(cudaFree(p));
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> logs = log_sizes(argc, argv, 1, {16, 20, 22, 24});
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
  for (int k : logs) select_rows(k);
  return 0;
}
