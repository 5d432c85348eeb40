// Experiment (issue 17, "beyond CUB"): Onesweep with wide digits. u32 keys (and u32 pairs, argsort)
// sorted in 3 passes of 11 / 11 / 10 bits instead of 4 of 8, against cub::DeviceRadixSort (called
// as a user would) and our 8-bit default (run() with default_policy), alternated in one process,
// every output compared word for word with CUB's. docs/performance.md entries 23 and 29 have the
// arithmetic: a pass moves 8 B per key (16 per pair) and 2,048 status words per tile.
//
// The pass is pass.cuh's with 2,048 digits: per-warp early counts as packed 16-bit halves (two
// digits per shared word, so W warps × 4 KB), thread t owning words t + T·r (digits 2w, 2w + 1): the
// cross-warp bases, the block scan over the digits in rounds, the status words, and a look-back that
// walks its 2·⌈1024 / T⌉ chains together (their loads issued at once). Ranks by 11 ballots and one
// leader atomic on the packed counts; keys and values staged in sorted order; scatter from the stage.
// Everything big is dynamic shared memory. Single portion: n ≤ 2^28 (30-bit status counts).
// Arguments: log2 n (28), rounds (2).
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include -I experiments experiments/onesweep_wide.cu
#include <cub/device/device_radix_sort.cuh>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "parascan/device/device_onesweep.cuh"
#include "cub_sort_timing.cuh"

using namespace parascan;
using namespace parascan::device;
namespace os = parascan::device::onesweep;

constexpr int wide_bits = 11, wide_digits = 1 << wide_bits, wide_passes = 3;
constexpr int hist_t = 512, hist_i = 8;

