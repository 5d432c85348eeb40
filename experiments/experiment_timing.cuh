// The experiments' shared timer and error check (standalone programs, not part of the build).
//   CK(call)                          a CUDA call that must succeed, else the program prints where and exits
//   median_ms({reps, warmups, hold_us}, f)
//                                     f run `warmups` times untimed, then `reps` times each between two
//                                     events: the median in ms. With hold_us > 0 a one-thread kernel holds
//                                     the stream that long before each timed run, so that the host's
//                                     launch latency is not timed (as apps/common/timing.hpp does).
//   median_ms_cleared(before, f)     f timed alone, `before` (a clearing: status words, counters) run
//                                     untimed ahead of each run: the median of 20 after 2
//   log_sizes(argc, argv, first, {defaults})
//                                     the log2 sizes given from argv[first] on, else the defaults
//   fill_hashed<<<grid, threads>>>(p, n)
//                                     p[i] = a 64-bit mix of i (splitmix64's finaliser), cut to T: the
//                                     select experiments' random input, the same on every run
//   few_distinct<<<grid, threads>>>(p, n)
//                                     p[i] &= 0x03030303: u32 keys of 4 distinct values a byte (a digit)
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);       \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

inline std::vector<int> log_sizes(int argc, char** argv, int first, std::vector<int> defaults) {
  std::vector<int> sizes;
  for (int i = first; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  return sizes.empty() ? defaults : sizes;
}

/// The 64-bit mix fill_hashed applies to each index (splitmix64's finaliser of i · golden ratio).
__host__ __device__ inline unsigned long long hashed_index(unsigned long long i) {
  unsigned long long z = i * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class T>
__global__ void fill_hashed(T* p, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    p[i] = static_cast<T>(hashed_index(static_cast<unsigned long long>(i)));
}

__global__ void few_distinct(std::uint32_t* p, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    p[i] &= 0x03030303u;
}

__global__ void experiment_hold_kernel(long long ns) {
  long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  for (long long now = start; now - start < ns;) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
}

struct timing_options {
  int reps = 20;
  int warmups = 1;
  int hold_us = 0;
};

template <class F>
float median_ms(const timing_options& o, F f) {
  const int reps = o.reps, warmups = o.warmups, hold_us = o.hold_us;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < warmups; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    if (hold_us > 0) experiment_hold_kernel<<<1, 1>>>(1000ll * hold_us);
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  if (t.empty()) return 0;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class Before, class F>
float median_ms_cleared(Before before, F f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < 22; ++i) {
    before();
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 2) t.push_back(ms);
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
