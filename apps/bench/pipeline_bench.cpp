// bench --primitive pipeline: host arrays streamed through the GPU (host_pipeline.hpp) with the
// transfers counted, beside the CPU (one core and every core, branch-free loops) and the PCIe copy bound.
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "every_core.hpp"
#include "runner.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/scan.hpp"
#include "parascan/select.hpp"

namespace parascan::app {
namespace {

/// Inclusive u32 sum on every core: each part's total, their running sum, each part rescanned from it.
void cpu_scan_every_core(const std::uint32_t* in, std::uint32_t* out, std::int64_t n) {
  std::vector<std::uint32_t> totals(static_cast<std::size_t>(host_cores()) + 1, 0u);
  on_every_core(n, [&](int p, std::int64_t b, std::int64_t e) {
    std::uint32_t acc = 0;
    for (std::int64_t i = b; i < e; ++i) acc += in[i];
    totals[static_cast<std::size_t>(p) + 1] = acc;
  });
  for (std::size_t p = 1; p < totals.size(); ++p) totals[p] += totals[p - 1];
  on_every_core(n, [&](int p, std::int64_t b, std::int64_t e) {
    std::uint32_t acc = totals[static_cast<std::size_t>(p)];
    for (std::int64_t i = b; i < e; ++i) out[i] = acc += in[i];
  });
}

/// x < 2^31 as 0 or 1, for branch-free loops (the compaction of the study keeps half).
inline std::int64_t low_half(std::uint32_t x) { return static_cast<std::int64_t>(x >> 31) ^ 1; }

/// Branch-free compaction on one core: every item is written, the output advances by the test.
std::int64_t cpu_select_one_core(const std::uint32_t* in, std::uint32_t* out, std::int64_t n) {
  std::int64_t k = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    out[k] = in[i];
    k += low_half(in[i]);
  }
  return k;
}

/// The same on every core: each part compacts into a buffer of its own, then copies to its offset.
std::int64_t cpu_select_every_core(const std::uint32_t* in, std::uint32_t* out, std::int64_t n) {
  const int parts = host_cores();
  std::vector<std::vector<std::uint32_t>> kept(static_cast<std::size_t>(parts));
  std::vector<std::int64_t> offset(static_cast<std::size_t>(parts) + 1, 0);
  on_every_core(n, [&](int p, std::int64_t b, std::int64_t e) {
    auto& v = kept[static_cast<std::size_t>(p)];
    v.resize(static_cast<std::size_t>(e - b));
    v.resize(static_cast<std::size_t>(cpu_select_one_core(in + b, v.data(), e - b)));
  });
  for (int p = 0; p < parts; ++p) offset[p + 1] = offset[p] + static_cast<std::int64_t>(kept[p].size());
  on_every_core(parts, [&](int, std::int64_t b, std::int64_t e) {
    for (std::int64_t p = b; p < e; ++p)
      if (!kept[p].empty()) std::memcpy(out + offset[p], kept[p].data(), kept[p].size() * 4);
  });
  return offset[parts];
}

}  // namespace