// Histogram of the three digit places, plain adds of 1 in shared memory (2,048 bins: few collisions).
__global__ void __launch_bounds__(hist_t) wide_histogram(const unsigned* keys, std::int64_t n, unsigned* bins) {
  __shared__ unsigned h[wide_passes * wide_digits];
  for (int i = threadIdx.x; i < wide_passes * wide_digits; i += hist_t) h[i] = 0;
  __syncthreads();
  const auto count = [&](unsigned k) {
#pragma unroll
    for (int p = 0; p < wide_passes; ++p) atomicAdd(&h[p * wide_digits + ((k >> (p * wide_bits)) & (wide_digits - 1))], 1u);
  };
  constexpr std::int64_t tile = std::int64_t(hist_t) * hist_i;
  for (std::int64_t b = blockIdx.x * tile; b < n; b += std::int64_t(gridDim.x) * tile) {
    if (b + tile <= n) {
      unsigned k[hist_i];
#pragma unroll
      for (int j = 0; j < hist_i; ++j) k[j] = keys[b + j * hist_t + threadIdx.x];
#pragma unroll
      for (int j = 0; j < hist_i; ++j) count(k[j]);
    } else {
      for (std::int64_t i = b + threadIdx.x; i < n; i += hist_t) count(keys[i]);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < wide_passes * wide_digits; i += hist_t)
    if (h[i]) atomicAdd(&bins[i], h[i]);
}

// Each pass's counts into each digit's first output position (one block, two digits a thread).
__global__ void __launch_bounds__(1024) wide_scan(unsigned* bins) {
  __shared__ unsigned totals[32];
  for (int p = 0; p < wide_passes; ++p) {
    unsigned* b = bins + p * wide_digits + 2 * threadIdx.x;
    const unsigned lo = b[0], hi = b[1];
    unsigned total;
    const unsigned excl = block::exclusive_sum<1024>(lo + hi, totals, total);
    b[0] = excl;
    b[1] = excl + lo;
  }
}

/// EarlyValues: values loaded right after ranking and staged before the look-back (ranks and values
/// then leave registers before it), instead of loaded before the look-back and staged after it.
template <int Threads, int Items, int MinBlocks, bool EarlyValues = false>
struct wide_policy {
  static constexpr int threads = Threads, items = Items, min_blocks = MinBlocks, tile_items = Threads * Items;
  static constexpr bool early_values = EarlyValues;
  static constexpr int warps = Threads / 32, words = wide_digits / 2, words_per_thread = (words + Threads - 1) / Threads;
  static_assert(tile_items < 65536, "packed 16-bit counts");
  static constexpr std::size_t union_bytes = std::size_t(warps) * words * 4 > std::size_t(tile_items) * 4
                                                 ? std::size_t(warps) * words * 4 : std::size_t(tile_items) * 4;
  static constexpr std::size_t smem(bool values) { return union_bytes + wide_digits * 4 + (values ? tile_items * 4 : 0); }
};

template <class P, bool Values>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    wide_pass(const unsigned* keys_src, unsigned* keys_dst, const unsigned* values_src, unsigned* values_dst,
              std::int64_t n, int shift, unsigned mask, const unsigned* bins, unsigned* status, unsigned* counter) {
  constexpr int T = P::threads, I = P::items, W = P::warps, WORDS = P::words, R = P::words_per_thread;
  constexpr int tile_items = P::tile_items;
  extern __shared__ __align__(16) unsigned char wide_smem[];
  unsigned(*cnt)[WORDS] = reinterpret_cast<unsigned(*)[WORDS]>(wide_smem);  // per warp, digits 2w | 2w+1 << 16
  unsigned* key_stage = reinterpret_cast<unsigned*>(wide_smem);                // after ranking, the same bytes
  unsigned* base = reinterpret_cast<unsigned*>(wide_smem + P::union_bytes);
  unsigned* value_stage = base + wide_digits;
  __shared__ unsigned warp_totals[W];
  __shared__ unsigned tile_shared;
  if (threadIdx.x == 0) tile_shared = atomicAdd(counter, 1u);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int b = lane; b < WORDS; b += 32) cnt[warp][b] = 0;
  __syncthreads();
  const unsigned tile = tile_shared;
  const std::int64_t tile_begin = std::int64_t(tile) * tile_items;
  const std::int64_t left = n - tile_begin;
  const bool full = left >= tile_items;
  const int tile_n = full ? tile_items : static_cast<int>(left);
  const int warp_begin = warp * 32 * I;
  const int active_words = static_cast<int>((mask + 1) / 2);
  unsigned key[I];
#pragma unroll
  for (int j = 0; j < I; ++j) {
    const int i = warp_begin + j * 32 + lane;
    key[j] = full || i < tile_n ? keys_src[tile_begin + i] : ~0u;  // past the end: the largest digit, last
  }
  const auto digit = [&](unsigned k) { return (k >> shift) & mask; };
#pragma unroll
  for (int j = 0; j < I; ++j) {
    const unsigned d = digit(key[j]);
    atomicAdd(&cnt[warp][d >> 1], 1u << ((d & 1) * 16));
  }
  __syncthreads();

  // Per owned word: each warp's exclusive start (packed), the tile's counts published, the digits'
  // first places in the tile by a block scan in rounds of T words.
  unsigned packed_count[R], start_lo[R];
  unsigned carry = 0;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int w = threadIdx.x + r * T;
    unsigned run = 0;
    if (w < WORDS) {
#pragma unroll 4
      for (int x = 0; x < W; ++x) {
        const unsigned c = cnt[x][w];
        cnt[x][w] = run;
        run += c;
      }
      if (w < active_words) {
        const unsigned state = tile == 0 ? state_prefix : state_aggregate;
        counted_status::publish(status + std::int64_t(tile) * wide_digits + 2 * w, state, run & 0xffffu);
        counted_status::publish(status + std::int64_t(tile) * wide_digits + 2 * w + 1, state, run >> 16);
      }
    }
    packed_count[r] = run;
    unsigned total;
    const unsigned excl = block::exclusive_sum<T>((run & 0xffffu) + (run >> 16), warp_totals, total);
    start_lo[r] = carry + excl;
    carry += total;
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int w = threadIdx.x + r * T;
    if (w < WORDS) {
      const unsigned add = start_lo[r] | ((start_lo[r] + (packed_count[r] & 0xffffu)) << 16);
#pragma unroll 4
      for (int x = 0; x < W; ++x) cnt[x][w] += add;
    }
  }
  __syncthreads();

  // Ranks: lanes with the same digit by 11 ballots; the highest adds the group's size.
  unsigned rank[I];
  const unsigned lanes_le = warp::lanemask_le();
