// Timing device work with CUDA events: one warm-up, then the median of `repeat` timed runs. Before
// each timed run the stream is held busy for 500 µs (validation::hold_stream) while the host enqueues
// the work, so the time is the GPU's and not the host's launch latency (as nvbench does). 50 µs was
// not enough: enqueueing one CUB radix sort takes the H100 machine's host 45–77 µs, and a stall of
// 355 µs made a 2^20 row read 0.42× (docs/performance.md entry 28). The hold is not timed.
#pragma once
#include <cuda_runtime_api.h>
#include <algorithm>
#include <vector>
#include "parascan/error.hpp"
#include "parascan/validation/cub_count.hpp"
#include "parascan/validation/cub_scan.hpp"

namespace parascan::app {

class event_pair {
 public:
  static constexpr unsigned hold_us = 500;
  event_pair() {
    PARASCAN_CUDA_CHECK(cudaEventCreate(&start_));
    PARASCAN_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~event_pair() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  /// Milliseconds taken by the device work `f` enqueues on `stream`.
  template <class F>
  double time_ms(F&& f, cudaStream_t stream = 0) {
    PARASCAN_CUDA_CHECK(validation::hold_stream(stream, hold_us));
    PARASCAN_CUDA_CHECK(cudaEventRecord(start_, stream));
    f();
    PARASCAN_CUDA_CHECK(cudaEventRecord(stop_, stream));
    PARASCAN_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PARASCAN_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

/// Median time of f over `repeat` runs after one untimed warm-up run.
template <class F>
double median_ms(int repeat, F&& f, cudaStream_t stream = 0) {
  event_pair ev;
  f();
  PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) t.push_back(ev.time_ms(f, stream));
  std::sort(t.begin(), t.end());
  return t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
}

/// CUB's time with each form of its item count (validation/cub_count.hpp), measured one after the
/// other on the same inputs; ratios divide by the faster, as a user who tried both would choose.
struct cub_times {
  double int32_ms = 0, int64_ms = 0;
  double best_ms() const { return int32_ms < int64_ms ? int32_ms : int64_ms; }
  validation::cub_count best() const {
    return int32_ms < int64_ms ? validation::cub_count::int32 : validation::cub_count::int64;
  }
};

/// Temporary bytes for either form of a two-phase CUB call `cub(temp, bytes, count)`.
template <class Cub>
std::size_t cub_temp_bytes(Cub&& cub) {
  std::size_t most = 0;
  for (const validation::cub_count c : validation::all_cub_counts) {
    std::size_t b = 0;
    PARASCAN_CUDA_CHECK(cub(nullptr, b, c));
    most = std::max(most, b);
  }
  return most;
}

/// Both forms of `run(count)` timed with median_ms.
template <class Run>
cub_times time_cub_both(int repeat, Run&& run, cudaStream_t stream = 0) {
  cub_times t;
  t.int32_ms = median_ms(repeat, [&] { run(validation::cub_count::int32); }, stream);
  t.int64_ms = median_ms(repeat, [&] { run(validation::cub_count::int64); }, stream);
  return t;
}

}  // namespace parascan::app
