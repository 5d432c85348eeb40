// bench --primitive dist (built with NCCL): the global scan and sort of n u32 items on every GPU of
// this host (one rank per GPU, one host thread each, ncclCommInitAll) beside one GPU doing the same n
// items, and the sort's exchange beside the measured peer-to-peer copy bandwidth, all in one run.
// Rows: "vs_CUB" holds the speedup over the one-GPU run; for the exchange row "of_copy" is the fraction
// of the peer-to-peer bandwidth (both directions at once between GPU 0 and GPU 1).
#include <nccl.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/distributed.hpp"
#include "parascan/error.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/scan.hpp"
#include "gpu_group.hpp"
#include "runner.hpp"

namespace parascan::app {
namespace {

__global__ void fill_hash(std::uint32_t* d, std::int64_t n, std::int64_t first) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::uint64_t z = static_cast<std::uint64_t>(first + i) * 0x9e3779b97f4a7c15ull + 3;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    d[i] = static_cast<std::uint32_t>(z ^ (z >> 31)) & 0xffffu;  // scan: no overflow past 2^32 / 2^16 items
  }
}

}  // namespace

void bench_dist(runner& r, std::int64_t n) {
  int P = 0;
  PARASCAN_CUDA_CHECK(cudaGetDeviceCount(&P));
  if (P < 2) {
    std::printf("dist 2^%d: skipped, %d GPU on this host (needs 2 or more)\n", bench_log2(n), P);
    return;
  }
  gpu_group group(P);  // NVLink multicast off (gpu_group.hpp)
  const int reps = std::max(3, r.repeat() / 4);
  const double bytes = 8.0 * n;  // scan and sort: read and write every item once (their floor)

  // One GPU: the same n items.
  PARASCAN_CUDA_CHECK(cudaSetDevice(0));
  double one_scan = 0, one_sort = 0;
  {
    device_buffer<std::uint32_t> in(n), out(n);
    fill_hash<<<1024, 256>>>(in.data(), n, 0);
    std::size_t sb = 0, kb = 0;
    PARASCAN_CUDA_CHECK(inclusive_scan(nullptr, sb, in.data(), out.data(), n, sum{}));
    PARASCAN_CUDA_CHECK(radix_sort_keys(nullptr, kb, in.data(), out.data(), n));
    device_buffer<char> t(std::max(sb, kb));
    one_scan = r.time([&] { PARASCAN_CUDA_CHECK(inclusive_scan(t.data(), sb, in.data(), out.data(), n, sum{})); });
    one_sort = r.time([&] { PARASCAN_CUDA_CHECK(radix_sort_keys(t.data(), kb, in.data(), out.data(), n)); });
  }
  // Peer-to-peer bandwidth: GPU 0 → 1 and 1 → 0 at once, 1 GiB each way.
  const std::size_t p2p_bytes = std::size_t(1) << 30;
  double p2p_gbs = 0;
  {
    PARASCAN_CUDA_CHECK(cudaSetDevice(0));
    device_buffer<char> a0(p2p_bytes), b0(p2p_bytes);
    PARASCAN_CUDA_CHECK(cudaSetDevice(1));
    device_buffer<char> a1(p2p_bytes), b1(p2p_bytes);
    const double ms = group.median_ms(reps, [&](int rank) {  // ranks past 1 idle
      if (rank == 0) PARASCAN_CUDA_CHECK(cudaMemcpyPeerAsync(b1.data(), 1, a0.data(), 0, p2p_bytes, 0));
      if (rank == 1) PARASCAN_CUDA_CHECK(cudaMemcpyPeerAsync(b0.data(), 0, a1.data(), 1, p2p_bytes, 0));
    });
    p2p_gbs = 2.0 * p2p_bytes / (ms * 1e-3) / 1e9;
  }

  // Every GPU: a shard of n / P items each.
  std::vector<std::int64_t> len(P), first(P);
  for (int q = 0; q < P; ++q) {
    const shard s = shard_of(n, P, q);
    first[q] = s.first, len[q] = s.count;
  }
  std::vector<device_buffer<std::uint32_t>> in, out;
  std::vector<device_buffer<char>> temp;
  for (int q = 0; q < P; ++q) {
    PARASCAN_CUDA_CHECK(cudaSetDevice(q));
    in.emplace_back(len[q]);
    out.emplace_back(n / P + 1);
    fill_hash<<<1024, 256>>>(in[q].data(), len[q], first[q]);
    std::size_t b = 0;
    PARASCAN_CUDA_CHECK(dist::inclusive_scan(nullptr, b, in[q].data(), out[q].data(), len[q], sum{}, group.comm(q)));
    temp.emplace_back(b);
  }
  const double many_scan = group.median_ms(reps, [&](int q) {
    std::size_t b = temp[q].size();
    PARASCAN_CUDA_CHECK(dist::inclusive_scan(temp[q].data(), b, in[q].data(), out[q].data(), len[q], sum{}, group.comm(q)));
  });
  // Check: the last rank's last item is the global sum (the one-GPU scan's last item).
  bool scan_ok = true;
  {
    std::uint64_t total = 0;
    for (int q = 0; q < P; ++q) {
      PARASCAN_CUDA_CHECK(cudaSetDevice(q));
      std::vector<std::uint32_t> h(static_cast<std::size_t>(len[q]));
      in[q].copy_to_host(h.data(), len[q]);
      for (auto v : h) total += v;
    }
    std::uint32_t last = 0;
    PARASCAN_CUDA_CHECK(cudaSetDevice(P - 1));
    PARASCAN_CUDA_CHECK(cudaMemcpy(&last, out[P - 1].data() + len[P - 1] - 1, sizeof last, cudaMemcpyDeviceToHost));
    scan_ok = last == static_cast<std::uint32_t>(total);
  }
  std::vector<dist::sort_stats> st(P);
  const double many_sort = group.median_ms(reps, [&](int q) {
    st[q] = dist::sort_keys(in[q].data(), len[q], out[q].data(), n / P + 1, group.comm(q));
  });
  // Check: each rank's slice sorted and balanced, the slices in order across ranks, and the same
  // items (sum and sum of squares) as the input.
  bool sort_ok = true;
  std::uint32_t prev_last = 0;
  std::uint64_t sum_in = 0, sq_in = 0, sum_out = 0, sq_out = 0;
  for (int q = 0; q < P; ++q) {
    PARASCAN_CUDA_CHECK(cudaSetDevice(q));
    std::vector<std::uint32_t> h(static_cast<std::size_t>(st[q].local)), x(static_cast<std::size_t>(len[q]));
    out[q].copy_to_host(h.data(), st[q].local);
    in[q].copy_to_host(x.data(), len[q]);
    for (auto v : h) sum_out += v, sq_out += std::uint64_t(v) * v;
    for (auto v : x) sum_in += v, sq_in += std::uint64_t(v) * v;
    sort_ok = sort_ok && std::is_sorted(h.begin(), h.end()) && (h.empty() || h.front() >= prev_last) &&
              st[q].local == n / P + (q < n % P ? 1 : 0);
    if (!h.empty()) prev_last = h.back();
  }
  sort_ok = sort_ok && sum_in == sum_out && sq_in == sq_out;
  // The exchange alone: each rank sends (P − 1) / P of its shard, spread over the others.
  const double exchange_ms = group.median_ms(reps, [&](int q) {
    dist::nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int p = 0; p < P; ++p) {
      if (p == q) continue;
      const std::int64_t part = len[q] / P;
      dist::nccl_check(ncclSend(in[q].data() + p * part, static_cast<std::size_t>(part) * 4, ncclUint8, p, group.comm(q), 0), "ncclSend");
      dist::nccl_check(ncclRecv(out[q].data() + p * part, static_cast<std::size_t>(part) * 4, ncclUint8, p, group.comm(q), 0), "ncclRecv");
    }
    dist::nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  });
  const double exchanged = 2.0 * static_cast<double>(len[0] / P) * 4 * (P - 1);  // per rank, both directions
  const std::string gpus = std::to_string(P) + " GPUs";
  r.add({"dist", "u32", "scan", "1 GPU", n, bytes, one_scan, one_scan, p2p_gbs, true});
  r.add({"dist", "u32", "scan", gpus, n, bytes, many_scan, one_scan, p2p_gbs, scan_ok});
  r.add({"dist", "u32", "sort", "1 GPU", n, bytes, one_sort, one_sort, p2p_gbs, true});
  r.add({"dist", "u32", "sort", gpus, n, bytes, many_sort, one_sort, p2p_gbs, sort_ok});
  row ex{"dist", "u32", "exchange", "ncclSend/Recv", n, exchanged, exchange_ms, exchange_ms, p2p_gbs, true};
  ex.has_cub = false;
  r.add(ex);
  std::printf("dist: peer-to-peer %.1f GB/s (GPU 0 <-> 1, both directions); the exchange row's of_copy is its "
              "fraction\n", p2p_gbs);
}

}  // namespace parascan::app
