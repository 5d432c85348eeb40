// bench --primitive sort_pipeline: u32 keys sorted from pinned host memory by radix_sort_pipeline
// through at most --device-memory-limit of device memory (default: a quarter of the keys' bytes, so
// the out-of-core path runs), beside its PCIe bound measured in the same run (two round trips of the
// streamed copy pipeline: the partition pass and the sort pass each move every key in and out) and
// the all-core CPU sort (every_core.hpp). Rows carry the CPU sort's time in the CUB column ("vs"
// reads as the speedup over all host cores); "of_copy" is the fraction of the two-round-trip bound.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include "every_core.hpp"
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/sort_pipeline.hpp"
#include "runner.hpp"

namespace parascan::app {

void bench_sort_pipeline(runner& r, std::int64_t n, std::size_t limit) {
  const int reps = n >= (std::int64_t(1) << 30) ? 3 : r.repeat();
  const auto host_ms = [&](const std::function<void()>& f) { return host_median_ms(reps, f); };
  const std::size_t bytes = static_cast<std::size_t>(n) * 4;
  if (limit == 0) limit = std::max<std::size_t>(bytes / 4, std::size_t(64) << 20);
  std::uint32_t *h_in = nullptr, *h_out = nullptr;
  PARASCAN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h_in), bytes));
  std::unique_ptr<std::uint32_t, decltype(&cudaFreeHost)> free_in(h_in, cudaFreeHost);
  PARASCAN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h_out), bytes));
  std::unique_ptr<std::uint32_t, decltype(&cudaFreeHost)> free_out(h_out, cudaFreeHost);
  on_every_core(n, [&](int, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull + 7;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      h_in[i] = static_cast<std::uint32_t>(z ^ (z >> 31));
    }
  });
  std::vector<std::uint32_t> want(static_cast<std::size_t>(n));
  const double cpu = host_ms([&] { cpu_sort_every_core(h_in, want.data(), n); });
  const bool cpu_ok = std::is_sorted(want.begin(), want.end());

  scan_pipeline<std::uint32_t> copier;
  const double round_trip = host_ms([&] { copier.copy(h_in, h_out, n); });
  const double bound = 2 * round_trip;  // two round trips: the partition pass, then the sort pass

  sort_pipeline_options o;
  o.device_memory_limit = limit;
  radix_sort_pipeline<std::uint32_t> pipe(o);
  sort_pipeline_stats st;
  std::memset(h_out, 0, bytes);
  const double ms = host_ms([&] { st = pipe.sort_keys(h_in, h_out, n); });
  const bool ok = std::memcmp(h_out, want.data(), bytes) == 0;
  const double traffic = 4.0 * bytes;  // every key in and out twice
  const double copy = traffic / (bound * 1e-3) / 1e9;
  std::printf("sort_pipeline 2^%d: %s, device memory limit %.2f GB, slots of %lld keys, %lld chunks partitioned, "
              "%lld batches, %lld buckets split again; pinned host %.1f GB; CPU sort on %d cores %s\n",
              bench_log2(n), st.out_of_core ? "out of core" : "one round trip", limit / 1e9,
              static_cast<long long>(st.slot_items), static_cast<long long>(st.partitions),
              static_cast<long long>(st.batches), static_cast<long long>(st.repartitioned), st.pinned_bytes / 1e9,
              host_cores(), cpu_ok ? "sorted" : "NOT SORTED");
  const std::string cores = std::to_string(host_cores()) + " cores";
  r.add({"sortpipe", "u32", "cpu", cores, n, traffic, cpu, cpu, copy, cpu_ok});
  r.add({"sortpipe", "u32", "copy bound", "2 round trips", n, traffic, bound, cpu, copy, true});
  r.add({"sortpipe", "u32", "pipeline", st.out_of_core ? "out of core" : "in core", n, traffic, ms, cpu, copy, ok});
}

}  // namespace parascan::app
