// The u32 select experiments' table (select_vectors, select_shared): for each size, random u32 (fill_hashed)
// kept where x < threshold for 10 / 50 / 90%; CUB's DeviceSelect::If with both count types and the
// library's select_if timed in the same process, then each variant the experiment adds; every output and
// count compared with CUB's; the ratio is CUB's faster form over the row's time.
//   run_select_table(argc, argv, variants)   variants(const select_case&) -> std::vector<select_row>;
//                                             returns the exit status (1 on any mismatch)
//   launch_with_status<Offset>(tiles, f)      look-back storage for `tiles`, f(status) launched after the
//                                             status reset, both timed; returns the median ms
#pragma once
#include <cub/device/device_select.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include "parascan/device/device_select.cuh"
#include "experiment_timing.cuh"

struct below {
  std::uint32_t threshold;
  __host__ __device__ bool operator()(std::uint32_t x) const { return x < threshold; }
};

struct select_row {
  std::string name;
  float ms;
  bool ok;
};

struct select_case {
  const std::uint32_t* in;
  std::uint32_t* out;
  std::int64_t* count;
  std::int64_t n;
  below rule;
  const std::vector<std::uint32_t>* want;
  std::int64_t want_count;

  /// Whether out and count hold CUB's answer.
  bool matches() const {
    std::int64_t c = -1;
    CK(cudaMemcpy(&c, count, 8, cudaMemcpyDeviceToHost));
    if (c != want_count) return false;
    std::vector<std::uint32_t> got(static_cast<std::size_t>(c));
    CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
    return std::equal(got.begin(), got.end(), want->begin());
  }

  /// launch() timed (median of 20), then run once more into a poisoned output and checked.
  template <class Launch>
  select_row time_and_check(std::string name, Launch launch) const {
    const float ms = median_ms({20, 1, 50}, launch);
    CK(cudaMemset(out, 0xab, n * 4));
    CK(cudaMemset(count, 0xff, 8));
    launch();
    CK(cudaDeviceSynchronize());
    return {std::move(name), ms, matches()};
  }

  /// A variant kernel launched as `kernel<<<tiles, threads>>>(in, rule, out, n, count, status)` after the
  /// status reset (both timed), on look-back storage of its own.
  template <class Kernel>
  select_row run_kernel(const char* shape, Kernel kernel, int threads, std::int64_t tile_items) const {
    return run_kernel_as(shape, kernel, threads, tile_items, [&](unsigned tiles, parascan::device::tile_status<std::uint32_t> st) {
      kernel<<<tiles, threads>>>(in, rule, out, n, count, st);
    });
  }

  /// The same with the kernel's launch given: launch(tiles, status) after the status reset.
  template <class Kernel, class Launch>
  select_row run_kernel_as(const char* shape, Kernel kernel, int threads, std::int64_t tile_items, Launch launch) const {
    using namespace parascan::device;
    const std::int64_t tiles = (n + tile_items - 1) / tile_items;
    void* temp = nullptr;
    CK(cudaMalloc(&temp, look_back_storage<std::uint32_t>::bytes(tiles)));
    const auto st = look_back_storage<std::uint32_t>::carve(temp, tiles);
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    cudaFuncAttributes attr{};
    CK(cudaFuncGetAttributes(&attr, kernel));
    char name[96];
    std::snprintf(name, sizeof name, "%s (%dr %d/SM)", shape, attr.numRegs, per_sm);
    const select_row r = time_and_check(name, [&] {
      init_status_kernel<std::uint32_t><<<static_cast<unsigned>((tiles + 255) / 256), 256>>>(st.status, tiles, st.counter);
      launch(static_cast<unsigned>(tiles), st.status);
      CK(cudaGetLastError());
    });
    CK(cudaFree(temp));
    return r;
  }
};

template <class Variants>
int run_select_table(int argc, char** argv, Variants variants) {
  using u32 = std::uint32_t;
  const std::vector<int> logs = log_sizes(argc, argv, 1, {22, 24, 28});
  bool all_ok = true;
  std::printf("%-6s %-5s %-40s %9s %8s %s\n", "n", "keep", "variant", "ms", "vs_CUB", "check");
  for (int k : logs) {
    const std::int64_t n = std::int64_t(1) << k;
    u32 *in, *out, *ref;
    std::int64_t *count, *ref_count;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    CK(cudaMalloc(&count, 8));
    CK(cudaMalloc(&ref_count, 8));
    fill_hashed<<<1024, 256>>>(in, n);
    for (double keep : {0.1, 0.5, 0.9}) {
      const below rule{static_cast<u32>(keep * 4294967296.0)};
      std::size_t cb = 0, cb32 = 0, tb = 0;
      CK(cub::DeviceSelect::If(nullptr, cb, in, ref, ref_count, n, rule));
      CK(cub::DeviceSelect::If(nullptr, cb32, in, ref, ref_count, static_cast<int>(n), rule));
      CK(parascan::select_if(nullptr, tb, in, out, count, n, rule));
      void *ct, *t;
      CK(cudaMalloc(&ct, std::max(cb, cb32)));
      CK(cudaMalloc(&t, tb));
      const float cub64 = median_ms({20, 1, 50}, [&] { CK(cub::DeviceSelect::If(ct, cb, in, ref, ref_count, n, rule)); });
      const float cub32 = median_ms({20, 1, 50}, [&] { CK(cub::DeviceSelect::If(ct, cb32, in, ref, ref_count, static_cast<int>(n), rule)); });
      CK(cub::DeviceSelect::If(ct, cb, in, ref, ref_count, n, rule));
      std::int64_t want_count = 0;
      CK(cudaMemcpy(&want_count, ref_count, 8, cudaMemcpyDeviceToHost));
      std::vector<u32> want(static_cast<std::size_t>(want_count));
      CK(cudaMemcpy(want.data(), ref, want.size() * 4, cudaMemcpyDeviceToHost));
      const select_case s{in, out, count, n, rule, &want, want_count};
      std::vector<select_row> rows = {{"CUB int64 count", cub64, true}, {"CUB int count", cub32, true}};
      rows.push_back(s.time_and_check("library select_if", [&] { CK(parascan::select_if(t, tb, in, out, count, n, rule)); }));
      for (auto& r : variants(s)) rows.push_back(std::move(r));
      const float best_cub = std::min(cub64, cub32);
      for (const auto& r : rows) {
        std::printf("2^%-4d %3.0f%%  %-40s %9.4f %8.3f %s\n", k, 100 * keep, r.name.c_str(), r.ms, best_cub / r.ms,
                    r.ok ? "ok" : "MISMATCH");
        all_ok = all_ok && r.ok;
      }
      std::fflush(stdout);
      CK(cudaFree(ct));
      CK(cudaFree(t));
    }
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(ref)); CK(cudaFree(count)); CK(cudaFree(ref_count));
  }
  return all_ok ? 0 : 1;
}