#pragma unroll
  for (int j = 0; j < I; ++j) {
    const unsigned dj = digit(key[j]);
    const unsigned peers = warp::match_by_ballots<wide_bits>(dj);
    const int leader = 31 - __clz(peers);
    const unsigned below = __popc(peers & lanes_le);
    const unsigned half = (dj & 1) * 16;
    unsigned first = 0;
    if (lane == leader) first = (atomicAdd(&cnt[warp][dj >> 1], below << half) >> half) & 0xffffu;
    first = __shfl_sync(0xffffffffu, first, leader);
    rank[j] = first + below - 1;
  }
  // The thread's values loaded (input order), and put at their keys' ranks in their stage (argsort:
  // the indices); early with P::early_values (the value stage is not shared with the counts), else
  // loaded before the look-back and staged after it.
  const auto load_values = [&](unsigned(&v)[I]) {
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = warp_begin + j * 32 + lane;
      if (values_src != nullptr && (full || i < tile_n)) v[j] = values_src[tile_begin + i];
    }
  };
  const auto stage_values = [&](const unsigned(&v)[I]) {
#pragma unroll
    for (int j = 0; j < I; ++j) {
      const int i = warp_begin + j * 32 + lane;
      if (full || i < tile_n) value_stage[rank[j]] = values_src ? v[j] : static_cast<unsigned>(tile_begin + i);
    }
  };
  if constexpr (Values && P::early_values) {
    unsigned v[I];
    load_values(v);
    stage_values(v);
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < I; ++j) key_stage[rank[j]] = key[j];
  unsigned value[I];
  if constexpr (Values && !P::early_values) load_values(value);

  // Look-back: the thread's 2R chains walked together, nearest predecessor first.
  {
    constexpr int K = 2 * R;
    unsigned ex[K];
    bool todo[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int w = threadIdx.x + (k / 2) * T;
      ex[k] = 0;
      todo[k] = tile > 0 && w < active_words;
    }
    const unsigned* mine = status + 2 * threadIdx.x;
    for (std::int64_t next = std::int64_t(tile) - 1;; --next) {
      unsigned wv[K];
      bool any = false;
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (todo[k]) wv[k] = load_relaxed(mine + next * wide_digits + (k / 2) * 2 * T + (k & 1));
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (!todo[k]) continue;
        while ((wv[k] >> counted_status::state_shift) == state_invalid)
          wv[k] = load_relaxed(mine + next * wide_digits + (k / 2) * 2 * T + (k & 1));
        ex[k] += wv[k] & counted_status::count_mask;
        if ((wv[k] >> counted_status::state_shift) == state_prefix) todo[k] = false;
        any |= todo[k];
      }
      if (!any) break;
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int w = threadIdx.x + (k / 2) * T;
      if (w >= WORDS) continue;
      const int d = 2 * w + (k & 1);
      const unsigned own = (k & 1) ? packed_count[k / 2] >> 16 : packed_count[k / 2] & 0xffffu;
      const unsigned first = (k & 1) ? start_lo[k / 2] + (packed_count[k / 2] & 0xffffu) : start_lo[k / 2];
      if (tile > 0 && w < active_words) counted_status::publish(status + std::int64_t(tile) * wide_digits + d, state_prefix, ex[k] + own);
      base[d] = bins[d] + ex[k] - first;
    }
  }
  if constexpr (Values && !P::early_values) stage_values(value);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < I; ++k) {
    const int i = k * T + threadIdx.x;
    if (full || i < tile_n) {
      const unsigned b = key_stage[i];
      const unsigned at = base[digit(b)] + static_cast<unsigned>(i);
      keys_dst[at] = b;
      if constexpr (Values) values_dst[at] = value_stage[i];
    }
  }
}

/// Temporary storage: the bins, a tile counter per pass, and each pass's status words (all cleared
/// by one memset).
template <class P>
struct wide_layout {
  std::int64_t tiles;
  std::size_t bins = 0, counters, status, total;
  explicit wide_layout(std::int64_t n) : tiles((n + P::tile_items - 1) / P::tile_items) {
    counters = align_up(wide_passes * wide_digits * 4);
    status = counters + align_up(wide_passes * 4);
    total = status + std::size_t(wide_passes) * tiles * wide_digits * 4;
  }
};

/// values_in null with Values: argsort (the first pass writes the indices).
template <class P, bool Values>
void wide_sort(void* temp, const unsigned* kin, unsigned* kout, unsigned* ktemp, const unsigned* vin, unsigned* vout,
               unsigned* vtemp, std::int64_t n, bool clear = true) {
  const wide_layout<P> l(n);
  char* t = static_cast<char*>(temp);
  unsigned* bins = reinterpret_cast<unsigned*>(t + l.bins);
  unsigned* counters = reinterpret_cast<unsigned*>(t + l.counters);
  unsigned* status = reinterpret_cast<unsigned*>(t + l.status);
  if (clear) CK(cudaMemsetAsync(t, 0, l.total));
  const std::int64_t hist_tiles = (n + hist_t * hist_i - 1) / (hist_t * hist_i);
  wide_histogram<<<static_cast<unsigned>(hist_tiles < 1056 ? hist_tiles : 1056), hist_t>>>(kin, n, bins);
  wide_scan<<<1, 1024>>>(bins);
  const auto kernel = wide_pass<P, Values>;
  const int smem = static_cast<int>(P::smem(Values));
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  // in → out → temp → out
  const unsigned* ksrc[3] = {kin, kout, ktemp};
  unsigned* kdst[3] = {kout, ktemp, kout};
  const unsigned* vsrc[3] = {vin, vout, vtemp};
  unsigned* vdst[3] = {vout, vtemp, vout};
  for (int p = 0; p < wide_passes; ++p) {
    const int bits = 32 - p * wide_bits < wide_bits ? 32 - p * wide_bits : wide_bits;
    kernel<<<static_cast<unsigned>(l.tiles), P::threads, smem>>>(ksrc[p], kdst[p], vsrc[p], vdst[p], n, p * wide_bits,
                                                                 (1u << bits) - 1u, bins + p * wide_digits,
                                                                 status + std::size_t(p) * l.tiles * wide_digits, counters + p);
    CK(cudaGetLastError());
  }
}

