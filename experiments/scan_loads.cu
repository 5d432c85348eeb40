// Experiment: how the single-pass u32 exclusive sum moves its tile (issue 35's 2^28 cumsum target needs
// ~88% of copy bandwidth; the library's 256 × 32 kernel runs at ~84%). Variants of one tile routine,
// all with the library's block scan and look-back (look_back.cuh, 2000 / 100 ns delays), every tile full
// (n a multiple of the tile), beside the library's scan_tiles_kernel, CUB's ExclusiveSum and two copies:
//   vec     16-byte global loads and stores (4 items a lane) through the same padded shared tile
//   cs      streaming cache hints: ld.global.cs / st.global.cs (__ldcs / __stcs)
//   smem    the items stay in the shared tile (thread reduce and rescan read it there) instead of 32
//           registers a thread, so more blocks fit an SM while others sleep in their look-back
//   /B      __launch_bounds__(threads, B): B blocks an SM asked of the compiler
// Every output is checked word for word against CUB's. Stop 51 (H100, docs/scan-loads-hints-stop51-h100.txt):
// the library's shape (vec smem /6, idx) with streaming hints 0.8010 against 0.8052–0.8056 ms at 2^28
// (+0.5%), 0.0576 against 0.0584–0.0594 at 2^24 (+1.4–3%); not adopted yet (performance.md entry 56).
//   scan_loads [log2 n ...]      (default 24 26 28); exit 1 on a mismatch
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include "parascan/device/device_scan.cuh"
#include "scan_reference.cuh"
#include "u32_tile_seed.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;
using block::padded_index;
using block::padded_size;
using u32 = std::uint32_t;

template <bool Hints>
__device__ __forceinline__ uint4 load4(const uint4* p) {
  if constexpr (Hints) return __ldcs(p);
  else return *p;
}
template <bool Hints>
__device__ __forceinline__ u32 load1(const u32* p) {
  if constexpr (Hints) return __ldcs(p);
  else return *p;
}
template <bool Hints>
__device__ __forceinline__ void store4(uint4* p, uint4 v) {
  if constexpr (Hints) __stcs(p, v);
  else *p = v;
}
template <bool Hints>
__device__ __forceinline__ void store1(u32* p, u32 v) {
  if constexpr (Hints) __stcs(p, v);
  else *p = v;
}

template <int Threads, int Items, bool Vec, bool Hints, bool InSmem, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
    scan_variant(const u32* in, u32* out, tile_status<u32> status, unsigned long long* counter) {
  using policy = scan_policy_t<Threads, Items, 2000, 100>;
  using bscan = block::block_scan<block_algorithm::warp_shuffle, u32, Threads>;
  constexpr int tile_items = Threads * Items;
  __shared__ u32 tile_smem[padded_size(tile_items)];
  __shared__ typename bscan::storage scan_storage;
  __shared__ u32 tile_prefix;
  __shared__ long long tile_index;
  const int t = threadIdx.x;
  long long tile = blockIdx.x;
  if (counter != nullptr) {
    if (t == 0) tile_index = static_cast<long long>(atomicAdd(counter, 1ull));
    __syncthreads();
    tile = tile_index;
  }
  const long long base = tile * tile_items;
  if constexpr (Vec) {
    const uint4* src = reinterpret_cast<const uint4*>(in + base);
#pragma unroll
    for (int i = 0; i < Items / 4; ++i) {
      const int j = i * Threads + t;
      const uint4 v = load4<Hints>(src + j);
      tile_smem[padded_index(4 * j)] = v.x;
      tile_smem[padded_index(4 * j + 1)] = v.y;
      tile_smem[padded_index(4 * j + 2)] = v.z;
      tile_smem[padded_index(4 * j + 3)] = v.w;
    }
  } else {
#pragma unroll
    for (int i = 0; i < Items; ++i) tile_smem[padded_index(i * Threads + t)] = load1<Hints>(in + base + i * Threads + t);
  }
  __syncthreads();
  u32 items[InSmem ? 1 : Items];
  u32 partial = 0;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const u32 x = tile_smem[padded_index(t * Items + i)];
    if constexpr (!InSmem) items[i] = x;
    partial += x;
  }
  u32 running = u32_tile_seed<policy, bscan>(scan_storage, tile_prefix, status, tile, partial);
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const int k = padded_index(t * Items + i);
    const u32 x = InSmem ? tile_smem[k] : items[InSmem ? 0 : i];
    tile_smem[k] = running;  // each thread rewrites only its own items (read by it alone since the load)
    running += x;
  }
  __syncthreads();
  if constexpr (Vec) {
    uint4* dst = reinterpret_cast<uint4*>(out + base);
#pragma unroll
    for (int i = 0; i < Items / 4; ++i) {
      const int j = i * Threads + t;
      store4<Hints>(dst + j, make_uint4(tile_smem[padded_index(4 * j)], tile_smem[padded_index(4 * j + 1)],
                                        tile_smem[padded_index(4 * j + 2)], tile_smem[padded_index(4 * j + 3)]));
    }
  } else {
#pragma unroll
    for (int i = 0; i < Items; ++i) store1<Hints>(out + base + i * Threads + t, tile_smem[padded_index(i * Threads + t)]);
  }
}

