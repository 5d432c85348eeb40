// Experiment: one row of 600 to 4096 keys (a sort small enough for one block: sorted_by_one_block in
// device_radix_sort.cuh sends it to the segmented sort's tile kernel, 256 × 16 or 256 × 8) by that
// kernel at tile shapes of 128 or 256 threads and 1024 to 4096 items, beside cub::DeviceRadixSort (its single-tile kernel at
// these sizes) called with an int count: u32 keys, u32 keys with u32 values, u64 keys. Every output is
// compared with CUB's. Timed as `bench` times (the stream held 500 µs while the host enqueues, so only
// the GPU's time counts), median of 50. Exits 1 on a wrong result.
// Standalone (nothing of libparascan is linked):
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/short_row_tiles.cu
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
  std::printf("  %3d x %-2d  %8.4f ms  %6.3fx CUB  %s\n", T, I, ms, cub_ms / ms, bad == 0 ? "ok" : "MISMATCH");
}

template <class U>
void sizes(const char* name, bool pairs) {
  const timing_options o{50, 2, 500};
  cub_sort_timer cub;
  for (int n : {600, 1024, 1500, 2048, 3000, 4096}) {
    row<U> r(n);
    const float cub_ms = cub.ms(r.in, r.ref, r.vin, r.vref, n, pairs, o);
    std::printf("%s n=%d: CUB %.4f ms\n", name, n, cub_ms);
    tile_row<128, 8>(r, pairs, cub_ms, o);
    tile_row<256, 4>(r, pairs, cub_ms, o);
    tile_row<128, 16>(r, pairs, cub_ms, o);
    tile_row<256, 8>(r, pairs, cub_ms, o);
    if constexpr (sizeof(U) == 4) tile_row<256, 16>(r, pairs, cub_ms, o);  // the library's tile for these
  }
}

}  // namespace

int main() {
  sizes<std::uint32_t>("u32 keys", false);
  sizes<std::uint32_t>("u32 pairs", true);
  sizes<std::uint64_t>("u64 keys", false);
  return all_ok ? 0 : 1;
}
