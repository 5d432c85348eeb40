// bench: throughput of parascan's primitives beside CUB and a device-to-device copy measured in the
// same process. Reports items/s, GB/s of minimal traffic, the fraction of the measured copy bandwidth
// and the ratio to CUB (> 1: parascan is faster), and checks every output against CUB's.
//   scan:   u32 exclusive sum, every block algorithm × device strategy (traffic: read n + write n)
//   select: select_if on u32 and u64 keeping 10%, 50%, 90% (traffic: read n + write kept)
//   sat:    summed-area tables of u8 images (traffic: image read once, table written once)
//   pipeline: host arrays scanned through the GPU with the transfers (host_pipeline.hpp)
//   sweep:  the block-size study: the single-pass scan at other tile shapes (shape_sweep.cu)
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#include "../common/cli.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/timing.hpp"
#include "array_io.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device_info.hpp"
#include "parascan/host_pipeline.hpp"
#include "bench_row.hpp"
#include "shape_sweep.hpp"
#include "sort_bench.hpp"
#include "parascan/scan.hpp"
#include "parascan/sat.hpp"
#include "parascan/select.hpp"
#include "parascan/validation/sat_check.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "parascan/validation/cub_select.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct bench_args {
  bool quick = false;
  std::vector<int> log_sizes;
  std::string filter, csv, primitive = "all";
  bool beyond = false, every_sort_algorithm = false;
  common_options common;
};

class bench {
 public:
  bench(const bench_args& a, const device_description& d) : a_(a), d_(d), repeat_(a.quick ? 3 : a.common.repeat) {}

  /// Copies of the input so that, for sizes that fit in L2, consecutive runs read cold data.
  int rotations(double bytes) const {
    const int k = static_cast<int>(4.0 * d_.l2_bytes / bytes) + 1;
    return k > 16 ? 16 : k;
  }
  double time(const std::function<void()>& f) { return median_ms(repeat_, f); }
  double copy_gbs(const void* src, void* dst, std::size_t bytes) {
    const double ms = time([&] { PARASCAN_CUDA_CHECK(validation::device_copy(dst, src, bytes)); });
    return 2.0 * bytes / (ms * 1e-3) / 1e9;
  }
  bool wanted(const std::string& variant) const { return a_.filter.empty() || variant.find(a_.filter) != std::string::npos; }
  void add(const row& r) {
    rows_.push_back(r);
    std::printf("%-7s %-4s 2^%-3d %-16s %-17s %10.4f %9.2f %8.1f %6.0f%% %6.2fx %s\n", r.primitive.c_str(), r.type.c_str(),
                bench_log2(r.n), r.algorithm.c_str(), r.strategy.c_str(), r.ms, r.items_per_s() / 1e9, r.gbs(),
                100.0 * r.gbs() / r.copy_gbs, r.cub_ms / r.ms, r.ok ? "ok" : "MISMATCH");
    std::fflush(stdout);
  }
  const std::vector<row>& rows() const { return rows_; }

