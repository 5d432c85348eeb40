// A block sorts one tile of Threads × Items keys in shared memory: a stable LSD radix sort with
// 8-bit digits, each key carrying an index (its position, so that the caller can move keys and values
// from where they lie). The ranking is the Onesweep pass's (Adinets & Merrill 2022, as CUB's
// BlockRadixRankMatch) without the look-back:
//
//   per digit pass
//   1. counts: one shared atomicAdd of 1 per key into its warp's histogram of the digit
//   2. places: per digit an exclusive sum over the warps, then one over the digits (block
//      exclusive sum): warp w's first place for digit d = keys of smaller digits + keys of digit d
//      in warps before w
//   3. ranks, per key in input order: the lanes holding the same digit (8 ballots), the highest of
//      them adds their number to its warp's running place of the digit, one shuffle shares the old
//      value
//   4. keys and indices stored at their ranks; read back warp-striped for the next pass
//
// Keys come warp-striped: warp w holds the tile's items [w · 32 · Items, (w + 1) · 32 · Items), lane l
// item j · 32 + l of them, so (warp, j, lane) is input order and each pass is stable. Shared memory:
// the tile's keys (the histograms share their space) and indices. Work per pass: Items atomics,
// 8 · Items ballots and one barrier-separated exchange per thread. Used by the segmented sort
// (device/segmented_sort/) for segments that fit one tile, and for the runs of larger ones.
// `Indexed = false`: keys only (no index array in shared memory, no index moved).
// `OwnCounts = true`: the digit counts get their own space instead of sharing the keys', so they are
// cleared for the next pass while the keys are exchanged: two barriers a pass fewer, warps × 1 KB more
// shared memory (measured in experiments/one_block_sort.cu, performance.md entry 50).
#pragma once
#include <type_traits>
#include "parascan/block/block_exclusive_sum.cuh"
#include "parascan/warp/warp_match.cuh"

namespace parascan::block {

template <int Threads, int Items, class K, bool Indexed = true, bool OwnCounts = false>
struct radix_sort {
  static_assert(Threads % 32 == 0 && Threads <= 1024 && (Threads & (Threads - 1)) == 0,
                "Threads: 32 to 1024, a power of two");
  static constexpr int tile = Threads * Items, warps = Threads / 32, digits = 256;
  /// Step 2's digits per thread; past 256 threads, threads 256 and up own none.
  static constexpr int digits_per_thread = Threads < digits ? digits / Threads : 1;

  union shared_counts {
    unsigned warp_hist[warps][digits];  // per warp: count, then running place of each digit
    K keys[tile];                       // the keys in the order of the last pass
  };
  struct own_counts {
    unsigned warp_hist[warps][digits];
    K keys[tile];
  };
  struct storage {
    std::conditional_t<OwnCounts, own_counts, shared_counts> u;
    unsigned index[Indexed ? tile : 1];
    unsigned warp_totals[warps];
  };

  /// Keys only (Indexed = false): as below, without the indices.
  __device__ __forceinline__ static void sort(K (&key)[Items], int bits, storage& s) {
    static_assert(!Indexed, "an indexed sort takes the indices");
    unsigned unused[Items];
    sort(key, unused, bits, s);
  }

  /// Sorts the tile by the low `bits` bits of its keys (ascending, stable); key[j] and index[j] are
  /// item warp_begin + j · 32 + lane of the tile (warp-striped), and any bits above `bits` must be
  /// zero. Afterwards s.u.keys[q] and s.index[q] are the q-th item of the sorted tile. Begins and
  /// ends with a barrier.
  __device__ __forceinline__ static void sort(K (&key)[Items], unsigned (&index)[Items], int bits, storage& s) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warp_begin = warp * 32 * Items;
    const unsigned lanes_le = warp::lanemask_le();
    __syncthreads();
    if (bits <= 0) {  // nothing to compare: the input order
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        s.u.keys[warp_begin + j * 32 + lane] = key[j];
        if constexpr (Indexed) s.index[warp_begin + j * 32 + lane] = index[j];
      }
      __syncthreads();
      return;
    }
    const auto clear_counts = [&] {
      for (int i = threadIdx.x; i < warps * digits; i += Threads) (&s.u.warp_hist[0][0])[i] = 0;
    };
    if constexpr (OwnCounts) {
      clear_counts();
      __syncthreads();
    }
    for (int shift = 0; shift < bits; shift += 8) {
      const auto digit = [&](K k) { return static_cast<unsigned>(k >> shift) & 0xffu; };
      // 1. Counts (cleared here where they share the keys' space, else during the last exchange).
      if constexpr (!OwnCounts) {
        clear_counts();
        __syncthreads();
      }
#pragma unroll
      for (int j = 0; j < Items; ++j) atomicAdd(&s.u.warp_hist[warp][digit(key[j])], 1u);
      __syncthreads();
      // 2. Places: this thread's digits are [threadIdx.x · digits_per_thread, + digits_per_thread).
      const bool owns = Threads <= digits || threadIdx.x < digits;
      unsigned count[digits_per_thread], mine = 0;
#pragma unroll
      for (int k = 0; k < digits_per_thread; ++k) {
        const int d = threadIdx.x * digits_per_thread + k;
        unsigned c = 0;
        if (owns) {
#pragma unroll
          for (int w = 0; w < warps; ++w) {
            const unsigned t = s.u.warp_hist[w][d];
            s.u.warp_hist[w][d] = c;
            c += t;
          }
        }
        count[k] = c;
        mine += c;
      }
      unsigned total;
      unsigned start = exclusive_sum<Threads>(mine, s.warp_totals, total);
      if (owns) {
#pragma unroll
        for (int k = 0; k < digits_per_thread; ++k) {
          const int d = threadIdx.x * digits_per_thread + k;
#pragma unroll
          for (int w = 0; w < warps; ++w) s.u.warp_hist[w][d] += start;
          start += count[k];
        }
      }
      __syncthreads();
      // 3. Ranks.
      unsigned rank[Items];
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const unsigned dj = digit(key[j]);
        const unsigned peers = warp::match_by_ballots<8>(dj);
        const int leader = 31 - __clz(peers);
        const unsigned below = __popc(peers & lanes_le);
        unsigned first = 0;
        if (lane == leader) first = atomicAdd(&s.u.warp_hist[warp][dj], below);
        first = __shfl_sync(0xffffffffu, first, leader);
        rank[j] = first + below - 1;
      }
      __syncthreads();  // every rank taken: the histograms' space holds the keys now
      if constexpr (OwnCounts) clear_counts();  // for the next pass; its first atomics follow a barrier
      // 4. Exchange.
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        s.u.keys[rank[j]] = key[j];
        if constexpr (Indexed) s.index[rank[j]] = index[j];
      }
      __syncthreads();
      if (shift + 8 < bits) {
#pragma unroll
        for (int j = 0; j < Items; ++j) {
          key[j] = s.u.keys[warp_begin + j * 32 + lane];
          if constexpr (Indexed) index[j] = s.index[warp_begin + j * 32 + lane];
        }
        if constexpr (!OwnCounts) __syncthreads();  // the next pass clears the counts over these keys
      }
    }
  }
};

}  // namespace parascan::block