bool any_wrong = false;

struct rig {
  std::int64_t n;
  unsigned *in, *out, *ref, *ktemp, *vin, *vout, *vref, *vtemp;
  cub_sort_timer cub_timer;
  void* temp = nullptr;
  std::size_t temp_cap = 0;
  explicit rig(std::int64_t n_) : n(n_) {
    for (unsigned** p : {&in, &out, &ref, &ktemp, &vin, &vout, &vref, &vtemp}) CK(cudaMalloc(p, n * 4));
    std::vector<unsigned> v(n);
    for (std::int64_t i = 0; i < n; ++i) v[i] = static_cast<unsigned>(i);
    CK(cudaMemcpy(vin, v.data(), n * 4, cudaMemcpyHostToDevice));
  }
  void* temp_of(std::size_t b) {
    if (b > temp_cap) { if (temp) CK(cudaFree(temp)); CK(cudaMalloc(&temp, b)); temp_cap = b; }
    return temp;
  }
  float cub_ms(bool pairs) { return cub_timer.ms(in, ref, vin, vref, n, pairs, {10, 2, 500}); }
  long long bad(const unsigned* a, const unsigned* b) {
    std::vector<unsigned> x(n), y(n);
    CK(cudaMemcpy(x.data(), a, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y.data(), b, n * 4, cudaMemcpyDeviceToHost));
    long long k = 0;
    for (std::int64_t i = 0; i < n; ++i) k += x[i] != y[i];
    return k;
  }
  // mode 0 keys, 1 pairs (values = indices, so CUB's SortPairs is also the argsort reference), 2 argsort
  template <class F>
  void row(const char* name, int mode, float cub, F f) {
    CK(cudaMemset(out, 0xa5, n * 4));
    CK(cudaMemset(vout, 0xa5, n * 4));
    f();
    CK(cudaDeviceSynchronize());
    const long long wrong = bad(out, ref) + (mode ? bad(vout, vref) : 0);
    const float ms = median_ms({10, 2, 500}, f);
    std::printf("  %-34s %8.4f ms  %6.3fx CUB  %s\n", name, ms, cub / ms, wrong ? "WRONG" : "ok");
    if (wrong) std::printf("    %lld words differ\n", wrong);
    any_wrong |= wrong != 0;
  }
  template <class P>
  void wide_row(const char* name, int mode, float cub) {
    void* t = temp_of(wide_layout<P>(n).total);
    if (mode == 0) row(name, mode, cub, [&] { wide_sort<P, false>(t, in, out, ktemp, nullptr, nullptr, nullptr, n); });
    else row(name, mode, cub, [&] { wide_sort<P, true>(t, in, out, ktemp, mode == 1 ? vin : nullptr, vout, vtemp, n); });
  }
  void eight_bit_row(int mode, float cub) {
    const os::pass_set ps{0, 32, 4, key_kind::unsigned_int, false};
    if (mode == 0) {
      using P = os::default_policy_t<unsigned, os::no_values>;
      void* t = temp_of(os::temp_bytes<P, unsigned>(n, 4));
      const os::buffers<unsigned, os::no_values> io{in, out, ktemp, nullptr, nullptr, nullptr};
      row("8-bit default (4 passes)", mode, cub, [&] { CK((os::run<P, unsigned>(t, io, n, ps, 0, false))); });
    } else {
      using P = os::default_policy_t<unsigned, unsigned>;
      void* t = temp_of(os::temp_bytes<P, unsigned>(n, 4));
      const os::buffers<unsigned, unsigned> io{in, out, ktemp, mode == 1 ? vin : nullptr, vout, vtemp};
      row("8-bit default (4 passes)", mode, cub, [&] { CK((os::run<P, unsigned>(t, io, n, ps, 0, false))); });
    }
  }
  // The wide sort's memset of its status words alone (what a cleared-once status scheme would save).
  template <class P>
  void memset_row() {
    const wide_layout<P> l(n);
    void* t = temp_of(l.total);
    const float ms = median_ms({10, 2, 500}, [&] { CK(cudaMemsetAsync(t, 0, l.total)); });
    std::printf("  memset of the wide temp storage (%.0f MB): %.4f ms\n", l.total / 1e6, ms);
  }
};

