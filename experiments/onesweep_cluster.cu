// Experiment (issue 34, performance.md entry 57's lead): an Onesweep pass whose tile is a *cluster* of
// C blocks (sm_90 thread-block clusters, distributed shared memory), against the library's pass.
//
// Entry 57 found the library's pass (256 x 23 keys a tile, 4 blocks an SM) bound jointly by the
// chain of look-backs and by the scatter of 256 short runs a tile (~23 keys, 92 bytes, a digit). A
// cluster tile attacks both while keeping each block's size and residency:
//   1. block rank 0 takes the cluster tile's ticket and hands it to the others (cluster barrier 1);
//      block b loads sub-tile ticket * C + b, counts its digits per warp (as the library does) and
//      sums them: its count and its first place of each digit in its own stage;
//   2. cluster barrier 2; the cluster tile's count of digit d is published once, by the block that
//      owns d (block d / (256 / C)), so the chain has C times fewer tiles; every block later reads all
//      C blocks' counts and first places from their shared memory (DSMEM) into its own tables;
//   3. each block ranks its keys (8 ballots, the library's ranking) and stages them in sorted order,
//      then builds the cluster's tables;
//   4. the owners look back (one thread a digit, spread over the C blocks) and write the cluster
//      tile's output start of each digit into every block (DSMEM stores); cluster barrier 3;
//   5. scatter, one of two ways:
//        own     each block writes its own stage (runs as long as the library's, but the C blocks of
//                the cluster write a digit's neighbouring runs at the same moment);
//        gather  block b writes the cluster tile's sorted places [b·T, (b+1)·T), reading each key from
//                the stage of the block that holds it: every digit's run is C times longer (C·23
//                keys); a 4th cluster barrier keeps the stages alive until all reads are done.
// Stable: within a digit, the cluster's keys go block 0's first, then block 1's..., and each block's
// sub-tile follows the previous block's in the input.
//   onesweep_cluster [log2 n ...]   (default 24 26 28; n cut to whole tiles of 8 blocks); exit 1 on a
//                                   mismatch against a CPU counting sort by the low byte
// Prototype limits: u32 keys, the low 8 bits, whole tiles only, no single-digit short cut.
// Measured (H200, stop 52, docs/onesweep-cluster-stop52-h200.txt, performance.md entry 58): every cluster
// variant is slower than the library's pass, more so with larger clusters; at 2^28 own scatter 1.33 /
// 1.40 / 1.51 ms and gather 1.67 / 1.80 / 1.97 ms for C = 2 / 4 / 8 against 1.164.
#include <cooperative_groups.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include "parascan/device/device_onesweep.cuh"
#include "one_pass.cuh"

using namespace parascan;
using namespace parascan::device;
using namespace parascan::device::onesweep;
using u32 = std::uint32_t;
namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 256, kItems = 23, kTile = kThreads * kItems, kWarps = kThreads / 32;
// The library's u32 keys pass as entry 58 measured it (its default until entry 65 made it 256 x 32 at 3):
// the cluster pass's blocks have its shape.
using default_keys_policy = policy<256, 23, 4, warp::match_method::ballots, 2>;
static_assert(default_keys_policy::tile_items == kTile, "the cluster pass's block matches the library pass's tile");

template <int C>
struct cluster_smem {
  union {
    unsigned warp_hist[kWarps][digits];  // per warp: count, then running place of each digit
    u32 stage[kTile];                    // the block's keys in sorted order
  } s;
  unsigned count[digits];       // this block's keys of each digit
  unsigned first[digits];       // this block's first place of each digit in its stage
  unsigned before[C][digits];   // keys of digit d in the cluster's blocks before block b
  unsigned src[C][digits];      // block b's first place of digit d in its stage
  unsigned cluster_first[digits + 1];  // the cluster tile's first sorted place of each digit
  unsigned out_start[digits];   // the output position of the cluster tile's first key of digit d
  unsigned warp_totals[kWarps];
  unsigned ticket;
};

