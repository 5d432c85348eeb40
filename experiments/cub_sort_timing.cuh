// CUB's radix sort as a user calls it (raw pointers, an int item count), for the sort experiments:
// the median time of SortKeys, or SortPairs with u32 values, its temporary storage kept between
// calls and grown when a call needs more; SortKeys timed in both count forms (the honest baseline);
// and the comparison of an output with CUB's.
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>
#include "experiment_timing.cuh"

/// How many bytes of two device arrays differ (0: equal).
inline long long mismatches(const void* a, const void* b, std::size_t bytes) {
  std::vector<unsigned char> x(bytes), y(bytes);
  CK(cudaMemcpy(x.data(), a, bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(y.data(), b, bytes, cudaMemcpyDeviceToHost));
  if (std::memcmp(x.data(), y.data(), bytes) == 0) return 0;
  long long bad = 0;
  for (std::size_t i = 0; i < bytes; ++i) bad += x[i] != y[i];
  return bad;
}

/// Runs the pairs sort `f` with its outputs poisoned first, then counts the bytes of its keys and
/// values that differ from the reference's (`bytes` each).
template <class F>
long long poisoned_mismatches(F&& f, void* out, const void* ref, void* vout, const void* vref, std::size_t bytes) {
  CK(cudaMemset(out, 0xa5, bytes));
  CK(cudaMemset(vout, 0xa5, bytes));
  f();
  CK(cudaDeviceSynchronize());
  return mismatches(out, ref, bytes) + mismatches(vout, vref, bytes);
}

struct cub_sort_timer {
  void* temp = nullptr;
  std::size_t cap = 0;
  cub_sort_timer() = default;
  cub_sort_timer(const cub_sort_timer&) = delete;
  cub_sort_timer& operator=(const cub_sort_timer&) = delete;
  ~cub_sort_timer() { if (temp) cudaFree(temp); }

  /// Sorts in → ref (and vin → vref with `pairs`) as it times; ref and vref hold CUB's result after.
  template <class K>
  float ms(const K* in, K* ref, const std::uint32_t* vin, std::uint32_t* vref, std::int64_t n, bool pairs,
           const timing_options& o) {
    std::size_t bytes = 0;
    void* t = nullptr;  // the size query first, then the calls on `temp`
    const auto f = [&] {
      if (pairs) CK(cub::DeviceRadixSort::SortPairs(t, bytes, in, ref, vin, vref, static_cast<int>(n)));
      else CK(cub::DeviceRadixSort::SortKeys(t, bytes, in, ref, static_cast<int>(n)));
    };
    f();
    if (bytes > cap) {
      if (temp) CK(cudaFree(temp));
      CK(cudaMalloc(&temp, bytes));
      cap = bytes;
    }
    t = temp;
    return median_ms(o, f);
  }
};

/// CUB's SortKeys of in → out (n keys), or with `vin` its SortPairs carrying vin → vout along, timed with
/// an `int` and with an `int64_t` item count, in that order: {int ms, int64 ms}. The faster of the two is
/// the baseline's denominator (performance.md entry 31). out (and vout) hold CUB's result after.
template <class K, class V>
std::pair<float, float> cub_sort_both_ms(const K* in, K* out, const V* vin, V* vout, std::int64_t n,
                                         const timing_options& o) {
  const auto call = [&](void* t, std::size_t& b, auto count) {
    if (vin) CK(cub::DeviceRadixSort::SortPairs(t, b, in, out, vin, vout, count));
    else CK(cub::DeviceRadixSort::SortKeys(t, b, in, out, count));
  };
  std::size_t bytes32 = 0, bytes64 = 0;
  call(nullptr, bytes32, static_cast<int>(n));
  call(nullptr, bytes64, n);
  void* temp = nullptr;
  CK(cudaMalloc(&temp, bytes32 > bytes64 ? bytes32 : bytes64));
  const float with_int = median_ms(o, [&] { call(temp, bytes32, static_cast<int>(n)); });
  const float with_int64 = median_ms(o, [&] { call(temp, bytes64, n); });
  CK(cudaFree(temp));
  return {with_int, with_int64};
}

/// cub_sort_both_ms of keys alone.
template <class K>
std::pair<float, float> cub_sort_keys_both_ms(const K* in, K* out, std::int64_t n, const timing_options& o) {
  return cub_sort_both_ms<K, std::uint32_t>(in, out, nullptr, nullptr, n, o);
}
