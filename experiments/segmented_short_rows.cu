// Experiment and check: the segmented sort on rows of 513 to 4096 items (the tile classes of
// device_segmented_sort.cuh's `run`), compiled from the headers alone so that it runs on a GPU machine
// without libparascan. Part 1 checks every key width (u8, u16, u32 and u64 as unsigned keys, u32 and u64
// as floats), keys, pairs (u32 values), argsort into 4- and 8-byte positions, both directions and a
// bit range, on 1, 5 and 333 rows of each length, against a CPU stable sort. Part 2 times rows of
// 600, 1000, 1024, 1500, 2000, 3000 and 4096 u32 keys, one row and 2^14 rows, beside CUB's
// DeviceSegmentedSort::StableSortKeys and DeviceSegmentedRadixSort::SortKeys (the faster divides),
// the stream held while the host enqueues, median of 30. Exits 1 on a wrong result.
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/segmented_short_rows.cu
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>
#include "experiment_timing.cuh"
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/device/device_select.cuh"

using namespace parascan;
using parascan::device::sort_detail::no_values;

namespace {

long long failures = 0;

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  CK(cudaMalloc(&d, std::max<std::size_t>(1, h.size()) * sizeof(T)));
  if (!h.empty()) CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  if (n) CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

/// The order-preserving image of a key's bits under `kind` (CUB's: floats by value, -0 == +0).
template <class U>
U image(U x, key_kind kind) {
  constexpr U top = U(1) << (8 * sizeof(U) - 1);
  if (kind == key_kind::floating) {
    if ((x & ~top) == 0) x = 0;  // -0.0 as +0.0
    return (x & top) ? U(~x) : U(x | top);
  }
  return x;
}

/// One call of the segmented sort over `rows` rows of `len` (values: none, u32 values, or argsort into
/// V positions), checked against a CPU stable sort of each row by bits [begin, end) of the image.
template <class U, class V>
void check(std::int64_t rows, std::int64_t len, key_kind kind, bool pairs, bool descending, int begin, int end,
           std::uint64_t seed) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  const std::int64_t n = rows * len;
  std::mt19937_64 rng(seed);
  std::vector<U> keys(n);
  for (auto& k : keys) k = static_cast<U>(rng() & (seed % 3 == 0 ? 0xF0F : ~0ull));  // some rows with ties
  if (kind == key_kind::floating) {
    for (auto& k : keys) {  // finite floats: clear the exponent's top bit
      constexpr U exp_top = U(1) << (8 * sizeof(U) - 2);
      k = static_cast<U>(k & ~exp_top);
    }
  }
  std::vector<std::uint32_t> vals(has_values && pairs ? n : 0);
  for (std::size_t i = 0; i < vals.size(); ++i) vals[i] = static_cast<std::uint32_t>(i * 2654435761u);
  U* d_in = to_device(keys);
  U* d_out = to_device(std::vector<U>(n, U(0x5a)));
  const std::uint32_t* d_vin = pairs ? to_device(vals) : nullptr;
  V* d_vout = nullptr;
  if constexpr (has_values) d_vout = to_device(std::vector<V>(n, V(77)));
  segmented_sort_options o;
  o.descending = descending;
  o.begin_bit = begin;
  o.end_bit = end;
  std::size_t bytes = 0;
  const segment_layout seg = segment_layout::rows(rows, len);
  const auto call = [&](void* t) {
    if constexpr (has_values)
      return device::segmented::sort<U, V>(t, bytes, d_in, d_out, reinterpret_cast<const V*>(d_vin), d_vout, n, seg, kind, o, 0);
    else
      return device::segmented::sort<U, no_values>(t, bytes, d_in, d_out, nullptr, nullptr, n, seg, kind, o, 0);
  };
  CK(call(nullptr));
  void* temp = nullptr;
  CK(cudaMalloc(&temp, std::max<std::size_t>(bytes, 1)));
  CK(call(temp));
  CK(cudaDeviceSynchronize());
  const auto got = to_host(d_out, n);
  std::vector<V> got_v;
  if constexpr (has_values) got_v = to_host(d_vout, n);
  const int key_bits = static_cast<int>(8 * sizeof(U));
  const U mask = (end - begin) >= key_bits ? U(~U(0)) : static_cast<U>((U(1) << (end - begin)) - 1);
  long long bad = 0;
  std::vector<std::int64_t> order(len);
  for (std::int64_t r = 0; r < rows; ++r) {
    const U* row = keys.data() + r * len;
    const auto key_of = [&](std::int64_t i) { return static_cast<U>((image(row[i], kind) >> begin) & mask); };
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return descending ? key_of(a) > key_of(b) : key_of(a) < key_of(b);
    });
    for (std::int64_t i = 0; i < len; ++i) {
      const std::int64_t at = r * len + i;
      if (key_of(order[i]) != static_cast<U>((image(got[at], kind) >> begin) & mask)) ++bad;
      if constexpr (has_values) {
        const V want = pairs ? static_cast<V>(vals[r * len + order[i]]) : static_cast<V>(order[i]);
        if (got_v[at] != want) ++bad;
      }
    }
  }
  if (bad) {
    ++failures;
    std::printf("MISMATCH: %zu-byte keys, %s, %lld rows of %lld, %s, bits [%d, %d), %s: %lld wrong\n", sizeof(U),
                kind == key_kind::floating ? "float" : "unsigned", (long long)rows, (long long)len,
                !has_values ? "keys" : pairs ? "pairs" : sizeof(V) == 4 ? "argsort u32" : "argsort u64", begin, end,
                descending ? "descending" : "ascending", bad);
  }
  cudaFree(d_in); cudaFree(d_out); cudaFree(const_cast<std::uint32_t*>(d_vin)); cudaFree(d_vout); cudaFree(temp);
}