template <int C, bool Gather>
__global__ void __launch_bounds__(kThreads, 4)
    cluster_pass(const u32* in, u32* out, int shift, const u32* bins_in, unsigned* status, unsigned* counter) {
  __shared__ alignas(16) cluster_smem<C> m;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, d = threadIdx.x;
  constexpr int owned = digits / C;  // digits whose chain each block keeps
  const auto digit_of = [shift](u32 k) { return (k >> shift) & (digits - 1u); };

  // 1. The ticket, from rank 0 to every block; cleared histograms; keys.
  if (rank == 0 && threadIdx.x == 0) {
    const unsigned t = atomicAdd(counter, 1u);
    for (unsigned r = 0; r < C; ++r) *cluster.map_shared_rank(&m.ticket, r) = t;
  }
#pragma unroll
  for (int b = lane; b < digits; b += 32) m.s.warp_hist[warp][b] = 0;
  cluster.sync();  // barrier 1
  const unsigned ticket = m.ticket;
  const std::int64_t begin = (static_cast<std::int64_t>(ticket) * C + rank) * kTile;
  const int warp_begin = warp * 32 * kItems;
  u32 key[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) key[j] = in[begin + warp_begin + j * 32 + lane];
#pragma unroll
  for (int j = 0; j < kItems; ++j) atomicAdd(&m.s.warp_hist[warp][digit_of(key[j])], 1u);
  __syncthreads();
  unsigned count = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const unsigned c = m.s.warp_hist[w][d];
    m.s.warp_hist[w][d] = count;
    count += c;
  }
  unsigned block_total;
  const unsigned first = block::exclusive_sum<kThreads>(count, m.warp_totals, block_total);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) m.s.warp_hist[w][d] += first;
  m.count[d] = count;
  m.first[d] = first;
  cluster.sync();  // barrier 2: every block's counts and first places are readable

  // 2. The owner publishes the cluster tile's count of its digits at once (successors wait on it).
  const bool owner = d / owned == static_cast<int>(rank);
  if (owner) {
    unsigned total = 0;
#pragma unroll
    for (int b = 0; b < C; ++b) total += *cluster.map_shared_rank(&m.count[d], b);
    counted_status::publish(status + static_cast<std::int64_t>(ticket) * digits + d,
                            ticket == 0 ? state_prefix : state_aggregate, total);
  }

  // 3. Ranks within the block, keys staged in sorted order (the keys' registers freed).
  unsigned place[kItems];
  const unsigned lanes_le = warp::lanemask_le();
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const unsigned dj = digit_of(key[j]);
    const unsigned peers = warp::match_label<radix_bits, warp::match_method::ballots>(dj);
    const int leader = 31 - __clz(peers);
    const unsigned below = __popc(peers & lanes_le);
    unsigned f = 0;
    if (lane == leader) f = atomicAdd(&m.s.warp_hist[warp][dj], below);
    f = __shfl_sync(0xffffffffu, f, leader);
    place[j] = f + below - 1;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kItems; ++j) m.s.stage[place[j]] = key[j];

  // The cluster's tables, in every block: keys of d in earlier blocks, each block's first place of d,
  // the cluster tile's first sorted place of d.
  unsigned total = 0;
