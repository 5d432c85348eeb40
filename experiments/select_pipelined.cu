// Experiment: a persistent single-pass select whose tiles arrive by bulk copy (cp.async.bulk, sm_90)
// into shared-memory stages while the block works on an earlier tile, beside CUB's DeviceSelect::If
// (timed with an int and an int64 count, the faster divides) and the library's select kernel
// (select_tiles_kernel: a block per tile, the tile in registers). u32, keep x < 2^31 (about half).
//
// Why: the library's kernel and CUB's both run at ~55% of copy bandwidth at 2^24 (entry 40): a block
// has its loads in flight only until its tile lands, then counts, waits in the look-back and
// scatters with no load outstanding. Here each block claims tiles in order (one atomic counter, so
// the look-back cannot wait on a tile that no block holds) and keeps Stages of them in flight: the
// copy of the next tiles overlaps this tile's count, look-back and scatter.
//
// Per tile: wait for its stage's mbarrier; ballots of the keep bits row by row from shared memory;
// per-warp-row counts scanned across the block; the look-back (warp 0); the kept items written from
// shared memory; a barrier; then thread 0 claims the next tile and starts its copy into the freed stage.
// A partial last tile is loaded by the threads. Every output is checked against CUB's.
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include -I experiments experiments/select_pipelined.cu
#include <cub/device/device_select.cuh>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "experiment_timing.cuh"
#include "parascan/device/device_select.cuh"

using namespace parascan;
using namespace parascan::device;

namespace {

struct half_rule {
  __host__ __device__ bool operator()(std::uint32_t x) const { return x < 0x80000000u; }
};

/// The look-back's delays for these grids (a persistent grid has fewer blocks than the library's
/// look_back_min_grid, so the policy's own switch is turned off here).
template <int T, int R, int I, int P>
struct pipe_policy : scan_policy_t<T, R, I, P> {
  static constexpr unsigned look_back_min_grid = 1;
};

__device__ __forceinline__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void bar_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void bar_expect(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_copy(void* dst, const void* src, unsigned bytes, std::uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
               "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}
__device__ __forceinline__ void bar_wait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  }
}

template <int Threads, int Rows, int Stages, int InitialNs, int PollNs>
__global__ void __launch_bounds__(Threads)
    pipelined_select(const std::uint32_t* in, std::uint32_t* out, std::int64_t n, std::int64_t* count_out,
                     tile_status<std::uint32_t> status, unsigned long long* tile_counter) {
  using V = std::uint32_t;
  using Offset = std::uint32_t;
  using policy = pipe_policy<Threads, Rows, InitialNs, PollNs>;
  constexpr int tile_items = Threads * Rows, warps = Threads / 32, segments = Rows * warps;
  static_assert(segments <= Threads, "one segment count per thread");
  using counts_scan = block::block_scan<block_algorithm::warp_shuffle, Offset, Threads>;
  extern __shared__ __align__(128) unsigned char dynamic_smem[];
  V(*stage)[tile_items] = reinterpret_cast<V(*)[tile_items]>(dynamic_smem);
  __shared__ __align__(8) std::uint64_t bar[Stages];
  __shared__ std::int64_t claimed[Stages];
  __shared__ typename counts_scan::storage scan_storage;
  __shared__ Offset segment_start[segments];
  __shared__ Offset tile_prefix;
  const std::int64_t tiles = (n + tile_items - 1) / tile_items;
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  // Claims the next tile for stage s and starts its copy (a full tile; a partial one is loaded later).
  const auto claim = [&](int s) {
    const std::int64_t t = static_cast<std::int64_t>(atomicAdd(tile_counter, 1ull));
    claimed[s] = t;
    if (t < tiles && (t + 1) * tile_items <= n) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      bar_expect(&bar[s], tile_items * sizeof(V));
      bulk_copy(stage[s], in + t * tile_items, tile_items * sizeof(V), &bar[s]);
    }
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) bar_init(&bar[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int s = 0; s < Stages; ++s) claim(s);
  }
  __syncthreads();
  const unsigned lower = (1u << lane) - 1u;
  for (int it = 0;; ++it) {
    const int s = it % Stages;
    const unsigned parity = static_cast<unsigned>(it / Stages) & 1u;
    const std::int64_t tile = claimed[s];
    if (tile >= tiles) break;
    const std::int64_t first = tile * tile_items;
    const int valid = static_cast<int>(n - first < tile_items ? n - first : tile_items);
    if (valid == tile_items) {
      bar_wait(&bar[s], parity);
    } else {
      for (int i = threadIdx.x; i < valid; i += Threads) stage[s][i] = in[first + i];
      __syncthreads();
    }
    unsigned bits[Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      const int local = r * Threads + static_cast<int>(threadIdx.x);
      const bool k = local < valid && half_rule{}(stage[s][local]);
      bits[r] = __ballot_sync(0xffffffffu, k);
    }
    if (lane == 0) {
#pragma unroll
      for (int r = 0; r < Rows; ++r) segment_start[r * warps + w] = static_cast<Offset>(__popc(bits[r]));
    }
    __syncthreads();
    const Offset count = threadIdx.x < segments ? segment_start[threadIdx.x] : Offset(0);
    Offset before = 0, inclusive, aggregate;
    counts_scan::scan(scan_storage, count, sum{}, Threads, before, inclusive, aggregate);  // ends with a barrier
    if (threadIdx.x == 0) before = 0;
    if (threadIdx.x < segments) segment_start[threadIdx.x] = before;
    if (tile == 0) {
      if (threadIdx.x == 0) {
        status.publish(0, state_prefix, aggregate);
        tile_prefix = 0;
      }
    } else if (threadIdx.x < 32) {
      const Offset p = look_back<policy>(status, tile, tile, aggregate, sum{});
      if (threadIdx.x == 0) tile_prefix = p;
    }
    __syncthreads();
    const std::int64_t out_first = static_cast<std::int64_t>(tile_prefix);
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      if ((bits[r] >> lane) & 1u)
        out[out_first + static_cast<std::int64_t>(segment_start[r * warps + w]) + __popc(bits[r] & lower)] =
            stage[s][r * Threads + threadIdx.x];
    }
    if (tile == tiles - 1 && threadIdx.x == 0) *count_out = out_first + static_cast<std::int64_t>(aggregate);
    __syncthreads();  // stage s, segment_start and tile_prefix are free
    if (threadIdx.x == 0) claim(s);
    // claimed[s] is read again only Stages iterations later, after barriers.
  }
}

