// Experiment: the default single-pass scan (exclusive sums of u32, f32, u64, f64 at 2^20, 2^22, 2^24, 2^28) beside
// cub::DeviceScan::ExclusiveSum in the same process, outputs compared. An A/B harness like
// ab_onesweep.cu: built against an older tree's headers it times that tree's look-back
// (docs/ab-scan-h100.txt, performance.md entry 20). Inputs are 1 at every 64th item, so f32 sums stay
// exact below 2^24 and compare word for word.
#include <cub/device/device_scan.cuh>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include "parascan/device/device_scan.cuh"
#include "experiment_timing.cuh"

template <class T>
__global__ void fill(T* d, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < n; i += (std::int64_t)gridDim.x * blockDim.x)
    d[i] = T(i % 64 == 0 ? 1 : 0);
}

template <class T>
bool run(const char* name, const char* type, int lg) {
  const std::int64_t n = std::int64_t(1) << lg;
  T *in, *out, *cub_out;
  CK(cudaMalloc(&in, n * sizeof(T))); CK(cudaMalloc(&out, n * sizeof(T))); CK(cudaMalloc(&cub_out, n * sizeof(T)));
  fill<<<1024, 256>>>(in, n);
  std::size_t tb = 0, cb = 0;
  CK(parascan::exclusive_scan(nullptr, tb, in, out, n, parascan::sum{}, T(0)));
  CK(cub::DeviceScan::ExclusiveSum(nullptr, cb, in, cub_out, (int)n));
  void *t, *ct;
  CK(cudaMalloc(&t, tb)); CK(cudaMalloc(&ct, cb));
  timing_options o;
  o.reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 30;  // REPS=1 under a sanitizer
  o.hold_us = 50;
  float ours = 0, cub = 0;
  for (int r = 0; r < 2; ++r) {
    ours = median_ms(o, [&] { CK(parascan::exclusive_scan(t, tb, in, out, n, parascan::sum{}, T(0))); });
    cub = median_ms(o, [&] { CK(cub::DeviceScan::ExclusiveSum(ct, cb, in, cub_out, (int)n)); });
  }
  std::vector<T> a(n), b(n);
  CK(cudaMemcpy(a.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b.data(), cub_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::printf("%s scan %s 2^%d ours %.4f ms CUB %.4f ms ratio %.3f %s\n", name, type, lg, ours, cub, cub / ours, a == b ? "ok" : "MISMATCH");
  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(cub_out)); CK(cudaFree(t)); CK(cudaFree(ct));
  return a == b;
}

int main(int argc, char** argv) {
  const char* name = argc > 1 ? argv[1] : "this tree";
  const std::vector<int> sizes = log_sizes(argc, argv, 2, {20, 22, 24, 28});  // after the name
  int wrong = 0;
  for (int lg : sizes) {
    wrong += !run<std::uint32_t>(name, "u32", lg);
    wrong += !run<float>(name, "f32", lg);
    wrong += !run<std::uint64_t>(name, "u64", lg);
    wrong += !run<double>(name, "f64", lg);
  }
  return wrong ? 1 : 0;
}