#pragma unroll
  for (int b = 0; b < C; ++b) {
    m.before[b][d] = total;
    m.src[b][d] = *cluster.map_shared_rank(&m.first[d], b);
    total += *cluster.map_shared_rank(&m.count[d], b);
  }
  unsigned cluster_all;
  m.cluster_first[d] = block::exclusive_sum<kThreads>(total, m.warp_totals, cluster_all);
  if (d == 0) m.cluster_first[digits] = cluster_all;

  // 4. The owners' look-back; the cluster tile's output starts to every block.
  if (owner) {
    unsigned exclusive = 0;
    if (ticket != 0) {
      digit_chain chain{status + d};
      chain.template walk_reading<2>(ticket);
      exclusive = chain.exclusive;
      counted_status::publish(status + static_cast<std::int64_t>(ticket) * digits + d, state_prefix, exclusive + total);
    }
    const unsigned start = bins_in[d] + exclusive;
#pragma unroll
    for (int b = 0; b < C; ++b) *cluster.map_shared_rank(&m.out_start[d], b) = start;
  }
  cluster.sync();  // barrier 3: output starts and every stage are readable

  // 5. Scatter.
  if constexpr (!Gather) {
    // Base of digit d for this block's stage: out_start + keys of d in earlier blocks - first place.
    const unsigned base = m.out_start[d] + m.before[rank][d] - m.first[d];
    __syncthreads();
    m.count[d] = base;  // reused: the block's base of each digit
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int i = k * kThreads + threadIdx.x;
      const u32 b = m.s.stage[i];
      out[m.count[digit_of(b)] + i] = b;
    }
  } else {
    // Warp w of block b writes the cluster's sorted places [b·T + w·32·Items, +32·Items).
    const unsigned p0 = rank * kTile + warp * 32 * kItems;
    int lo = 0, hi = digits - 1;  // the last digit whose first place is ≤ p0
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (m.cluster_first[mid] <= p0) lo = mid;
      else hi = mid - 1;
    }
    int dc = lo;
#pragma unroll 4
    for (int k = 0; k < kItems; ++k) {
      const unsigned j = p0 + k * 32 + lane;
      while (m.cluster_first[dc + 1] <= j) ++dc;
      const unsigned o = j - m.cluster_first[dc];
      int b = 0;
#pragma unroll
      for (int q = 1; q < C; ++q)
        if (m.before[q][dc] <= o) b = q;
      const unsigned at = m.src[b][dc] + o - m.before[b][dc];
      out[m.out_start[dc] + o] = cluster.map_shared_rank(m.s.stage, b)[at];
    }
    cluster.sync();  // barrier 4: no block leaves while another reads its stage
  }
}

template <int C, bool Gather>
void launch_cluster(const u32* in, u32* out, const u32* bins, unsigned* status, unsigned* counter, std::int64_t n) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(n / kTile));
  cfg.blockDim = dim3(kThreads);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = C;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CK(cudaLaunchKernelEx(&cfg, cluster_pass<C, Gather>, in, out, 0, bins, status, counter));
}

template <int C, bool Gather>
int active_clusters() {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(C * 1024);
  cfg.blockDim = dim3(kThreads);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim = {C, 1, 1};
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int k = 0;
  CK(cudaOccupancyMaxActiveClusters(&k, cluster_pass<C, Gather>, &cfg));
  return k;
}

}  // namespace

