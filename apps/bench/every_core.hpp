// The host side of the pipeline studies: work split over every host core, and the all-core CPU
// baselines the GPU pipelines are compared with (branch-free loops; the sort partitions by the top
// byte, then sorts the buckets with std::sort, threads taking buckets as they finish).
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace parascan::app {

inline int host_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

/// f(part, begin, end) on one thread per host core, over [0, n) cut into contiguous parts.
inline void on_every_core(std::int64_t n, const std::function<void(int, std::int64_t, std::int64_t)>& f) {
  const int parts = host_cores();
  std::vector<std::thread> pool;
  for (int p = 0; p < parts; ++p) pool.emplace_back(f, p, n * p / parts, n * (p + 1) / parts);
  for (auto& t : pool) t.join();
}

/// Median wall-clock ms of f over `reps` runs after one untimed warm-up (host-to-host work: the
/// pipelines block until their output is complete).
inline double host_median_ms(int reps, const std::function<void()>& f) {
  f();
  std::vector<double> t;
  for (int k = 0; k < reps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// out = in sorted (u32), on every core: each part counts its keys' top bytes; the counts give every
/// (part, bucket) its place; each part scatters its keys there; the 256 buckets are sorted in place.
inline void cpu_sort_every_core(const std::uint32_t* in, std::uint32_t* out, std::int64_t n) {
  const int parts = host_cores();
  std::vector<std::int64_t> count(static_cast<std::size_t>(parts) * 256, 0);
  on_every_core(n, [&](int p, std::int64_t b, std::int64_t e) {
    std::int64_t* c = count.data() + static_cast<std::size_t>(p) * 256;
    for (std::int64_t i = b; i < e; ++i) ++c[in[i] >> 24];
  });
  std::vector<std::int64_t> start(static_cast<std::size_t>(parts) * 256), bucket(257, 0);
  std::int64_t at = 0;
  for (int d = 0; d < 256; ++d) {
    bucket[d] = at;
    for (int p = 0; p < parts; ++p) {
      start[static_cast<std::size_t>(p) * 256 + d] = at;
      at += count[static_cast<std::size_t>(p) * 256 + d];
    }
  }
  bucket[256] = at;
  on_every_core(n, [&](int p, std::int64_t b, std::int64_t e) {
    std::int64_t* s = start.data() + static_cast<std::size_t>(p) * 256;
    for (std::int64_t i = b; i < e; ++i) out[s[in[i] >> 24]++] = in[i];
  });
  std::atomic<int> next{0};
  on_every_core(parts, [&](int, std::int64_t, std::int64_t) {
    for (int d; (d = next.fetch_add(1)) < 256;) std::sort(out + bucket[d], out + bucket[d + 1]);
  });
}

}  // namespace parascan::app
