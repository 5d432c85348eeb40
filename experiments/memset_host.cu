// Experiment (stop 41, performance.md entry 41): the host time of one cudaMemsetAsync against one launch of a
// kernel that clears the same bytes, after a synchronisation, without a profiler. torch.profiler showed
// parascan's cudaMemsetAsync at 75–510 µs of host time a call (the top-k counters, the rows Onesweep's)
// where torch's own memsets took 4–10 µs and a kernel launch 5–8 µs.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I experiments experiments/memset_host.cu -o memset_host
// Prints, for each size: median host µs of the memset and of the clearing launch (median of 200, a stream
// synchronisation before each), and each one's device time (events, median of 50).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "experiment_timing.cuh"

__global__ void clear_kernel(unsigned* p, long long words) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < words; i += 256ll * gridDim.x) p[i] = 0;
}

template <class F>
double host_us(cudaStream_t s, F f) {
  std::vector<double> t;
  for (int i = 0; i < 200; ++i) {
    CK(cudaStreamSynchronize(s));
    const auto a = std::chrono::steady_clock::now();
    f();
    const auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  long long wrong = 0;  // words left non-zero by a clear: the exit status is 1 if any were
  unsigned* p;
  const long long most = 64ll << 20;
  CK(cudaMalloc(&p, most));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (long long bytes : {4ll << 10, 64ll << 10, 1ll << 20, 6ll << 20, 32ll << 20}) {
    const long long words = bytes / 4;
    const unsigned grid = static_cast<unsigned>(std::min<long long>((words + 255) / 256, 4096));
    auto memset = [&] { CK(cudaMemsetAsync(p, 0, bytes, s)); };
    auto clear = [&] { clear_kernel<<<grid, 256, 0, s>>>(p, words); };
    // Each way of clearing, checked once over poisoned bytes before it is timed.
    for (auto way : {+[](unsigned* q, long long b, unsigned, cudaStream_t st) { CK(cudaMemsetAsync(q, 0, b, st)); },
                     +[](unsigned* q, long long b, unsigned g, cudaStream_t st) { clear_kernel<<<g, 256, 0, st>>>(q, b / 4); }}) {
      CK(cudaMemsetAsync(p, 0xff, bytes, s));
      way(p, bytes, grid, s);
      CK(cudaGetLastError());
      CK(cudaStreamSynchronize(s));
      std::vector<unsigned> h(words);
      CK(cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost));
      for (unsigned v : h) wrong += v != 0;
    }
    const double hm = host_us(s, memset), hk = host_us(s, clear);
    const float dm = median_ms({50, 3}, [&] { CK(cudaMemsetAsync(p, 0, bytes)); });
    const float dk = median_ms({50, 3}, [&] { clear_kernel<<<grid, 256>>>(p, words); });
    std::printf("%8lld KB: host memset %6.1f us, clear kernel %6.1f us; device memset %7.2f us, clear kernel %7.2f us\n",
                bytes >> 10, hm, hk, dm * 1e3, dk * 1e3);
  }
  CK(cudaGetLastError());
  if (wrong) std::printf("WRONG: %lld words not cleared\n", wrong);
  return wrong ? 1 : 0;
}