bool measure(int k) {
  constexpr int unit = 8 * kTile;  // whole tiles of the largest cluster
  const std::int64_t n = std::min(std::int64_t(1) << k, default_keys_policy::portion_keys) / unit * unit;
  const std::int64_t tiles = n / kTile;
  u32 *in, *out, *temp, *status, *counter, *bins, *cub_out;
  pass_plan* plan;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&temp, n * 4));
  CK(cudaMalloc(&cub_out, n * 4));
  CK(cudaMalloc(&status, tiles * digits * 4));
  CK(cudaMalloc(&counter, 4));
  CK(cudaMalloc(&bins, digits * 4));
  plan = one_pass_plan();
  fill_hashed<<<1024, 256>>>(in, n);
  CK(cudaGetLastError());
  std::vector<u32> h(n);
  CK(cudaMemcpy(h.data(), in, n * 4, cudaMemcpyDeviceToHost));

  // The CPU's counting sort by the low byte.
  std::vector<std::int64_t> total(digits, 0);
  for (std::int64_t i = 0; i < n; ++i) ++total[h[i] & 255u];
  std::vector<u32> digit_start(digits), run(digits), want(n);
  std::int64_t acc = 0;
  for (int dd = 0; dd < digits; ++dd) digit_start[dd] = static_cast<u32>(acc), acc += total[dd];
  run = digit_start;
  for (std::int64_t i = 0; i < n; ++i) want[run[h[i] & 255u]++] = h[i];
  CK(cudaMemcpy(bins, digit_start.data(), digits * 4, cudaMemcpyHostToDevice));

  const pass_scale scale = one_pass_scale(in, temp, cub_out, n);
  const float copy_ms = scale.copy_ms;

  std::vector<pass_row> rows = scale_rows(scale);
  const auto clear = [&] {
    CK(cudaMemsetAsync(status, 0, tiles * digits * 4));
    CK(cudaMemsetAsync(counter, 0, 4));
  };
  const auto check = [&] {
    std::vector<u32> got(n);
    CK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    return got == want;
  };
  using io_t = buffers<u32, no_values>;
  using digit_t = io_t::digit_type<false>;
  const io_t io{in, out, temp, nullptr, nullptr, nullptr};
  const pass_set ps{0, 8, 1, key_kind::unsigned_int, false};
  const auto library = [&] {
    pass_kernel<default_keys_policy, io_t, digit_t, u32><<<static_cast<unsigned>(tiles), kThreads>>>(
        io, plan, 0, flat_tiling<kTile>{0, n}, digit_t(ps.place(0)), bins, static_cast<u32*>(nullptr), status, counter);
    CK(cudaGetLastError());
  };
  const auto time_one = [&](const std::string& name, auto launch) {
    CK(cudaMemset(out, 0x5a, n * 4));
    const float ms = median_ms_cleared(clear, launch);
    rows.push_back({name, ms, check()});
  };
  for (int round = 0; round < 2; ++round) {  // each variant twice, alternated
    time_one("library pass (256 x 23, look-back)", library);
    time_one("cluster 2, own scatter", [&] { launch_cluster<2, false>(in, out, bins, status, counter, n); });
    time_one("cluster 2, gather", [&] { launch_cluster<2, true>(in, out, bins, status, counter, n); });
    time_one("cluster 4, own scatter", [&] { launch_cluster<4, false>(in, out, bins, status, counter, n); });
    time_one("cluster 4, gather", [&] { launch_cluster<4, true>(in, out, bins, status, counter, n); });
    time_one("cluster 8, own scatter", [&] { launch_cluster<8, false>(in, out, bins, status, counter, n); });
    time_one("cluster 8, gather", [&] { launch_cluster<8, true>(in, out, bins, status, counter, n); });
  }
  bool all_ok = true;
  for (const auto& r : rows) {
    std::printf("2^%-4d %-44s %10.4f %8.3f %s\n", k, r.name.c_str(), r.ms, copy_ms / r.ms, r.ok ? "ok" : "MISMATCH");
    all_ok = all_ok && r.ok;
  }
  std::printf("2^%-4d (n = %lld keys, %lld blocks of %d)\n", k, static_cast<long long>(n), static_cast<long long>(tiles),
              kTile);
  std::fflush(stdout);
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(temp), static_cast<void*>(cub_out),
                  static_cast<void*>(status), static_cast<void*>(counter), static_cast<void*>(bins), static_cast<void*>(plan)})
    CK(cudaFree(p));
  return all_ok;
}

int main(int argc, char** argv) {
  std::printf("active clusters (occupancy): C=2 own %d gather %d; C=4 own %d gather %d; C=8 own %d gather %d\n",
              active_clusters<2, false>(), active_clusters<2, true>(), active_clusters<4, false>(),
              active_clusters<4, true>(), active_clusters<8, false>(), active_clusters<8, true>());
  std::printf("%-6s %-44s %10s %8s %s\n", "n", "variant", "ms", "of_copy", "check");
  bool all_ok = true;
  for (int k : log_sizes(argc, argv, 1, {24, 26, 28})) all_ok = measure(k) && all_ok;
  return all_ok ? 0 : 1;
}
