// References for the radix sort: cub::DeviceRadixSort (same bit range and direction) and a CPU
// stable sort on an order-preserving image of the keys written here independently of the core's.
#pragma once
#include <cuda_runtime_api.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>
#include "parascan/radix_sort.hpp"
#include "parascan/validation/cub_count.hpp"

namespace parascan::validation {

/// cub::DeviceRadixSort::SortKeys / SortKeysDescending on bits [begin_bit, end_bit).
template <class Key>
cudaError_t cub_sort_keys(void* d_temp, std::size_t& temp_bytes, const Key* d_in, Key* d_out, std::int64_t n,
                          int begin_bit, int end_bit, bool descending, cudaStream_t stream = 0,
                          cub_count count = cub_count::int64);
/// cub::DeviceRadixSort::SortPairs / SortPairsDescending (Value: std::uint32_t or std::uint64_t).
template <class Key, class Value>
cudaError_t cub_sort_pairs(void* d_temp, std::size_t& temp_bytes, const Key* d_keys_in, Key* d_keys_out,
                           const Value* d_values_in, Value* d_values_out, std::int64_t n, int begin_bit, int end_bit,
                           bool descending, cudaStream_t stream = 0, cub_count count = cub_count::int64);

/// Benchmark keys made on the device: hashed random bits; few distinct values (the AND of three
/// hashed words, so each bit is set with probability 1/8); uniform keys sorted (by CUB); one value;
/// runs of 64 equal keys, each run's key hashed (every digit's count even, but a warp's 32 keys alike).
enum class sort_input { uniform, few_distinct, sorted, all_equal, runs };
template <class Key>
cudaError_t fill_sort_keys(Key* d, std::int64_t n, sort_input dist, std::uint64_t seed, cudaStream_t stream = 0);
/// d[i] = i (the values CUB's SortPairs sorts along for an argsort).
cudaError_t fill_indices(std::uint32_t* d, std::int64_t n, cudaStream_t stream = 0);
cudaError_t fill_indices(std::uint64_t* d, std::int64_t n, cudaStream_t stream = 0);

/// The key as an unsigned whose order is CUB's key order (complemented for descending): two's
/// complement shifted by the sign bit, floats by sign and magnitude with −0.0 taken as +0.0.
/// (CUB agrees everywhere but in one corner: a float sort with a partial bit range in descending
/// order, where the bits it gives ±0.0 depend on which of its kernels runs — see radix_sort.hpp.)
template <class Key>
auto cpu_order_of(Key k, bool descending = false) {
  using U = std::conditional_t<sizeof(Key) == 1, std::uint8_t,
            std::conditional_t<sizeof(Key) == 2, std::uint16_t,
            std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>>>;
  U u;
  std::memcpy(&u, &k, sizeof(u));
  const U top = static_cast<U>(U(1) << (8 * sizeof(U) - 1));
  if constexpr (std::is_floating_point_v<Key>) {
    if (u == top) u = 0;  // −0.0 == +0.0
    u = (u & top) ? static_cast<U>(~u) : static_cast<U>(u | top);
  } else if constexpr (std::is_signed_v<Key>) {
    u = static_cast<U>(u ^ top);
  }
  return descending ? static_cast<U>(~u) : u;
}

/// Whether CUB may order this sort differently from the documented order: floats, a partial bit
/// range, descending (its kernels disagree on where ±0.0 go; measured with CCCL 3.0.1 on sm_90).
template <class Key>
bool cub_zero_ambiguity(int begin_bit, int end_bit, bool descending) {
  return std::is_floating_point_v<Key> && descending && (begin_bit > 0 || end_bit < static_cast<int>(8 * sizeof(Key)));
}

/// The permutation a stable sort on bits [begin_bit, end_bit) of the order image produces.
template <class Key>
std::vector<std::int64_t> cpu_sort_order(const std::vector<Key>& keys, int begin_bit, int end_bit, bool descending) {
  std::vector<std::int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::int64_t(0));
  const int width = end_bit - begin_bit;
  if (width <= 0) return order;
  const auto field = [&](const Key& k) {
    const std::uint64_t u = static_cast<std::uint64_t>(cpu_order_of(k, descending)) >> begin_bit;
    return width >= 64 ? u : u & ((std::uint64_t(1) << width) - 1);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int64_t a, std::int64_t b) { return field(keys[a]) < field(keys[b]); });
  return order;
}

template <class T>
std::vector<T> permuted(const std::vector<T>& in, const std::vector<std::int64_t>& order) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i] = in[static_cast<std::size_t>(order[i])];
  return out;
}

/// Bitwise equality (floats compared by their bits, so −0.0 ≠ +0.0 and NaNs compare).
template <class T>
std::int64_t bit_mismatches(const std::vector<T>& a, const std::vector<T>& b, std::int64_t* first = nullptr) {
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) {
      if (bad == 0 && first) *first = static_cast<std::int64_t>(i);
      ++bad;
    }
  return bad + static_cast<std::int64_t>(a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

}  // namespace parascan::validation
