// Onesweep, step 1: the digit counts of every pass from one read of the keys, turned by the last
// block into each digit's first output position, and the plan of which passes need to run.
//
//   As many blocks as are resident at once (hist_grid) stride over tiles of 256 × 16 keys (16
//   independent loads in flight per thread) and count in shared memory:
//   - keys of ≤ 4 bytes: a 16-bit counter of each digit per lane (lanes 2k and 2k + 1 share a word,
//     one in each half; digit d's word lies in bank k or k + 16 by d's parity), so a warp's adds meet
//     at most two to a bank, where 8 shared 32-bit copies (lane % 8) met about three to a bank. H200,
//     2^28 u32 keys: 0.394 against 0.473 ms for uniform keys; for keys of 4 distinct values a digit
//     0.392 against 0.285 ms (the copies merged a warp's equal adds of 1): the time no longer depends
//     on the keys (performance.md entry 59, experiments/onesweep_histogram.cu). A lane's count stays
//     below 2^16 because no thread sees more than hist_lane_tiles_max tiles (hist_grid adds blocks);
//   - 8-byte keys (8 digits: per-lane counters would take 128 KB): 4 copies of each count, lane % 4
//     (as CUB's histogram; an earlier version that added each thread's runs of one digit once took
//     1.8× CUB's time on the H100, entry 18).
//   Blocks flush with one global atomic per non-empty bin; the last block to finish (a ticket after a
//   fence, as CUDA's threadFenceReduction sample) scans the 256 counts of each pass in place and
//   writes the pass plan: a pass whose keys all share one digit (its counts hold n in one bin) moves
//   nothing and is skipped. Whether a warp of an unstable pass may rank by its atomics is decided by
//   the warp itself, from the keys it holds (pass.cuh); the histogram samples nothing for it.
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
  /// Float keys: 1 when a −0.0 is among them (it shares +0.0's digits but not its bits, so the order of
  /// the zeros shows; pass 0 then ranks stably, pass.cuh), else 0; set by the histogram.
  int signed_zeros;
};

constexpr int hist_threads = 256;
constexpr int hist_items = 16;
constexpr std::int64_t hist_tile = std::int64_t(hist_threads) * hist_items;
/// Tiles one block counts at most when its counters are 16-bit: 16 keys a thread a tile, so a lane's
/// count of one digit stays below 2^16.
constexpr std::int64_t hist_lane_tiles_max = 4095;

/// Whether keys of type U are counted in 16-bit counters, one a lane (else 32-bit, hist_parts copies).
template <class U>
constexpr bool hist_lane_counters = sizeof(U) <= 4;
constexpr int hist_parts = 4;
/// Shared memory of histogram_kernel<U> (dynamic: 64 KB for 4-byte keys, 32 KB for 8-byte keys).
template <class U>
constexpr int hist_smem_bytes() {
  return static_cast<int>(sizeof(U)) * digits * (hist_lane_counters<U> ? 16 : hist_parts) * 4;
}

template <class Offset>
__device__ __forceinline__ void atomic_add_global(Offset* p, Offset v) {
  if constexpr (sizeof(Offset) == 8)
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  else
    atomicAdd(reinterpret_cast<unsigned*>(p), static_cast<unsigned>(v));
}

