// Experiment (issue 35's cumsum at 2^28: 1.2× cuda.compute needs ~0.60 ms on the H200, where the library's
// u32 scan takes 0.616–0.631): a scan whose look-back chain has few, long links, each re-read from L2.
// Entries 53, 61 and the cluster scan (performance.md) found the library's single-pass scan bound by its
// chain of 32K tile prefixes (2^28 items, 8192 a tile): a block waits in its look-back with its tile
// held, and neither loads ahead of the chain (a resident prefetching scan: 61% of copy) nor clusters of
// tiles (6–15% slower) paid. Here a block owns a *slice* of 16K–64K items (64–256 KB) and
//   1. reduces it straight from HBM (16 independent 16-byte loads a thread in flight), no tile held;
//   2. publishes the slice's sum and looks back over its predecessors with one warp (32 status words a
//      load, CUB's window walk), then publishes its inclusive prefix;
//   3. reads the slice again, now from L2 (the resident blocks' slices together are ≤ ~35 MB of the
//      H200's 60 MB), scans it in steps of 16 consecutive items a thread and stores it.
// HBM moves each word once each way, as the library's scan; the chain is 4–16× shorter, and its waits
// cost only the block that waits (others keep the memory busy). Hints (H = 1): the first read keeps its
// lines in L2 (ld.global.L2::cache_hint with an evict_last policy), the second read and the stores stream (evict-first).
// Predicted: near cudaMemcpy's time (0.503 ms at 2^28 on the H200) plus a look-back wait a slice, i.e.
// 0.53–0.58 ms, if the second read hits L2; as slow as three passes (~0.75 ms) if it misses.
// Beside it in one process: cudaMemcpy, CUB's ExclusiveSum (the faster of its two count forms) and the
// library's exclusive_scan (its status clearing included); every output compared word for word with CUB's.
//   scan_waves [log2 n ...]     (default 24 26 28; n a multiple of 4); exit 1 on a mismatch
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include -I experiments experiments/scan_waves.cu
#include <cstdint>
#include <cstdio>
#include "parascan/block/block_exclusive_sum.cuh"
#include "parascan/device/device_scan.cuh"
#include "scan_reference.cuh"

