// Experiment (issue 34, small sorts): a sort of up to one tile by one block, at several block shapes,
// beside the library's sort (whose one-block path is the segmented sort's 256-thread tile, keys moved by
// their positions) and CUB's DeviceRadixSort (both count types, the faster divides).
//
// Stop 44 measured 4096 u32 keys at 0.78× CUB (16.0 against 12.4 µs) and 2048 u64 keys at 0.89×: one
// block of 8 warps ranks 16 keys a thread in each of 4 (or 8) rounds, on one SM. A block of 32 warps
// with 4 keys a thread has 4× the warps to hide each round's latency, and the keys-only block sort
// (block::radix_sort<…, Indexed = false>) moves no positions. Prediction: 4096 u32 in ~10 µs.
//
//   [REPS=1] one_block_sort u32 at 1024..16384 keys and u64 at 1024..8192, every output compared with CUB's;
//                           keys-only shapes (block::radix_sort<…, Indexed = false>, and with
//                           OwnCounts: the digit counts apart from the keys) and the library's
//                           one-row kernel (keys with their positions) at several shapes
#include <cub/device/device_radix_sort.cuh>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "parascan/block/block_radix_sort.cuh"
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/device/device_select.cuh"
#include "cub_sort_timing.cuh"

using i64 = std::int64_t;

template <class K>
__global__ void fill(K* d, i64 n, std::uint64_t seed) {
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
    std::uint64_t z = (std::uint64_t)i * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    d[i] = static_cast<K>(z ^ (z >> 31));
  }
}

/// n ≤ Threads × Items keys: loaded warp-striped (the rest padded with the largest key, which sorts
/// after every real one: stable, and later in input order), sorted over all bits, the first n stored.
template <int Threads, int Items, class K, bool OwnCounts>
__global__ void __launch_bounds__(Threads) one_block_kernel(const K* in, K* out, int n) {
  using sorter = parascan::block::radix_sort<Threads, Items, K, false, OwnCounts>;
  extern __shared__ __align__(16) unsigned char smem[];
  typename sorter::storage& st = *reinterpret_cast<typename sorter::storage*>(smem);
  const int lane = threadIdx.x % 32, wb = threadIdx.x / 32 * 32 * Items;
  K key[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int q = wb + j * 32 + lane;
    key[j] = q < n ? in[q] : ~K(0);
  }
  sorter::sort(key, 8 * static_cast<int>(sizeof(K)), st);
  for (int q = threadIdx.x; q < n; q += Threads) out[q] = st.u.keys[q];
}

/// One launch checked against CUB's output (poisoned first), then timed.
template <class K, class Launch>
float checked_ms(Launch f, K* out, const K* ref, int n, const timing_options& o, bool& ok) {
  CK(cudaMemset(out, 0xa5, n * sizeof(K)));
  f();
  CK(cudaDeviceSynchronize());
  ok = mismatches(out, ref, n * sizeof(K)) == 0;
  return median_ms(o, f);
}

template <int Threads, int Items, class K, bool OwnCounts = false>
float time_shape(const K* in, K* out, const K* ref, int n, const timing_options& o, bool& ok) {
  if (n > Threads * Items) return -1;
  constexpr int smem = sizeof(typename parascan::block::radix_sort<Threads, Items, K, false, OwnCounts>::storage);
  const auto kernel = one_block_kernel<Threads, Items, K, OwnCounts>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  return checked_ms([&] {
    kernel<<<1, Threads, smem>>>(in, out, n);
    CK(cudaGetLastError());
  }, out, ref, n, o, ok);
}

/// The library's one-row kernel (keys ranked with their positions, then gathered by them) at a shape.
template <int Threads, int Items, class K>
float time_indexed(const K* in, K* out, const K* ref, int n, const timing_options& o, bool& ok) {
  if (n > Threads * Items) return -1;
  namespace seg = parascan::device::segmented;
  using no = parascan::device::sort_detail::no_values;
  constexpr int smem = sizeof(typename parascan::block::radix_sort<Threads, Items, K>::storage);
  const auto kernel = seg::one_row_kernel<Threads, Items, K, no>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const seg::sort_key<K> key_of(parascan::key_kind::unsigned_int, 0, 8 * sizeof(K), false);
  return checked_ms([&] {
    kernel<<<1, Threads, smem>>>(in, out, nullptr, nullptr, n, key_of);
    CK(cudaGetLastError());
  }, out, ref, n, o, ok);
}

