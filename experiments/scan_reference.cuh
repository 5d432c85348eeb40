// The u32 exclusive-sum experiments' common setup (scan_shape_sweep, scan_loads, scan_cluster): n random
// u32 (a 64-bit LCG seeded 4321 + n, the same input in every one of them), CUB's ExclusiveSum timed with
// an `int` and an int64 count (the faster divides), cudaMemcpy of the same n words timed, and CUB's result
// kept on the host as the answer every variant is compared with word for word.
#pragma once
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <cstdint>
#include <vector>
#include "experiment_timing.cuh"

struct scan_reference {
  std::int64_t n;
  std::uint32_t *in = nullptr, *out = nullptr, *ref = nullptr;
  std::vector<std::uint32_t> want;  // CUB's exclusive sum of `in`
  float cub_int = 0, cub_i64 = 0, cub_ms = 0, memcpy_ms = 0;

  explicit scan_reference(std::int64_t n_) : n(n_), want(static_cast<std::size_t>(n_)) {
    std::vector<std::uint32_t> h(static_cast<std::size_t>(n));
    std::uint64_t x = 4321 + n;
    for (auto& v : h) v = static_cast<std::uint32_t>((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 32);
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    std::size_t b32 = 0, b64 = 0;
    CK(cub::DeviceScan::ExclusiveSum(nullptr, b32, in, ref, static_cast<int>(n)));
    CK(cub::DeviceScan::ExclusiveSum(nullptr, b64, in, ref, n));
    void* temp;
    CK(cudaMalloc(&temp, std::max(b32, b64)));
    cub_int = median_ms({20, 1, 50}, [&] { CK(cub::DeviceScan::ExclusiveSum(temp, b32, in, ref, static_cast<int>(n))); });
    cub_i64 = median_ms({20, 1, 50}, [&] { CK(cub::DeviceScan::ExclusiveSum(temp, b64, in, ref, n)); });
    cub_ms = std::min(cub_int, cub_i64);
    CK(cudaFree(temp));
    memcpy_ms = median_ms({20, 1, 50}, [&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); });
    CK(cudaMemcpy(want.data(), ref, n * 4, cudaMemcpyDeviceToHost));
  }
  ~scan_reference() {
    cudaFree(in);
    cudaFree(out);
    cudaFree(ref);
  }
  scan_reference(const scan_reference&) = delete;
  scan_reference& operator=(const scan_reference&) = delete;

  /// Whether `out` holds CUB's answer.
  bool out_is_right() const {
    std::vector<std::uint32_t> got(want.size());
    CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
    return got == want;
  }
};