namespace {
using u32 = std::uint32_t;
using u64 = unsigned long long;

// A slice's status word: its state in bits 32–33, its sum (aggregate) or inclusive prefix in bits 0–31.
constexpr u64 st_aggregate = 1ull << 32, st_prefix = 2ull << 32, st_mask = 3ull << 32;

/// An L2 policy that keeps the lines it loads (createpolicy, sm_80+).
__device__ __forceinline__ u64 evict_last_policy() {
  u64 policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
template <int H>
__device__ __forceinline__ uint4 first_read(const uint4* p, u64 policy) {
  if constexpr (H == 0) {
    return *p;
  } else {
    uint4 v;
    asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(p), "l"(policy));
    return v;
  }
}
template <int H>
__device__ __forceinline__ uint4 second_read(const uint4* p) {
  if constexpr (H == 0) return *p;
  else return __ldcs(p);
}
template <int H>
__device__ __forceinline__ void store(uint4* p, uint4 v) {
  if constexpr (H == 0) *p = v;
  else __stcs(p, v);
}

/// Slices of SliceVec 16-byte words taken in order from `counter` by resident blocks until none is left.
template <int Threads, int SliceVec, int H>
__global__ void __launch_bounds__(Threads) wave_scan(const uint4* in, uint4* out, std::int64_t n_vec, std::int64_t slices,
                                                     u64* status, unsigned* counter) {
  static_assert(SliceVec % (Threads * 4) == 0 && SliceVec % Threads == 0);
  constexpr int reduce_loads = SliceVec / Threads, step_vec = Threads * 4;
  __shared__ u32 warp_sums[Threads / 32];
  __shared__ std::int64_t slice_shared;
  __shared__ u32 prefix_shared;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (;;) {
    if (threadIdx.x == 0) slice_shared = atomicAdd(counter, 1u);
    __syncthreads();
    const std::int64_t s = slice_shared;
    if (s >= slices) return;
    const std::int64_t base = s * SliceVec;
    // 1. The slice's sum, from HBM.
    u32 sum = 0;
    const u64 policy = H ? evict_last_policy() : 0;
#pragma unroll 16
    for (int k = 0; k < reduce_loads; ++k) {
      const std::int64_t v = base + static_cast<std::int64_t>(k) * Threads + threadIdx.x;
      if (v < n_vec) {
        const uint4 x = first_read<H>(in + v, policy);
        sum += x.x + x.y + x.z + x.w;
      }
    }
    u32 total;
    parascan::block::exclusive_sum<Threads>(sum, warp_sums, total);
    // 2. Published, then the look-back by warp 0: lane l reads slice w − l; the nearest prefix ends it.
    if (warp == 0) {
      u32 prefix = 0;
      if (s == 0) {
        if (lane == 0) atomicExch(status, st_prefix | total);
      } else {
        if (lane == 0) atomicExch(status + s, st_aggregate | total);
        for (std::int64_t w = s - 1;; w -= 32) {
          const std::int64_t i = w - lane;
          u64 word = i >= 0 ? atomicAdd(status + i, 0ull) : st_prefix;
          unsigned prefixes, upto;
          for (;;) {
            prefixes = __ballot_sync(0xffffffffu, (word & st_mask) == st_prefix);
            upto = prefixes ? (2u << (__ffs(prefixes) - 1)) - 1u : 0xffffffffu;  // lanes to the nearest prefix
            const unsigned waiting = __ballot_sync(0xffffffffu, (word & st_mask) == 0) & upto;
            if (waiting == 0) break;
            __nanosleep(200);
            if ((word & st_mask) == 0) word = atomicAdd(status + i, 0ull);
          }
          const u32 mine = (upto >> lane) & 1u ? static_cast<u32>(word) : 0u;
          prefix += __reduce_add_sync(0xffffffffu, mine);
          if (prefixes) break;
        }
        if (lane == 0) atomicExch(status + s, st_prefix | static_cast<u32>(prefix + total));
      }
      if (lane == 0) prefix_shared = prefix;
    }
    __syncthreads();
    u32 carry = prefix_shared;
    // 3. The slice again (from L2), 16 consecutive items a thread a step.
    for (int step = 0; step < SliceVec; step += step_vec) {
      const std::int64_t v0 = base + step + static_cast<std::int64_t>(threadIdx.x) * 4;
      uint4 x[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) x[k] = v0 + k < n_vec ? second_read<H>(in + v0 + k) : make_uint4(0, 0, 0, 0);
      u32 run = 0;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        u32 a = x[k].x; x[k].x = run; run += a;
        a = x[k].y; x[k].y = run; run += a;
        a = x[k].z; x[k].z = run; run += a;
        a = x[k].w; x[k].w = run; run += a;
      }
      u32 step_total;
      const u32 add = carry + parascan::block::exclusive_sum<Threads>(run, warp_sums, step_total);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        x[k].x += add; x[k].y += add; x[k].z += add; x[k].w += add;
        if (v0 + k < n_vec) store<H>(out + v0 + k, x[k]);
      }
      carry += step_total;
    }
    __syncthreads();  // slice_shared and prefix_shared are rewritten for the next slice
  }
}

struct variant_result {
  float ms;
  bool ok;
  int blocks;
};

template <int Threads, int SliceVec, int H>
variant_result run_waves(const scan_reference& r) {
  const std::int64_t n_vec = r.n / 4, slices = (n_vec + SliceVec - 1) / SliceVec;
  u64* status;
  unsigned* counter;
  CK(cudaMalloc(&status, slices * sizeof(u64)));
  CK(cudaMalloc(&counter, sizeof(unsigned)));
  int device = 0, sms = 0, per_sm = 0;
  CK(cudaGetDevice(&device));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const auto kernel = wave_scan<Threads, SliceVec, H>;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Threads, 0));
  // Resident blocks hold one slice each in L2 between its two reads: at most ~36 MB of them.
  const std::int64_t l2_budget = std::int64_t(36) << 20, slice_bytes = std::int64_t(SliceVec) * 16;
  std::int64_t fit = l2_budget / slice_bytes / sms;  // blocks an SM within the budget, the same on every SM
  if (fit < 1) fit = 1;
  std::int64_t blocks = std::int64_t(sms) * (per_sm < fit ? per_sm : fit);
  if (blocks > slices) blocks = slices;
  const auto launch = [&] {
    CK(cudaMemsetAsync(status, 0, slices * sizeof(u64)));
    CK(cudaMemsetAsync(counter, 0, sizeof(unsigned)));
    kernel<<<static_cast<unsigned>(blocks), Threads>>>(reinterpret_cast<const uint4*>(r.in), reinterpret_cast<uint4*>(r.out),
                                                      n_vec, slices, status, counter);
    CK(cudaGetLastError());
  };
  CK(cudaMemset(r.out, 0xa5, r.n * 4));
  launch();
  CK(cudaDeviceSynchronize());
  const bool ok = r.out_is_right();
  const float ms = median_ms({20, 2, 50}, launch);
  CK(cudaFree(status));
  CK(cudaFree(counter));
  return {ms, ok, static_cast<int>(blocks)};
}

}  // namespace

