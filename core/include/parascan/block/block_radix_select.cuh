// A block finds the k-th smallest of a run of keys by radix select (MSD, 8-bit digits), and then lists
// the k smallest in input order.
//
// Keys are compared by an order-preserving image `ordered(raw)` (unsigned bits, supplied by the
// caller: radix_digits.cuh's for CUB's key order, complemented for the largest). select():
//   per digit, most significant first: every key whose image matches the prefix found so far adds 1
//   to its digit's shared counter; one warp scans the 256 counts and finds the digit where the count
//   reaches k; the prefix takes that digit and k drops by the keys of smaller digits
// leaving the k-th smallest image (the threshold) and how many keys equal to it belong to the k
// smallest (`ties`). Work: one read of the keys per digit (from shared memory when the caller cached
// them there) and one shared atomic per key still matching. list() then walks the keys in input order
// a block-width at a time: keys below the threshold, and the first `ties` keys equal to it, are
// written at their rank among the chosen (ballots and popcounts per warp, warp totals in shared
// memory), so the k come out in input order. Used by the top-k (device/device_topk.cuh).
#pragma once
#include <cstdint>

namespace parascan::block {

template <int Threads, class U>
struct radix_select {
  static_assert(Threads % 32 == 0 && Threads <= 1024, "Threads: a multiple of 32, at most 1024");
  static constexpr int warps = Threads / 32, digits = 256;

  struct storage {
    unsigned counts[digits];
    unsigned warp_counts[2][warps];
    U prefix;
    unsigned below;  // keys of smaller digits in the digit just chosen
    unsigned equal;  // keys of the digit just chosen
  };

  struct result {
    U threshold;    // the k-th smallest image
    unsigned ties;  // keys equal to it among the k smallest (≥ 1)
    unsigned equal; // keys equal to it (≥ ties): ties == equal chooses every one of them
  };

  /// The k-th smallest image among keys[0, n) (1 ≤ k ≤ n < 2^32).
  template <class Keys, class Ordered>
  __device__ static result select(storage& s, const Keys& keys, unsigned n, unsigned k, const Ordered& ordered) {
    U prefix = 0, mask = 0;
    unsigned need = k, equal = 0;
    for (int shift = static_cast<int>(sizeof(U) * 8) - 8; shift >= 0; shift -= 8) {
      for (int d = threadIdx.x; d < digits; d += Threads) s.counts[d] = 0;
      __syncthreads();
      for (unsigned i = threadIdx.x; i < n; i += Threads) {
        const U b = ordered(keys[i]);
        if ((b & mask) == prefix) atomicAdd(&s.counts[static_cast<unsigned>(b >> shift) & 255u], 1u);
      }
      __syncthreads();
      if (threadIdx.x < 32) {  // one warp: 8 digits a lane, scanned across the lanes
        const unsigned lane = threadIdx.x;
        unsigned mine[8], sum = 0;
        for (int j = 0; j < 8; ++j) sum += (mine[j] = s.counts[lane * 8 + j]);
        unsigned before = sum;  // inclusive scan of the lane sums, then made exclusive
        for (int o = 1; o < 32; o <<= 1) {
          const unsigned v = __shfl_up_sync(0xffffffffu, before, o);
          if (lane >= static_cast<unsigned>(o)) before += v;
        }
        before -= sum;
        if (before < need && need <= before + sum) {  // exactly one lane holds the k-th key's digit
          for (int j = 0; j < 8; ++j) {
            if (before < need && need <= before + mine[j]) {
              s.prefix = static_cast<U>(prefix | (static_cast<U>(lane * 8 + j) << shift));
              s.below = before;
              s.equal = mine[j];
              break;
            }
            before += mine[j];
          }
        }
      }
      __syncthreads();
      prefix = s.prefix;
      need -= s.below;
      equal = s.equal;
      mask = static_cast<U>(mask | (static_cast<U>(255) << shift));
      __syncthreads();  // s.prefix and s.below are rewritten by the next digit
    }
    return {prefix, need, equal};
  }

  /// The number of threads before this one (in thread order) whose flag is set, and in `total` the
  /// block's count; `counts` is shared scratch of one word a warp. Every thread calls it (a barrier inside).
  __device__ static unsigned rank_in_block(unsigned (&counts)[warps], bool flag, unsigned& total) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const unsigned ballot = __ballot_sync(0xffffffffu, flag);
    if (lane == 0) counts[warp] = __popc(ballot);
    __syncthreads();
    unsigned rank = __popc(ballot & ((1u << lane) - 1u));
    total = 0;
    for (unsigned w = 0; w < warps; ++w) {
      if (w < warp) rank += counts[w];
      total += counts[w];
    }
    return rank;
  }

  /// Calls emit(rank, i) for the k chosen keys of keys[0, n) — images below r.threshold, and the
  /// first r.ties equal to it — with rank their place among the chosen in input order.
  template <class Keys, class Ordered, class Emit>
  __device__ static void list(storage& s, const Keys& keys, unsigned n, result r, const Ordered& ordered, Emit&& emit) {
    unsigned chosen_before = 0, equal_before = 0;  // over the earlier block-widths
    for (unsigned base = 0; base < n; base += Threads) {
      const unsigned i = base + threadIdx.x;
      U b = 0;
      if (i < n) b = ordered(keys[i]);
      const bool below = i < n && b < r.threshold, equal = i < n && b == r.threshold;
      // Rank among the equal keys first (it decides which of them are chosen), then among the chosen.
      unsigned eq_total = 0, ch_total = 0;
      const unsigned eq_rank = equal_before + rank_in_block(s.warp_counts[0], equal, eq_total);
      const bool chosen = below || (equal && eq_rank < r.ties);
      const unsigned rank = chosen_before + rank_in_block(s.warp_counts[1], chosen, ch_total);
      if (chosen) emit(rank, i);
      chosen_before += ch_total;
      equal_before += eq_total;
      __syncthreads();  // warp_counts are rewritten by the next block-width
    }
  }
};

}  // namespace parascan::block
