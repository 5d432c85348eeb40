// Experiment (issue 34): a 4-byte key sort in two Onesweep passes and one pass of block sorts.
//
//   1. the library's Onesweep sort over bits [16, 32) only (its histogram, then two digit passes):
//      afterwards the keys lie in order of their top 16 bits, each run of equal top bits together
//   2. run_sort_kernel: block b owns the runs that start in its chunk [b · chunk, (b + 1) · chunk),
//      finds where its first run starts and where the run after its chunk starts (two warps, a 32-way
//      search each, ~3 dependent loads), loads those keys (≤ Threads × Items), sorts them in shared
//      memory over the bits in which they differ (block::radix_sort, keys only; 2 rounds for one run
//      of uniform keys) and writes them back where they were read from, in order
//
// HBM per key (u32): histogram 1 read, two passes 2 × (read + write), block sorts read + write = 7
// words against Onesweep's 9, and the block sorts neither scatter nor look back. Predicted at 2^28 on
// the H100: 0.15 + 2 × 1.25 + ~1.0 ms ≈ 3.7 ms against CUB's fastest 5.5 ms (≈ 1.45×), if the block
// sorts run near copy speed (2 GB moved, ~0.75 ms at copy speed) — they are an untested cost.
// Runs longer than the block's capacity (skewed keys) are counted, not sorted; the library would send
// them on (entry 46).
//
//   hybrid_sort [log2 sizes...]      u32 and f32 uniform keys, every output compared with CUB's
#include <cub/device/device_radix_sort.cuh>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "parascan/block/block_radix_sort.cuh"
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/device/device_select.cuh"
#include "cub_sort_timing.cuh"

using u32 = std::uint32_t;
using i64 = std::int64_t;

__global__ void fill(u32* d, i64 n, u32 seed, u32 mask) {
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
    std::uint64_t z = (std::uint64_t)i * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    d[i] = (u32)(z ^ (z >> 31)) & mask;
  }
}

/// The library's key codec (radix_digits.cuh): encode/decode for the block sorts, and the top 16 bits
/// of ordered(encode(k)) for the runs, as the Onesweep passes over bits [16, 32) compared them (−0.0
/// with +0.0). Within a run the block sort compares encoded keys, which put −0.0 before +0.0 where
/// CUB keeps them in input order; the uniform keys here hold no −0.0, so no output showed it.
using codec_t = parascan::device::sort_detail::key_codec<u32>;
template <bool Float>
__device__ __forceinline__ codec_t codec_of() {
  return codec_t(Float ? parascan::key_kind::floating : parascan::key_kind::unsigned_int, false);
}
__device__ __forceinline__ u32 run_of(const codec_t& c, u32 raw) { return c.ordered(c.encode(raw)) >> 16; }

/// One warp: the first p in [lo, hi) whose key's top 16 bits (of its image) pass v, else hi. The
/// keys' top bits ascend, so 32 probes a step narrow the range 32-fold.
__device__ i64 warp_first_above(const u32* key, i64 lo, i64 hi, u32 v, const codec_t& codec) {
  const int lane = threadIdx.x % 32;
  const auto above = [&](i64 p) { return run_of(codec, key[p]) > v; };
  while (hi - lo > 32) {
    const i64 step = (hi - lo + 31) / 32;
    const i64 p = min(lo + (lane + 1) * step - 1, hi - 1);  // lane 31 probes hi - 1
    const unsigned b = __ballot_sync(0xffffffffu, above(p));
    if (b == 0) return hi;
    const int k = __ffs(b) - 1;
    const i64 pk = min(lo + (k + 1) * step - 1, hi - 1);
    lo = lo + k * step;  // p_{k-1} failed (or k = 0)
    hi = pk + 1;         // p_k passed
  }
  const i64 p = lo + lane;
  const unsigned b = __ballot_sync(0xffffffffu, p < hi && above(p));
  return b ? lo + __ffs(b) - 1 : hi;
}

