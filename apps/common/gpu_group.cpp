#include "gpu_group.hpp"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include "parascan/device_info.hpp"
#include "parascan/distributed.hpp"
#include "parascan/error.hpp"

namespace parascan::app {

void check_gpu_count(int gpus) {
  if (gpus <= 1) return;
  int have = 0;
  const cudaError_t e = cudaGetDeviceCount(&have);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    have = 0;
  }
  if (have < gpus)
    throw no_cuda_device("--gpus " + std::to_string(gpus) + ": this host has " + std::to_string(have) +
                         " usable CUDA device" + (have == 1 ? "" : "s"));
}

gpu_group::gpu_group(int gpus) : comms_(static_cast<std::size_t>(gpus)) {
  check_gpu_count(gpus);
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // no NVLink multicast (the device machines' README says why)
  dist::nccl_check(ncclCommInitAll(comms_.data(), gpus, nullptr), "ncclCommInitAll");
}

gpu_group::~gpu_group() {
  if (aborted_) return;
  for (auto c : comms_) (void)ncclCommDestroy(c);
}

void gpu_group::each(const std::function<void(int)>& f) {
  if (aborted_) throw std::logic_error("gpu_group: used after a rank failed");
  const int P = size();
  std::exception_ptr first;
  std::mutex m;
  std::vector<std::thread> threads;
  for (int r = 0; r < P; ++r)
    threads.emplace_back([&, r] {
      try {
        PARASCAN_CUDA_CHECK(cudaSetDevice(r));
        f(r);
      } catch (...) {
        std::lock_guard<std::mutex> lock(m);
        if (!first) {
          first = std::current_exception();
          // The other ranks may be inside a collective waiting for this one: abort unblocks them.
          for (auto c : comms_) (void)ncclCommAbort(c);
          aborted_ = true;
        }
      }
    });
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

double gpu_group::median_ms(int repeat, const std::function<void(int)>& f) {
  const int P = size();
  std::vector<double> times;
  for (int k = 0; k <= repeat; ++k) {
    std::atomic<int> ready{0};
    std::chrono::steady_clock::time_point start;
    each([&](int r) {
      PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
      if (++ready == P) start = std::chrono::steady_clock::now();  // the last rank to arrive starts the clock
      while (ready.load() < P) std::this_thread::yield();
      f(r);
      PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
    });
    if (k > 0) times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times.size() % 2 ? times[times.size() / 2] : 0.5 * (times[times.size() / 2 - 1] + times[times.size() / 2]);
}

}  // namespace parascan::app
