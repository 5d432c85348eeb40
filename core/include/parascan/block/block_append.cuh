// A block appends positions to a list it shares with other blocks (one global counter), gathered a
// block at a time:
//   1. append(): a warp's set bits take one claim on the block's staged count (warp::claim: one shuffle
//      scan of the lanes' counts, one shared atomic) and land in its room in shared memory (Slots positions)
//   2. flush(), after a __syncthreads: one global atomic takes the block's place in the list, and the
//      staged positions are copied out coalesced
// Appends past the staged room go straight to the list through one global atomic a warp. The counter
// counts every append, those past the list's capacity too (their positions are dropped), so whoever
// reads it sees an overflow. Positions come out in no particular order.
//
// Why gather: with one global atomic a warp on one counter per row, the appends of bf16 (256, 128256) at
// ~2000 positions a row took 87 µs against 47 µs gathered (experiments/topk_sampled.cu, performance.md
// entry 40). Used by the sampled top-k (device/topk/sampled.cuh).
#pragma once
#include <cstdint>
#include "parascan/warp/warp_claim.cuh"

namespace parascan::block {

template <int Slots>
struct appender {
  struct storage {
    unsigned staged[Slots];
    unsigned count;  // this block's appends so far (may pass Slots)
    unsigned base;   // where flush() writes in the list
  };

  storage& s;
  unsigned* count;  // global: the list's counter
  unsigned* list;   // global: `capacity` slots
  std::int64_t capacity;

  /// Before the first append: one thread clears the staged count (a __syncthreads before any append).
  __device__ static void init(storage& s) {
    if (threadIdx.x == 0) s.count = 0;
  }

  /// Appends first + j for every set bit j of `bits`; every lane of the warp calls it.
  __device__ __forceinline__ void append(unsigned bits, std::int64_t first) const {
    unsigned before = 0, total = 0;
    const unsigned base = warp::claim(__popc(bits), &s.count, before, total);
    if (total == 0) return;
    const unsigned lane = threadIdx.x % 32;
    const unsigned room = base >= static_cast<unsigned>(Slots) ? 0u : static_cast<unsigned>(Slots) - base;
    const unsigned kept = total < room ? total : room;
    unsigned spill = 0;  // the rest straight to the list
    if (lane == 0 && kept < total) spill = atomicAdd(count, total - kept);
    spill = __shfl_sync(0xffffffffu, spill, 0);
    for (unsigned o = before; bits != 0; ++o) {
      const unsigned p = static_cast<unsigned>(first + __ffs(bits) - 1);
      bits &= bits - 1;
      if (o < kept) s.staged[base + o] = p;
      else if (spill + (o - kept) < capacity) list[spill + (o - kept)] = p;
    }
  }

  /// The staged positions to the list; every thread of the block, after a __syncthreads.
  __device__ __forceinline__ void flush() const {
    const unsigned n = s.count < static_cast<unsigned>(Slots) ? s.count : static_cast<unsigned>(Slots);
    if (threadIdx.x == 0) s.base = n != 0 ? atomicAdd(count, n) : 0u;
    __syncthreads();
    const unsigned base = s.base;
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
      if (base + i < capacity) list[base + i] = s.staged[i];
  }
};

}  // namespace parascan::block
