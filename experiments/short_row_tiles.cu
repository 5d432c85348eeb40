// Experiment: one row of 600 to 4096 keys (a sort small enough for one block: sorted_by_one_block in
// device_radix_sort.cuh sends it to the segmented sort's tile kernel) by that kernel at tile shapes of
// 128 to 1024 threads and 1024 to 4096 items, beside cub::DeviceRadixSort (its single-tile kernel at
// these sizes) called with an int count: u32 keys, u32 keys with u32 values, u64 keys. Every output is
// compared with CUB's. Then 2^14 rows of each length (a batch: throughput, not one block's latency)
// at each shape, checked against a CPU sort of every row. Timed as `bench` times (the stream held
// 500 µs while the host enqueues, so only the GPU's time counts), median of 50. Exits 1 on a wrong result.
// Standalone (nothing of libparascan is linked):
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/short_row_tiles.cu
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>
#include "cub_sort_timing.cuh"
#include "parascan/device/segmented_sort/small.cuh"

using namespace parascan;
using namespace parascan::device::segmented;
using parascan::device::sort_detail::no_values;

namespace {

bool all_ok = true;

template <class U>
struct row {
  int n;
  U *in, *out, *ref;
  std::uint32_t *vin, *vout, *vref;
  explicit row(int n_) : n(n_) {
    CK(cudaMalloc(&in, n * sizeof(U)));
    CK(cudaMalloc(&out, n * sizeof(U)));
    CK(cudaMalloc(&ref, n * sizeof(U)));
    CK(cudaMalloc(&vin, n * sizeof(std::uint32_t)));
    CK(cudaMalloc(&vout, n * sizeof(std::uint32_t)));
    CK(cudaMalloc(&vref, n * sizeof(std::uint32_t)));
    std::vector<U> h(n);
    std::vector<std::uint32_t> v(n);
    std::mt19937_64 rng(n);
    for (int i = 0; i < n; ++i) {
      h[i] = static_cast<U>(rng());
      v[i] = static_cast<std::uint32_t>(i * 40503u + 7);
    }
    CK(cudaMemcpy(in, h.data(), n * sizeof(U), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(vin, v.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  }
  ~row() {
    cudaFree(in); cudaFree(out); cudaFree(ref); cudaFree(vin); cudaFree(vout); cudaFree(vref);
  }
};

/// One row through listed_tile_kernel<T, I> (keys, or pairs with `pairs`), timed, then checked against
/// CUB's output in ref / vref.
template <int T, int I, class U>
void tile_row(row<U>& r, bool pairs, float cub_ms, const timing_options& o) {
  if (r.n > T * I) return;
  const sort_key<U> key(key_kind::unsigned_int, 0, 8 * sizeof(U), false);
  const segment_lists listed{nullptr, 1, nullptr, tile_list};
  const auto f = [&] {
    if (pairs)
      listed_tile_kernel<T, I><<<1, T>>>(static_cast<const U*>(r.in), r.out, static_cast<const std::uint32_t*>(r.vin),
                                         r.vout, row_segments{r.n}, listed, tile_list, key);
    else
      listed_tile_kernel<T, I><<<1, T>>>(static_cast<const U*>(r.in), r.out, static_cast<const no_values*>(nullptr),
                                         static_cast<no_values*>(nullptr), row_segments{r.n}, listed, tile_list, key);
    CK(cudaGetLastError());
  };
  const float ms = median_ms(o, f);
  const std::size_t kb = r.n * sizeof(U);  // pairs: u32 keys, so the values take as many bytes
  long long bad = 0;
  if (pairs) {
    bad = poisoned_mismatches(f, r.out, r.ref, r.vout, r.vref, kb);
  } else {
    CK(cudaMemset(r.out, 0xa5, kb));
    f();
    CK(cudaDeviceSynchronize());
    bad = mismatches(r.out, r.ref, kb);
  }
  all_ok = all_ok && bad == 0;
  std::printf("  %4d x %-2d  %8.4f ms  %6.3fx CUB  %s\n", T, I, ms, cub_ms / ms, bad == 0 ? "ok" : "MISMATCH");
}

template <class U>
void sizes(const char* name, bool pairs) {
  const timing_options o{50, 2, 500};
  cub_sort_timer cub;
  for (int n : {600, 1024, 1500, 2048, 3000, 4096}) {
    row<U> r(n);
    const float cub_ms = cub.ms(r.in, r.ref, r.vin, r.vref, n, pairs, o);
    std::printf("%s n=%d: CUB %.4f ms\n", name, n, cub_ms);
    tile_row<256, 4>(r, pairs, cub_ms, o);
    tile_row<512, 2>(r, pairs, cub_ms, o);
    tile_row<256, 8>(r, pairs, cub_ms, o);
    tile_row<512, 4>(r, pairs, cub_ms, o);
    tile_row<1024, 2>(r, pairs, cub_ms, o);
    if constexpr (sizeof(U) == 4) {
      tile_row<256, 16>(r, pairs, cub_ms, o);  // the library's tile for these
      tile_row<512, 8>(r, pairs, cub_ms, o);
    }
  }
}

/// `rows` rows of n keys through listed_tile_kernel<T, I> on the library's grid (4 blocks an SM),
/// timed, each row checked against std::sort.
template <int T, int I, class U>
void tile_rows(const U* in, U* out, const std::vector<U>& want, int rows, int n, int sms, const timing_options& o) {
  if (n > T * I) return;
  const sort_key<U> key(key_kind::unsigned_int, 0, 8 * sizeof(U), false);
  const segment_lists listed{nullptr, rows, nullptr, tile_list};
  const unsigned grid = static_cast<unsigned>(std::min(rows, 4 * sms));
  const auto f = [&] {
    listed_tile_kernel<T, I><<<grid, T>>>(in, out, static_cast<const no_values*>(nullptr), static_cast<no_values*>(nullptr),
                                          row_segments{n}, listed, tile_list, key);
    CK(cudaGetLastError());
  };
  const float ms = median_ms(o, f);
  const std::size_t bytes = static_cast<std::size_t>(rows) * n * sizeof(U);
  CK(cudaMemset(out, 0xa5, bytes));
  f();
  CK(cudaDeviceSynchronize());
  std::vector<U> got(want.size());
  CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
  const bool ok = got == want;
  all_ok = all_ok && ok;
  std::printf("  %4d x %-2d  %8.4f ms  %6.2f Gkeys/s  %s\n", T, I, ms, static_cast<double>(rows) * n / ms * 1e-6,
              ok ? "ok" : "MISMATCH");
}

template <class U>
void batches(const char* name) {
  const timing_options o{50, 2, 500};
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int rows = 1 << 14;
  for (int n : {1000, 2048, 3000, 4096}) {
    const std::size_t total = static_cast<std::size_t>(rows) * n;
    std::vector<U> h(total);
    std::mt19937_64 rng(n + 1);
    for (auto& x : h) x = static_cast<U>(rng());
    std::vector<U> want = h;
    for (int r = 0; r < rows; ++r) std::sort(want.begin() + static_cast<std::size_t>(r) * n, want.begin() + static_cast<std::size_t>(r + 1) * n);
    U *in = nullptr, *out = nullptr;
    CK(cudaMalloc(&in, total * sizeof(U)));
    CK(cudaMalloc(&out, total * sizeof(U)));
    CK(cudaMemcpy(in, h.data(), total * sizeof(U), cudaMemcpyHostToDevice));
    std::printf("%s, %d rows of %d:\n", name, rows, n);
    // The first shape listed for each length is the library's choice today.
    if (n <= 1024) {
      tile_rows<256, 4>(in, out, want, rows, n, sms, o);
      tile_rows<512, 2>(in, out, want, rows, n, sms, o);
    } else if (n <= 2048) {
      tile_rows<256, 8>(in, out, want, rows, n, sms, o);
      tile_rows<512, 4>(in, out, want, rows, n, sms, o);
      tile_rows<1024, 2>(in, out, want, rows, n, sms, o);
    } else if constexpr (sizeof(U) == 4) {
      tile_rows<256, 16>(in, out, want, rows, n, sms, o);
      tile_rows<512, 8>(in, out, want, rows, n, sms, o);
    }
    cudaFree(in);
    cudaFree(out);
  }
}

}  // namespace

int main() {
  sizes<std::uint32_t>("u32 keys", false);
  sizes<std::uint32_t>("u32 pairs", true);
  sizes<std::uint64_t>("u64 keys", false);
  batches<std::uint32_t>("u32 keys");
  batches<std::uint64_t>("u64 keys");
  return all_ok ? 0 : 1;
}
