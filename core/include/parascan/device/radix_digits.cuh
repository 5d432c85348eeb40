// Digits of radix-sort keys (see radix_sort.hpp for the order): shared by the split and Onesweep
// kernels. Include from a .cu file.
#pragma once
#include "parascan/radix_sort.hpp"

namespace parascan::device::sort_detail {

/// The key's bits in an order that unsigned comparison sorts as the key sorts (complemented for
/// descending): signed → sign bit flipped; float → −0.0 taken as +0.0, negatives inverted, positives
/// with the sign bit set (NaNs land outside ±inf by their bit patterns).
template <class U>
__host__ __device__ __forceinline__ U ordered_bits(U raw, key_kind kind, bool descending) {
  constexpr U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  U b = raw;
  if (kind == key_kind::signed_int) {
    b = static_cast<U>(b ^ sign);
  } else if (kind == key_kind::floating) {
    if (b == sign) b = 0;
    b = (b & sign) ? static_cast<U>(~b) : static_cast<U>(b | sign);
  }
  return descending ? static_cast<U>(~b) : b;
}

/// One digit: `bits` bits of the ordered key starting at `shift`.
struct digit_place {
  int shift, bits;
  key_kind kind;
  bool descending;
};

template <class U>
__device__ __forceinline__ unsigned digit_of(U raw, const digit_place& p) {
  const U b = ordered_bits(raw, p.kind, p.descending);
  return static_cast<unsigned>(b >> p.shift) & ((1u << p.bits) - 1u);
}

/// The order-preserving bits of a key, converted once on load and back once on store (Onesweep):
/// encode(raw) = ordered_bits(raw) for every key but −0.0, which keeps its own bits so that it is
/// stored back unchanged; digits read ordered(b), which maps encoded −0.0 onto encoded +0.0.
/// encode is raw ^ (sign of raw ? enc_set : enc_clear) and decode the same xor chosen by the sign of
/// the encoded bits, so both are one select and one xor; for integers the two masks are equal and
/// ordered() is the identity.
template <class U>
struct key_codec {
  static constexpr U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  U enc_clear, enc_set, dec_clear, dec_set, neg_zero, pos_zero;
  __host__ __device__ key_codec(key_kind kind, bool descending)
      : enc_clear(ordered_bits(U(0), kind, descending)),
        enc_set(static_cast<U>(ordered_bits(static_cast<U>(sign | U(1)), kind, descending) ^ static_cast<U>(sign | U(1)))),
        dec_clear((enc_clear & sign) ? enc_set : enc_clear),
        dec_set((enc_clear & sign) ? enc_clear : enc_set),
        neg_zero(kind == key_kind::floating ? static_cast<U>(sign ^ enc_set) : U(0)),
        pos_zero(kind == key_kind::floating ? enc_clear : U(0)) {}
  __host__ __device__ __forceinline__ U encode(U raw) const { return static_cast<U>(raw ^ ((raw & sign) ? enc_set : enc_clear)); }
  __host__ __device__ __forceinline__ U decode(U b) const { return static_cast<U>(b ^ ((b & sign) ? dec_set : dec_clear)); }
  __host__ __device__ __forceinline__ U ordered(U b) const { return b == neg_zero ? pos_zero : b; }
  /// The same codec for integer keys, whose paired masks are equal (and neg_zero, pos_zero both 0):
  /// each pair made one value, so that a kernel compiled for integer keys drops the select on the
  /// sign bit and the −0.0 test from every key (performance.md entry 60).
  __host__ __device__ __forceinline__ key_codec integer_form() const {
    key_codec c = *this;
    c.enc_set = c.enc_clear;
    c.dec_set = c.dec_clear;
    c.neg_zero = c.pos_zero;
    return c;
  }
};

/// Values: moved from `values_in`, or the item's index when `values_in` is null (argsort's first pass).
struct no_values {};

}  // namespace parascan::device::sort_detail
