// Lanes of a warp that hold the same small label (a radix digit): by one ballot per bit of the label,
// as CUB's MatchAny (on sm_90 cheaper than __match_any_sync for 8-bit labels), or by the instruction.
#pragma once

namespace parascan::warp {

/// The mask of the lanes whose label equals this lane's; labels must fit in Bits bits and every
/// lane of the warp must take part.
/// Per bit: one predicate from the label, the ballot, and its complement where the bit is clear
/// (4 instructions; written in PTX as CUB's MatchAny is: the same code in C++ compiled to 7, as the
/// predicate was derived twice).
template <int Bits>
__device__ __forceinline__ unsigned match_by_ballots(unsigned label) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < Bits; ++b) {
    unsigned same;
    asm("{\n"
        "  .reg .pred p;\n"
        "  and.b32 %0, %1, %2;\n"
        "  setp.ne.u32 p, %0, 0;\n"
        "  vote.ballot.sync.b32 %0, p, 0xffffffff;\n"
        "  @!p not.b32 %0, %0;\n"
        "}\n"
        : "=r"(same)
        : "r"(label), "r"(1u << b));
    peers &= same;
  }
  return peers;
}

enum class match_method { ballots, match_any };

template <int Bits, match_method Method>
__device__ __forceinline__ unsigned match_label(unsigned label) {
  if constexpr (Method == match_method::ballots) return match_by_ballots<Bits>(label);
  else return __match_any_sync(0xffffffffu, label);
}

/// Bit i set for the lanes i < this lane.
__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

/// Bit i set for the lanes i ≤ this lane.
__device__ __forceinline__ unsigned lanemask_le() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
  return m;
}

}  // namespace parascan::warp
