// Experiment: the single-pass u32 select with 16-byte loads (performance.md entry 53's next step; the
// scan gained 4.5–7% at 2^28 from 16-byte moves and more blocks an SM). Lane l of warp w holds, in vector
// row q, the four items 4(q·P + 32w + l) .. +3 (P threads), so a warp's row segment is 128 consecutive
// items; four ballots a vector row (one per component) give each item's rank: the kept items of lower
// lanes (four popc a vector row, not a item) plus the lane's own kept components before it. The segment
// counts, their scan, the publish and the look-back are the library's (count_and_look_back, look_back).
// Beside the library's select_if and CUB's DeviceSelect::If (both count types, the faster dividing),
// keeping x < threshold for 10 / 50 / 90% of random u32; every output and count compared with CUB's.
//   select_vectors [log2 n ...]      (default 22 24 28); exit 1 on a mismatch
#include <cub/device/device_select.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "parascan/device/device_select.cuh"
#include "experiment_timing.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;
using u32 = std::uint32_t;

struct below {
  u32 threshold;
  __host__ __device__ bool operator()(u32 x) const { return x < threshold; }
};

/// Threads × Vecs vectors of 4 items a tile; MinBlocks blocks an SM asked of the compiler.
template <int Threads, int Vecs, int MinBlocks, class Rule>
__global__ void __launch_bounds__(Threads, MinBlocks)
    select_vec_kernel(const u32* in, Rule keep, u32* out, std::int64_t n, std::int64_t* count_out,
                      tile_status<u32> status) {
  using policy = scan_policy_t<Threads, Vecs * 4, 1150, 76>;
  constexpr int warps = Threads / 32, segments = Vecs * warps, tile_items = Threads * Vecs * 4;
  __shared__ u32 segment_count[segments], segment_begin[segments];
  __shared__ u32 tile_prefix, tile_count;
  const std::int64_t tile = blockIdx.x, first = tile * tile_items;
  const bool full = n - first >= tile_items;
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  uint4 v[Vecs];
  unsigned b[Vecs][4];
#pragma unroll
  for (int q = 0; q < Vecs; ++q) {
    const std::int64_t at = first + 4 * (static_cast<std::int64_t>(q) * Threads + threadIdx.x);
    if (full) {
      v[q] = reinterpret_cast<const uint4*>(in + first)[q * Threads + threadIdx.x];
    } else {
      v[q].x = at < n ? in[at] : 0u;
      v[q].y = at + 1 < n ? in[at + 1] : 0u;
      v[q].z = at + 2 < n ? in[at + 2] : 0u;
      v[q].w = at + 3 < n ? in[at + 3] : 0u;
    }
  }
#pragma unroll
  for (int q = 0; q < Vecs; ++q) {
    const std::int64_t at = first + 4 * (static_cast<std::int64_t>(q) * Threads + threadIdx.x);
    b[q][0] = __ballot_sync(~0u, (full || at < n) && keep(v[q].x));
    b[q][1] = __ballot_sync(~0u, (full || at + 1 < n) && keep(v[q].y));
    b[q][2] = __ballot_sync(~0u, (full || at + 2 < n) && keep(v[q].z));
    b[q][3] = __ballot_sync(~0u, (full || at + 3 < n) && keep(v[q].w));
  }
  if (lane == 0) {
#pragma unroll
    for (int q = 0; q < Vecs; ++q)
      segment_count[q * warps + w] = __popc(b[q][0]) + __popc(b[q][1]) + __popc(b[q][2]) + __popc(b[q][3]);
  }
  __syncthreads();
  count_and_look_back(segment_count, segment_begin, tile_prefix, tile_count, tile, status,
                      [&](u32 total) { return look_back<policy>(status, tile, tile, total, sum{}); });
  __syncthreads();
  const std::int64_t out_first = tile_prefix;
  const unsigned lower = (1u << lane) - 1u;
#pragma unroll
  for (int q = 0; q < Vecs; ++q) {
    const unsigned m0 = b[q][0], m1 = b[q][1], m2 = b[q][2], m3 = b[q][3];
    std::int64_t at = out_first + segment_begin[q * warps + w] + __popc(m0 & lower) + __popc(m1 & lower) +
                      __popc(m2 & lower) + __popc(m3 & lower);
    if ((m0 >> lane) & 1u) out[at++] = v[q].x;
    if ((m1 >> lane) & 1u) out[at++] = v[q].y;
    if ((m2 >> lane) & 1u) out[at++] = v[q].z;
    if ((m3 >> lane) & 1u) out[at++] = v[q].w;
  }
  if (tile == static_cast<std::int64_t>(gridDim.x) - 1 && threadIdx.x == 0)
    *count_out = static_cast<std::int64_t>(tile_prefix) + tile_count;
}

struct row {
  std::string name;
  float ms;
  bool ok;
};

struct setup {
  const u32* in;
  u32* out;
  std::int64_t* count;
  std::int64_t n;
  below rule;
  const std::vector<u32>* want;
  std::int64_t want_count;
};

bool matches(const setup& s) {
  std::int64_t c = -1;
  CK(cudaMemcpy(&c, s.count, 8, cudaMemcpyDeviceToHost));
  if (c != s.want_count) return false;
  std::vector<u32> got(static_cast<std::size_t>(c));
  CK(cudaMemcpy(got.data(), s.out, got.size() * 4, cudaMemcpyDeviceToHost));
  return std::equal(got.begin(), got.end(), s.want->begin());
}

