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

/// Values: moved from `values_in`, or the item's index when `values_in` is null (argsort's first pass).
struct no_values {};

}  // namespace parascan::device::sort_detail
