// An experiment's Io for the Onesweep pass kernel (core's onesweep/pass_io.cuh): 4-byte keys with
// 4-byte values (or argsort's 4-byte indices) sorted as 8-byte items, the key's order-preserving bits
// above the value. The first pass that runs reads the caller's two arrays and writes items, the
// passes between move items (one 8-byte load and store per item, with the 8-byte keys' tile), the
// last writes the caller's two arrays. Two item buffers: 16 bytes per key where the library's two
// second buffers take 8. Measured a loss (docs/performance.md entry 30): the passes between were
// 6% faster than the library's pairs pass, the first and last 10% slower.
#pragma once
#include <cstdint>
#include "parascan/device/device_onesweep.cuh"

namespace parascan::device::onesweep {

/// The digit of a packed item: of its upper 32 bits, the key's (packed_buffers).
template <bool FloatKeys>
struct packed_digit {
  key_codec<std::uint32_t> codec;
  int shift;
  unsigned mask;
  __host__ __device__ packed_digit(const digit_place& p)
      : codec(p.kind, p.descending), shift(p.shift), mask((1u << p.bits) - 1u) {}
  __device__ __forceinline__ unsigned operator()(std::uint64_t item) const {
    std::uint32_t b = static_cast<std::uint32_t>(item >> 32);
    if constexpr (FloatKeys) b = codec.ordered(b);
    return (b >> shift) & mask;
  }
};

/// 4-byte keys with 4-byte values as 8-byte items (see the top of the file). `items_a` is written by
/// the pass before the last, `items_b` by the one before it, and so on alternately; sorts of at most
/// two passes need only items_a.
template <class K, class V>
struct packed_buffers {
  static_assert(sizeof(K) == 4 && sizeof(V) == 4);
  using key_type = K;
  using item_type = std::uint64_t;
  using value_type = no_values;
  template <bool FloatKeys>
  using digit_type = packed_digit<FloatKeys>;

  const K* keys_in;
  K* keys_out;
  const V* values_in;  // null: argsort
  V* values_out;
  std::uint64_t* items_a;
  std::uint64_t* items_b;

  struct ends {
    const K* keys_src;  // the first pass's
    const V* values_src;
    const std::uint64_t* items_src;  // null on the first pass
    K* keys_dst;                     // the last pass's
    V* values_dst;
    std::uint64_t* items_dst;  // null on the last pass
    key_codec<K> codec;
    __device__ __forceinline__ std::uint64_t load(std::int64_t i) const {
      if (items_src != nullptr) return items_src[i];
      const std::uint32_t value = values_src ? static_cast<std::uint32_t>(values_src[i]) : static_cast<std::uint32_t>(i);
      return (static_cast<std::uint64_t>(codec.encode(keys_src[i])) << 32) | value;
    }
    template <class Offset>
    __device__ __forceinline__ void store(Offset at, std::uint64_t b, no_values) const {
      if (items_dst != nullptr) {
        items_dst[at] = b;
      } else {
        keys_dst[at] = codec.decode(static_cast<K>(b >> 32));
        values_dst[at] = static_cast<V>(static_cast<std::uint32_t>(b));
      }
    }
  };
  __device__ __forceinline__ ends at(int i, int performed, const key_codec<K>& codec) const {
    // (chosen by a select: an array indexed at run time would be copied to local memory)
    const auto written_by = [&](int j) { return ((performed - 2 - j) & 1) == 0 ? items_a : items_b; };
    return {keys_in, values_in, i == 0 ? nullptr : written_by(i - 1), keys_out, values_out,
            i == performed - 1 ? nullptr : written_by(i), codec};
  }
  __device__ __forceinline__ void copy(std::int64_t i) const {
    keys_out[i] = keys_in[i];
    values_out[i] = values_in ? values_in[i] : static_cast<V>(i);
  }
};

using packed_policy = default_policy_t<std::uint64_t, no_values>;  // the 8-byte keys' tile

}  // namespace parascan::device::onesweep