  void scan(std::int64_t n) {
    const int rot = rotations(8.0 * n);
    device_buffer<std::uint32_t> in(static_cast<std::size_t>(n) * rot), out(n), ref(n);
    PARASCAN_CUDA_CHECK(validation::fill_random_words(in.data(), in.size(), 1234 + n));
    int turn = 0;
    auto next_in = [&] { return in.data() + static_cast<std::size_t>(n) * (turn++ % rot); };
    const double copy = copy_gbs(in.data(), out.data(), n * sizeof(std::uint32_t));
    std::size_t cub_bytes = 0;
    PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(nullptr, cub_bytes, in.data(), ref.data(), n, sum{}, 0u));
    device_buffer<char> cub_temp(cub_bytes);
    const double cub_ms = time([&] {
      PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(cub_temp.data(), cub_bytes, next_in(), ref.data(), n, sum{}, 0u));
    });
    PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(cub_temp.data(), cub_bytes, in.data(), ref.data(), n, sum{}, 0u));
    const double bytes = 8.0 * n;
    add({"scan", "u32", "CUB", "DeviceScan", n, bytes, cub_ms, cub_ms, copy, true});
    for (auto alg : all_block_algorithms) {
      for (auto strat : all_device_strategies) {
        if (!wanted(std::string(to_string(alg)) + "/" + std::string(to_string(strat)))) continue;
        scan_options o{alg, strat, false};
        std::size_t b = 0;
        PARASCAN_CUDA_CHECK(exclusive_scan(nullptr, b, in.data(), out.data(), n, sum{}, 0u, 0, o));
        device_buffer<char> temp(b);
        const double ms = time([&] { PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, next_in(), out.data(), n, sum{}, 0u, 0, o)); });
        out.poison();
        PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, in.data(), out.data(), n, sum{}, 0u, 0, o));
        std::int64_t diff = 0;
        PARASCAN_CUDA_CHECK(validation::count_word_differences(out.data(), ref.data(), n, diff));
        add({"scan", "u32", std::string(to_string(alg)), std::string(to_string(strat)), n, bytes, ms, cub_ms, copy, diff == 0});
      }
    }
  }

  /// The default scan (warp_shuffle / single_pass) of u64 or f32 beside CUB. f32 inputs are 0 or 1
  /// (one in 64) so that every sum is exact and both can be checked word for word.
  template <class T>
  void scan_type(std::int64_t n) {
    if (!wanted("warp_shuffle/single_pass")) return;
    const int rot = rotations(2.0 * sizeof(T) * n);
    device_buffer<T> in(static_cast<std::size_t>(n) * rot), out(n), ref(n);
    if constexpr (std::is_same_v<T, float>)
      PARASCAN_CUDA_CHECK(validation::fill_sparse_ones(in.data(), in.size(), 99 + n));
    else
      PARASCAN_CUDA_CHECK(validation::fill_random_words(reinterpret_cast<std::uint32_t*>(in.data()),
                                                        in.size() * sizeof(T) / 4, 99 + n));
    int turn = 0;
    auto next_in = [&] { return in.data() + static_cast<std::size_t>(n) * (turn++ % rot); };
    const double copy = copy_gbs(in.data(), out.data(), n * sizeof(T));
    std::size_t cub_bytes = 0, b = 0;
    PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(nullptr, cub_bytes, in.data(), ref.data(), n, sum{}, T(0)));
    device_buffer<char> cub_temp(cub_bytes);
    const double cub_ms = time([&] {
      PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(cub_temp.data(), cub_bytes, next_in(), ref.data(), n, sum{}, T(0)));
    });
    PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(cub_temp.data(), cub_bytes, in.data(), ref.data(), n, sum{}, T(0)));
    PARASCAN_CUDA_CHECK(exclusive_scan(nullptr, b, in.data(), out.data(), n, sum{}, T(0)));
    device_buffer<char> temp(b);
    const double ms = time([&] { PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, next_in(), out.data(), n, sum{}, T(0))); });
    out.poison();
    PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, in.data(), out.data(), n, sum{}, T(0)));
    std::int64_t diff = 0;
    PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<const std::uint32_t*>(out.data()),
                                                           reinterpret_cast<const std::uint32_t*>(ref.data()),
                                                           static_cast<std::size_t>(n) * sizeof(T) / 4, diff));
    const std::string type = std::is_same_v<T, float> ? "f32" : "u64";
    const double bytes = 2.0 * sizeof(T) * n;
    add({"scan", type, "CUB", "DeviceScan", n, bytes, cub_ms, cub_ms, copy, true});
    add({"scan", type, "warp_shuffle", "single_pass", n, bytes, ms, cub_ms, copy, diff == 0});
  }

  template <class T>
  void select(std::int64_t n, int percent_kept) {
    const double in_bytes = static_cast<double>(n) * sizeof(T);
    const int rot = rotations(2 * in_bytes);
    device_buffer<T> in(static_cast<std::size_t>(n) * rot), out(n), ref(n);
    PARASCAN_CUDA_CHECK(validation::fill_random_words(reinterpret_cast<std::uint32_t*>(in.data()), in.bytes() / 4, 99 + n));
    device_buffer<std::int64_t> count(1), ref_count(1);
    int turn = 0;
    auto next_in = [&] { return in.data() + static_cast<std::size_t>(n) * (turn++ % rot); };
    // Uniform random words: keep x < percent% of the range.
    keep_rule<T> rule{keep_kind::lt, static_cast<T>(static_cast<double>(static_cast<T>(~T(0))) * percent_kept / 100.0)};
    const double copy = copy_gbs(in.data(), out.data(), static_cast<std::size_t>(in_bytes));
    std::size_t cub_bytes = 0, our_bytes = 0;
    PARASCAN_CUDA_CHECK(validation::cub_select_if(nullptr, cub_bytes, in.data(), ref.data(), ref_count.data(), n, rule));
    PARASCAN_CUDA_CHECK(select_if(nullptr, our_bytes, in.data(), out.data(), count.data(), n, rule));
    device_buffer<char> cub_temp(cub_bytes), our_temp(our_bytes);
    const double cub_ms = time([&] {
      PARASCAN_CUDA_CHECK(validation::cub_select_if(cub_temp.data(), cub_bytes, next_in(), ref.data(), ref_count.data(), n, rule));
    });
    const double ms = time([&] {
      PARASCAN_CUDA_CHECK(select_if(our_temp.data(), our_bytes, next_in(), out.data(), count.data(), n, rule));
    });
    PARASCAN_CUDA_CHECK(validation::cub_select_if(cub_temp.data(), cub_bytes, in.data(), ref.data(), ref_count.data(), n, rule));
    out.poison();
    PARASCAN_CUDA_CHECK(select_if(our_temp.data(), our_bytes, in.data(), out.data(), count.data(), n, rule));
    std::int64_t kept = 0, ref_kept = 0, diff = 0;
    count.copy_to_host(&kept, 1);
    ref_count.copy_to_host(&ref_kept, 1);
    PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<std::uint32_t*>(out.data()),
                                                           reinterpret_cast<std::uint32_t*>(ref.data()),
                                                           static_cast<std::size_t>(kept) * sizeof(T) / 4, diff));
    const double bytes = in_bytes + static_cast<double>(kept) * sizeof(T);
    const std::string type = sizeof(T) == 4 ? "u32" : "u64";
    const std::string variant = "keep " + std::to_string(percent_kept) + "%";
    add({"select", type, "CUB", "DeviceSelect::If " + std::to_string(percent_kept) + "%", n, bytes, cub_ms, cub_ms, copy, true});
    add({"select", type, "parascan", variant, n, bytes, ms, cub_ms, copy, diff == 0 && kept == ref_kept});
  }

  /// Summed-area table of a side × side u8 image (random bytes) in `layout`. Traffic counted: the
  /// floor (image read once, table written once).
  template <class Acc>
  void sat(std::int64_t side, sat_layout layout) {
    const std::int64_t n = side * side, s = layout == sat_layout::padded ? 1 : 0;
    const std::int64_t cells = (side + s) * (side + s);
    device_buffer<std::uint8_t> img(n);
    device_buffer<Acc> out(cells), ref(cells);
    PARASCAN_CUDA_CHECK(validation::fill_random_words(reinterpret_cast<std::uint32_t*>(img.data()), n / 4, 7 + side));
    const image_shape shape{side, side};
    const std::size_t pitch = (side + s) * sizeof(Acc);
    const double copy = copy_gbs(out.data(), ref.data(), cells * sizeof(Acc));
    std::size_t cub_bytes = 0;
    PARASCAN_CUDA_CHECK(validation::cub_summed_area_table(nullptr, cub_bytes, img.data(), side, ref.data(), pitch, shape,
                                                          layout, false));
    device_buffer<char> cub_temp(cub_bytes);
    const double cub_ms = time([&] {
      PARASCAN_CUDA_CHECK(validation::cub_summed_area_table(cub_temp.data(), cub_bytes, img.data(), side, ref.data(), pitch,
                                                            shape, layout, false));
    });
    const double bytes = static_cast<double>(n) + static_cast<double>(cells) * sizeof(Acc);
    const std::string type = sizeof(Acc) == 4 ? "u32" : "u64";
    const std::string shape_name = std::to_string(side) + "^2 u8 " + (s ? "padded" : "inclusive");
    add({"sat", type, "CUB-based", shape_name, n, bytes, cub_ms, cub_ms, copy, true});
    for (const sat_algorithm algorithm : {sat_algorithm::single_pass, sat_algorithm::three_pass}) {
      std::size_t our_bytes = 0;
      PARASCAN_CUDA_CHECK(
          summed_area_table(nullptr, our_bytes, img.data(), side, out.data(), pitch, shape, layout, false, 0, algorithm));
      device_buffer<char> our_temp(our_bytes);
      out.poison();
      const double ms = time([&] {
        PARASCAN_CUDA_CHECK(summed_area_table(our_temp.data(), our_bytes, img.data(), side, out.data(), pitch, shape,
                                              layout, false, 0, algorithm));
      });
      std::int64_t diff = 0;
      PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<std::uint32_t*>(out.data()),
                                                             reinterpret_cast<std::uint32_t*>(ref.data()),
                                                             static_cast<std::size_t>(cells) * sizeof(Acc) / 4, diff));
      add({"sat", type, std::string(to_string(algorithm)), shape_name, n, bytes, ms,
           cub_ms, copy, diff == 0});
    }
  }

  /// Host arrays (u32, inclusive sum) with the transfers counted, the "speedup over CPU" study of GPU
  /// Gems 3 ch. 39 redone: one CPU core; the device-resident scan; copy all in, scan, copy all out;
  /// the streamed pipeline (host_pipeline.hpp) from pinned and from pageable memory, each beside the
  /// same pipeline with the scan left out (its PCIe copy bound, measured in this run). Rows carry the
  /// CPU time in the CUB column, so "vs" reads as the speedup over one CPU core; "of copy" is the
  /// fraction of the pinned pipeline's copy bound.
  void pipeline(std::int64_t n) {
    const int reps = n >= (std::int64_t(1) << 28) ? 3 : repeat_;
    auto host_ms = [&](const std::function<void()>& f) {
      f();  // warm-up
      std::vector<double> t;
      for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      std::sort(t.begin(), t.end());
      return t[t.size() / 2];
    };
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
    const double bytes = 8.0 * n;
    device_buffer<std::uint32_t> d_in(n), d_out(n);
    std::size_t tb = 0;
    PARASCAN_CUDA_CHECK(inclusive_scan(nullptr, tb, d_in.data(), d_out.data(), n, sum{}));
    device_buffer<char> temp(tb);
    PARASCAN_CUDA_CHECK(cudaMemcpy(d_in.data(), h_in, static_cast<std::size_t>(n) * 4, cudaMemcpyHostToDevice));
    const double kernel = time([&] { PARASCAN_CUDA_CHECK(inclusive_scan(temp.data(), tb, d_in.data(), d_out.data(), n, sum{})); });
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
    add({"pipe", "u32", "cpu", "one core", n, bytes, cpu, cpu, copy, true});
    add({"pipe", "u32", "gpu", "device-resident", n, bytes, kernel, cpu, copy, true});
    add({"pipe", "u32", "gpu", "copy+scan+copy", n, bytes, naive, cpu, copy, naive_ok});
    add({"pipe", "u32", "copy bound", "pinned", n, bytes, bound, cpu, copy, true});
    add({"pipe", "u32", "pipeline", "pinned", n, bytes, pinned, cpu, copy, pinned_ok});
    // Compaction (keep x < 2^31: half): traffic n in + kept out; its bound is the same pipeline's
    // copy (with both directions overlapped, moving n items in dominates).
    const keep_rule<std::uint32_t> half{keep_kind::lt, 0x80000000u};
    std::vector<std::uint32_t> kept_want;
    const double cpu_select = host_ms([&] {
      kept_want.clear();
      for (std::int64_t i = 0; i < n; ++i)
        if (half(h_in[i])) kept_want.push_back(h_in[i]);
    });
    select_pipeline<std::uint32_t> sel;
    std::int64_t kept = 0;
    const double select_ms = host_ms([&] { kept = sel.run(h_in, h_out, n, half); });
    const bool select_ok = kept == static_cast<std::int64_t>(kept_want.size()) &&
                           std::memcmp(h_out, kept_want.data(), kept_want.size() * 4) == 0;
    const double select_bytes = 4.0 * (n + kept);
    add({"pipe", "u32", "cpu", "select 50%", n, select_bytes, cpu_select, cpu_select, copy * select_bytes / bytes, true});
    add({"pipe", "u32", "pipeline", "select 50% pinned", n, select_bytes, select_ms, cpu_select,
         select_bytes / (bound * 1e-3) / 1e9, select_ok});
    add({"pipe", "u32", "copy bound", "pageable", n, bytes, bound_pageable, cpu, copy, true});
    add({"pipe", "u32", "pipeline", "pageable", n, bytes, pageable, cpu, copy, pageable_ok});
  }

  /// One pinned u32 array 5% larger than the GPU's memory, scanned in place (inclusive) by the
  /// pipeline beside the same pipeline's copy bound (also in place). Checked on all host cores by
  /// differences: out[0] = in[0], out[i] − out[i−1] = in[i] (mod 2^32), the input regenerated from
  /// its hash. Needs that much free host memory; skipped with a message when the host lacks it.
  void pipeline_beyond_gpu_memory() {
    const std::int64_t n = static_cast<std::int64_t>(d_.global_memory_bytes / 4 * 21 / 20);
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
    const auto parallel = [&](const std::function<void(std::int64_t, std::int64_t)>& f) {
      const int threads = std::max(1u, std::thread::hardware_concurrency());
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) pool.emplace_back(f, n * t / threads, n * (t + 1) / threads);
      for (auto& th : pool) th.join();
    };
    const auto t_alloc = std::chrono::steady_clock::now();
    std::uint32_t* h = nullptr;
    PARASCAN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h), bytes));
    std::unique_ptr<std::uint32_t, decltype(&cudaFreeHost)> free_h(h, cudaFreeHost);
    parallel([&](std::int64_t b, std::int64_t e) {
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
    parallel([&](std::int64_t b, std::int64_t e) {
      std::int64_t bad = 0;
      for (std::int64_t i = b; i < e; ++i) bad += (i == 0 ? h[0] : h[i] - h[i - 1]) != hash(i);
      wrong += bad;
    });
    const double traffic = 8.0 * n, copy = traffic / (bound * 1e-3) / 1e9;
    std::printf("pipe beyond GPU memory: %lld u32 = %.1f GB (GPU memory %.1f GB) in place, %lld chunks, %.1f MB of device "
                "memory; pinned allocation and fill %.1f s; %lld wrong\n",
                static_cast<long long>(n), bytes / 1e9, d_.global_memory_bytes / 1e9, static_cast<long long>(st.chunks),
                st.device_bytes / 1e6, setup_s, static_cast<long long>(wrong.load()));
    add({"pipe", "u32", "copy bound", "pinned > GPU memory", n, traffic, bound, bound, copy, true});
    add({"pipe", "u32", "pipeline", "pinned > GPU memory", n, traffic, ms, bound, copy, wrong.load() == 0});
  }

  /// The block-size study: the single-pass u32 scan at every swept tile shape beside CUB. The library's
  /// own shape (scan_policy.cuh) is 256 × 16.
  void sweep(std::int64_t n) {
    device_buffer<std::uint32_t> in(n), out(n), ref(n);
    PARASCAN_CUDA_CHECK(validation::fill_random_words(in.data(), in.size(), 4321 + n));
    const double copy = copy_gbs(in.data(), out.data(), n * sizeof(std::uint32_t));
    std::size_t cub_bytes = 0;
    PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(nullptr, cub_bytes, in.data(), ref.data(), n, sum{}, 0u));
    device_buffer<char> cub_temp(cub_bytes);
    const double cub_ms = time([&] {
      PARASCAN_CUDA_CHECK(validation::cub_exclusive_scan(cub_temp.data(), cub_bytes, in.data(), ref.data(), n, sum{}, 0u));
    });
    const double bytes = 8.0 * n;
    add({"sweep", "u32", "CUB", "DeviceScan", n, bytes, cub_ms, cub_ms, copy, true});
    for (const auto& r : scan_shape_sweep(in.data(), out.data(), ref.data(), n, repeat_))
      add({"sweep", "u32", "warp_shuffle", std::to_string(r.threads) + " x " + std::to_string(r.items) + " single", n,
           bytes, r.ms, cub_ms, copy, r.ok});
  }

 private:
  const bench_args& a_;
  const device_description& d_;
  int repeat_;
  std::vector<row> rows_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench: parascan primitives beside CUB and the copy bandwidth", "bench"};
  bench_args a;
  app.add_flag("--quick", a.quick, "Sizes 2^20, 2^24, 2^28 and 3 repeats (a minute or so)");
  app.add_option("--primitive", a.primitive, "scan, select, sort, sat, pipeline, sweep or all (sort: radix sort of keys of every width, pairs and argsort on uniform, few_distinct, sorted and all_equal keys beside CUB; sat: 1024² to 16384² u8 images, 8192² with --quick; pipeline: host arrays through the GPU with the transfers, beside one CPU core and the PCIe copy bound; sweep: the single-pass scan at tile shapes from 128 × 8 to 1024 × 8; sort, pipeline and sweep are not part of all)")->check(CLI::IsMember({"scan", "select", "sort", "sat", "pipeline", "sweep", "all"}))->capture_default_str();
  app.add_option("--log-sizes", a.log_sizes, "Sizes as powers of two, 1 to 34 (default 16 20 24 28 30)")->delimiter(',')->check(CLI::Range(1, 34));
  app.add_flag("--beyond-gpu-memory", a.beyond,
               "With --primitive pipeline: also scan one pinned u32 array 5% larger than the GPU's memory, in place "
               "(needs that much host memory; a minute or more)");
  app.add_option("--filter", a.filter, "Only scan variants whose 'algorithm/strategy' contains this text; sort cases whose 'type mode/input' does (e.g. 'u32 keys/')");
  app.add_flag("--every-algorithm", a.every_sort_algorithm, "With --primitive sort: the split sorts on every case (by default on u32 keys only)");
  app.add_option("--csv", a.csv, "Also write the rows as CSV to FILE")->check(writable_file());
  common_options& c = a.common;
  c.repeat = 20;
  add_common_options(app, c, "bench --quick --csv bench.csv", offer_repeat);
  return run_tool(app, argc, argv, [&]() -> int {
    const auto d = select_device(c.device);
    if (a.log_sizes.empty()) a.log_sizes = a.quick ? std::vector<int>{20, 24, 28} : std::vector<int>{16, 20, 24, 28, 30};
    std::printf("bench: %s (sm_%d%d, %d SMs, %.0f MB L2), median of %d, driver %d, runtime %d\n", d.name.c_str(), d.cc_major,
                d.cc_minor, d.sm_count, d.l2_bytes / 1e6, a.quick ? 3 : c.repeat, d.driver_version, d.runtime_version);
    std::printf("%-7s %-4s %-5s %-16s %-17s %10s %9s %8s %7s %7s %s\n", "prim", "type", "n", "algorithm", "strategy",
                "time_ms", "Gitems/s", "GB/s", "of_copy", "vs_CUB", "check");
    bench b(a, d);
    if (a.primitive == "pipeline") {
      std::printf("(pipe rows: 'vs_CUB' is the speedup over one CPU core, 'of_copy' the fraction of the pinned pipeline's PCIe copy bound)\n");
      for (int k : a.log_sizes) b.pipeline(std::int64_t(1) << k);
      if (a.beyond) b.pipeline_beyond_gpu_memory();
    }
    if (a.primitive == "sweep")
      for (int k : a.log_sizes) b.sweep(std::int64_t(1) << k);
    for (int k : a.log_sizes) {
      if (a.primitive == "sat" || a.primitive == "pipeline" || a.primitive == "sweep") break;
      const std::int64_t n = std::int64_t(1) << k;
      if (a.primitive == "all" || a.primitive == "scan") {
        b.scan(n);
        if (k <= 29 || d.global_memory_bytes > 40e9) {
          b.scan_type<std::uint64_t>(n);
          b.scan_type<float>(n);
        }
      }
      if (a.primitive == "sort") {
        sort_bench_options so;
        so.repeat = a.quick ? 3 : c.repeat;
        so.filter = a.filter;
        so.every_algorithm = a.every_sort_algorithm;
        bench_sort(n, so, [&](const row& r) { b.add(r); });
      }
      if (a.primitive == "all" || a.primitive == "select") {
        for (int pct : {10, 50, 90}) b.select<std::uint32_t>(n, pct);
        if (k <= 29 || d.global_memory_bytes > 60e9)
          for (int pct : {10, 50, 90}) b.select<std::uint64_t>(n, pct);
      }
    }
    if (a.primitive == "sat" || a.primitive == "all") {
      const std::vector<std::int64_t> sides = a.quick ? std::vector<std::int64_t>{1024, 8192}
                                                      : std::vector<std::int64_t>{1024, 4096, 8192, 16384};
      for (std::int64_t side : sides) {
        b.sat<std::uint32_t>(side, sat_layout::inclusive);
        b.sat<std::uint32_t>(side, sat_layout::padded);
        b.sat<std::uint64_t>(side, sat_layout::inclusive);
      }
    }
    std::int64_t bad = 0;
    for (const auto& r : b.rows()) bad += !r.ok;
    if (!a.csv.empty()) {
      std::string s = "primitive,type,n,algorithm,strategy,time_ms,items_per_s,gb_per_s,copy_gb_per_s,fraction_of_copy,cub_time_ms,ratio_to_cub,check,passes,pass_ms,cub_pass_ms\n";
      for (const auto& r : b.rows()) {
        char line[512];
        std::snprintf(line, sizeof line, "%s,%s,%lld,%s,%s,%.6f,%.6e,%.3f,%.3f,%.4f,%.6f,%.4f,%s,%d,%.6f,%.6f\n",
                      r.primitive.c_str(), r.type.c_str(), static_cast<long long>(r.n), r.algorithm.c_str(),
                      r.strategy.c_str(), r.ms, r.items_per_s(), r.gbs(), r.copy_gbs, r.gbs() / r.copy_gbs, r.cub_ms,
                      r.cub_ms / r.ms, r.ok ? "ok" : "mismatch", r.passes, r.passes ? r.ms / r.passes : 0.0,
                      r.passes ? r.cub_ms / r.passes : 0.0);
        s += line;
      }
      write_file_atomic(a.csv, {}, s.data(), s.size());
    }
    if (!c.json.empty()) {
      std::string arr = "[";
      for (std::size_t i = 0; i < b.rows().size(); ++i) {
        const auto& r = b.rows()[i];
        json_object j;
        j.add("primitive", r.primitive).add("type", r.type).add("n", r.n).add("algorithm", r.algorithm)
            .add("strategy", r.strategy).add("time_ms", r.ms).add("gb_per_s", r.gbs()).add("ratio_to_cub", r.cub_ms / r.ms)
            .add("fraction_of_copy", r.gbs() / r.copy_gbs).add("check", r.ok);
        if (r.passes) j.add("passes", r.passes).add("pass_ms", r.ms / r.passes).add("cub_pass_ms", r.cub_ms / r.passes);
        arr += (i ? ", " : "") + j.str();
      }
      json_object top;
      top.add("tool", "bench").add("device", d.name).raw("rows", arr + "]");
      write_json(c.json, top.str());
    }
    if (bad) throw mismatch_error(std::to_string(bad) + " rows differ from CUB");
    return exit_ok;
  });
}