template <class U>
void check_width(key_kind kind) {
  const int bits = static_cast<int>(8 * sizeof(U));
  std::uint64_t seed = 1;
  for (std::int64_t len : {513, 700, 1024, 1025, 1500, 2047, 2048, 2049, 3000, 4096}) {
    for (std::int64_t rows : {1, 5, 333}) {
      for (bool desc : {false, true}) {
        check<U, no_values>(rows, len, kind, false, desc, 0, bits, ++seed);
        check<U, std::uint32_t>(rows, len, kind, true, desc, 0, bits, ++seed);
        check<U, std::uint32_t>(rows, len, kind, false, desc, 0, bits, ++seed);
        check<U, std::uint64_t>(rows, len, kind, false, desc, 0, bits, ++seed);
      }
      check<U, std::uint32_t>(rows, len, kind, true, true, 1, bits - 1, ++seed);
    }
  }
  std::printf("checked %d-bit %s keys: %lld failures so far\n", bits, kind == key_kind::floating ? "float" : "unsigned",
              failures);
}

/// Part 2: u32 keys in `rows` rows of `len`, ours beside CUB's two segmented sorts.
void time_rows(std::int64_t rows, std::int64_t len) {
  const std::int64_t n = rows * len;
  std::mt19937_64 rng(len);
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  std::vector<std::int64_t> offsets(rows + 1);
  for (std::int64_t r = 0; r <= rows; ++r) offsets[r] = r * len;
  std::uint32_t* in = to_device(keys);
  std::uint32_t* out = to_device(keys);
  std::int64_t* off = to_device(offsets);
  const timing_options t{30, 2, 500};
  std::size_t bytes = 0;
  segmented_sort_options o;
  const segment_layout seg = segment_layout::rows(rows, len);
  CK((device::segmented::sort<std::uint32_t, no_values>(nullptr, bytes, in, out, nullptr, nullptr, n, seg,
                                                       key_kind::unsigned_int, o, 0)));
  void* temp = nullptr;
  CK(cudaMalloc(&temp, std::max<std::size_t>(bytes, 1)));
  const float ours = median_ms(t, [&] {
    CK((device::segmented::sort<std::uint32_t, no_values>(temp, bytes, in, out, nullptr, nullptr, n, seg,
                                                         key_kind::unsigned_int, o, 0)));
  });
  std::size_t cb1 = 0, cb2 = 0;
  CK(cub::DeviceSegmentedSort::StableSortKeys(nullptr, cb1, in, out, n, rows, off, off + 1));
  CK(cub::DeviceSegmentedRadixSort::SortKeys(nullptr, cb2, in, out, static_cast<int>(n), static_cast<int>(rows), off, off + 1));
  void* ctemp = nullptr;
  CK(cudaMalloc(&ctemp, std::max<std::size_t>(std::max(cb1, cb2), 1)));
  const float stable = median_ms(t, [&] { CK(cub::DeviceSegmentedSort::StableSortKeys(ctemp, cb1, in, out, n, rows, off, off + 1)); });
  const float radix = median_ms(t, [&] {
    CK(cub::DeviceSegmentedRadixSort::SortKeys(ctemp, cb2, in, out, static_cast<int>(n), static_cast<int>(rows), off, off + 1));
  });
  const float best = std::min(stable, radix);
  std::printf("u32 %6lld x %-5lld  ours %8.4f ms  CUB DeviceSegmentedSort %8.4f  DeviceSegmentedRadixSort %8.4f  %5.2fx\n",
              (long long)rows, (long long)len, ours, stable, radix, best / ours);
  cudaFree(in); cudaFree(out); cudaFree(off); cudaFree(temp); cudaFree(ctemp);
}

}  // namespace

int main() {
  check_width<std::uint8_t>(key_kind::unsigned_int);
  check_width<std::uint16_t>(key_kind::unsigned_int);
  check_width<std::uint32_t>(key_kind::unsigned_int);
  check_width<std::uint32_t>(key_kind::floating);
  check_width<std::uint64_t>(key_kind::unsigned_int);
  check_width<std::uint64_t>(key_kind::floating);
  for (std::int64_t len : {600, 1000, 1024, 1500, 2000, 3000, 4096})
    for (std::int64_t rows : {std::int64_t(1), std::int64_t(1) << 14}) time_rows(rows, len);
  std::printf("%s\n", failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}
