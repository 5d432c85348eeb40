// The built-in scan operators. Each is associative; bit_* are for integers only.
//
// Integer sum and product wrap modulo 2^bits (computed in the unsigned type, so signed overflow
// is defined), exactly as CUB's results on two's-complement hardware. min/max follow
// cuda::minimum / cuda::maximum: `a < b ? a : b` and `a < b ? b : a`.
#pragma once
#include <limits>
#include <type_traits>
#include "parascan/config.hpp"

namespace parascan {

namespace detail {
template <class T>
PARASCAN_HD T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <class T>
PARASCAN_HD T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // Unsigned types narrower than int promote to int: multiply in unsigned int at least.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return a * b;
  }
}
}  // namespace detail

struct sum {
  template <class T> PARASCAN_HD T operator()(const T& a, const T& b) const { return detail::wrap_add(a, b); }
};
struct product {
  template <class T> PARASCAN_HD T operator()(const T& a, const T& b) const { return detail::wrap_mul(a, b); }
};
struct min_op {
  template <class T> PARASCAN_HD T operator()(const T& a, const T& b) const { return a < b ? a : b; }
};
struct max_op {
  template <class T> PARASCAN_HD T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
struct bit_and {
  template <class T> PARASCAN_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a & b); }
};
struct bit_or {
  template <class T> PARASCAN_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a | b); }
};
struct bit_xor {
  template <class T> PARASCAN_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a ^ b); }
};

/// Whether Op is one of the built-in operators above (those identity_of knows the identity of).
template <class Op>
inline constexpr bool is_builtin_op = std::is_same_v<Op, sum> || std::is_same_v<Op, product> ||
                                      std::is_same_v<Op, min_op> || std::is_same_v<Op, max_op> ||
                                      std::is_same_v<Op, bit_and> || std::is_same_v<Op, bit_or> ||
                                      std::is_same_v<Op, bit_xor>;

/// The identity of a built-in operator for T (the apps' default `init` of an exclusive scan).
template <class Op, class T>
T identity_of() {
  if constexpr (std::is_same_v<Op, sum> || std::is_same_v<Op, bit_or> || std::is_same_v<Op, bit_xor>) {
    return T(0);
  } else if constexpr (std::is_same_v<Op, product>) {
    return T(1);
  } else if constexpr (std::is_same_v<Op, bit_and>) {
    return static_cast<T>(~T(0));
  } else if constexpr (std::is_same_v<Op, min_op>) {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  } else {
    static_assert(is_builtin_op<Op>, "identity_of: not a built-in operator");
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  }
}

}  // namespace parascan
