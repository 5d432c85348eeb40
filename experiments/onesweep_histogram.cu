// Experiment (issue 34): the sort's histogram kernel, which the H200 showed taking 0.46 ms of the 5.22 ms
// sort of 2^28 u32 keys (experiments/sort_phases.cu under ncu, stop 52) where a read of the keys takes
// ~0.25 ms. The library's kernel (onesweep/histogram.cuh) against variants of the same counting:
//   grid     the library's min(tiles, 2048) blocks, or exactly what is resident at once (SMs x blocks
//            an SM: no partial last wave; each block strides over more tiles)
//   loads    16 scalar loads a thread a tile (the library), or 4 of 16 bytes (4 keys each)
//   counters stop 51's 8 copies of each digit's count (lane % 8), 32-bit; or one 16-bit counter a
//            lane, two lanes a word (lanes 2k and 2k + 1; the library's since stop 52); or one 16-bit
//            counter a lane in words of the lane's own (bank = lane, whatever the digits). 64 KB of
//            shared memory for 4 digits; a lane's count stays below 2^16 while a thread sees fewer
//            than 65536 keys, which the grids here guarantee up to 2^32 keys.
// Every variant's scanned bins are compared with the CPU's; uniform keys and keys of 4 distinct
// values a digit (few distinct: lanes meet on the same counters).
//   onesweep_histogram [log2 n ...]   (default 24 28); exit 1 on a mismatch
// Measured (H200, stop 52, docs/sort-histogram-stop52-h200.txt, performance.md entry 59), 2^28 uniform /
// few distinct: stop 51's kernel 0.473-0.480 / 0.285-0.293 ms; lane counters (pairs sharing a word) on
// the resident grid 0.358-0.365 / 0.355-0.362; words of a lane's own 0.472-0.476 / 0.473-0.475; the
// library's kernel now (with the key codec) 0.394-0.402 / 0.392-0.396.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include "parascan/device/device_onesweep.cuh"
#include "experiment_timing.cuh"

using namespace parascan;
using namespace parascan::device::onesweep;
using u32 = std::uint32_t;