__global__ void copy_kernel(const uint4* in, uint4* out, long long n4) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

struct row {
  std::string name;
  float ms;
  bool ok;
};

struct bench_ctx {
  const u32* in;
  u32* out;
  const std::vector<u32>* want;
  long long n;
  std::vector<row>* rows;
};

bool check(const bench_ctx& c) {
  std::vector<u32> got(static_cast<std::size_t>(c.n));
  CK(cudaMemcpy(got.data(), c.out, got.size() * 4, cudaMemcpyDeviceToHost));
  return got == *c.want;
}

/// One variant at one counter choice (0: block index, 1: counter).
template <int Threads, int Items, bool Vec, bool Hints, bool InSmem, int MinBlocks>
void run(const bench_ctx& c, bool from_counter) {
  constexpr int tile_items = Threads * Items;
  if (c.n % tile_items != 0) return;
  const long long tiles = c.n / tile_items;
  void* temp = nullptr;
  CK(cudaMalloc(&temp, look_back_storage<u32>::bytes(tiles)));
  const auto st = look_back_storage<u32>::carve(temp, tiles);
  const auto kernel = scan_variant<Threads, Items, Vec, Hints, InSmem, MinBlocks>;
  int blocks_per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, Threads, 0));
  cudaFuncAttributes attr{};
  CK(cudaFuncGetAttributes(&attr, kernel));
  const auto launch = [&] {
    init_status_kernel<u32><<<static_cast<unsigned>((tiles + 255) / 256), 256>>>(st.status, tiles, st.counter);
    kernel<<<static_cast<unsigned>(tiles), Threads>>>(c.in, c.out, st.status, from_counter ? st.counter : nullptr);
    CK(cudaGetLastError());
  };
  const float ms = median_ms({20, 1, 50}, launch);
  CK(cudaMemset(c.out, 0x5a, static_cast<std::size_t>(c.n) * 4));
  launch();
  CK(cudaDeviceSynchronize());
  const bool ok = check(c);
  CK(cudaFree(temp));
  char name[96];
  std::snprintf(name, sizeof name, "%dx%d%s%s%s/%d %s (%dr %d/SM)", Threads, Items, Vec ? " vec" : "", Hints ? " cs" : "",
                InSmem ? " smem" : "", MinBlocks, from_counter ? "ctr" : "idx", attr.numRegs, blocks_per_sm);
  c.rows->push_back({name, ms, ok});
}

