// Experiment (issue 35's cumsum at 2^28 on the H200): a single-pass u32 exclusive sum whose blocks stay
// resident and load their next tile while they wait in the look-back.
//
// Why: the library's 4-byte scan (256 × 32, the tile in shared memory, 6 blocks an SM) runs at ~77–81% of
// cudaMemcpy on the H200 against 88% on the H100 (performance.md entries 53, 61). Entry 53 found that
// occupancy carried its last gain (3 → 6 blocks an SM: 0.69 → 0.62 ms), i.e. the bytes in flight an SM
// limit it; a block loads nothing while it waits for its predecessors, and shared memory caps the tiles
// resident. Here each block takes tiles blockIdx.x, + grid, + 2·grid, … and has the next `Stages − 1`
// tiles' loads in flight (cp.async, 16 bytes a thread a step, into a swizzled tile: vector j of a tile
// at j ^ ((j >> 3) & 7), so both the striped copies and a thread's run of consecutive vectors are free
// of bank conflicts) while it reduces, looks back, rescans and stores the current one.
//
// Beside it, in the same process: the library's parascan::exclusive_scan (as a user calls it),
// cub::DeviceScan::ExclusiveSum with an int and an int64 count (the faster divides), cudaMemcpy and a
// 16-byte grid-stride copy kernel (the ceiling). Every output is compared word for word with CUB's;
// exit 1 on a mismatch.
//   scan_prefetch [log2 n ...]      (default 24 26 28 29; n a multiple of every tile here)
#include <cub/device/device_scan.cuh>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "parascan/block/block_scan.cuh"
#include "parascan/device/device_scan.cuh"
#include "experiment_timing.cuh"
#include "u32_tile_seed.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;
using u32 = std::uint32_t;

template <int InitialNs, int PollNs>
struct delays {
  static constexpr int look_back_initial_ns = InitialNs;
  static constexpr int look_back_poll_ns = PollNs;
  static constexpr unsigned look_back_min_grid = 1;  // every grid sleeps
  static constexpr unsigned look_back_long_grid = 1;
  static constexpr int look_back_long_initial_ns = InitialNs;
};

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

/// Vector j's place in the shared tile: the low 3 bits (its 16-byte slot in a 128-byte row) XOR the row.
__device__ __forceinline__ int swz(int j) { return j ^ ((j >> 3) & 7); }

template <int Threads, int Items, int Stages, class Delays>
__global__ void __launch_bounds__(Threads) prefetch_scan_kernel(const u32* in, u32* out, std::int64_t tiles,
                                                                tile_status<u32> status) {
  constexpr int V = Items / 4;             // vectors a thread
  constexpr int tile_vectors = Threads * V;
  using bscan = block::block_scan<block_algorithm::warp_shuffle, u32, Threads>;
  extern __shared__ uint4 buf[];           // Stages tiles
  __shared__ typename bscan::storage scan_storage;
  __shared__ u32 tile_prefix;
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t grid = gridDim.x;
  const auto issue = [&](std::int64_t tile, int stage) {
    if (tile < tiles) {
      const uint4* src = reinterpret_cast<const uint4*>(in) + tile * tile_vectors;
      uint4* dst = buf + stage * tile_vectors;
#pragma unroll
      for (int i = 0; i < V; ++i) {
        const int j = i * Threads + t;
        cp_async16(dst + swz(j), src + j);
      }
    }
    cp_async_commit();  // an empty group past the end keeps the count of groups the same in every block
  };
  std::int64_t tile = blockIdx.x;
#pragma unroll
  for (int s = 0; s < Stages - 1; ++s) issue(tile + s * grid, s);
  for (int k = 0; tile < tiles; ++k, tile += grid) {
    issue(tile + (Stages - 1) * grid, (k + Stages - 1) % Stages);
    cp_async_wait<Stages - 1>();
    __syncthreads();
    uint4* b = buf + (k % Stages) * tile_vectors;
    u32 partial = 0;
#pragma unroll
    for (int c = 0; c < V; ++c) {
      const uint4 q = b[swz(V * t + c)];
      partial += q.x + q.y + q.z + q.w;
    }
    u32 run = u32_tile_seed<Delays, bscan>(scan_storage, tile_prefix, status, tile, partial);
#pragma unroll
    for (int c = 0; c < V; ++c) {
      uint4 q = b[swz(V * t + c)];
      const u32 x = q.x, y = q.y, z = q.z, w = q.w;
      q.x = run;
      q.y = run + x;
      q.z = q.y + y;
      q.w = q.z + z;
      run = q.w + w;
      b[swz(V * t + c)] = q;
    }
    __syncthreads();
    uint4* dst = reinterpret_cast<uint4*>(out) + tile * tile_vectors;
#pragma unroll
    for (int i = 0; i < V; ++i) {
      const int j = i * Threads + t;
      dst[j] = b[swz(j)];
    }
    __syncthreads();  // this stage's buffer is the one the next iteration's loads go into
  }
  cp_async_wait<0>();
}

