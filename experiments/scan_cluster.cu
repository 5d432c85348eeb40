// Experiment (issue 35's cumsum at 2^28, entry 61's lever left): the single-pass u32 exclusive sum with a
// look-back chain of *cluster* tiles. C blocks of a thread-block cluster (sm_90) each load and scan their
// own 256 × 32 tile as the library does (tile_scanner: 16-byte moves, the items left in shared memory, 6
// blocks an SM); each block's aggregate goes to rank 0's shared memory (DSMEM); rank 0's warp 0 publishes
// the cluster's sum and looks back over the clusters' statuses, then writes each rank's exclusive prefix
// into that rank's shared memory; after the second cluster barrier every block rescans and stores. So the
// chain has C times fewer links and C times fewer warps poll it, with the same bytes in flight an SM.
// Predicted (entry 61: the chain, not the memory, sets the H200 scan's pace; longer first sleeps, i.e.
// fewer polls, gained 2.5%): a few percent at 2^26–2^28 if the pollers are what slows the chain; nothing,
// or a loss from the two cluster barriers, if it is the wait itself.
// Beside it in the same process: the library's kernel at its own shape and delays, CUB's ExclusiveSum
// (int and int64 counts, the faster divides) and cudaMemcpy; every output compared word for word with CUB's.
//   scan_cluster [log2 n ...]      (default 24 26 28; n a multiple of 4 tiles); exit 1 on a mismatch
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include -I experiments experiments/scan_cluster.cu
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include "parascan/device/device_scan.cuh"
#include "scan_reference.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;
namespace cg = cooperative_groups;
using u32 = std::uint32_t;

template <class Policy, int C>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks)
    cluster_scan_kernel(const u32* in, u32* out, std::int64_t n, tile_status<u32> status) {
  using scanner = tile_scanner<Policy, block_algorithm::warp_shuffle, u32>;
  __shared__ typename scanner::storage s;
  __shared__ u32 aggregates[C];  // rank 0's copy is the one written
  __shared__ u32 rank_prefix;    // this block's exclusive prefix, written by rank 0
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const std::int64_t tile = blockIdx.x, cluster_tile = tile / C;
  u32 items[Policy::items_per_thread], thread_prefix, aggregate;
  const int valid = scanner::scan_tile(s, pointer_loader<u32, u32>{in}, n, tile, sum{}, items, thread_prefix, aggregate);
  if (threadIdx.x == 0) cluster.map_shared_rank(aggregates, 0)[rank] = aggregate;
  cluster.sync();
  if (rank == 0 && threadIdx.x < 32) {
    u32 total = 0;
#pragma unroll
    for (int r = 0; r < C; ++r) total += aggregates[r];
    u32 before = 0;
    if (cluster_tile == 0) {
      if (threadIdx.x == 0) status.publish(0, state_prefix, total);
    } else {
      before = look_back<Policy>(status, cluster_tile, cluster_tile, total, sum{});
    }
    if (threadIdx.x == 0) {
#pragma unroll
      for (int r = 0; r < C; ++r) {
        *cluster.map_shared_rank(&rank_prefix, r) = before;
        before += aggregates[r];
      }
    }
  }
  cluster.sync();
  scanner::rescan_and_store(s, pointer_storer<u32>{out}, tile, valid, sum{}, true, items, thread_prefix, true,
                            rank_prefix);
}

struct result {
  const char* what;
  int c, initial_ns, fit;
  float ms;
  bool ok;
};