namespace {

constexpr int kPasses = 4;

template <int Layout>
constexpr int counter_words() {
  return Layout == 0 ? kPasses * digits * 8 : kPasses * digits * 16;
}

/// The library's counting, with the two knobs; the last block scans as the library's does.
/// Layout 0: 8 copies of each 32-bit count (lane % 8); 1: a 16-bit counter a lane, lanes 2k and 2k+1
/// sharing a word (the library's since stop 52); 2: a 16-bit counter a lane in words of its own, digit
/// d's in half d >> 7 of word (d & 127) · 32 + lane: every lane adds in its own bank, whatever the keys.
template <bool Vec, int Packed>
__global__ void __launch_bounds__(hist_threads) hist_variant(const u32* keys, std::int64_t n, u32* bins, unsigned* done) {
  extern __shared__ unsigned hist[];
  __shared__ bool last_block;
  __shared__ u32 warp_totals[hist_threads / 32];
  constexpr int words = counter_words<Packed>();
  for (int i = threadIdx.x; i < words; i += hist_threads) hist[i] = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const auto count = [&](u32 b) {
#pragma unroll
    for (int p = 0; p < kPasses; ++p) {
      const unsigned d = (b >> (8 * p)) & 0xffu;
      if constexpr (Packed == 2) atomicAdd(&hist[(p * 128 + (d & 127u)) * 32 + lane], 1u << ((d >> 7) * 16));
      else if constexpr (Packed == 1) atomicAdd(&hist[(p * digits + d) * 16 + lane / 2], 1u << (16 * (lane & 1)));
      else atomicAdd(&hist[(p * digits + d) * 8 + lane % 8], 1u);
    }
  };
  for (std::int64_t tile = blockIdx.x; tile * hist_tile < n; tile += gridDim.x) {
    const u32* tile_keys = keys + tile * hist_tile;
    const std::int64_t left = n - tile * hist_tile;
    if (left >= hist_tile) {
      if constexpr (Vec) {
        uint4 v[hist_items / 4];
#pragma unroll
        for (int j = 0; j < hist_items / 4; ++j) v[j] = reinterpret_cast<const uint4*>(tile_keys)[j * hist_threads + threadIdx.x];
#pragma unroll
        for (int j = 0; j < hist_items / 4; ++j) {
          count(v[j].x);
          count(v[j].y);
          count(v[j].z);
          count(v[j].w);
        }
      } else {
        u32 raw[hist_items];
#pragma unroll
        for (int j = 0; j < hist_items; ++j) raw[j] = tile_keys[j * hist_threads + threadIdx.x];
#pragma unroll
        for (int j = 0; j < hist_items; ++j) count(raw[j]);
      }
    } else {
      for (int i = threadIdx.x; i < left; i += hist_threads) count(tile_keys[i]);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kPasses * digits; i += hist_threads) {
    unsigned c = 0;
    if constexpr (Packed == 2) {  // the 32 lanes' words, each thread starting at its own lane: no conflicts
      const int p = i / digits, d = i % digits;
#pragma unroll 8
      for (int q = 0; q < 32; ++q) c += (hist[(p * 128 + (d & 127)) * 32 + ((q + i) & 31)] >> ((d >> 7) * 16)) & 0xffffu;
    } else if constexpr (Packed == 1) {
#pragma unroll
      for (int q = 0; q < 16; ++q) {
        const unsigned w = hist[i * 16 + q];
        c += (w & 0xffffu) + (w >> 16);
      }
    } else {
#pragma unroll
      for (int q = 0; q < 8; ++q) c += hist[i * 8 + q];
    }
    if (c != 0) atomicAdd(bins + i, c);
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  for (int p = 0; p < kPasses; ++p) {
    u32* b = bins + p * digits;
    const u32 v = *reinterpret_cast<volatile u32*>(b + threadIdx.x);
    u32 total;
    b[threadIdx.x] = parascan::block::exclusive_sum<hist_threads>(v, warp_totals, total);
  }
}

template <bool Vec, int Packed>
unsigned resident_grid() {
  constexpr int smem = counter_words<Packed>() * 4;
  std::int64_t blocks = 0;
  CK(parascan::device::allow_dynamic_smem(hist_variant<Vec, Packed>, smem));
  CK(parascan::device::resident_blocks(hist_variant<Vec, Packed>, hist_threads, smem, blocks));
  return static_cast<unsigned>(blocks);
}

}  // namespace

bool measure(int k, bool few) {
  const std::int64_t n = std::int64_t(1) << k;
  u32 *keys, *bins, *copy_to;
  unsigned* done;
  pass_plan* plan;
  CK(cudaMalloc(&keys, n * 4));
  CK(cudaMalloc(&copy_to, n * 4));
  CK(cudaMalloc(&bins, kPasses * digits * 4));
  CK(cudaMalloc(&done, 4));
  CK(cudaMalloc(&plan, sizeof(pass_plan)));
  fill_hashed<<<1024, 256>>>(keys, n);
  if (few) few_distinct<<<1024, 256>>>(keys, n);
  CK(cudaGetLastError());
  std::vector<u32> h(n);
  CK(cudaMemcpy(h.data(), keys, n * 4, cudaMemcpyDeviceToHost));
  std::vector<u32> want(kPasses * digits, 0);
  for (const u32 x : h)
    for (int p = 0; p < kPasses; ++p) ++want[p * digits + ((x >> (8 * p)) & 255u)];
  for (int p = 0; p < kPasses; ++p) {
    u32 acc = 0;
    for (int d = 0; d < digits; ++d) {
      const u32 c = want[p * digits + d];
      want[p * digits + d] = acc;
      acc += c;
    }
  }
  const auto clear = [&] {
    CK(cudaMemsetAsync(bins, 0, kPasses * digits * 4));
    CK(cudaMemsetAsync(done, 0, 4));
    CK(cudaMemsetAsync(plan, 0, sizeof(pass_plan)));
  };
  const auto check = [&] {
    std::vector<u32> got(kPasses * digits);
    CK(cudaMemcpy(got.data(), bins, got.size() * 4, cudaMemcpyDeviceToHost));
    return got == want;
  };
  const std::string data = few ? "few distinct" : "uniform";
  const float read_ms = median_ms_cleared([] {}, [&] { CK(cudaMemcpyAsync(copy_to, keys, n * 4, cudaMemcpyDeviceToDevice)); });
  std::printf("2^%-3d %-13s %-52s %8.4f ms\n", k, data.c_str(), "cudaMemcpy of the keys (reads and writes them)", read_ms);
  bool ok_all = true;
  const auto row = [&](const char* name, auto launch) {
    const float ms = median_ms_cleared(clear, launch);
    const bool ok = check();
    ok_all = ok_all && ok;
    std::printf("2^%-3d %-13s %-52s %8.4f ms  %5.2f TB/s of key reads  %s\n", k, data.c_str(), name, ms, n * 4.0 / ms / 1e9,
                ok ? "ok" : "MISMATCH");
  };
  const pass_set ps{0, 32, 4, key_kind::unsigned_int, false};
  const std::int64_t tiles = (n + hist_tile - 1) / hist_tile;
  const unsigned lib_blocks = static_cast<unsigned>(std::min<std::int64_t>(tiles, 2048));  // stop 51's grid
  unsigned grid = 0;
  CK((hist_grid<u32, u32, false>(n, grid)));
  const auto variant = [&](auto vec, auto packed, unsigned grid) {
    constexpr bool V = decltype(vec)::value;
    constexpr int P = decltype(packed)::value;
    return [=] {
      hist_variant<V, P><<<grid, hist_threads, counter_words<P>() * 4>>>(keys, n, bins, done);
      CK(cudaGetLastError());
    };
  };
  using F = std::false_type;
  using T = std::true_type;
  using L0 = std::integral_constant<int, 0>;
  using L1 = std::integral_constant<int, 1>;
  using L2 = std::integral_constant<int, 2>;
  for (int round = 0; round < 2; ++round) {
    row("library histogram_kernel (hist_grid)", [&] {
      histogram_kernel<u32, u32, false><<<grid, hist_threads, hist_smem_bytes<u32>()>>>(keys, n, ps, bins, plan, done);
      CK(cudaGetLastError());
    });
    row("2048 blocks, scalar, 8 parts (stop 51's library kernel)", variant(F{}, L0{}, lib_blocks));
    row("resident grid, scalar, 8 parts", variant(F{}, L0{}, std::min<unsigned>(lib_blocks, resident_grid<false, 0>())));
    row("resident grid, 16-byte loads, 8 parts", variant(T{}, L0{}, std::min<unsigned>(lib_blocks, resident_grid<true, 0>())));
    row("resident grid, scalar, 16-bit lane counters", variant(F{}, L1{}, std::min<unsigned>(lib_blocks, resident_grid<false, 1>())));
    row("resident grid, 16-byte loads, 16-bit lane counters", variant(T{}, L1{}, std::min<unsigned>(lib_blocks, resident_grid<true, 1>())));
    row("2048 blocks, 16-byte loads, 16-bit lane counters", variant(T{}, L1{}, lib_blocks));
    row("resident grid, scalar, lane counters in own banks", variant(F{}, L2{}, std::min<unsigned>(lib_blocks, resident_grid<false, 2>())));
    row("resident grid, 16-byte loads, lane counters in own banks", variant(T{}, L2{}, std::min<unsigned>(lib_blocks, resident_grid<true, 2>())));
  }
  std::printf("(resident grids: %u / %u / %u / %u / %u blocks; the library's %u)\n", resident_grid<false, 0>(), resident_grid<true, 0>(),
              resident_grid<false, 1>(), resident_grid<true, 1>(), resident_grid<false, 2>(), grid);
  std::fflush(stdout);
  for (void* p : {static_cast<void*>(keys), static_cast<void*>(copy_to), static_cast<void*>(bins), static_cast<void*>(done),
                  static_cast<void*>(plan)})
    CK(cudaFree(p));
  return ok_all;
}

int main(int argc, char** argv) {
  bool ok = true;
  for (int k : log_sizes(argc, argv, 1, {24, 28})) {
    ok = measure(k, false) && ok;
    ok = measure(k, true) && ok;
  }
  return ok ? 0 : 1;
}