template <int Threads, int Items, bool Float>
__global__ void __launch_bounds__(Threads) run_sort_kernel(const u32* in, u32* out, i64 n, i64 chunk, unsigned* overflow) {
  using sorter = parascan::block::radix_sort<Threads, Items, u32, false>;
  constexpr int cap = Threads * Items;
  extern __shared__ __align__(16) unsigned char smem[];  // the sorter's storage (over 48 KB for 1024 × 20)
  typename sorter::storage& st = *reinterpret_cast<typename sorter::storage*>(smem);
  __shared__ i64 bounds[2];
  __shared__ u32 differ;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const i64 cb = blockIdx.x * chunk, ce = min(n, cb + chunk);
  const codec_t codec = codec_of<Float>();
  if (warp < 2) {  // warp 0: the first run start in [cb, ce); warp 1: the first at or past ce
    const i64 x = warp == 0 ? cb : ce;
    i64 r = x;
    if (x > 0 && x < n) {
      const i64 limit = warp == 0 ? ce : min(n, cb + cap + 1);
      r = warp_first_above(in, x, limit, run_of(codec, in[x - 1]), codec);
      if (warp == 1 && r == limit && limit < n) r = -1;  // the run past the chunk is longer than a block holds
    }
    if (lane == 0) bounds[warp] = r;
  }
  if (threadIdx.x == 0) differ = 0;
  __syncthreads();
  const i64 s = bounds[0], e = bounds[1];
  if (s >= ce) return;  // no run starts here
  const i64 len = e - s;
  if (e < 0 || len > cap) {
    if (threadIdx.x == 0) atomicAdd(overflow, 1u);
    return;
  }
  const u32 first = codec.encode(in[s]);
  u32 key[Items], mine = 0;
  const int wb = warp * 32 * Items;
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const i64 q = wb + j * 32 + lane;
    key[j] = q < len ? codec.encode(in[s + q]) : first;
    mine |= key[j] ^ first;
  }
  atomicOr(&differ, mine);
  __syncthreads();
  const int bits = 32 - __clz(differ);  // the keys agree above these bits
  const u32 mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1, base = first & ~mask;
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const i64 q = wb + j * 32 + lane;
    key[j] = q < len ? key[j] & mask : mask;  // padding sorts last: all ones, and after every real key
  }
  sorter::sort(key, bits, st);
  for (i64 q = threadIdx.x; q < len; q += Threads) out[s + q] = codec.decode(st.u.keys[q] | base);
}

struct config {
  int threads, items;
};

template <int Threads, int Items, bool Float>
void launch_runs(const u32* in, u32* out, i64 n, i64 chunk, unsigned* overflow) {
  const auto kernel = run_sort_kernel<Threads, Items, Float>;
  constexpr int smem = sizeof(typename parascan::block::radix_sort<Threads, Items, u32, false>::storage);
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  kernel<<<static_cast<unsigned>((n + chunk - 1) / chunk), Threads, smem>>>(in, out, n, chunk, overflow);
  CK(cudaGetLastError());
}

template <bool Float>
void launch_runs(config c, const u32* in, u32* out, i64 n, i64 chunk, unsigned* overflow) {
  if (c.threads == 256 && c.items == 16) launch_runs<256, 16, Float>(in, out, n, chunk, overflow);
  else if (c.threads == 512 && c.items == 12) launch_runs<512, 12, Float>(in, out, n, chunk, overflow);
  else if (c.threads == 512 && c.items == 16) launch_runs<512, 16, Float>(in, out, n, chunk, overflow);
  else if (c.threads == 1024 && c.items == 20) launch_runs<1024, 20, Float>(in, out, n, chunk, overflow);
  else { std::printf("no such config\n"); std::exit(1); }
}

/// The chunk for a capacity: room left for the longest run expected of uniform keys (mean + 6 sd).
i64 chunk_for(config c, i64 n) {
  const double run = static_cast<double>(n >> 16);
  return static_cast<i64>(c.threads * c.items - run - 6 * std::sqrt(run) - 32);
}

