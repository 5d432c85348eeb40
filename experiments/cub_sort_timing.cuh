// CUB's radix sort as a user calls it (raw pointers, an int item count), for the sort experiments:
// the median time of SortKeys, or SortPairs with u32 values, its temporary storage kept between
// calls and grown when a call needs more; and the comparison of an output with CUB's.
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <cstdint>
#include <cstring>
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
