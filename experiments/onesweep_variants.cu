// Experiment (not part of the build): one Onesweep digit pass at 2^28 u32 uniform keys, by look-back
// batch and resident blocks per SM, beside its pieces (status memset, histogram) and CUB's whole sort.
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/onesweep_variants.cu
#include <cub/device/device_radix_sort.cuh>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
#include "parascan/device/device_onesweep.cuh"
#include "experiment_timing.cuh"

using namespace parascan;
using namespace parascan::device::onesweep;
using parascan::device::sort_detail::no_values;

int main(int argc, char** argv) {
  const std::int64_t n = std::int64_t(1) << (argc > 1 ? std::atoi(argv[1]) : 28);
  std::vector<std::uint32_t> h(n);
  std::mt19937 rng(1);
  for (auto& x : h) x = rng();
  std::uint32_t *in, *out;
  CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4));
  CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  const std::int64_t tiles = (n + 256 * 8 - 1) / (256 * 8);
  unsigned *status, *counter;
  std::uint32_t* bins;
  CK(cudaMalloc(&status, tiles * digits * 4)); CK(cudaMalloc(&counter, 4)); CK(cudaMalloc(&bins, 4 * digits * 4));
  const pass_set ps{0, 32, 4, key_kind::unsigned_int, false};
  std::printf("n = 2^%d\n", (int)std::log2((double)n));
  std::printf("copy D2D           %8.4f ms\n", median_ms({10}, [&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); }));
  std::printf("status memset      %8.4f ms\n", median_ms({10}, [&] { CK(cudaMemsetAsync(status, 0, n / 4096 * digits * 4)); }));
  std::printf("histogram+scan     %8.4f ms\n", median_ms({10}, [&] {
    CK(cudaMemsetAsync(bins, 0, 4 * digits * 4));
    const std::int64_t hb = (n + hist_tile - 1) / hist_tile;
    histogram_kernel<std::uint32_t, std::uint32_t><<<(unsigned)std::min<std::int64_t>(hb, hist_max_blocks), threads>>>(in, n, ps, bins);
    scan_bins_kernel<std::uint32_t><<<4, threads>>>(bins);
  }));
  auto pass = [&](auto kernel, int threads_, int items) {
    const std::int64_t t = (n + threads_ * items - 1) / (threads_ * items);
    return median_ms({10}, [&] {
      CK(cudaMemsetAsync(status, 0, t * digits * 4));
      CK(cudaMemsetAsync(counter, 0, 4));
      kernel<<<(unsigned)t, threads_>>>(in, out, nullptr, nullptr, 0, n, ps.place(0), bins, nullptr, status, counter);
    });
  };
  // (The kernel's `uniform` switch compared here first became the only path: runs of equal digits are
  // counted once, commit 2ccc085.)
#define PASS(T, I, MB) std::printf("pass threads %d items %2d mb %d %8.4f ms\n", T, I, MB, pass(onesweep_kernel<std::uint32_t, no_values, std::uint32_t, I, T, MB>, T, I))
  PASS(256, 28, 2);
  std::vector<std::uint32_t> few(n);
  for (std::int64_t i = 0; i < n; ++i) few[i] = (rng() % 5) * 0x9E3779B9u;
  CK(cudaMemcpy(in, few.data(), n * 4, cudaMemcpyHostToDevice));
  std::printf("5 distinct keys:\n");
  PASS(256, 28, 2);
  CK(cudaMemset(in, 0x5a, n * 4));
  std::printf("all equal:\n");
  PASS(256, 28, 2);
  CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  std::printf("pairs u32/u32 256 x 28: %8.4f ms\n", [&] {
    std::uint32_t *vin, *vout; CK(cudaMalloc(&vin, n * 4)); CK(cudaMalloc(&vout, n * 4));
    const std::int64_t t = (n + 7167) / 7168;
    return median_ms({10}, [&] {
      CK(cudaMemsetAsync(status, 0, t * digits * 4));
      CK(cudaMemsetAsync(counter, 0, 4));
      onesweep_kernel<std::uint32_t, std::uint32_t, std::uint32_t, 28, 256><<<(unsigned)t, 256>>>(in, out, vin, vout, 0, n, ps.place(0), bins, nullptr, status, counter);
    });
  }());
  PASS(256, 28, 2);  // leaves its output for the check
  // correctness of one pass: the output's digit 0..7 non-decreasing
  std::vector<std::uint32_t> o(n);
  CK(cudaMemcpy(o.data(), out, n * 4, cudaMemcpyDeviceToHost));
  std::int64_t bad = 0;
  for (std::int64_t i = 1; i < n; ++i) bad += (o[i] & 255) < (o[i - 1] & 255);
  std::printf("one pass: %lld out of order\n", (long long)bad);
  void* temp = nullptr;
  std::size_t tb = 0;
  CK(cub::DeviceRadixSort::SortKeys(temp, tb, in, out, (int)n));
  CK(cudaMalloc(&temp, tb));
  std::printf("CUB SortKeys       %8.4f ms\n", median_ms({10}, [&] { CK(cub::DeviceRadixSort::SortKeys(temp, tb, in, out, (int)n)); }));
}