/// Host arrays (u32, inclusive sum) with the transfers counted, the "speedup over CPU" study of GPU
/// Gems 3 ch. 39 redone: the CPU (branch-free loops, one core and every core); the device-resident scan; copy all in, scan, copy all out;
/// the streamed pipeline (host_pipeline.hpp) from pinned and from pageable memory, each beside the
/// same pipeline with the scan left out (its PCIe copy bound, measured in this run). Rows carry the
/// CPU time in the CUB column, so "vs" reads as the speedup over one CPU core; "of copy" is the
/// fraction of the pinned pipeline's copy bound.
void bench_pipeline(runner& r, std::int64_t n) {
  const int reps = n >= (std::int64_t(1) << 28) ? 3 : r.repeat();
  const auto host_ms = [&](const std::function<void()>& f) { return host_median_ms(reps, f); };
  std::uint32_t *h_in = nullptr, *h_out = nullptr;
  PARASCAN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h_in), static_cast<std::size_t>(n) * 4));
  PARASCAN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h_out), static_cast<std::size_t>(n) * 4));
  std::unique_ptr<std::uint32_t, decltype(&cudaFreeHost)> free_in(h_in, cudaFreeHost), free_out(h_out, cudaFreeHost);
  std::vector<std::uint32_t> p_in(static_cast<std::size_t>(n)), p_out(static_cast<std::size_t>(n)), want(static_cast<std::size_t>(n));
  std::uint64_t x = 88172645463325252ull;
  for (std::int64_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    h_in[i] = p_in[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(x);
  }
  const double cpu = host_ms([&] {
    std::uint32_t acc = 0;
    for (std::int64_t i = 0; i < n; ++i) want[static_cast<std::size_t>(i)] = acc += h_in[i];
  });
  auto matches = [&](const std::uint32_t* got) { return std::memcmp(got, want.data(), static_cast<std::size_t>(n) * 4) == 0; };
  std::vector<std::uint32_t> cpu_out(static_cast<std::size_t>(n));
  const double cpu_all = host_ms([&] { cpu_scan_every_core(h_in, cpu_out.data(), n); });
  const bool cpu_all_ok = matches(cpu_out.data());
  const double bytes = 8.0 * n;
  device_buffer<std::uint32_t> d_in(n), d_out(n);
  std::size_t tb = 0;
  PARASCAN_CUDA_CHECK(inclusive_scan(nullptr, tb, d_in.data(), d_out.data(), n, sum{}));
  device_buffer<char> temp(tb);
  PARASCAN_CUDA_CHECK(cudaMemcpy(d_in.data(), h_in, static_cast<std::size_t>(n) * 4, cudaMemcpyHostToDevice));
  const double kernel = r.time([&] { PARASCAN_CUDA_CHECK(inclusive_scan(temp.data(), tb, d_in.data(), d_out.data(), n, sum{})); });
  std::memset(h_out, 0, static_cast<std::size_t>(n) * 4);
  const double naive = host_ms([&] {
    PARASCAN_CUDA_CHECK(cudaMemcpy(d_in.data(), h_in, static_cast<std::size_t>(n) * 4, cudaMemcpyHostToDevice));
    PARASCAN_CUDA_CHECK(inclusive_scan(temp.data(), tb, d_in.data(), d_out.data(), n, sum{}));
    PARASCAN_CUDA_CHECK(cudaMemcpy(h_out, d_out.data(), static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost));
  });
  const bool naive_ok = matches(h_out);
  scan_pipeline<std::uint32_t> pipe;
  const double bound = host_ms([&] { pipe.copy(h_in, h_out, n); });
  std::memset(h_out, 0, static_cast<std::size_t>(n) * 4);
  const double pinned = host_ms([&] { pipe.run(h_in, h_out, n, true); });
  const bool pinned_ok = matches(h_out);
  const double bound_pageable = host_ms([&] { pipe.copy(p_in.data(), p_out.data(), n); });
  std::fill(p_out.begin(), p_out.end(), 0u);
  const double pageable = host_ms([&] { pipe.run(p_in.data(), p_out.data(), n, true); });
  const bool pageable_ok = matches(p_out.data());
  const double copy = bytes / (bound * 1e-3) / 1e9;  // the pinned pipeline's copy bound, GB/s
  const std::string cores = std::to_string(host_cores()) + " cores";
  r.add({"pipe", "u32", "cpu", "one core", n, bytes, cpu, cpu, copy, true});
  r.add({"pipe", "u32", "cpu", cores, n, bytes, cpu_all, cpu, copy, cpu_all_ok});
  r.add({"pipe", "u32", "gpu", "device-resident", n, bytes, kernel, cpu, copy, true});
  r.add({"pipe", "u32", "gpu", "copy+scan+copy", n, bytes, naive, cpu, copy, naive_ok});
  r.add({"pipe", "u32", "copy bound", "pinned", n, bytes, bound, cpu, copy, true});
  r.add({"pipe", "u32", "pipeline", "pinned", n, bytes, pinned, cpu, copy, pinned_ok});
  // Compaction (keep x < 2^31: half): traffic n in + kept out; its bound is the same pipeline's
  // copy (with both directions overlapped, moving n items in dominates).
  const keep_rule<std::uint32_t> half{keep_kind::lt, 0x80000000u};
  std::vector<std::uint32_t> kept_want(static_cast<std::size_t>(n)), kept_all(static_cast<std::size_t>(n));
  std::int64_t kept_one = 0, kept_every = 0;
  const double cpu_select = host_ms([&] { kept_one = cpu_select_one_core(h_in, kept_want.data(), n); });
  kept_want.resize(static_cast<std::size_t>(kept_one));
  const double cpu_select_all = host_ms([&] { kept_every = cpu_select_every_core(h_in, kept_all.data(), n); });
  const bool cpu_select_all_ok =
      kept_every == kept_one && std::memcmp(kept_all.data(), kept_want.data(), kept_want.size() * 4) == 0;
  select_pipeline<std::uint32_t> sel;
  std::int64_t kept = 0;
  const double select_ms = host_ms([&] { kept = sel.run(h_in, h_out, n, half); });
  const bool select_ok = kept == static_cast<std::int64_t>(kept_want.size()) &&
                         std::memcmp(h_out, kept_want.data(), kept_want.size() * 4) == 0;
  const double select_bytes = 4.0 * (n + kept);
  r.add({"pipe", "u32", "cpu", "select 50%", n, select_bytes, cpu_select, cpu_select, copy * select_bytes / bytes, true});
  r.add({"pipe", "u32", "cpu", "select 50% " + cores, n, select_bytes, cpu_select_all, cpu_select, copy * select_bytes / bytes,
         cpu_select_all_ok});
  r.add({"pipe", "u32", "pipeline", "select 50% pinned", n, select_bytes, select_ms, cpu_select,
       select_bytes / (bound * 1e-3) / 1e9, select_ok});
  r.add({"pipe", "u32", "copy bound", "pageable", n, bytes, bound_pageable, cpu, copy, true});
  r.add({"pipe", "u32", "pipeline", "pageable", n, bytes, pageable, cpu, copy, pageable_ok});
}

