// Experiment and check (issue 34, small sorts; performance.md entry 51): float keys alone of one block's
// row (2049–8192 ≤ 4-byte keys, 1025–4096 8-byte) through the library's radix_sort_keys, which now sorts
// their encoded keys without positions and gives the zeros back their signs where a −0.0 is present
// (segmented_sort/small.cuh, give_zeros_their_signs). Every output is compared bit for bit with CUB's
// SortKeys / SortKeysDescending (−0.0 equal to +0.0, stable; NaNs by bit pattern), on:
//   uniform    random values, no −0.0 (the path without the fix-up)
//   special    ±0, ±1, ±inf, ±NaN, ±denormals, extremes, shuffled (every zero case, NaN payloads)
//   zeros      ±0.0 only, signs random
//   few        a quarter ±0.0, the rest 16 distinct values
// then times the library and CUB (both count types, the faster) on uniform and special at 4096 and 8192.
//   [REPS=20] float_row_keys        exit 1 if any output differs from CUB's
#include <cub/device/device_radix_sort.cuh>
#include <cuda_fp16.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/buffer.hpp"
#include "parascan/device/device_select.cuh"
#include "parascan/radix_sort.hpp"
#include "cub_sort_timing.cuh"

enum class input { uniform, special, zeros, few };
const char* input_name[] = {"uniform", "special", "zeros", "few"};

template <class F>
F from_double(double v) {
  if constexpr (std::is_same_v<F, __half>) return __double2half(v);
  else return static_cast<F>(v);
}

template <class F>
std::vector<F> make(int n, input kind, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> v(n);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double special[] = {0.0, -0.0, 1.0, -1.0, inf, -inf, nan, -nan, 1e-310, -1e-310, 1e30, -1e30, 0.5, -0.5};
  for (int i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    double x = 0;
    switch (kind) {
      case input::uniform: x = static_cast<double>(r >> 11) / 9007199254740992.0 * 2000.0 - 1000.0; break;
      case input::special: x = special[r % 14]; break;
      case input::zeros: x = (r & 1) ? -0.0 : 0.0; break;
      case input::few: x = (r % 4 == 0) ? ((r & 16) ? -0.0 : 0.0) : static_cast<double>(static_cast<int>(r >> 8) % 16) - 8.0; break;
    }
    v[i] = from_double<F>(x);
    if (kind == input::uniform && x == 0.0) v[i] = from_double<F>(1.0);  // no zero of either sign
  }
  return v;
}

template <class F>
cudaError_t cub_keys(void* t, std::size_t& b, const F* in, F* out, std::int64_t n, bool desc, bool wide) {
  if (wide) return desc ? cub::DeviceRadixSort::SortKeysDescending(t, b, in, out, n)
                        : cub::DeviceRadixSort::SortKeys(t, b, in, out, n);
  const int m = static_cast<int>(n);
  return desc ? cub::DeviceRadixSort::SortKeysDescending(t, b, in, out, m) : cub::DeviceRadixSort::SortKeys(t, b, in, out, m);
}

/// Checks (and with `timed`, times) n keys of `kind`; returns the bytes that differ from CUB's.
template <class F>
long long one(const char* type, int n, input kind, bool desc, bool timed) {
  const auto h = make<F>(n, kind, 1000u * n + static_cast<unsigned>(kind) * 10u + desc);
  const std::size_t bytes = sizeof(F) * static_cast<std::size_t>(n);
  parascan::device_buffer<F> in(n), ours(n), ref(n);
  in.copy_from_host(h.data(), n);
  const F* d_in = in.data();
  parascan::sort_options o;
  o.descending = desc;
  std::size_t ob = 0, cb = 0, cb64 = 0;
  CK(parascan::radix_sort_keys(nullptr, ob, d_in, ours.data(), n, o));
  CK(cub_keys(nullptr, cb, d_in, ref.data(), n, desc, false));
  CK(cub_keys(nullptr, cb64, d_in, ref.data(), n, desc, true));
  parascan::device_buffer<unsigned char> ot(std::max<std::size_t>(ob, 1)), ct(std::max<std::size_t>({cb, cb64, 1}));
  ours.poison();
  CK(parascan::radix_sort_keys(ot.data(), ob, d_in, ours.data(), n, o));
  CK(cub_keys(ct.data(), cb, d_in, ref.data(), n, desc, false));
  CK(cudaDeviceSynchronize());
  const long long bad = mismatches(ours.data(), ref.data(), bytes);
  std::printf("%-4s %5d %-8s %-4s %s", type, n, input_name[static_cast<int>(kind)], desc ? "desc" : "asc",
              bad ? "DIFFERS from CUB" : "equal to CUB");
  if (timed) {
    timing_options t;
    if (const char* r = std::getenv("REPS")) t.reps = std::atoi(r);
    const float us = 1e3f * median_ms(t, [&] { CK(parascan::radix_sort_keys(ot.data(), ob, d_in, ours.data(), n, o)); });
    const float c32 = 1e3f * median_ms(t, [&] { CK(cub_keys(ct.data(), cb, d_in, ref.data(), n, desc, false)); });
    const float c64 = 1e3f * median_ms(t, [&] { CK(cub_keys(ct.data(), cb64, d_in, ref.data(), n, desc, true)); });
    const float cub = std::min(c32, c64);
    std::printf("   parascan %6.2f us   CUB %6.2f us (int %.2f, int64 %.2f)   %.2fx", us, cub, c32, c64, cub / us);
  }
  std::printf("\n");
  return bad;
}

template <class F>
long long run(const char* type, std::vector<int> sizes, std::vector<int> timed_sizes) {
  long long bad = 0;
  for (int n : sizes)
    for (input kind : {input::uniform, input::special, input::zeros, input::few})
      for (bool desc : {false, true}) {
        const bool timed = !desc && (kind == input::uniform || kind == input::special) &&
                           std::find(timed_sizes.begin(), timed_sizes.end(), n) != timed_sizes.end();
        bad += one<F>(type, n, kind, desc, timed);
      }
  return bad;
}

int main() {
  long long bad = run<float>("f32", {2049, 3000, 4096, 4097, 6000, 8192}, {4096, 8192});
  bad += run<double>("f64", {1025, 2048, 3000, 4096}, {2048, 4096});
  bad += run<__half>("f16", {2049, 4096, 8192}, {4096});
  std::printf("%s\n", bad ? "FAILED: outputs differ from CUB's" : "every output equal to CUB's");
  return bad ? 1 : 0;
}