#define WIDE(T, I, B) r.template wide_row<wide_policy<T, I, B>>("wide 11-bit " #T " x " #I " b" #B, mode, cub)
#define WIDE_EARLY(T, I, B) r.template wide_row<wide_policy<T, I, B, true>>("wide 11-bit " #T " x " #I " b" #B " early values", mode, cub)

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 28;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  const std::int64_t n = std::int64_t(1) << lg;
  if (lg > 28) { std::printf("one portion only: log2 n <= 28\n"); return 2; }
  const auto resources = [](const char* name, const void* f, bool values, auto policy) {
    using P = decltype(policy);
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, f));
    CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(P::smem(values))));
    int blocks = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, P::threads, P::smem(values)));
    std::printf("%-28s %3d registers, %4zu B local, %6zu B shared, %d blocks per SM\n", name, a.numRegs, a.localSizeBytes,
                a.sharedSizeBytes + P::smem(values), blocks);
  };
  resources("keys 512x16 b2", (const void*)wide_pass<wide_policy<512, 16, 2>, false>, false, wide_policy<512, 16, 2>{});
  resources("keys 256x32 b3", (const void*)wide_pass<wide_policy<256, 32, 3>, false>, false, wide_policy<256, 32, 3>{});
  resources("keys 384x24 b2", (const void*)wide_pass<wide_policy<384, 24, 2>, false>, false, wide_policy<384, 24, 2>{});
  resources("keys 512x24 b2", (const void*)wide_pass<wide_policy<512, 24, 2>, false>, false, wide_policy<512, 24, 2>{});
  resources("pairs 512x16 b2", (const void*)wide_pass<wide_policy<512, 16, 2>, true>, true, wide_policy<512, 16, 2>{});
  resources("pairs 256x32 b3", (const void*)wide_pass<wide_policy<256, 32, 3>, true>, true, wide_policy<256, 32, 3>{});
  resources("pairs 384x24 b2", (const void*)wide_pass<wide_policy<384, 24, 2>, true>, true, wide_policy<384, 24, 2>{});
  resources("pairs 512x16 b2 early", (const void*)wide_pass<wide_policy<512, 16, 2, true>, true>, true, wide_policy<512, 16, 2, true>{});
  resources("pairs 384x24 b2 early", (const void*)wide_pass<wide_policy<384, 24, 2, true>, true>, true, wide_policy<384, 24, 2, true>{});
  resources("pairs 256x32 b3 early", (const void*)wide_pass<wide_policy<256, 32, 3, true>, true>, true, wide_policy<256, 32, 3, true>{});
  rig r(n);
  for (int few = 0; few < 2; ++few) {
    std::vector<unsigned> h(n);
    std::mt19937_64 rng(42);
    for (auto& x : h) x = static_cast<unsigned>(few ? rng() & rng() & rng() : rng());
    CK(cudaMemcpy(r.in, h.data(), n * 4, cudaMemcpyHostToDevice));
    for (int mode = 0; mode < 3; ++mode) {
      const float cub = r.cub_ms(mode != 0);
      std::printf("u32 n=2^%d %s %s: CUB %s %.4f ms\n", lg, few ? "few" : "uniform", mode == 0 ? "keys" : mode == 1 ? "pairs" : "argsort",
                  mode == 0 ? "SortKeys" : "SortPairs", cub);
      for (int round = 0; round < (few ? 1 : rounds); ++round) {
        r.eight_bit_row(mode, cub);
        WIDE(512, 16, 2);
        WIDE(256, 32, 3);
        WIDE(384, 24, 2);
        if (mode == 0) { WIDE(512, 24, 2); } else { WIDE_EARLY(512, 16, 2); WIDE_EARLY(384, 24, 2); WIDE_EARLY(256, 32, 3); }
      }
    }
  }
  r.memset_row<wide_policy<512, 16, 2>>();
  return any_wrong ? 1 : 0;
}