/// One pinned u32 array 5% larger than the GPU's memory, scanned in place (inclusive) by the
/// pipeline beside the same pipeline's copy bound (also in place). Checked on all host cores by
/// differences: out[0] = in[0], out[i] − out[i−1] = in[i] (mod 2^32), the input regenerated from
/// its hash. Needs that much free host memory; skipped with a message when the host lacks it.
void bench_pipeline_beyond_gpu_memory(runner& r) {
  const std::int64_t n = static_cast<std::int64_t>(r.device().global_memory_bytes / 4 * 21 / 20);
  const std::size_t bytes = static_cast<std::size_t>(n) * 4;
  const double host_bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  if (host_bytes < 1.15 * static_cast<double>(bytes)) {
    std::printf("pipe beyond GPU memory: skipped, the host has %.1f GB of memory for a %.1f GB array\n", host_bytes / 1e9,
                bytes / 1e9);
    return;
  }
  const auto hash = [](std::int64_t i) {
    std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull + 12345;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<std::uint32_t>(z ^ (z >> 31));
  };
  const auto t_alloc = std::chrono::steady_clock::now();
  std::uint32_t* h = nullptr;
  PARASCAN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h), bytes));
  std::unique_ptr<std::uint32_t, decltype(&cudaFreeHost)> free_h(h, cudaFreeHost);
  on_every_core(n, [&](int, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) h[i] = hash(i);
  });
  const double setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_alloc).count();
  const auto wall_ms = [](const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  scan_pipeline<std::uint32_t> pipe;
  pipe.copy(h, h, n);  // warm-up
  const double bound = wall_ms([&] { pipe.copy(h, h, n); });
  pipeline_stats st;
  const double ms = wall_ms([&] { st = pipe.run(h, h, n, true); });
  std::atomic<std::int64_t> wrong{0};
  on_every_core(n, [&](int, std::int64_t b, std::int64_t e) {
    std::int64_t bad = 0;
    for (std::int64_t i = b; i < e; ++i) bad += (i == 0 ? h[0] : h[i] - h[i - 1]) != hash(i);
    wrong += bad;
  });
  const double traffic = 8.0 * n, copy = traffic / (bound * 1e-3) / 1e9;
  std::printf("pipe beyond GPU memory: %lld u32 = %.1f GB (GPU memory %.1f GB) in place, %lld chunks, %.1f MB of device "
              "memory; pinned allocation and fill %.1f s; %lld wrong\n",
              static_cast<long long>(n), bytes / 1e9, r.device().global_memory_bytes / 1e9, static_cast<long long>(st.chunks),
              st.device_bytes / 1e6, setup_s, static_cast<long long>(wrong.load()));
  r.add({"pipe", "u32", "copy bound", "pinned > GPU memory", n, traffic, bound, bound, copy, true});
  r.add({"pipe", "u32", "pipeline", "pinned > GPU memory", n, traffic, ms, bound, copy, wrong.load() == 0});
}

}  // namespace parascan::app