template <int Threads, int Vecs, int MinBlocks>
row run_vec(const setup& s) {
  constexpr std::int64_t tile_items = Threads * Vecs * 4;
  const std::int64_t tiles = (s.n + tile_items - 1) / tile_items;
  void* temp = nullptr;
  CK(cudaMalloc(&temp, look_back_storage<u32>::bytes(tiles)));
  const auto st = look_back_storage<u32>::carve(temp, tiles);
  const auto kernel = select_vec_kernel<Threads, Vecs, MinBlocks, below>;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Threads, 0));
  cudaFuncAttributes attr{};
  CK(cudaFuncGetAttributes(&attr, kernel));
  const auto launch = [&] {
    init_status_kernel<u32><<<static_cast<unsigned>((tiles + 255) / 256), 256>>>(st.status, tiles, st.counter);
    kernel<<<static_cast<unsigned>(tiles), Threads>>>(s.in, s.rule, s.out, s.n, s.count, st.status);
    CK(cudaGetLastError());
  };
  const float ms = median_ms({20, 1, 50}, launch);
  CK(cudaMemset(s.out, 0xab, s.n * 4));
  launch();
  CK(cudaDeviceSynchronize());
  CK(cudaFree(temp));
  char name[80];
  std::snprintf(name, sizeof name, "vec %d x %d x 4 /%d (%dr %d/SM)", Threads, Vecs, MinBlocks, attr.numRegs, per_sm);
  return {name, ms, matches(s)};
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> logs = log_sizes(argc, argv, 1, {22, 24, 28});
  bool all_ok = true;
  std::printf("%-6s %-5s %-36s %9s %8s %s\n", "n", "keep", "variant", "ms", "vs_CUB", "check");
  for (int k : logs) {
    const std::int64_t n = std::int64_t(1) << k;
    u32 *in, *out, *ref;
    std::int64_t *count, *ref_count;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    CK(cudaMalloc(&count, 8));
    CK(cudaMalloc(&ref_count, 8));
    fill_hashed<<<1024, 256>>>(in, n);
    for (double keep : {0.1, 0.5, 0.9}) {
      const below rule{static_cast<u32>(keep * 4294967296.0)};
      std::size_t cb = 0, cb32 = 0, tb = 0;
      CK(cub::DeviceSelect::If(nullptr, cb, in, ref, ref_count, n, rule));
      CK(cub::DeviceSelect::If(nullptr, cb32, in, ref, ref_count, static_cast<int>(n), rule));
      CK(parascan::select_if(nullptr, tb, in, out, count, n, rule));
      void *ct, *t;
      CK(cudaMalloc(&ct, std::max(cb, cb32)));
      CK(cudaMalloc(&t, tb));
      const float cub64 = median_ms({20, 1, 50}, [&] { CK(cub::DeviceSelect::If(ct, cb, in, ref, ref_count, n, rule)); });
      const float cub32 = median_ms({20, 1, 50}, [&] { CK(cub::DeviceSelect::If(ct, cb32, in, ref, ref_count, static_cast<int>(n), rule)); });
      CK(cub::DeviceSelect::If(ct, cb, in, ref, ref_count, n, rule));
      std::int64_t want_count = 0;
      CK(cudaMemcpy(&want_count, ref_count, 8, cudaMemcpyDeviceToHost));
      std::vector<u32> want(static_cast<std::size_t>(want_count));
      CK(cudaMemcpy(want.data(), ref, want.size() * 4, cudaMemcpyDeviceToHost));
      const setup s{in, out, count, n, rule, &want, want_count};
      std::vector<row> rows = {{"CUB int64 count", cub64, true}, {"CUB int count", cub32, true}};
      const float lib = median_ms({20, 1, 50}, [&] { CK(parascan::select_if(t, tb, in, out, count, n, rule)); });
      CK(cudaMemset(out, 0xab, n * 4));
      CK(parascan::select_if(t, tb, in, out, count, n, rule));
      CK(cudaDeviceSynchronize());
      rows.push_back({"library select_if (384 x 16)", lib, matches(s)});
      rows.push_back(run_vec<384, 4, 1>(s));
      rows.push_back(run_vec<384, 4, 3>(s));
      rows.push_back(run_vec<256, 4, 4>(s));
      rows.push_back(run_vec<256, 6, 1>(s));
      rows.push_back(run_vec<128, 8, 1>(s));
      rows.push_back(run_vec<512, 4, 2>(s));
      const float best_cub = std::min(cub64, cub32);
      for (const auto& r : rows) {
        std::printf("2^%-4d %3.0f%%  %-36s %9.4f %8.3f %s\n", k, 100 * keep, r.name.c_str(), r.ms, best_cub / r.ms,
                    r.ok ? "ok" : "MISMATCH");
        all_ok = all_ok && r.ok;
      }
      std::fflush(stdout);
      CK(cudaFree(ct));
      CK(cudaFree(t));
    }
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(ref)); CK(cudaFree(count)); CK(cudaFree(ref_count));
  }
  return all_ok ? 0 : 1;
}
