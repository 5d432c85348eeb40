// A warp's k smallest items (k ≤ 32) among up to 32 · Items it holds striped: lane l's item j is
// position j · 32 + l. Round r takes each lane's smallest live item (the earliest position on ties, as
// positions rise with j), finds the warp's smallest (image, position) by a shuffle reduction, and
// retires it at its owner; lane r keeps round r's position. k rounds of Items compares and five
// shuffle steps: for the few largest of short rows (top-k of rows ≤ 256 keys, k ≤ 32) this beats
// sorting each row whole.
#pragma once
#include <type_traits>
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::warp {

/// The positions of the k smallest (image, position) pairs, smallest first: lane r (r < k) returns
/// the r-th, lanes from k on return 0xffffffff. `alive` bit j: item j holds a key (items past a row's
/// end are not alive). Every lane of the warp must call it with the same k.
template <int Items, class U>
__device__ __forceinline__ unsigned smallest_positions(const U (&image)[Items], unsigned alive, int k) {
  static_assert(Items >= 1 && Items <= 32, "Items: 1 to 32 a lane");
  constexpr unsigned none = 0xffffffffu;
  const unsigned lane = threadIdx.x % 32;
  unsigned mine = none;
  for (int r = 0; r < k; ++r) {
    U best = U(~U(0));
    unsigned at = none;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      if (((alive >> j) & 1u) && (at == none || image[j] < best)) {
        best = image[j];
        at = static_cast<unsigned>(j) * 32u + lane;
      }
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
      const U other = shuffle_words(best, [offset](unsigned w) { return __shfl_xor_sync(full_mask, w, offset); });
      const unsigned other_at = __shfl_xor_sync(full_mask, at, offset);
      if (other < best || (other == best && other_at < at)) {
        best = other;
        at = other_at;
      }
    }
    // `at` is the same on every lane now (none when fewer than k items are alive in all).
    if (at != none && at % 32u == lane) alive &= ~(1u << (at / 32u));
    if (static_cast<unsigned>(r) == lane) mine = at;
  }
  return mine;
}

}  // namespace parascan::warp
