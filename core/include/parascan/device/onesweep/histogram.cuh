// Onesweep, step 1: the digit counts of every pass from one read of the keys, turned by the last
// block into each digit's first output position, and the plan of which passes need to run.
//
//   Blocks stride over tiles of 256 × 16 keys (16 independent loads in flight per thread) and count
//   in shared memory by adds of 1, each lane in one of `parts` copies of the histogram (lane % parts)
//   so that the lanes of a warp adding to one digit meet on fewer words (as CUB's histogram; an
//   earlier version that added each thread's runs of one digit once took 1.8× CUB's time on the
//   H100, docs/performance.md entry 18). Blocks flush with one global atomic per non-empty bin; the
//   last block to finish (a ticket after a fence, as CUDA's threadFenceReduction sample) scans the
//   256 counts of each pass in place and writes the pass plan: a pass whose keys all share one
//   digit (its counts hold n in one bin) moves nothing and is skipped.
#pragma once
#include <cstdint>
#include "parascan/block/block_exclusive_sum.cuh"
#include "parascan/device/launch.cuh"
#include "parascan/device/radix_digits.cuh"

namespace parascan::device::onesweep {

using sort_detail::digit_place;
using sort_detail::key_codec;

constexpr int radix_bits = 8;
constexpr int digits = 1 << radix_bits;
constexpr int max_passes = 8;  // 64-bit keys

/// The passes of one sort: pass p looks at bits [begin_bit + 8p, min(begin_bit + 8p + 8, end_bit)).
struct pass_set {
  int begin_bit, end_bit, passes;
  key_kind kind;
  bool descending;
  __host__ __device__ digit_place place(int p) const {
    const int shift = begin_bit + p * radix_bits;
    return {shift, end_bit - shift < radix_bits ? end_bit - shift : radix_bits, kind, descending};
  }
};

/// Which passes run, decided on the device: order[p] is pass p's place among the passes that run,
/// or −1 when it is skipped. The i-th of `performed` passes writes the caller's output when
/// performed − 1 − i is even, so the last one always does.
struct pass_plan {
  int performed;
  int order[max_passes];
};

constexpr int hist_threads = 256;
constexpr int hist_items = 16;
constexpr std::int64_t hist_tile = std::int64_t(hist_threads) * hist_items;
constexpr std::int64_t hist_max_blocks = 2048;

template <class Offset>
__device__ __forceinline__ void atomic_add_global(Offset* p, Offset v) {
  if constexpr (sizeof(Offset) == 8)
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  else
    atomicAdd(reinterpret_cast<unsigned*>(p), static_cast<unsigned>(v));
}

/// `bins[p · 256 + d]`, `plan` and `*done` must start at zero. On return bins[p · 256 + d] is the
/// output position of the first key whose pass-p digit is d.
template <class U, class Offset>
__global__ void __launch_bounds__(hist_threads)
    histogram_kernel(const U* keys, std::int64_t n, pass_set ps, Offset* bins, pass_plan* plan, unsigned* done) {
  constexpr int passes_max = sizeof(U);  // 8-bit digits
  constexpr int parts = sizeof(U) >= 8 ? 4 : 8;
  allow_next_grid();  // the first pass may be scheduled now; it waits for this grid's results
  __shared__ unsigned hist[passes_max][digits][parts];
  __shared__ bool last_block;
  __shared__ int trivial[max_passes];
  for (int i = threadIdx.x; i < passes_max * digits * parts; i += hist_threads) (&hist[0][0][0])[i] = 0;
  if (threadIdx.x < max_passes) trivial[threadIdx.x] = 0;
  __syncthreads();
  const key_codec<U> codec(ps.kind, ps.descending);
  const int part = threadIdx.x % parts;
  // Every key's bits are counted for passes_max digits: passes past ps.passes count into bins
  // that are never flushed (with ps.passes < passes_max the shifts past end_bit are clamped), so
  // the loop has no per-key test. Bits past end_bit are masked off first.
  int shift[passes_max];
#pragma unroll
  for (int p = 0; p < passes_max; ++p) shift[p] = ps.place(p < ps.passes ? p : ps.passes - 1).shift;
  const U range = ps.end_bit >= static_cast<int>(8 * sizeof(U)) ? static_cast<U>(~U(0))
                                                                : static_cast<U>((U(1) << ps.end_bit) - 1u);
  const auto count = [&](U raw) {
    const U b = static_cast<U>(codec.ordered(codec.encode(raw)) & range);
#pragma unroll
    for (int p = 0; p < passes_max; ++p) atomicAdd(&hist[p][static_cast<unsigned>(b >> shift[p]) & 0xffu][part], 1u);
  };
  for (std::int64_t tile = blockIdx.x; tile * hist_tile < n; tile += gridDim.x) {
    const U* tile_keys = keys + tile * hist_tile;
    const std::int64_t left = n - tile * hist_tile;
    if (left >= hist_tile) {
      U raw[hist_items];
#pragma unroll
      for (int j = 0; j < hist_items; ++j) raw[j] = tile_keys[j * hist_threads + threadIdx.x];
#pragma unroll
      for (int j = 0; j < hist_items; ++j) count(raw[j]);
    } else {
      for (int i = threadIdx.x; i < left; i += hist_threads) count(tile_keys[i]);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < ps.passes * digits; i += hist_threads) {
    unsigned c = 0;
#pragma unroll
    for (int q = 0; q < parts; ++q) c += hist[i / digits][i % digits][q];
    if (c != 0) atomic_add_global(bins + i, static_cast<Offset>(c));
  }
  // The last block scans: every block's atomics are visible to it after its ticket. The barrier makes
  // thread 0 take the ticket only after every warp of its block has flushed and fenced (without it a
  // block could count as done with warps still adding, and the last block scan short counts: seen
  // under compute-sanitizer racecheck, whose slowed warps made the sort wrong).
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  __shared__ Offset warp_totals[hist_threads / 32];
  for (int p = 0; p < ps.passes; ++p) {
    Offset* b = bins + static_cast<std::int64_t>(p) * digits;
    const Offset v = *reinterpret_cast<volatile Offset*>(b + threadIdx.x);
    if (static_cast<std::int64_t>(v) == n) trivial[p] = 1;
    Offset total;
    b[threadIdx.x] = block::exclusive_sum<hist_threads>(v, warp_totals, total);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int performed = 0;
    for (int p = 0; p < ps.passes; ++p) plan->order[p] = trivial[p] ? -1 : performed++;
    plan->performed = performed;
  }
}

}  // namespace parascan::device::onesweep
