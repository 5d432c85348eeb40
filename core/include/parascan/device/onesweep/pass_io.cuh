// Onesweep: what a pass reads and writes, and how it takes a digit from what it holds. The pass
// kernel (pass.cuh) is written against an `Io`: it asks for the ends of its pass (`at`: where its
// keys and values come from and go, and how keys are converted on the way), loads and stores through
// them, and takes digits with `Io::digit_type`. The library's Io is `buffers`, the caller's arrays
// with a second buffer of each; experiments bring their own (experiments/packed_pairs.cuh sorts
// pairs as 8-byte items through the same kernel).
//
// An Io has: key_type (the caller's keys, which the histogram reads from `keys_in`), item_type (what
// a pass ranks, stages and stores), value_type (no_values, or what the values' stage holds),
// digit_type<FloatKeys> (built from a digit_place; its `codec` is key_codec<key_type>),
// at(i, performed, codec) → ends of the i-th of `performed` passes that run, with load(index) → item,
// store(position, item, value) and, with values, `values_src` (null: the index is the value), and
// copy(index) for a sort in which no pass runs.
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/device/onesweep/histogram.cuh"

namespace parascan::device::onesweep {

using sort_detail::no_values;

/// A pass's digit: `bits` bits of the ordered key from `shift` (kernel parameters, read from the
/// constant bank rather than held in registers). Float keys map −0.0 onto +0.0 first (key_codec);
/// integer keys skip that compare and select.
template <class U, bool FloatKeys>
struct pass_digit {
  static constexpr bool float_keys = FloatKeys;
  key_codec<U> codec;
  int shift;
  unsigned mask;
  __host__ __device__ pass_digit(const digit_place& p)
      : codec(p.kind, p.descending), shift(p.shift), mask((1u << p.bits) - 1u) {}
  __device__ __forceinline__ unsigned operator()(U b) const {
    if constexpr (FloatKeys) b = codec.ordered(b);
    return static_cast<unsigned>(b >> shift) & mask;
  }
};

/// Whether the i-th of `performed` passes writes the caller's output (else the second buffer): the
/// last pass always does.
__host__ __device__ __forceinline__ bool writes_out(int performed, int i) { return ((performed - 1 - i) & 1) == 0; }

/// The buffers of a sort: pass i of the plan reads `keys_in` (i = 0) or the previous pass's
/// target, and writes `keys_out` or `keys_temp` (writes_out); values alike. values_in == nullptr:
/// the first pass writes each key's index as its value (argsort).
template <class U, class V>
struct buffers {
  using key_type = U;   // what the caller's keys are
  using item_type = U;  // what a pass ranks and stages
  using value_type = V;
  template <bool FloatKeys>
  using digit_type = pass_digit<U, FloatKeys>;

  const U* keys_in;
  U* keys_out;
  U* keys_temp;
  const V* values_in;
  V* values_out;
  V* values_temp;

  struct ends {
    const U* keys_src;
    U* keys_dst;
    const V* values_src;  // null on argsort's first pass
    V* values_dst;
    key_codec<U> codec;
    __device__ __forceinline__ U load(std::int64_t i) const { return codec.encode(keys_src[i]); }
    template <class Offset>
    __device__ __forceinline__ void store(Offset at, U b, V value) const {
      keys_dst[at] = codec.decode(b);
      if constexpr (!std::is_same_v<V, no_values>) values_dst[at] = value;
    }
  };
  /// The ends of the i-th of `performed` passes.
  __device__ __forceinline__ ends at(int i, int performed, const key_codec<U>& codec) const {
    return {i == 0 ? keys_in : writes_out(performed, i - 1) ? keys_out : keys_temp,
            writes_out(performed, i) ? keys_out : keys_temp,
            i == 0 ? values_in : writes_out(performed, i - 1) ? values_out : values_temp,
            writes_out(performed, i) ? values_out : values_temp, codec};
  }
  /// When no pass runs: item i of the output is item i of the input.
  __device__ __forceinline__ void copy(std::int64_t i) const {
    keys_out[i] = keys_in[i];
    if constexpr (!std::is_same_v<V, no_values>) values_out[i] = values_in ? values_in[i] : static_cast<V>(i);
  }
};

/// Argsort into the caller's 8-byte positions through 4-byte ones, widened by the last pass itself: the
/// passes rank keys and carry 4-byte positions through buffers<U, uint32_t>'s second buffers, and the
/// last performed pass stores each position widened into `wide_out` (instead of one more pass over the
/// positions after the sort: read 4, write 8 bytes an item, and a launch; widen.cuh). Keys go to
/// keys_out as with buffers. values_out and values_temp are the 4-byte ping-pong; values_in is null.
template <class U, class W>
struct widening_buffers : buffers<U, std::uint32_t> {
  using base = buffers<U, std::uint32_t>;
  W* wide_out;

  struct ends : base::ends {
    W* wide_dst;  // the last pass's: the caller's positions; null before it
    template <class Offset>
    __device__ __forceinline__ void store(Offset at, U b, std::uint32_t value) const {
      this->keys_dst[at] = this->codec.decode(b);
      if (wide_dst != nullptr) wide_dst[at] = static_cast<W>(value);
      else this->values_dst[at] = value;
    }
  };
  __device__ __forceinline__ ends at(int i, int performed, const key_codec<U>& codec) const {
    return {base::at(i, performed, codec), i == performed - 1 ? wide_out : nullptr};
  }
  /// When no pass runs (the plain sort's plan may skip them all): positions as they are.
  __device__ __forceinline__ void copy(std::int64_t i) const {
    this->keys_out[i] = this->keys_in[i];
    wide_out[i] = static_cast<W>(i);
  }
};

}  // namespace parascan::device::onesweep