__global__ void copy_v4(const uint4* in, uint4* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

bool all_ok = true;

void report(const char* label, float ms, float best_cub, float copy_ms, std::int64_t n, const u32* out,
            const std::vector<u32>& want, const char* note = "") {
  std::vector<u32> got(want.size());
  CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
  const bool ok = got == want;
  all_ok = all_ok && ok;
  std::printf("  %-34s %8.4f ms  %6.0f GB/s  %4.0f%% of copy  %5.3fx CUB  %s %s\n", label, ms, 8.0 * n / ms / 1e6,
              100.0 * copy_ms / ms, best_cub / ms, ok ? "ok" : "MISMATCH", note);
}

template <int Threads, int Items, int Stages, int Blocks, int InitialNs = 0, int PollNs = 32>
void prefetch(const u32* in, u32* out, std::int64_t n, const std::vector<u32>& want, float best_cub, float copy_ms,
              int sms) {
  constexpr int tile_items = Threads * Items;
  const std::int64_t tiles = n / tile_items;
  const auto kernel = prefetch_scan_kernel<Threads, Items, Stages, delays<InitialNs, PollNs>>;
  const int smem = Stages * tile_items * 4;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, Threads, smem));
  const int per_sm = fit < Blocks ? fit : Blocks;
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(tiles, std::int64_t(per_sm) * sms));
  void* temp = nullptr;
  CK(cudaMalloc(&temp, look_back_storage<u32>::bytes(tiles)));
  const auto storage = look_back_storage<u32>::carve(temp, tiles);
  const auto run = [&] {
    CK(storage.init(tiles, 0, false));
    kernel<<<grid, Threads, smem>>>(in, out, tiles, storage.status);
    CK(cudaGetLastError());
  };
  const float ms = median_ms({20, 2, 50}, run);
  CK(cudaMemset(out, 0x5a, n * 4));
  run();
  CK(cudaDeviceSynchronize());
  char label[96], note[64];
  std::snprintf(label, sizeof label, "prefetch %dx%d S%d B%d lb(%d,%d)", Threads, Items, Stages, Blocks, InitialNs,
                PollNs);
  std::snprintf(note, sizeof note, "(%d blocks an SM fit, %u blocks)", fit, grid);
  report(label, ms, best_cub, copy_ms, n, out, want, note);
  CK(cudaFree(temp));
}

}  // namespace

int main(int argc, char** argv) {
  int dev = 0, sms = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, dev));
  std::printf("scan_prefetch: %s, %d SMs; u32 exclusive sums, median of 20 (event-timed, launches held)\n",
              prop.name, sms);
  for (const int lg : log_sizes(argc, argv, 1, {24, 26, 28, 29})) {
    const std::int64_t n = std::int64_t(1) << lg;
    u32 *in, *out, *ref;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    fill_hashed<<<1024, 256>>>(in, n);
    CK(cudaGetLastError());
    std::size_t b32 = 0, b64 = 0;
    CK(cub::DeviceScan::ExclusiveSum(nullptr, b32, in, ref, static_cast<int>(n)));
    CK(cub::DeviceScan::ExclusiveSum(nullptr, b64, in, ref, n));
    void* cub_temp;
    CK(cudaMalloc(&cub_temp, std::max(b32, b64)));
    const timing_options o{20, 2, 50};
    const float cub_int = median_ms(o, [&] { CK(cub::DeviceScan::ExclusiveSum(cub_temp, b32, in, ref, static_cast<int>(n))); });
    const float cub_i64 = median_ms(o, [&] { CK(cub::DeviceScan::ExclusiveSum(cub_temp, b64, in, ref, n)); });
    const float best_cub = std::min(cub_int, cub_i64);
    const float copy_ms = median_ms(o, [&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); });
    const float kcopy_ms = median_ms(o, [&] {
      copy_v4<<<sms * 8, 256>>>(reinterpret_cast<const uint4*>(in), reinterpret_cast<uint4*>(out), n / 4);
      CK(cudaGetLastError());
    });
    std::vector<u32> want(static_cast<std::size_t>(n));
    CK(cudaMemcpy(want.data(), ref, n * 4, cudaMemcpyDeviceToHost));
    std::printf("2^%d: CUB ExclusiveSum int %.4f / int64 %.4f ms; cudaMemcpy %.4f ms (%.0f GB/s); copy kernel %.4f ms\n",
                lg, cub_int, cub_i64, copy_ms, 8.0 * n / copy_ms / 1e6, kcopy_ms);
    std::size_t lib_bytes = 0;
    CK(parascan::exclusive_scan(nullptr, lib_bytes, in, out, n, sum{}, 0u, 0, scan_options{}));
    void* lib_temp;
    CK(cudaMalloc(&lib_temp, lib_bytes));
    const float lib_ms = median_ms(o, [&] {
      CK(parascan::exclusive_scan(lib_temp, lib_bytes, in, out, n, sum{}, 0u, 0, scan_options{}));
    });
    CK(cudaMemset(out, 0x5a, n * 4));
    CK(parascan::exclusive_scan(lib_temp, lib_bytes, in, out, n, sum{}, 0u, 0, scan_options{}));
    CK(cudaDeviceSynchronize());
    report("library exclusive_scan", lib_ms, best_cub, copy_ms, n, out, want);
    CK(cudaFree(lib_temp));
    prefetch<256, 32, 2, 3>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<256, 32, 3, 2>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<256, 16, 2, 6>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<256, 16, 3, 4>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<256, 16, 4, 3>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<128, 32, 2, 6>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<128, 32, 3, 4>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<512, 16, 2, 3>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<256, 32, 2, 3, 0, 0>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<256, 32, 2, 3, 300, 64>(in, out, n, want, best_cub, copy_ms, sms);
    prefetch<256, 16, 3, 4, 0, 0>(in, out, n, want, best_cub, copy_ms, sms);
    CK(cudaFree(cub_temp));
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(ref));
  }
  return all_ok ? 0 : 1;
}