struct buffers {
  std::int64_t n;
  std::uint32_t *in, *out, *ref;
  std::int64_t* count;
  void* temp;
  std::int64_t ref_count;
};

bool all_ok = true;

bool same_as_cub(const buffers& b) {
  CK(cudaDeviceSynchronize());
  std::int64_t c = -1;
  CK(cudaMemcpy(&c, b.count, 8, cudaMemcpyDeviceToHost));
  if (c != b.ref_count) return false;
  std::vector<std::uint32_t> x(c), y(c);
  CK(cudaMemcpy(x.data(), b.out, c * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(y.data(), b.ref, c * 4, cudaMemcpyDeviceToHost));
  return x == y;
}

template <int Threads, int Rows, int Stages, int InitialNs = 0, int PollNs = 0>
void pipelined(const char* name, const buffers& b, float cub_ms, float copy_ms, int sms) {
  constexpr int tile_items = Threads * Rows;
  const std::int64_t tiles = (b.n + tile_items - 1) / tile_items;
  const auto storage = look_back_storage<std::uint32_t>::carve(b.temp, tiles);
  auto k = pipelined_select<Threads, Rows, Stages, InitialNs, PollNs>;
  const int smem = Stages * tile_items * 4;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, Threads, smem));
  const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(tiles, static_cast<std::int64_t>(per_sm) * sms));
  const auto go = [&] {
    CK(storage.init(tiles, 0, false));
    k<<<grid, Threads, smem>>>(b.in, b.out, b.n, b.count, storage.status, storage.counter);
    CK(cudaGetLastError());
  };
  CK(cudaMemset(b.out, 0xab, b.n * 4));
  CK(cudaMemset(b.count, 0xff, 8));
  go();
  const bool ok = same_as_cub(b);
  all_ok = all_ok && ok;
  const float ms = median_ms({20, 2}, go);
  std::printf("  %-26s %d blk/SM  %8.4f ms  %6.3fx CUB  %4.0f%% of copy time  %s\n", name, per_sm, ms, cub_ms / ms,
              100.0 * copy_ms / ms, ok ? "ok" : "WRONG");
}