/// `bins[p · 256 + d]`, `plan` and `*done` must start at zero. On return bins[p · 256 + d] is the
/// output position of the first key whose pass-p digit is d.
/// FloatKeys: ps.kind is key_kind::floating; integer keys take the codec's integer_form().
template <class U, class Offset, bool FloatKeys = true>
__global__ void __launch_bounds__(hist_threads)
    histogram_kernel(const U* keys, std::int64_t n, pass_set ps, Offset* bins, pass_plan* plan, unsigned* done) {
  constexpr int passes_max = sizeof(U);  // 8-bit digits
  constexpr bool lane_counters = hist_lane_counters<U>;
  constexpr int words_a_digit = lane_counters ? 16 : hist_parts;
  extern __shared__ unsigned hist[];  // [pass][digit][words_a_digit]: hist_smem_bytes<U>()
  __shared__ bool last_block;
  __shared__ int trivial[max_passes];
  for (int i = threadIdx.x; i < passes_max * digits * words_a_digit; i += hist_threads) hist[i] = 0;
  if (threadIdx.x < max_passes) trivial[threadIdx.x] = 0;
  __syncthreads();
  const key_codec<U> raw_codec(ps.kind, ps.descending);
  const key_codec<U> codec = FloatKeys ? raw_codec : raw_codec.integer_form();
  const int lane = threadIdx.x % 32;
  // Lane counters: word lane / 2 of the digit's 16, the lane's half of it; else copy lane % parts.
  const int word = lane_counters ? lane / 2 : lane % hist_parts;
  const unsigned one = lane_counters ? 1u << (16 * (lane & 1)) : 1u;
  // Every key's bits are counted for passes_max digits: passes past ps.passes count into bins
  // that are never flushed (with ps.passes < passes_max the shifts past end_bit are clamped), so
  // the loop has no per-key test. Bits past end_bit are masked off first.
  int shift[passes_max];
#pragma unroll
  for (int p = 0; p < passes_max; ++p) shift[p] = ps.place(p < ps.passes ? p : ps.passes - 1).shift;
  const U range = ps.end_bit >= static_cast<int>(8 * sizeof(U)) ? static_cast<U>(~U(0))
                                                                : static_cast<U>((U(1) << ps.end_bit) - 1u);
  bool negative_zero = false;
  const auto count = [&](U raw) {
    const U encoded = codec.encode(raw);
    if constexpr (FloatKeys) negative_zero |= encoded == codec.neg_zero;
    const U b = static_cast<U>(codec.ordered(encoded) & range);
#pragma unroll
    for (int p = 0; p < passes_max; ++p)
      atomicAdd(&hist[(p * digits + (static_cast<unsigned>(b >> shift[p]) & 0xffu)) * words_a_digit + word], one);
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
  // Launched after the clearing of the bins, the ticket and the plan by programmatic dependent launch
  // (run, device_onesweep.cuh): the keys were counted while it ran; nothing it clears is touched before.
  wait_for_previous_grid();
  for (int i = threadIdx.x; i < ps.passes * digits; i += hist_threads) {
    unsigned c = 0;
#pragma unroll
    for (int q = 0; q < words_a_digit; ++q) {
      const unsigned w = hist[i * words_a_digit + q];
      c += lane_counters ? (w & 0xffffu) + (w >> 16) : w;
    }
    if (c != 0) atomic_add_global(bins + i, static_cast<Offset>(c));
  }
  if constexpr (FloatKeys) {
    if (__syncthreads_or(negative_zero) && threadIdx.x == 0) atomicOr(&plan->signed_zeros, 1);
  }
  // The last block scans: every block's atomics are visible to it after its ticket. The barrier makes
  // thread 0 take the ticket only after every warp of its block has flushed and fenced (without it a
  // block could count as done with warps still adding, and the last block scan short counts: seen
  // under compute-sanitizer racecheck, whose slowed warps made the sort wrong).
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(done, 1u) == gridDim.x - 1;
  __syncthreads();
  // The first pass may be scheduled once every block has flushed (it waits for this grid's results
  // either way). Allowed at the kernel's start, the resident grid let the pass's blocks be scheduled
  // beside it: u64 keys at 2^24 took 1.170 ms against 1.095 here, u32 0.368 against 0.367 (H200,
  // performance.md entry 65).
  allow_next_grid();
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

/// The histogram's blocks for `tiles` tiles when `resident` blocks fit on the device at once: all of
/// them, more where a block would count more than hist_lane_tiles_max tiles (block b counts tiles b,
/// b + blocks, …), at most one a tile.
constexpr unsigned hist_blocks(std::int64_t tiles, std::int64_t resident) {
  const std::int64_t least = (tiles + hist_lane_tiles_max - 1) / hist_lane_tiles_max;
  const std::int64_t grid = resident > least ? resident : least;
  return static_cast<unsigned>(grid < tiles ? grid : tiles);
}

/// histogram_kernel<U, Offset, FloatKeys>'s grid for n keys, its shared memory allowed: as many blocks as are
/// resident at once (no partial last wave: 0.463 against 0.466 ms on the H200 for the 8 copies at
/// 2^28), more where a block would otherwise count more than hist_lane_tiles_max tiles, and at most
/// one a tile. n ≥ 1.
template <class U, class Offset, bool FloatKeys>
inline cudaError_t hist_grid(std::int64_t n, unsigned& blocks) {
  const auto kernel = histogram_kernel<U, Offset, FloatKeys>;
  constexpr int smem = hist_smem_bytes<U>();
  cudaError_t e = allow_dynamic_smem(kernel, smem);
  std::int64_t resident = 0;
  if (e != cudaSuccess || (e = resident_blocks(kernel, hist_threads, smem, resident)) != cudaSuccess) return e;
  blocks = hist_blocks((n + hist_tile - 1) / hist_tile, resident);
  return cudaSuccess;
}

}  // namespace parascan::device::onesweep
