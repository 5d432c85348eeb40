// Experiment: the Onesweep sort (u32 and f32 keys, 2^20 to 2^30) beside cub::DeviceRadixSort in the same
// process, every output compared with CUB's. An A/B harness: the headers on the include path decide the
// variant, so building it against an older tree (git archive <commit> core/include | tar -x -C old;
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I old/core/include experiments/ab_onesweep.cu)
// and against this one gives the two sides (docs/ab-onesweep-h100.txt, performance.md entry 20).
// `ab_onesweep NAME pairs`: u32 pairs and argsort instead of keys (performance.md entry 30).
#include <cub/device/device_radix_sort.cuh>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <string>
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_select.cuh"
#include "experiment_timing.cuh"

__global__ void fill(std::uint32_t* d, std::int64_t n, std::uint32_t seed) {
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < n; i += (std::int64_t)gridDim.x * blockDim.x) {
    std::uint64_t z = (std::uint64_t)i * 0x9e3779b97f4a7c15ull + seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    d[i] = (std::uint32_t)(z ^ (z >> 31));
  }
}

// u32 pairs (random values) and argsort through the library entry beside CUB's SortPairs (argsort:
// CUB sorts the indices along), 2^24 and 2^28.
int pairs(const char* name) {
  int wrong = 0;
  for (int lg : {24, 28}) {
    const std::int64_t n = std::int64_t(1) << lg;
    std::uint32_t *in, *out, *vin, *vout, *iota, *cub_out, *cub_vout;
    for (std::uint32_t** a : {&in, &out, &vin, &vout, &iota, &cub_out, &cub_vout}) CK(cudaMalloc(a, n * 4));
    fill<<<1024, 256>>>(in, n, 7);
    fill<<<1024, 256>>>(vin, n, 11);
    std::vector<std::uint32_t> h(n);
    for (std::int64_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>(i);
    CK(cudaMemcpy(iota, h.data(), n * 4, cudaMemcpyHostToDevice));
    for (int arg = 0; arg < 2; ++arg) {
      const std::uint32_t* values = arg ? nullptr : vin;
      std::size_t tb = 0, cb = 0;
      CK((parascan::radix_sort_bits_pairs<std::uint32_t, std::uint32_t>(nullptr, tb, in, out, values, vout, n,
                                                                         parascan::key_kind::unsigned_int, {})));
      CK(cub::DeviceRadixSort::SortPairs(nullptr, cb, in, cub_out, vin, cub_vout, (int)n));
      void *t, *ct;
      CK(cudaMalloc(&t, tb));
      CK(cudaMalloc(&ct, cb));
      timing_options o; o.reps = 20; o.hold_us = 500;
      float ours = 0, cub = 0;
      for (int round = 0; round < 2; ++round) {
        ours = median_ms(o, [&] { CK((parascan::radix_sort_bits_pairs<std::uint32_t, std::uint32_t>(t, tb, in, out, values, vout, n,
                                                                                          parascan::key_kind::unsigned_int, {}))); });
        cub = median_ms(o, [&] { CK(cub::DeviceRadixSort::SortPairs(ct, cb, in, cub_out, arg ? iota : vin, cub_vout, (int)n)); });
      }
      std::vector<std::uint32_t> a(n), b(n), va(n), vb(n);
      CK(cudaMemcpy(a.data(), out, n * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b.data(), cub_out, n * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(va.data(), vout, n * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(vb.data(), cub_vout, n * 4, cudaMemcpyDeviceToHost));
      const bool ok = a == b && va == vb;
      std::printf("%s %s 2^%d ours %.4f ms CUB %.4f ms ratio %.3f %s\n", name, arg ? "argsort" : "pairs", lg, ours, cub, cub / ours,
                  ok ? "ok" : "MISMATCH");
      wrong += !ok;
      CK(cudaFree(t)); CK(cudaFree(ct));
    }
    for (std::uint32_t* a : {in, out, vin, vout, iota, cub_out, cub_vout}) CK(cudaFree(a));
  }
  return wrong;
}

int main(int argc, char** argv) {
  const char* name = argc > 1 ? argv[1] : "this tree";
  if (argc > 2 && std::string(argv[2]) == "pairs") return pairs(name) ? 1 : 0;
  int wrong = 0;
  for (int lg : {20, 24, 28, 30}) {
    const std::int64_t n = std::int64_t(1) << lg;
    std::uint32_t *in, *out, *cub_out;
    CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMalloc(&cub_out, n * 4));
    fill<<<1024, 256>>>(in, n, 7);
    for (int kind = 0; kind < 2; ++kind) {  // u32 keys, f32 keys (the same bits)
      const parascan::key_kind k = kind ? parascan::key_kind::floating : parascan::key_kind::unsigned_int;
      std::size_t tb = 0, cb = 0;
      CK(parascan::radix_sort_bits<std::uint32_t>(nullptr, tb, in, out, n, k, {}));
      void* t; CK(cudaMalloc(&t, tb));
      if (kind) CK(cub::DeviceRadixSort::SortKeys(nullptr, cb, (const float*)in, (float*)cub_out, (int)n));
      else CK(cub::DeviceRadixSort::SortKeys(nullptr, cb, in, cub_out, (int)n));
      void* ct; CK(cudaMalloc(&ct, cb));
      timing_options o; o.reps = 20; o.hold_us = 50;
      float ours = 0, cub = 0;
      for (int round = 0; round < 2; ++round) {
        ours = median_ms(o, [&] { CK(parascan::radix_sort_bits<std::uint32_t>(t, tb, in, out, n, k, {})); });
        cub = median_ms(o, [&] {
          if (kind) CK(cub::DeviceRadixSort::SortKeys(ct, cb, (const float*)in, (float*)cub_out, (int)n));
          else CK(cub::DeviceRadixSort::SortKeys(ct, cb, in, cub_out, (int)n));
        });
      }
      std::vector<std::uint32_t> a(n), b(n);
      CK(cudaMemcpy(a.data(), out, n * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b.data(), cub_out, n * 4, cudaMemcpyDeviceToHost));
      std::printf("%s %s 2^%d ours %.4f ms CUB %.4f ms ratio %.3f %s\n", name, kind ? "f32" : "u32", lg, ours, cub, cub / ours,
                  a == b ? "ok" : "MISMATCH");
      wrong += a != b;
      CK(cudaFree(t)); CK(cudaFree(ct));
    }
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(cub_out));
  }
  return wrong ? 1 : 0;
}