int main(int argc, char** argv) {
  int wrong = 0;
  timing_options o;
  o.reps = 20;
  o.hold_us = 200;
  for (int lg : log_sizes(argc, argv, 1, {24, 26, 28, 30})) {
    const i64 n = i64(1) << lg;
    u32 *in, *mid, *out, *ref;
    unsigned* overflow;
    for (u32** a : {&in, &mid, &out, &ref}) CK(cudaMalloc(a, n * 4));
    CK(cudaMalloc(&overflow, 4));
    fill<<<1024, 256>>>(in, n, 7, 0xffffffffu);
    for (int f = 0; f < 2; ++f) {
      const bool is_float = f == 1;
      const parascan::key_kind kind = is_float ? parascan::key_kind::floating : parascan::key_kind::unsigned_int;
      // CUB, both count types, the faster divides.
      std::size_t cb = 0, cb64 = 0;
      const auto cub_int = [&](void* t, std::size_t& b) {
        if (is_float) CK(cub::DeviceRadixSort::SortKeys(t, b, (const float*)in, (float*)ref, (int)n));
        else CK(cub::DeviceRadixSort::SortKeys(t, b, in, ref, (int)n));
      };
      const auto cub_i64 = [&](void* t, std::size_t& b) {
        if (is_float) CK(cub::DeviceRadixSort::SortKeys(t, b, (const float*)in, (float*)ref, n));
        else CK(cub::DeviceRadixSort::SortKeys(t, b, in, ref, n));
      };
      cub_int(nullptr, cb);
      cub_i64(nullptr, cb64);
      void *ct, *ct64;
      CK(cudaMalloc(&ct, cb));
      CK(cudaMalloc(&ct64, cb64));
      parascan::sort_options full{}, high{};
      high.begin_bit = 16;
      high.end_bit = 32;
      std::size_t tb = 0, tb_high = 0;
      CK(parascan::radix_sort_bits<u32>(nullptr, tb, in, out, n, kind, full));
      CK(parascan::radix_sort_bits<u32>(nullptr, tb_high, in, mid, n, kind, high));
      void* t;
      CK(cudaMalloc(&t, tb > tb_high ? tb : tb_high));
      float ms_int = 0, ms_i64 = 0, ms_full = 0, ms_high = 0;
      for (int round = 0; round < 2; ++round) {
        ms_int = median_ms(o, [&] { cub_int(ct, cb); });
        ms_i64 = median_ms(o, [&] { cub_i64(ct64, cb64); });
        ms_full = median_ms(o, [&] { CK(parascan::radix_sort_bits<u32>(t, tb, in, out, n, kind, full)); });
        ms_high = median_ms(o, [&] { CK(parascan::radix_sort_bits<u32>(t, tb_high, in, mid, n, kind, high)); });
      }
      const float cub_best = ms_int < ms_i64 ? ms_int : ms_i64;
      const bool full_ok = mismatches(out, ref, n * 4) == 0;
      std::printf("2^%d %s CUB int %.4f int64 %.4f ms | onesweep %.4f ms %.3fx %s | bits [16,32) %.4f ms\n", lg,
                  is_float ? "f32" : "u32", ms_int, ms_i64, ms_full, cub_best / ms_full, full_ok ? "ok" : "WRONG", ms_high);
      wrong += !full_ok;
      for (config c : {config{256, 16}, config{512, 12}, config{512, 16}, config{1024, 20}}) {
        const i64 chunk = chunk_for(c, n);
        if (chunk < 128) continue;
        const auto runs = [&] {
          if (is_float) launch_runs<true>(c, mid, out, n, chunk, overflow);
          else launch_runs<false>(c, mid, out, n, chunk, overflow);
        };
        CK(cudaMemset(out, 0xa5, n * 4));
        CK(cudaMemset(overflow, 0, 4));
        CK(parascan::radix_sort_bits<u32>(t, tb_high, in, mid, n, kind, high));
        runs();
        CK(cudaDeviceSynchronize());
        unsigned over = 0;
        CK(cudaMemcpy(&over, overflow, 4, cudaMemcpyDeviceToHost));
        const long long bad = mismatches(out, ref, n * 4);
        float ms_runs = 0, ms_both = 0;
        for (int round = 0; round < 2; ++round) {
          ms_runs = median_ms(o, runs);
          ms_both = median_ms(o, [&] {
            CK(parascan::radix_sort_bits<u32>(t, tb_high, in, mid, n, kind, high));
            runs();
          });
        }
        std::printf("2^%d %s hybrid %dx%d chunk %lld: block sorts %.4f ms (%.0f GB/s), total %.4f ms %.3fx CUB, %.3fx onesweep, overflow %u %s\n",
                    lg, is_float ? "f32" : "u32", c.threads, c.items, (long long)chunk, ms_runs, 8.0 * n / ms_runs / 1e6,
                    ms_both, cub_best / ms_both, ms_full / ms_both, over, bad == 0 && over == 0 ? "ok" : "WRONG");
        wrong += bad != 0 || over != 0;
      }
      CK(cudaFree(ct));
      CK(cudaFree(ct64));
      CK(cudaFree(t));
    }
    for (u32* a : {in, mid, out, ref}) CK(cudaFree(a));
    CK(cudaFree(overflow));
  }
  return wrong ? 1 : 0;
}
