// LSD radix sort of keys, or of keys with values — host API, built on the scan core.
//
//   radix_sort_keys    keys_out = keys_in sorted
//   radix_sort_pairs   the same, values_out[i] = the value that came with keys_out[i]; values_in ==
//                      nullptr sorts the indices 0..n−1 along (argsort: values_out is the permutation;
//                      8-byte positions of fewer than 2^32 keys are sorted as 4-byte ones and widened)
//
// Key types: every integer width, float, double, and the 16-bit floats __half (cuda_fp16.h) and
// __nv_bfloat16 (cuda_bf16.h), sorted as 16-bit floating keys (only declared here: include the CUDA
// header for the type where you make its keys).
// Key order is CUB's: unsigned keys by value; signed keys in two's-complement order; floats in IEEE
// order with −0.0 and +0.0 equal, NaNs by bit pattern (−NaN before −inf, +NaN after +inf). Only the
// bits [begin_bit, end_bit) of that order-preserving image of the key are compared; begin == end
// copies the input. Ascending and descending are both stable: equal keys keep their input order.
// Keys are moved unchanged (a −0.0 stays −0.0). Descending order compares the complement of that
// image, so it is exactly the ascending order reversed, ties kept in input order. (CUB 3.0.1 agrees
// bitwise except for floats with a partial bit range in descending order: there the bits its
// kernels give ±0.0 differ between its small- and large-input paths, so no single rule matches it.)
//
// Algorithms (one stable pass per digit, least significant digit first):
//   split1   one 1-bit split per bit: flag → scan → scatter, with parascan::partition_flagged (the
//            textbook design of Blelloch 1990 and GPU Gems 3 ch. 39)
//   split4   4-bit digits: per-chunk digit counts, a scan of the counts, a stable scatter ranked
//            within each block by warp matching
//   split8   the same with 8-bit digits (half the passes; faster on keys with few distinct values,
//            slower on uniform ones while its scatter writes are this scattered)
//   onesweep 8-bit digits, the counts of every pass from one read of the keys, then one pass per
//            digit: tiles ranked in shared memory, digit offsets by decoupled look-back over the
//            per-tile digit counts, writes staged so a digit's run is written contiguously
//            (Adinets & Merrill 2022); a pass whose keys all share a digit is skipped, decided on
//            the device. The default, 1.0–1.2× cub::DeviceRadixSort on the H100 for keys
//            (device_onesweep.cuh, docs/performance.md entry 18)
// Two-phase temporary storage as in scan.hpp; n may exceed 2^31; d_keys_out must not alias
// d_keys_in (nor values_out values_in).
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

struct __half;         // cuda_fp16.h
struct __nv_bfloat16;  // cuda_bf16.h

namespace parascan {

enum class sort_algorithm : int { split1, split4, split8, onesweep };

std::string_view to_string(sort_algorithm a);
std::optional<sort_algorithm> parse_sort_algorithm(std::string_view name);

/// How the bits of a key are ordered: by value (unsigned), two's complement, IEEE float.
enum class key_kind : int { unsigned_int, signed_int, floating };

template <class Key>
constexpr key_kind kind_of_key() {
  if constexpr (std::is_same_v<Key, __half> || std::is_same_v<Key, __nv_bfloat16>) return key_kind::floating;
  else if constexpr (static_cast<Key>(0.5) != Key(0)) return key_kind::floating;
  else if constexpr (static_cast<Key>(-1) < Key(0)) return key_kind::signed_int;
  else return key_kind::unsigned_int;
}

struct sort_options {
  sort_algorithm algorithm = sort_algorithm::onesweep;
  int begin_bit = 0;
  int end_bit = -1;  ///< -1: every bit of the key
  bool descending = false;
  bool debug_synchronous = false;  ///< synchronise and check after every launch (tests)
};

/// Keys of 1, 2, 4 or 8 bytes as raw bits (`kind` says how they order).
template <class Bits>
cudaError_t radix_sort_bits(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                            std::int64_t n, key_kind kind, sort_options options, cudaStream_t stream = 0);
/// Values of 1, 2, 4 or 8 bytes as raw bits; d_values_in == nullptr: the values are the indices
/// (Value must then be std::uint32_t with n ≤ 2^32, or std::uint64_t).
template <class Bits, class Value>
cudaError_t radix_sort_bits_pairs(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                                  const Value* d_values_in, Value* d_values_out, std::int64_t n, key_kind kind,
                                  sort_options options, cudaStream_t stream = 0);

template <class Key>
struct key_bits_of;
template <> struct key_bits_of<std::uint8_t> { using type = std::uint8_t; };
template <> struct key_bits_of<std::int8_t> { using type = std::uint8_t; };
template <> struct key_bits_of<std::uint16_t> { using type = std::uint16_t; };
template <> struct key_bits_of<std::int16_t> { using type = std::uint16_t; };
template <> struct key_bits_of<std::uint32_t> { using type = std::uint32_t; };
template <> struct key_bits_of<std::int32_t> { using type = std::uint32_t; };
template <> struct key_bits_of<float> { using type = std::uint32_t; };
template <> struct key_bits_of<std::uint64_t> { using type = std::uint64_t; };
template <> struct key_bits_of<std::int64_t> { using type = std::uint64_t; };
template <> struct key_bits_of<double> { using type = std::uint64_t; };
template <> struct key_bits_of<__half> { using type = std::uint16_t; };
template <> struct key_bits_of<__nv_bfloat16> { using type = std::uint16_t; };

template <class Key>
cudaError_t radix_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                            std::int64_t n, sort_options options = {}, cudaStream_t stream = 0) {
  using bits = typename key_bits_of<Key>::type;
  return radix_sort_bits<bits>(d_temp, temp_bytes, reinterpret_cast<const bits*>(d_keys_in),
                               reinterpret_cast<bits*>(d_keys_out), n, kind_of_key<Key>(), options, stream);
}

template <class Key, class Value>
cudaError_t radix_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                             const Value* d_values_in, Value* d_values_out, std::int64_t n, sort_options options = {},
                             cudaStream_t stream = 0) {
  static_assert(sizeof(Value) == 1 || sizeof(Value) == 2 || sizeof(Value) == 4 || sizeof(Value) == 8);
  using bits = typename key_bits_of<Key>::type;
  using value_bits = std::conditional_t<sizeof(Value) == 1, std::uint8_t,
                     std::conditional_t<sizeof(Value) == 2, std::uint16_t,
                     std::conditional_t<sizeof(Value) == 4, std::uint32_t, std::uint64_t>>>;
  return radix_sort_bits_pairs<bits, value_bits>(
      d_temp, temp_bytes, reinterpret_cast<const bits*>(d_keys_in), reinterpret_cast<bits*>(d_keys_out),
      reinterpret_cast<const value_bits*>(d_values_in), reinterpret_cast<value_bits*>(d_values_out), n,
      kind_of_key<Key>(), options, stream);
}

}  // namespace parascan