template <class K>
int run(const char* type, std::vector<int> sizes) {
  int wrong = 0;
  timing_options o;
  o.reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 50;  // REPS=1 under a sanitizer
  o.warmups = o.reps > 1 ? 3 : 0;
  o.hold_us = 50;
  for (int n : sizes) {
    K *in, *out, *ref;
    CK(cudaMalloc(&in, n * sizeof(K)));
    CK(cudaMalloc(&out, n * sizeof(K)));
    CK(cudaMalloc(&ref, n * sizeof(K)));
    fill<<<64, 256>>>(in, n, 7);
    std::size_t cb = 0, cb64 = 0, tb = 0;
    CK(cub::DeviceRadixSort::SortKeys(nullptr, cb, in, ref, n));
    CK(cub::DeviceRadixSort::SortKeys(nullptr, cb64, in, ref, (i64)n));
    CK(parascan::radix_sort_keys(nullptr, tb, in, out, n, parascan::sort_options{}));
    void *ct, *ct64, *t;
    CK(cudaMalloc(&ct, cb));
    CK(cudaMalloc(&ct64, cb64));
    CK(cudaMalloc(&t, tb));
    const float cub_int = median_ms(o, [&] { CK(cub::DeviceRadixSort::SortKeys(ct, cb, in, ref, n)); });
    const float cub_i64 = median_ms(o, [&] { CK(cub::DeviceRadixSort::SortKeys(ct64, cb64, in, ref, (i64)n)); });
    const float cub = cub_int < cub_i64 ? cub_int : cub_i64;
    CK(cudaMemset(out, 0xa5, n * sizeof(K)));
    const float lib = median_ms(o, [&] { CK(parascan::radix_sort_keys(t, tb, in, out, n, parascan::sort_options{})); });
    const bool lib_ok = mismatches(out, ref, n * sizeof(K)) == 0;
    std::printf("%s n %5d  CUB int %.2f int64 %.2f us | library %.2f us %.3fx %s |", type, n, 1e3 * cub_int, 1e3 * cub_i64,
                1e3 * lib, cub / lib, lib_ok ? "ok" : "WRONG");
    wrong += !lib_ok;
    const auto shape = [&](const char* name, float ms, bool ok) {
      if (ms < 0) return;
      std::printf(" %s %.2f us %.3fx %s |", name, 1e3 * ms, cub / ms, ok ? "ok" : "WRONG");
      wrong += !ok;
    };
    bool ok = false;
    float ms;
    if constexpr (sizeof(K) == 4) {
      ms = time_shape<256, 16>(in, out, ref, n, o, ok); shape("256x16", ms, ok);
      ms = time_shape<512, 8>(in, out, ref, n, o, ok); shape("512x8", ms, ok);
      ms = time_shape<1024, 4>(in, out, ref, n, o, ok); shape("1024x4", ms, ok);
      ms = time_shape<512, 16>(in, out, ref, n, o, ok); shape("512x16", ms, ok);
      ms = time_shape<1024, 8>(in, out, ref, n, o, ok); shape("1024x8", ms, ok);
      ms = time_shape<256, 16, K, true>(in, out, ref, n, o, ok); shape("own counts 256x16", ms, ok);
      ms = time_shape<512, 8, K, true>(in, out, ref, n, o, ok); shape("own counts 512x8", ms, ok);
      ms = time_shape<512, 16, K, true>(in, out, ref, n, o, ok); shape("own counts 512x16", ms, ok);
      ms = time_indexed<256, 16>(in, out, ref, n, o, ok); shape("indexed 256x16", ms, ok);
      ms = time_indexed<512, 8>(in, out, ref, n, o, ok); shape("indexed 512x8", ms, ok);
      ms = time_indexed<512, 16>(in, out, ref, n, o, ok); shape("indexed 512x16", ms, ok);
      ms = time_indexed<1024, 8>(in, out, ref, n, o, ok); shape("indexed 1024x8", ms, ok);
    } else {
      ms = time_shape<256, 8>(in, out, ref, n, o, ok); shape("256x8", ms, ok);
      ms = time_shape<512, 4>(in, out, ref, n, o, ok); shape("512x4", ms, ok);
      ms = time_shape<1024, 2>(in, out, ref, n, o, ok); shape("1024x2", ms, ok);
      ms = time_shape<1024, 4>(in, out, ref, n, o, ok); shape("1024x4", ms, ok);
      ms = time_shape<256, 8, K, true>(in, out, ref, n, o, ok); shape("own counts 256x8", ms, ok);
      ms = time_shape<512, 8, K, true>(in, out, ref, n, o, ok); shape("own counts 512x8", ms, ok);
      ms = time_indexed<256, 8>(in, out, ref, n, o, ok); shape("indexed 256x8", ms, ok);
      ms = time_indexed<512, 4>(in, out, ref, n, o, ok); shape("indexed 512x4", ms, ok);
      ms = time_indexed<512, 8>(in, out, ref, n, o, ok); shape("indexed 512x8", ms, ok);
      ms = time_indexed<1024, 4>(in, out, ref, n, o, ok); shape("indexed 1024x4", ms, ok);
    }
    std::printf("\n");
    for (void* p : {(void*)in, (void*)out, (void*)ref, ct, ct64, t}) CK(cudaFree(p));
  }
  return wrong;
}

int main() {
  int wrong = run<std::uint32_t>("u32", {1024, 2048, 3000, 4096, 6144, 8192, 12288, 16384});
  wrong += run<std::uint64_t>("u64", {1024, 2048, 3000, 4096, 6144, 8192});
  return wrong ? 1 : 0;
}
