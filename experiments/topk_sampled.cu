// Experiment (issue 33, performance.md entry 40): the front end of a sampled-threshold top-k for bf16 rows,
// beside the filter path's first two launches (round 0's histogram and filter, 158 µs for bf16
// (256, 128256) k = 1024 under ncu in stop 39, docs/profile-topk-h200.txt).
//   1. sample_kernel, a block a row: the images (ordered bits, complemented: the k largest keys are the k
//      smallest images) of 4096 keys spread over the row; their r-th smallest image t by two 8-bit
//      histograms in shared memory, r = ⌈margin · k · 4096 / length⌉.
//   2. append_kernel, blocks of (chunk, row): every key whose image is ≤ t has its position appended to the
//      row's list; a thread's 8 keys come from one 16-byte load, a warp's appends take one shuffle scan and
//      one atomic (global, or shared with one global atomic a block: argument 3), and warps with nothing to
//      append skip both.
// Where a row's count c is ≥ k (and fits the list), its k smallest images are among those c: an exact select
// of c ≈ margin · k candidates finishes it (not built here). Rows with c < k would fall back to the rounds.
// Checked: every row's count and its set of positions equal a CPU count over the same threshold, and the
// CPU's k-th smallest image is ≤ t wherever c ≥ k. Prints the kernels' times (median of 50) and the counts.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I experiments experiments/topk_sampled.cu -o topk_sampled
//   topk_sampled [k 1024] [margin 2] [block appends 0|1]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "experiment_timing.cuh"

namespace {

constexpr int sample = 4096, threads = 256, chunk = 8192, capacity = 16384;

__host__ __device__ inline std::uint16_t image_of(std::uint16_t raw) {  // largest first: the complement
  const std::uint16_t b = (raw & 0x8000u) ? static_cast<std::uint16_t>(~raw) : static_cast<std::uint16_t>(raw | 0x8000u);
  return static_cast<std::uint16_t>(~b);
}

/// The first bin at which the running count of hist[] reaches `rank` (1-based); `rank` becomes the rank
/// within that bin. One thread.
__device__ int bin_of_rank(const unsigned* hist, unsigned& rank) {
  unsigned run = 0;
  for (int b = 0; b < 256; ++b) {
    if (run + hist[b] >= rank) {
      rank -= run;
      return b;
    }
    run += hist[b];
  }
  return 255;
}

__global__ void __launch_bounds__(threads) sample_kernel(const std::uint16_t* keys, std::int64_t length, unsigned rank,
                                                         std::uint16_t* threshold) {
  __shared__ unsigned hist[256];
  __shared__ int high;
  __shared__ unsigned low_rank;
  const std::uint16_t* row = keys + blockIdx.x * length;
  std::uint16_t img[sample / threads];
  hist[threadIdx.x] = 0;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < sample / threads; ++j) {
    const std::int64_t at = (static_cast<std::int64_t>(j * threads + threadIdx.x) * length) / sample;
    img[j] = image_of(row[at]);
    atomicAdd(&hist[img[j] >> 8], 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned r = rank;
    high = bin_of_rank(hist, r);
    low_rank = r;
  }
  __syncthreads();
  hist[threadIdx.x] = 0;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < sample / threads; ++j)
    if ((img[j] >> 8) == high) atomicAdd(&hist[img[j] & 255u], 1u);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned r = low_rank;
    threshold[blockIdx.x] = static_cast<std::uint16_t>(high << 8 | bin_of_rank(hist, r));
  }
}

/// Appends: Block = false, one global atomic a warp (on the row's counter) and scattered stores;
/// Block = true, the block's positions gathered in shared memory (a shared atomic a warp), then one global
/// atomic a block and coalesced stores.
template <bool Block>
__global__ void __launch_bounds__(threads) append_kernel(const std::uint16_t* keys, std::int64_t length,
                                                         const std::uint16_t* threshold, unsigned* counts,
                                                         unsigned* lists) {
  __shared__ unsigned staged[Block ? chunk : 1];
  __shared__ unsigned staged_count, block_base;
  const std::int64_t row = blockIdx.y;
  const std::uint16_t t = threshold[row];
  const std::uint16_t* in = keys + row * length;
  const int lane = threadIdx.x % 32;
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * chunk;
  const std::int64_t end = begin + chunk < length ? begin + chunk : length;
  if (Block && threadIdx.x == 0) staged_count = 0;
  if (Block) __syncthreads();
  for (std::int64_t base = begin + 8 * static_cast<std::int64_t>(threadIdx.x); base - 8 * threadIdx.x < end;
       base += 8 * threads) {
    std::uint16_t v[8];
    int valid = 0;
    if (base + 8 <= end) {  // rows are 16-byte aligned (length % 8 == 0 here)
      const uint4 q = *reinterpret_cast<const uint4*>(in + base);
      const unsigned w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        v[2 * j] = static_cast<std::uint16_t>(w[j] & 0xffffu);
        v[2 * j + 1] = static_cast<std::uint16_t>(w[j] >> 16);
      }
      valid = 8;
    } else {
      for (int j = 0; j < 8; ++j)
        if (base + j < end) v[valid++] = in[base + j];
    }
    unsigned mine = 0;  // bit j: key j is chosen
#pragma unroll
    for (int j = 0; j < 8; ++j)
      if (j < valid && image_of(v[j]) <= t) mine |= 1u << j;
    if (!__any_sync(0xffffffffu, mine != 0)) continue;
    const unsigned n = __popc(mine);
    unsigned scan = n;  // inclusive scan of the lanes' counts
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned up = __shfl_up_sync(0xffffffffu, scan, d);
      if (lane >= d) scan += up;
    }
    unsigned at = 0;
    if (lane == 31) at = Block ? atomicAdd(&staged_count, scan) : atomicAdd(&counts[row], scan);
    at = __shfl_sync(0xffffffffu, at, 31) + scan - n;
    for (; mine; mine &= mine - 1, ++at) {
      const unsigned position = static_cast<unsigned>(base + __ffs(mine) - 1);
      if (Block) staged[at] = position;
      else if (at < capacity) lists[row * capacity + at] = position;
    }
  }
  if (Block) {
    __syncthreads();
    if (threadIdx.x == 0) block_base = staged_count ? atomicAdd(&counts[row], staged_count) : 0;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < staged_count; i += threads)
      if (block_base + i < capacity) lists[row * capacity + block_base + i] = staged[i];
  }
}

