// Experiment: the single-pass u64 exclusive sum at several tile shapes (threads × items) beside
// cub::DeviceScan (int and int64 counts, the faster divides) and the library's own call
// (device::exclusive_scan: at small n one cooperative launch), at 2^20, 2^24 and 2^28 or the sizes
// given (log2), checked word for word against CUB; exit 1 on a mismatch.
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/scan_wide_shapes.cu -o scan_wide_shapes
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cub/cub.cuh>
#include "parascan/device/device_scan.cuh"
#include "experiment_timing.cuh"

using namespace parascan;
using namespace parascan::device;
using T = unsigned long long;

__global__ void fill(T* p, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += gridDim.x * static_cast<std::int64_t>(blockDim.x))
    p[i] = (static_cast<T>(i) * 0x9e3779b97f4a7c15ull) >> 20;
}

bool all_ok = true;

/// Times `run` (median of 15), then runs it once more on a poisoned output and compares with CUB's.
template <class F>
void time_and_check(const char* label, F run, T* out, const T* ref, std::int64_t n, float cub_ms) {
  const float ms = median_ms({15}, run);
  CK(cudaMemset(out, 0x5a, n * sizeof(T)));
  run();
  std::vector<T> a(n), b(n);
  CK(cudaMemcpy(a.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), ref, n * sizeof(T), cudaMemcpyDeviceToHost));
  all_ok = all_ok && a == b;
  std::printf("  %s: %.4f ms  %.2fx CUB  %s\n", label, ms, cub_ms / ms, a == b ? "ok" : "WRONG");
}

template <int Threads, int Items>
void shape(const T* in, T* out, const T* ref, std::int64_t n, float cub_ms) {
  using policy = scan_policy_t<Threads, Items, 2000, 100>;
  const std::int64_t tiles = (n + policy::tile_items - 1) / policy::tile_items;
  void* temp;
  CK(cudaMalloc(&temp, look_back_storage<T>::bytes(tiles)));
  const auto storage = look_back_storage<T>::carve(temp, tiles);
  const auto launch = [&] {
    CK(storage.init(tiles, 0, false));
    scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back, T>
        <<<static_cast<unsigned>(tiles), Threads>>>(pointer_loader<T, T>{in}, pointer_storer<T>{out}, n, sum{},
                                                    scan_mode<T>{true, true, T(0)}, nullptr, nullptr, storage.status,
                                                    storage.counter);
    CK(cudaGetLastError());
  };
  char label[32];
  std::snprintf(label, sizeof label, "%4d x %2d", Threads, Items);
  time_and_check(label, launch, out, ref, n, cub_ms);
  CK(cudaFree(temp));
}

int main(int argc, char** argv) {
  const std::vector<int> logs = log_sizes(argc, argv, 1, {20, 24, 28});
  for (int k : logs) {
    const std::int64_t n = std::int64_t(1) << k;
    T *in, *out, *ref;
    CK(cudaMalloc(&in, n * sizeof(T)));
    CK(cudaMalloc(&out, n * sizeof(T)));
    CK(cudaMalloc(&ref, n * sizeof(T)));
    fill<<<1024, 256>>>(in, n);
    std::size_t bytes = 0, bytes32 = 0;
    CK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, ref, n));
    CK(cub::DeviceScan::ExclusiveSum(nullptr, bytes32, in, ref, static_cast<int>(n)));
    void* temp;
    CK(cudaMalloc(&temp, std::max(bytes, bytes32)));
    const float cub64 = median_ms({15}, [&] { CK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, ref, n)); });
    const float cub32 = median_ms({15}, [&] { CK(cub::DeviceScan::ExclusiveSum(temp, bytes32, in, ref, static_cast<int>(n))); });
    const float cub_ms = std::min(cub64, cub32);
    const float copy = median_ms({15}, [&] { CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); });
    std::printf("2^%d u64: CUB %.4f ms (int %.4f, int64 %.4f), copy %.4f ms (CUB at %.0f%% of copy)\n", k, cub_ms, cub32,
                cub64, copy, 100 * copy / cub_ms);
    {
      std::size_t ours_bytes = 0;
      CK(exclusive_scan(nullptr, ours_bytes, in, out, n, sum{}, T(0), 0, scan_options{}));
      void* ours_temp;
      CK(cudaMalloc(&ours_temp, std::max<std::size_t>(ours_bytes, 1)));
      const auto call = [&] { CK(exclusive_scan(ours_temp, ours_bytes, in, out, n, sum{}, T(0), 0, scan_options{})); };
      time_and_check("library exclusive_scan", call, out, ref, n, cub_ms);
      CK(cudaFree(ours_temp));
    }
    shape<256, 8>(in, out, ref, n, cub_ms);
    shape<256, 12>(in, out, ref, n, cub_ms);
    shape<384, 12>(in, out, ref, n, cub_ms);
    shape<512, 8>(in, out, ref, n, cub_ms);
    shape<256, 16>(in, out, ref, n, cub_ms);
    shape<256, 20>(in, out, ref, n, cub_ms);
    shape<128, 32>(in, out, ref, n, cub_ms);
    shape<128, 40>(in, out, ref, n, cub_ms);
    shape<192, 24>(in, out, ref, n, cub_ms);
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(ref)); CK(cudaFree(temp));
  }
  return all_ok ? 0 : 1;
}