void library(const buffers& b, float cub_ms, float copy_ms) {
  std::size_t bytes = 0;
  const keep_by_predicate<std::uint32_t, half_rule> keep{half_rule{}, false};
  CK(select_pass<std::uint32_t>(nullptr, bytes, b.in, keep, b.out, b.count, nullptr, b.n, 0, scan_options{}));
  const auto go = [&] { CK(select_pass<std::uint32_t>(b.temp, bytes, b.in, keep, b.out, b.count, nullptr, b.n, 0, scan_options{})); };
  CK(cudaMemset(b.out, 0xab, b.n * 4));
  go();
  const bool ok = same_as_cub(b);
  all_ok = all_ok && ok;
  const float ms = median_ms({20, 2}, go);
  std::printf("  %-26s          %8.4f ms  %6.3fx CUB  %4.0f%% of copy time  %s\n", "library select_tiles_kernel", ms,
              cub_ms / ms, 100.0 * copy_ms / ms, ok ? "ok" : "WRONG");
}

}  // namespace

int main(int argc, char** argv) {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::vector<int> logs = log_sizes(argc, argv, 1, {20, 24, 28});
  for (int log_n : logs) {
    buffers b;
    b.n = (std::int64_t(1) << log_n) + (log_n >= 24 ? 1234 : 0);  // not a whole number of tiles
    CK(cudaMalloc(&b.in, b.n * 4));
    CK(cudaMalloc(&b.out, b.n * 4));
    CK(cudaMalloc(&b.ref, b.n * 4));
    CK(cudaMalloc(&b.count, 8));
    CK(cudaMalloc(&b.temp, 64 << 20));
    fill_hashed<<<1024, 256>>>(b.in, b.n);
    CK(cudaDeviceSynchronize());
    // CUB with both count types; the faster divides.
    float cub_ms = 0;
    std::size_t cb32 = 0, cb64 = 0;
    CK(cub::DeviceSelect::If(nullptr, cb32, b.in, b.ref, b.count, static_cast<int>(b.n), half_rule{}));
    CK(cub::DeviceSelect::If(nullptr, cb64, b.in, b.ref, b.count, b.n, half_rule{}));
    void* ct = nullptr;
    CK(cudaMalloc(&ct, std::max(cb32, cb64)));
    const float c32 = median_ms({20, 2}, [&] { CK(cub::DeviceSelect::If(ct, cb32, b.in, b.ref, b.count, static_cast<int>(b.n), half_rule{})); });
    const float c64 = median_ms({20, 2}, [&] { CK(cub::DeviceSelect::If(ct, cb64, b.in, b.ref, b.count, b.n, half_rule{})); });
    cub_ms = std::min(c32, c64);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&b.ref_count, b.count, 8, cudaMemcpyDeviceToHost));
    const float copy_ms = median_ms({20, 2}, [&] { CK(cudaMemcpyAsync(b.out, b.in, b.n * 4, cudaMemcpyDeviceToDevice)); });
    // The selection's minimal traffic (read n, write the kept) at the copy's rate.
    const double sel_copy_ms = copy_ms * (b.n + b.ref_count) / (2.0 * b.n);
    std::printf("n=2^%d+%lld kept %lld: CUB %.4f ms (int %.4f, int64 %.4f); copy of n %.4f ms (%.0f GB/s); "
                "minimal traffic at that rate %.4f ms\n",
                log_n, (long long)(b.n - (std::int64_t(1) << log_n)), (long long)b.ref_count, cub_ms, c32, c64, copy_ms,
                2.0 * b.n * 4 / copy_ms / 1e6, sel_copy_ms);
    library(b, cub_ms, sel_copy_ms);
    pipelined<256, 16, 2>("256x16 2 stages", b, cub_ms, sel_copy_ms, sms);
    pipelined<256, 16, 3>("256x16 3 stages", b, cub_ms, sel_copy_ms, sms);
    pipelined<256, 32, 2>("256x32 2 stages", b, cub_ms, sel_copy_ms, sms);
    pipelined<384, 16, 2>("384x16 2 stages", b, cub_ms, sel_copy_ms, sms);
    pipelined<512, 16, 2>("512x16 2 stages", b, cub_ms, sel_copy_ms, sms);
    pipelined<256, 16, 4>("256x16 4 stages", b, cub_ms, sel_copy_ms, sms);
    pipelined<256, 16, 2, 500, 76>("256x16 2 stages 500/76", b, cub_ms, sel_copy_ms, sms);
    pipelined<256, 32, 2, 1000, 76>("256x32 2 stages 1000/76", b, cub_ms, sel_copy_ms, sms);
    pipelined<128, 32, 2>("128x32 2 stages", b, cub_ms, sel_copy_ms, sms);
    cudaFree(b.in); cudaFree(b.out); cudaFree(b.ref); cudaFree(b.count); cudaFree(b.temp); cudaFree(ct);
  }
  std::printf(all_ok ? "all outputs equal CUB's\n" : "SOME OUTPUTS DIFFER\n");
  return all_ok ? 0 : 1;
}