std::uint16_t to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t rows = 256, length = 128256;
  const int k = argc > 1 ? std::atoi(argv[1]) : 1024;
  const double margin = argc > 2 ? std::atof(argv[2]) : 2.0;
  const unsigned rank = static_cast<unsigned>(std::ceil(margin * k * sample / static_cast<double>(length)));
  std::vector<std::uint16_t> host(rows * length);
  std::mt19937 rng(11);
  std::normal_distribution<float> logit(0.f, 3.f);
  for (auto& x : host) x = to_bf16(logit(rng));
  std::uint16_t *keys, *threshold, *copy_to;
  unsigned *counts, *lists;
  CK(cudaMalloc(&keys, host.size() * 2));
  CK(cudaMalloc(&copy_to, host.size() * 2));
  CK(cudaMalloc(&threshold, rows * 2));
  CK(cudaMalloc(&counts, rows * 4));
  CK(cudaMalloc(&lists, rows * capacity * 4));
  CK(cudaMemcpy(keys, host.data(), host.size() * 2, cudaMemcpyHostToDevice));
  const dim3 grid(static_cast<unsigned>((length + chunk - 1) / chunk), static_cast<unsigned>(rows));
  const bool block_appends = argc > 3 && std::atoi(argv[3]) != 0;
  auto append = [&] {
    if (block_appends) append_kernel<true><<<grid, threads>>>(keys, length, threshold, counts, lists);
    else append_kernel<false><<<grid, threads>>>(keys, length, threshold, counts, lists);
  };
  auto both = [&] {
    CK(cudaMemsetAsync(counts, 0, rows * 4));
    sample_kernel<<<static_cast<unsigned>(rows), threads>>>(keys, length, rank, threshold);
    append();
  };
  both();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  const float all_ms = median_ms({50, 3}, both);
  const float sample_ms = median_ms({50, 3}, [&] { sample_kernel<<<static_cast<unsigned>(rows), threads>>>(keys, length, rank, threshold); });
  const float append_ms = median_ms({50, 3}, [&] {
    CK(cudaMemsetAsync(counts, 0, rows * 4));
    append();
  });
  const float copy_ms = median_ms({50, 3}, [&] { CK(cudaMemcpyAsync(copy_to, keys, host.size() * 2, cudaMemcpyDeviceToDevice)); });
  both();
  CK(cudaDeviceSynchronize());
  std::vector<std::uint16_t> t(rows);
  std::vector<unsigned> c(rows), l(rows * capacity);
  CK(cudaMemcpy(t.data(), threshold, rows * 2, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(c.data(), counts, rows * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(l.data(), lists, l.size() * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  int short_rows = 0, over = 0;
  unsigned lo = ~0u, hi = 0;
  double sum = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<unsigned> want;
    std::vector<std::uint16_t> images(length);
    for (std::int64_t i = 0; i < length; ++i) {
      images[i] = image_of(host[r * length + i]);
      if (images[i] <= t[r]) want.push_back(static_cast<unsigned>(i));
    }
    if (c[r] != want.size()) ok = false;
    if (c[r] <= capacity) {
      std::vector<unsigned> got(l.begin() + r * capacity, l.begin() + r * capacity + c[r]);
      std::sort(got.begin(), got.end());
      if (got != want) ok = false;
    } else {
      ++over;
    }
    std::nth_element(images.begin(), images.begin() + (k - 1), images.end());
    if (c[r] >= static_cast<unsigned>(k) && images[k - 1] > t[r]) ok = false;  // the k-th must lie at or below t
    if (c[r] < static_cast<unsigned>(k)) ++short_rows;
    lo = std::min(lo, c[r]);
    hi = std::max(hi, c[r]);
    sum += c[r];
  }
  std::printf("bf16 (%lld, %lld) k %d margin %.1f %s appends (sample rank %u of %d): sample %.4f ms, append %.4f ms, both %.4f ms "
              "(copy of the keys %.4f ms)\n",
              static_cast<long long>(rows), static_cast<long long>(length), k, margin, block_appends ? "block" : "warp", rank,
              sample, sample_ms, append_ms,
              all_ms, copy_ms);
  std::printf("  candidates a row: min %u, mean %.0f, max %u; rows short of k: %d; rows over the list: %d  %s\n", lo,
              sum / rows, hi, short_rows, over, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
