// Experiment: the single-pass u32 exclusive sum (warp_shuffle block scan, the library's look-back, 16-byte
// moves, the tile left in shared memory as scan_policy.cuh has it for 4-byte sums) launched at tile
// shapes, blocks an SM and look-back delays other than the library's (256 × 32, 6 blocks, a 2000 ns sleep
// before the first poll and 100 ns between polls; since entry 61 the library sleeps 3000 ns first on
// grids of 4096 tiles or more, where each row here keeps one first sleep on every grid), beside cub::DeviceScan::ExclusiveSum (int and int64
// counts, the faster divides) and cudaMemcpy in the same process; every output checked word for word
// against CUB's (performance.md entries 14, 53, 61).
//   scan_shape_sweep [log2 n ...]      (default 24 28); exit 1 on a mismatch
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "parascan/device/device_scan.cuh"
#include "scan_reference.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;

struct shape_result {
  int threads, items, blocks, initial_ns, poll_ns;
  float ms;
  bool ok;
};

template <int Threads, int Items, int MinBlocks = 6, int InitialNs = 2000, int PollNs = 100>
shape_result run_shape(const std::uint32_t* d_in, std::uint32_t* d_out, const std::vector<std::uint32_t>& want,
                       std::int64_t n) {
  using policy = scan_policy_t<Threads, Items, InitialNs, PollNs, true, MinBlocks>;
  const std::int64_t tiles = (n + policy::tile_items - 1) / policy::tile_items;
  void* temp = nullptr;
  CK(cudaMalloc(&temp, look_back_storage<std::uint32_t>::bytes(tiles)));
  const auto storage = look_back_storage<std::uint32_t>::carve(temp, tiles);
  const auto kernel = scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back, std::uint32_t,
                                        pointer_loader<std::uint32_t, std::uint32_t>, pointer_storer<std::uint32_t>, sum>;
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, Threads, 0));
  const auto launch = [&] {
    CK(storage.init(tiles, 0, false));
    scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back, std::uint32_t>
        <<<static_cast<unsigned>(tiles), Threads>>>(pointer_loader<std::uint32_t, std::uint32_t>{d_in},
                                                    pointer_storer<std::uint32_t>{d_out}, n, sum{},
                                                    scan_mode<std::uint32_t>{true, true, 0u}, nullptr, nullptr,
                                                    storage.status, storage.counter);
    CK(cudaGetLastError());
  };
  const float ms = median_ms({20, 1, 50}, launch);
  CK(cudaMemset(d_out, 0x5a, static_cast<std::size_t>(n) * 4));
  launch();
  std::vector<std::uint32_t> got(static_cast<std::size_t>(n));
  CK(cudaMemcpy(got.data(), d_out, got.size() * 4, cudaMemcpyDeviceToHost));
  CK(cudaFree(temp));
  return {Threads, Items, fit, InitialNs, PollNs, ms, got == want};
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> logs = log_sizes(argc, argv, 1, {24, 28});
  bool all_ok = true;
  std::printf("%-6s %-12s %10s %8s %8s %s\n", "n", "shape", "ms", "GB/s", "vs_CUB", "check");
  for (int k : logs) {
    const std::int64_t n = std::int64_t(1) << k;
    const scan_reference sr(n);
    std::uint32_t *in = sr.in, *out = sr.out;
    const std::vector<std::uint32_t>& want = sr.want;
    const float cub_ms = sr.cub_ms, cub_int = sr.cub_int, cub_i64 = sr.cub_i64, copy_ms = sr.memcpy_ms;
    const double bytes = 8.0 * n;
    std::printf("2^%-4d %-26s %10.4f %8.0f %8s %s\n", k, "copy", copy_ms, bytes / copy_ms / 1e6, "", "");
    std::printf("2^%-4d %-26s %10.4f %8.0f %8.2f ok (int %.4f, int64 %.4f)\n", k, "CUB", cub_ms, bytes / cub_ms / 1e6, 1.0,
                cub_int, cub_i64);
    const shape_result rs[] = {
        // the library's shape and delays (three times: the spread), then longer first sleeps
        run_shape<256, 32>(in, out, want, n), run_shape<256, 32>(in, out, want, n), run_shape<256, 32>(in, out, want, n),
        run_shape<256, 32, 6, 2500, 100>(in, out, want, n), run_shape<256, 32, 6, 3000, 100>(in, out, want, n),
        run_shape<256, 32, 6, 4000, 100>(in, out, want, n), run_shape<256, 32, 6, 5000, 100>(in, out, want, n),
        run_shape<256, 32, 6, 6000, 100>(in, out, want, n), run_shape<256, 32, 6, 8000, 100>(in, out, want, n),
        run_shape<256, 32, 6, 3000, 200>(in, out, want, n), run_shape<256, 32, 6, 4000, 200>(in, out, want, n),
        run_shape<256, 32, 6, 4000, 400>(in, out, want, n), run_shape<256, 32, 6, 3000, 50>(in, out, want, n),
        run_shape<256, 32, 6, 3000, 100>(in, out, want, n), run_shape<256, 32, 6, 4000, 100>(in, out, want, n),
        run_shape<256, 32>(in, out, want, n)};
    for (const auto& r : rs) {
      char shape[64];
      std::snprintf(shape, sizeof shape, "%d x %d, %d/SM, lb %d/%d", r.threads, r.items, r.blocks, r.initial_ns, r.poll_ns);
      std::printf("2^%-4d %-26s %10.4f %8.0f %8.2f %s\n", k, shape, r.ms, bytes / r.ms / 1e6, cub_ms / r.ms,
                  r.ok ? "ok" : "MISMATCH");
      all_ok = all_ok && r.ok;
    }
  }
  return all_ok ? 0 : 1;
}
