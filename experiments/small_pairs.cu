// Experiment and check (issues 34 and 35, the 2^20 pairs; performance.md entry 51): pairs and argsort of
// ≤ 4-byte items below onesweep::small_pairs_below keys take 384 × 16 tiles (device_onesweep.cuh). Through
// the library's entry (radix_sort_pairs; values_in null: argsort, into 4- or 8-byte positions), every
// output compared bit for bit with CUB's SortPairs (the positions as values), at sizes on both sides of
// the line, for u8 / u16 / u32 / f32 keys, ascending and descending; then the time of u32 pairs and
// argsort at 2^19–2^21 beside CUB (both count types, the faster). Build it against the cuda-cccl
// wheel's headers (-I …/cuda/cccl/headers/include) to time the CUB that cuda.compute runs.
//   [REPS=20] small_pairs        exit 1 if any output differs from CUB's
#include <cub/device/device_radix_sort.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/buffer.hpp"
#include "parascan/device/device_select.cuh"
#include "parascan/radix_sort.hpp"
#include "cub_sort_timing.cuh"

template <class K, class V>
cudaError_t cub_pairs(void* t, std::size_t& b, const K* k, K* ko, const V* v, V* vo, std::int64_t n, bool desc, bool wide) {
  if (wide) return desc ? cub::DeviceRadixSort::SortPairsDescending(t, b, k, ko, v, vo, n) : cub::DeviceRadixSort::SortPairs(t, b, k, ko, v, vo, n);
  const int m = static_cast<int>(n);
  return desc ? cub::DeviceRadixSort::SortPairsDescending(t, b, k, ko, v, vo, m) : cub::DeviceRadixSort::SortPairs(t, b, k, ko, v, vo, m);
}

/// n keys of K with values V (argsort: none given, the positions come out); checked against CUB, and
/// timed with `timed`. Returns the bytes that differ.
template <class K, class V>
long long one(const char* what, std::int64_t n, bool argsort, bool desc, bool timed) {
  std::vector<K> hk(static_cast<std::size_t>(n));
  std::vector<V> hv(static_cast<std::size_t>(n));
  std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 7 + sizeof(K) + desc);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    if constexpr (std::is_floating_point_v<K>) hk[i] = static_cast<K>(static_cast<double>(r >> 11) / 9007199254740992.0 - 0.5);
    else hk[i] = static_cast<K>(r);
    hv[i] = argsort ? static_cast<V>(i) : static_cast<V>(r >> 17);
  }
  const std::size_t kb = sizeof(K) * n, vb = sizeof(V) * n;
  parascan::device_buffer<K> k(n), ko(n), kr(n);
  parascan::device_buffer<V> v(n), vo(n), vr(n);
  k.copy_from_host(hk.data(), n);
  v.copy_from_host(hv.data(), n);
  parascan::sort_options o;
  o.descending = desc;
  const K* kin = k.data();
  const V* vin = argsort ? nullptr : v.data();
  const auto ours = [&](void* t, std::size_t& b) { return parascan::radix_sort_pairs(t, b, kin, ko.data(), vin, vo.data(), n, o); };
  const auto theirs = [&](void* t, std::size_t& b, bool wide) {
    return cub_pairs(t, b, kin, kr.data(), static_cast<const V*>(v.data()), vr.data(), n, desc, wide);
  };
  std::size_t ob = 0, cb = 0, cb64 = 0;
  CK(ours(nullptr, ob));
  CK(theirs(nullptr, cb, false));
  CK(theirs(nullptr, cb64, true));
  parascan::device_buffer<unsigned char> ot(std::max<std::size_t>(ob, 1)), ct(std::max<std::size_t>({cb, cb64, 1}));
  ko.poison(), vo.poison();
  CK(ours(ot.data(), ob));
  CK(theirs(ct.data(), cb, false));
  CK(cudaDeviceSynchronize());
  const long long bad = mismatches(ko.data(), kr.data(), kb) + mismatches(vo.data(), vr.data(), vb);
  std::printf("%-22s %8lld %-4s %s", what, static_cast<long long>(n), desc ? "desc" : "asc",
              bad ? "DIFFERS from CUB" : "equal to CUB");
  if (timed) {
    timing_options t;
    if (const char* r = std::getenv("REPS")) t.reps = std::atoi(r);
    const float us = 1e3f * median_ms(t, [&] { CK(ours(ot.data(), ob)); });
    const float c32 = 1e3f * median_ms(t, [&] { CK(theirs(ct.data(), cb, false)); });
    const float c64 = 1e3f * median_ms(t, [&] { CK(theirs(ct.data(), cb64, true)); });
    const float best = std::min(c32, c64);
    std::printf("   parascan %7.2f us   CUB %d.%d %7.2f us (int %.2f, int64 %.2f)   %.3fx", us, CUB_MAJOR_VERSION,
                CUB_MINOR_VERSION, best, c32, c64, best / us);
  }
  std::printf("\n");
  return bad;
}

int main() {
  namespace os = parascan::device::onesweep;
  const std::int64_t line = os::small_pairs_below;
  long long bad = 0;
  for (std::int64_t n : {std::int64_t(5000), std::int64_t(100003), std::int64_t(1) << 20, line - 1, line, line + 1,
                         std::int64_t(1) << 21})
    for (bool desc : {false, true}) {
      bad += one<std::uint32_t, std::uint32_t>("u32 pairs u32", n, false, desc, false);
      bad += one<float, std::uint32_t>("f32 pairs u32", n, false, desc, false);
      bad += one<std::uint16_t, std::uint16_t>("u16 pairs u16", n, false, desc, false);
      bad += one<std::uint8_t, std::uint32_t>("u8 pairs u32", n, false, desc, false);
      bad += one<std::uint32_t, std::uint32_t>("u32 argsort u32", n, true, desc, false);
      bad += one<float, std::uint64_t>("f32 argsort u64", n, true, desc, false);
    }
  std::printf("-- times (uniform, ascending)\n");
  for (std::int64_t n : {std::int64_t(1) << 19, std::int64_t(1) << 20, line - 1, line, std::int64_t(1) << 21}) {
    bad += one<std::uint32_t, std::uint32_t>("u32 pairs u32", n, false, false, true);
    bad += one<std::uint32_t, std::uint32_t>("u32 argsort u32", n, true, false, true);
    bad += one<std::uint32_t, std::uint64_t>("u32 argsort u64", n, true, false, true);
  }
  std::printf("%s\n", bad ? "FAILED: outputs differ from CUB's" : "every output equal to CUB's");
  return bad ? 1 : 0;
}