template <int Threads, int Items, bool Vec, bool Hints, bool InSmem, int MinBlocks>
void both(const bench_ctx& c) {
  run<Threads, Items, Vec, Hints, InSmem, MinBlocks>(c, false);
  run<Threads, Items, Vec, Hints, InSmem, MinBlocks>(c, true);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> logs = log_sizes(argc, argv, 1, {24, 26, 28});
  bool all_ok = true;
  std::printf("%-6s %-40s %10s %8s %8s %8s %s\n", "n", "variant", "ms", "GB/s", "of_copy", "vs_CUB", "check");
  for (int k : logs) {
    const long long n = 1ll << k;
    const scan_reference sr(n);
    u32 *in = sr.in, *out = sr.out;
    const float cub_int = sr.cub_int, cub_i64 = sr.cub_i64, cub_ms = sr.cub_ms, memcpy_ms = sr.memcpy_ms;
    const float copyk_ms = median_ms({20, 1, 50}, [&] {
      copy_kernel<<<132 * 8, 256>>>(reinterpret_cast<const uint4*>(in), reinterpret_cast<uint4*>(out), n / 4);
      CK(cudaGetLastError());
    });
    const float copy_ms = std::min(memcpy_ms, copyk_ms);
    const std::vector<u32>& want = sr.want;
    std::vector<row> rows = {{"cudaMemcpy D2D", memcpy_ms, true}, {"copy kernel (16 B)", copyk_ms, true},
                             {"CUB int count", cub_int, true}, {"CUB int64 count", cub_i64, true}};
    const bench_ctx c{in, out, &want, n, &rows};
    {  // the library's kernel as the library launches it (counter past 4096 tiles)
      using policy = scan_policy<u32>;
      const long long tiles = (n + policy::tile_items - 1) / policy::tile_items;
      void* temp = nullptr;
      CK(cudaMalloc(&temp, look_back_storage<u32>::bytes(tiles)));
      const auto st = look_back_storage<u32>::carve(temp, tiles);
      const auto launch = [&] {
        init_status_kernel<u32><<<static_cast<unsigned>((tiles + 255) / 256), 256>>>(st.status, tiles, st.counter);
        scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back, u32>
            <<<static_cast<unsigned>(tiles), policy::block_threads>>>(
                pointer_loader<u32, u32>{in}, pointer_storer<u32>{out}, n, sum{}, scan_mode<u32>{true, true, 0u}, nullptr,
                nullptr, st.status, scan_tiles_from_counter<u32>(tiles) ? st.counter : nullptr);
        CK(cudaGetLastError());
      };
      const float ms = median_ms({20, 1, 50}, launch);
      CK(cudaMemset(out, 0x5a, static_cast<std::size_t>(n) * 4));
      launch();
      CK(cudaDeviceSynchronize());
      rows.push_back({"library scan_tiles_kernel", ms, check(c)});
      CK(cudaFree(temp));
    }
    both<256, 32, false, false, false, 1>(c);  // the library's tile in this routine
    both<256, 32, true, false, false, 1>(c);
    both<256, 32, false, true, false, 1>(c);
    both<256, 32, true, true, false, 1>(c);
    both<256, 32, false, false, true, 1>(c);
    both<256, 32, true, false, true, 1>(c);
    both<256, 32, true, true, true, 1>(c);
    both<256, 32, true, false, true, 6>(c);
    both<256, 32, true, true, true, 6>(c);  // stop 51: the library's shape with streaming hints
    both<256, 32, true, false, true, 6>(c);  // and without again, after it (order effects)
    both<128, 32, true, false, false, 1>(c);
    both<128, 32, true, false, true, 1>(c);
    both<512, 16, true, false, true, 1>(c);
    both<512, 16, true, false, false, 1>(c);
    const double bytes = 8.0 * n;
    for (const auto& r : rows) {
      std::printf("2^%-4d %-40s %10.4f %8.0f %8.3f %8.3f %s\n", k, r.name.c_str(), r.ms, bytes / r.ms / 1e6, copy_ms / r.ms,
                  cub_ms / r.ms, r.ok ? "ok" : "MISMATCH");
      all_ok = all_ok && r.ok;
    }
    std::fflush(stdout);
  }
  return all_ok ? 0 : 1;
}
