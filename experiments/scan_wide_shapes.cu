// Experiment (not part of the build): the single-pass u64 exclusive sum at several tile shapes
// (threads × items) beside cub::DeviceScan, 2^24 and 2^28, checked word for word against CUB.
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
  const float ms = median_ms({15}, launch);
  CK(cudaMemset(out, 0x5a, n * sizeof(T)));
  launch();
  std::vector<T> a(n), b(n);
  CK(cudaMemcpy(a.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), ref, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::printf("  %4d x %2d: %.4f ms  %.2fx CUB  %s\n", Threads, Items, ms, cub_ms / ms, a == b ? "ok" : "WRONG");
  CK(cudaFree(temp));
}

int main() {
  for (int k : {24, 28}) {
    const std::int64_t n = std::int64_t(1) << k;
    T *in, *out, *ref;
    CK(cudaMalloc(&in, n * sizeof(T)));
    CK(cudaMalloc(&out, n * sizeof(T)));
    CK(cudaMalloc(&ref, n * sizeof(T)));
    fill<<<1024, 256>>>(in, n);
    std::size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, ref, n);
    void* temp;
    CK(cudaMalloc(&temp, bytes));
    const float cub_ms = median_ms({15}, [&] { cub::DeviceScan::ExclusiveSum(temp, bytes, in, ref, n); });
    const float copy = median_ms({15}, [&] { CK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); });
    std::printf("2^%d u64: CUB %.4f ms, copy %.4f ms (CUB at %.0f%% of copy)\n", k, cub_ms, copy, 100 * copy / cub_ms);
    shape<256, 8>(in, out, ref, n, cub_ms);
    shape<256, 16>(in, out, ref, n, cub_ms);
    shape<256, 20>(in, out, ref, n, cub_ms);
    shape<128, 32>(in, out, ref, n, cub_ms);
    shape<128, 40>(in, out, ref, n, cub_ms);
    shape<192, 24>(in, out, ref, n, cub_ms);
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(ref)); CK(cudaFree(temp));
  }
  return 0;
}