/// The library's kernel alone (the status reset before it, as in scan_shape_sweep.cu).
template <int InitialNs>
result run_library(const scan_reference& r) {
  const std::int64_t n = r.n;
  using policy = scan_policy_t<256, 32, InitialNs, 100, true, 6>;
  const std::int64_t tiles = n / policy::tile_items;
  void* temp = nullptr;
  CK(cudaMalloc(&temp, look_back_storage<u32>::bytes(tiles)));
  const auto storage = look_back_storage<u32>::carve(temp, tiles);
  const auto launch = [&] {
    CK(storage.init(tiles, 0, false));
    scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back, u32>
        <<<static_cast<unsigned>(tiles), 256>>>(pointer_loader<u32, u32>{r.in}, pointer_storer<u32>{r.out}, n, sum{},
                                                scan_mode<u32>{true, true, 0u}, nullptr, nullptr, storage.status,
                                                nullptr);
    CK(cudaGetLastError());
  };
  const float ms = median_ms({20, 1, 50}, launch);
  CK(cudaMemset(r.out, 0x5a, n * 4));
  launch();
  const bool ok = r.out_is_right();
  CK(cudaFree(temp));
  return {"library kernel", 1, InitialNs, 6, ms, ok};
}

template <int C, int InitialNs>
result run_cluster(const scan_reference& r) {
  const std::int64_t n = r.n;
  using policy = scan_policy_t<256, 32, InitialNs, 100, true, 6>;
  const std::int64_t tiles = n / policy::tile_items, clusters = tiles / C;
  void* temp = nullptr;
  CK(cudaMalloc(&temp, look_back_storage<u32>::bytes(clusters)));
  const auto storage = look_back_storage<u32>::carve(temp, clusters);
  const auto kernel = cluster_scan_kernel<policy, C>;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(tiles));
  config.blockDim = dim3(256);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = C;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  config.attrs = attr;
  config.numAttrs = 1;
  int fit = 0;
  CK(cudaOccupancyMaxActiveClusters(&fit, kernel, &config));
  const auto launch = [&] {
    CK(storage.init(clusters, 0, false));
    CK(cudaLaunchKernelEx(&config, kernel, static_cast<const u32*>(r.in), r.out, n, storage.status));
  };
  const float ms = median_ms({20, 1, 50}, launch);
  CK(cudaMemset(r.out, 0x5a, n * 4));
  launch();
  const bool ok = r.out_is_right();
  CK(cudaFree(temp));
  return {"cluster tiles", C, InitialNs, fit, ms, ok};
}

}  // namespace

int main(int argc, char** argv) {
  bool all_ok = true;
  std::printf("%-6s %-34s %10s %8s %8s %s\n", "n", "kernel", "ms", "GB/s", "vs_CUB", "check");
  for (const int k : log_sizes(argc, argv, 1, {24, 26, 28})) {
    const std::int64_t n = std::int64_t(1) << k;
    const scan_reference sr(n);
    const double bytes = 8.0 * n;
    std::printf("2^%-4d %-34s %10.4f %8.0f\n", k, "cudaMemcpy", sr.memcpy_ms, bytes / sr.memcpy_ms / 1e6);
    std::printf("2^%-4d %-34s %10.4f %8.0f %8.3f ok (int %.4f, int64 %.4f)\n", k, "CUB ExclusiveSum", sr.cub_ms,
                bytes / sr.cub_ms / 1e6, 1.0, sr.cub_int, sr.cub_i64);
    const result rs[] = {run_library<3000>(sr),    run_cluster<2, 3000>(sr), run_cluster<2, 2000>(sr),
                         run_cluster<2, 1000>(sr), run_cluster<2, 0>(sr),    run_cluster<4, 3000>(sr),
                         run_cluster<4, 1500>(sr), run_cluster<4, 0>(sr),    run_library<3000>(sr)};
    for (const auto& r : rs) {
      char what[64];
      std::snprintf(what, sizeof what, "%s C=%d, sleep %d (fit %d)", r.what, r.c, r.initial_ns, r.fit);
      std::printf("2^%-4d %-34s %10.4f %8.0f %8.3f %s\n", k, what, r.ms, bytes / r.ms / 1e6, sr.cub_ms / r.ms,
                  r.ok ? "ok" : "MISMATCH");
      all_ok = all_ok && r.ok;
    }
  }
  std::printf("%s\n", all_ok ? "every output equals CUB's" : "SOME OUTPUTS DIFFER FROM CUB'S");
  return all_ok ? 0 : 1;
}