int main(int argc, char** argv) {
  bool all_ok = true;
  std::printf("%-6s %-40s %10s %8s %9s %8s %s\n", "n", "kernel", "ms", "GB/s", "of_copy", "vs_CUB", "check");
  for (const int k : log_sizes(argc, argv, 1, {24, 26, 28})) {
    const std::int64_t n = std::int64_t(1) << k;
    const scan_reference r(n);
    const double bytes = 2.0 * 4.0 * static_cast<double>(n);
    const auto row = [&](const char* what, float ms, bool ok) {
      std::printf("2^%-4d %-40s %10.4f %8.0f %8.1f%% %8.3f %s\n", k, what, ms, bytes / ms / 1e6, 100.0 * r.memcpy_ms / ms,
                  r.cub_ms / ms, ok ? "ok" : "WRONG");
      all_ok = all_ok && ok;
    };
    row("cudaMemcpy", r.memcpy_ms, true);
    std::printf("2^%-4d %-40s %10.4f %8.0f %8.1f%% %8.3f ok (int %.4f, int64 %.4f)\n", k, "CUB ExclusiveSum", r.cub_ms,
                bytes / r.cub_ms / 1e6, 100.0 * r.memcpy_ms / r.cub_ms, 1.0, r.cub_int, r.cub_i64);
    {  // the library's call, its status clearing included
      std::size_t tb = 0;
      CK(parascan::exclusive_scan(nullptr, tb, r.in, r.out, n, parascan::sum{}, u32(0)));
      void* t;
      CK(cudaMalloc(&t, tb));
      CK(cudaMemset(r.out, 0xa5, n * 4));
      CK(parascan::exclusive_scan(t, tb, r.in, r.out, n, parascan::sum{}, u32(0)));
      CK(cudaDeviceSynchronize());
      const bool ok = r.out_is_right();
      const float ms = median_ms({20, 2, 50}, [&] { CK(parascan::exclusive_scan(t, tb, r.in, r.out, n, parascan::sum{}, u32(0))); });
      row("library exclusive_scan", ms, ok);
      CK(cudaFree(t));
    }
    const auto wave = [&](auto result, int threads, int slice_items, int h) {
      char what[96];
      std::snprintf(what, sizeof what, "waves %4d thr, slice %3dK, %s (%d blk)", threads, slice_items / 1024,
                    h ? "hints" : "plain", result.blocks);
      row(what, result.ms, result.ok);
    };
    wave(run_waves<512, 4096, 0>(r), 512, 16384, 0);
    wave(run_waves<512, 4096, 1>(r), 512, 16384, 1);
    wave(run_waves<512, 8192, 0>(r), 512, 32768, 0);
    wave(run_waves<512, 8192, 1>(r), 512, 32768, 1);
    wave(run_waves<1024, 8192, 1>(r), 1024, 32768, 1);
    wave(run_waves<1024, 16384, 0>(r), 1024, 65536, 0);
    wave(run_waves<1024, 16384, 1>(r), 1024, 65536, 1);
    wave(run_waves<256, 4096, 1>(r), 256, 16384, 1);
  }
  std::printf("%s\n", all_ok ? "every output equals CUB's" : "SOME OUTPUTS DIFFER FROM CUB'S");
  return all_ok ? 0 : 1;
}
