// Experiment: the keys-only thread-a-row sort (device/segmented_sort/thread_rows.cuh) with the row permuted
// through the keys' sort images (the library's form) against a fresh register array (stop 39's refactor:
// 64 registers instead of 48 at P = 16), in one process. 2^20 rows of 16 f32 keys (and of 32), checked
// against std::sort; median of 50. Prints each form's time and registers; exits 1 on a wrong result.
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/thread_rows_permute.cu
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "experiment_timing.cuh"
#include "parascan/device/segmented_sort/thread_rows.cuh"

using namespace parascan;
using namespace parascan::device::segmented;
using U = std::uint32_t;

/// The library's kernel with the keys moved through a fresh array (as stop 39's refactor had it).
template <int P>
__global__ void __launch_bounds__(thread_rows_threads<P, U, no_values>())
    fresh_array_kernel(const U* keys_in, U* keys_out, std::int64_t rows, int length, sort_key<U> key_of) {
  constexpr int threads = thread_rows_threads<P, U, no_values>();
  using rows_of = block::short_rows<threads, P>;
  __shared__ typename rows_of::template storage<U> keys;
  const int begin = static_cast<int>(threadIdx.x) * length;
  for (std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * threads; row0 < rows;
       row0 += static_cast<std::int64_t>(gridDim.x) * threads) {
    const int items = rows_of::stage(keys_in, row0, rows, length, keys);
    __syncthreads();
    if (row0 + threadIdx.x < rows) {
      U image[P], moved[P];
      unsigned from[P];
      rows_of::sort_row(keys, begin, length, key_of, image, from);
      rows_of::permute_row(keys, begin, length, from, moved);
    }
    __syncthreads();
    rows_of::unstage(keys, items, row0, length, keys_out);
    __syncthreads();
  }
}

template <int P>
int registers_of(const void* kernel) {
  cudaFuncAttributes a{};
  CK(cudaFuncGetAttributes(&a, kernel));
  return a.numRegs;
}

template <int P>
bool run(std::int64_t rows) {
  const int length = P;
  const std::int64_t n = rows * length;
  std::vector<float> host(n);
  std::mt19937 rng(7 + P);
  std::normal_distribution<float> dist(0.f, 100.f);
  for (auto& x : host) x = dist(rng);
  std::vector<U> bits(n), want(n), got(n);
  std::memcpy(bits.data(), host.data(), n * 4);
  std::vector<float> sorted = host;
  for (std::int64_t r = 0; r < rows; ++r) std::sort(sorted.begin() + r * length, sorted.begin() + (r + 1) * length);
  std::memcpy(want.data(), sorted.data(), n * 4);
  U *in, *out;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMemcpy(in, bits.data(), n * 4, cudaMemcpyHostToDevice));
  const sort_key<U> key_of(key_kind::floating, 0, 32, false);
  constexpr int threads = thread_rows_threads<P, U, no_values>();
  const std::int64_t blocks = (rows + threads - 1) / threads;
  const unsigned grid = static_cast<unsigned>(blocks < (1 << 20) ? blocks : (1 << 20));
  bool ok = true;
  auto check = [&](const char* name, float ms, int regs) {
    CK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    const bool right = got == want;
    ok = ok && right;
    std::printf("rows of %2d x %lld  %-34s %3d regs  %8.4f ms  %s\n", P, static_cast<long long>(rows), name, regs, ms,
                right ? "ok" : "WRONG");
  };
  for (int round = 0; round < 2; ++round) {
    CK(cudaMemset(out, 0xAB, n * 4));
    const float lib = median_ms({50, 3}, [&] {
      launch_thread_rows<U, no_values>(in, out, nullptr, nullptr, rows, length, key_of, 0);
    });
    CK(cudaGetLastError());
    check("library (through the images)", lib, registers_of<P>(reinterpret_cast<const void*>(&thread_rows_kernel<P, U, no_values>)));
    CK(cudaMemset(out, 0xAB, n * 4));
    const float fresh = median_ms({50, 3}, [&] { fresh_array_kernel<P><<<grid, threads>>>(in, out, rows, length, key_of); });
    CK(cudaGetLastError());
    check("fresh register array", fresh, registers_of<P>(reinterpret_cast<const void*>(&fresh_array_kernel<P>)));
  }
  CK(cudaFree(in));
  CK(cudaFree(out));
  return ok;
}

int main() {
  const bool ok = run<16>(std::int64_t(1) << 20) && run<32>(std::int64_t(1) << 19);
  return ok ? 0 : 1;
}
