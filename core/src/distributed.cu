// parascan::dist (distributed.hpp): the global scan over ranks — each shard reduced, the totals
// exchanged with ncclAllGather, each shard scanned once seeded with the totals before it (3n/P of
// traffic per rank, the least a rank can do that writes each output once: it needs the totals before
// it first), plus P small totals over the network; and the global compaction.
#include <algorithm>
#include <cstring>
#include <vector>
#include <string>
#include "parascan/distributed.hpp"
#include "parascan/error.hpp"
#include "parascan/device/launch.cuh"
#include "parascan/ops.hpp"
#include "parascan/scan.hpp"
#include "parascan/select.hpp"

namespace parascan::dist {
namespace {

thread_local std::string nccl_error_text;

cudaError_t from_nccl(ncclResult_t r) {
  if (r == ncclSuccess) return cudaSuccess;
  nccl_error_text = std::string("NCCL: ") + ncclGetErrorString(r);
  return cudaErrorUnknown;
}

/// A rank's total and whether it has one (an empty shard has none: no identity is assumed).
template <class T>
struct part {
  T value;
  int has;
};

constexpr int reduce_threads = 256, reduce_blocks = 1024;

template <class T, class Op>
__device__ __forceinline__ void combine(T& v, bool& has, const T& w, bool w_has, Op op) {
  if (w_has) v = has ? op(v, w) : w;
  has = has || w_has;
}

/// Block b's part of the shard folded with op (order-free: parascan's operators commute), to
/// partials[b] (has = 0 when the block saw no item).
template <class T, class Op>
__global__ void __launch_bounds__(reduce_threads) reduce_blocks_kernel(const T* in, std::int64_t n, Op op, part<T>* partials) {
  T v{};
  bool has = false;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    combine(v, has, in[i], true, op);
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T w = __shfl_down_sync(0xffffffffu, v, offset);
    const bool w_has = __shfl_down_sync(0xffffffffu, has ? 1 : 0, offset) != 0;
    combine(v, has, w, w_has, op);
  }
  __shared__ part<T> warps[reduce_threads / 32];
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = {v, has ? 1 : 0};
  __syncthreads();
  if (threadIdx.x == 0) {
    T total{};
    bool any = false;
    for (int w = 0; w < reduce_threads / 32; ++w) combine(total, any, warps[w].value, warps[w].has != 0, op);
    partials[blockIdx.x] = {total, any ? 1 : 0};
  }
}

template <class T, class Op>
__global__ void fold_partials_kernel(const part<T>* partials, int count, Op op, part<T>* own) {
  T total{};
  bool any = false;
  for (int b = 0; b < count; ++b) combine(total, any, partials[b].value, partials[b].has != 0, op);
  *own = {total, any ? 1 : 0};
}

unsigned grid_for(std::int64_t n) {
  const std::int64_t b = (n + 255) / 256;
  return static_cast<unsigned>(b < 1 ? 1 : b > 4096 ? 4096 : b);
}

/// The global scan in 3n/P of traffic per rank: the shard reduced (read once), every rank's total
/// gathered, the seed (init and the totals before this rank, in rank order) brought to the host, and
/// the shard scanned once with it (read and write once).
template <class T, class Op>
cudaError_t global_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n, Op op,
                        bool exclusive, T init, ncclComm_t comm, cudaStream_t stream) {
  if (n < 0) return cudaErrorInvalidValue;
  int ranks = 0, rank = 0;
  cudaError_t e;
  if ((e = from_nccl(ncclCommCount(comm, &ranks))) != cudaSuccess) return e;
  if ((e = from_nccl(ncclCommUserRank(comm, &rank))) != cudaSuccess) return e;
  // Layout: the local scan's storage (the largest of its three forms), the blocks' partial totals,
  // this rank's total, every rank's total.
  std::size_t scan_bytes = 0, b1 = 0, b2 = 0;
  if (n > 0) {
    if ((e = exclusive_scan(nullptr, b1, d_in, d_out, n, op, init, stream)) != cudaSuccess) return e;
    if ((e = inclusive_scan(nullptr, b2, d_in, d_out, n, op, stream)) != cudaSuccess) return e;
    scan_bytes = std::max(b1, b2);
    if ((e = inclusive_scan_init(nullptr, b1, d_in, d_out, n, op, init, stream)) != cudaSuccess) return e;
    scan_bytes = std::max(scan_bytes, b1);
  }
  const std::size_t a = device::align_up(scan_bytes), b = a + device::align_up(reduce_blocks * sizeof(part<T>));
  const std::size_t c = b + device::align_up(sizeof(part<T>));
  const std::size_t need = c + device::align_up(static_cast<std::size_t>(ranks) * sizeof(part<T>));
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  char* t = static_cast<char*>(d_temp);
  auto* partials = reinterpret_cast<part<T>*>(t + a);
  auto* own = reinterpret_cast<part<T>*>(t + b);
  auto* parts = reinterpret_cast<part<T>*>(t + c);
  const unsigned blocks = std::min<unsigned>(reduce_blocks, grid_for(n));
  reduce_blocks_kernel<T, Op><<<blocks, reduce_threads, 0, stream>>>(d_in, n, op, partials);
  fold_partials_kernel<T, Op><<<1, 1, 0, stream>>>(partials, static_cast<int>(blocks), op, own);
  if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
  if ((e = from_nccl(ncclAllGather(own, parts, sizeof(part<T>), ncclUint8, comm, stream))) != cudaSuccess) return e;
  std::vector<part<T>> h(static_cast<std::size_t>(ranks));
  if ((e = cudaMemcpyAsync(h.data(), parts, h.size() * sizeof(part<T>), cudaMemcpyDeviceToHost, stream)) != cudaSuccess) return e;
  if ((e = cudaStreamSynchronize(stream)) != cudaSuccess) return e;
  T seed = init;
  bool has_seed = exclusive;
  for (int q = 0; q < rank; ++q) {
    if (!h[q].has) continue;
    seed = has_seed ? op(seed, h[q].value) : h[q].value;
    has_seed = true;
  }
  if (n == 0) return cudaSuccess;
  std::size_t sb = scan_bytes;
  if (exclusive) return exclusive_scan(d_temp, sb, d_in, d_out, n, op, seed, stream);
  if (has_seed) return inclusive_scan_init(d_temp, sb, d_in, d_out, n, op, seed, stream);
  return inclusive_scan(d_temp, sb, d_in, d_out, n, op, stream);
}

/// From every rank's kept count: this rank's offset (the counts before it) and the global count.
__global__ void select_counts_kernel(const std::int64_t* all, int ranks, int rank, select_counts out) {
  std::int64_t before = 0, total = 0;
  for (int q = 0; q < ranks; ++q) {
    if (q < rank) before += all[q];
    total += all[q];
  }
  if (out.offset) *out.offset = before;
  if (out.global) *out.global = total;
}

/// `local(temp, bytes, count_out)` runs the rank's compaction (a size query when temp is null).
template <class Local>
cudaError_t global_select(void* d_temp, std::size_t& temp_bytes, Local local, select_counts counts, ncclComm_t comm,
                          cudaStream_t stream) {
  int ranks = 0, rank = 0;
  cudaError_t e;
  if ((e = from_nccl(ncclCommCount(comm, &ranks))) != cudaSuccess) return e;
  if ((e = from_nccl(ncclCommUserRank(comm, &rank))) != cudaSuccess) return e;
  std::size_t select_bytes = 0;
  if ((e = local(nullptr, select_bytes, nullptr)) != cudaSuccess) return e;
  // Layout: the local select's storage, this rank's count, every rank's count.
  const std::size_t a = device::align_up(select_bytes), b = a + device::align_up(sizeof(std::int64_t));
  const std::size_t need = b + device::align_up(static_cast<std::size_t>(ranks) * sizeof(std::int64_t));
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  char* t = static_cast<char*>(d_temp);
  auto* own = reinterpret_cast<std::int64_t*>(t + a);
  auto* all = reinterpret_cast<std::int64_t*>(t + b);
  if ((e = local(t, select_bytes, own)) != cudaSuccess) return e;
  if (counts.local && (e = cudaMemcpyAsync(counts.local, own, sizeof(std::int64_t), cudaMemcpyDeviceToDevice, stream)) !=
                          cudaSuccess)
    return e;
  if ((e = from_nccl(ncclAllGather(own, all, 1, ncclInt64, comm, stream))) != cudaSuccess) return e;
  select_counts_kernel<<<1, 1, 0, stream>>>(all, ranks, rank, counts);
  return cudaPeekAtLastError();
}

}  // namespace

template <class T, class Op>
cudaError_t inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n_local, Op op,
                           ncclComm_t comm, cudaStream_t stream) {
  return global_scan(d_temp, temp_bytes, d_in, d_out, n_local, op, false, T{}, comm, stream);
}

template <class T, class Op>
cudaError_t exclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n_local, Op op,
                           T init, ncclComm_t comm, cudaStream_t stream) {
  return global_scan(d_temp, temp_bytes, d_in, d_out, n_local, op, true, init, comm, stream);
}

template <class T>
cudaError_t select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n_local,
                      keep_rule<T> rule, select_counts counts, ncclComm_t comm, cudaStream_t stream) {
  if (n_local < 0) return cudaErrorInvalidValue;
  const auto local = [&](void* t, std::size_t& b, std::int64_t* count) {
    return parascan::select_if(t, b, d_in, d_out, count, n_local, rule, stream);
  };
  return global_select(d_temp, temp_bytes, local, counts, comm, stream);
}

template <class T>
cudaError_t select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const std::uint8_t* d_flags, T* d_out,
                           std::int64_t n_local, select_counts counts, ncclComm_t comm, cudaStream_t stream) {
  if (n_local < 0) return cudaErrorInvalidValue;
  const auto local = [&](void* t, std::size_t& b, std::int64_t* count) {
    return parascan::select_flagged(t, b, d_in, d_flags, d_out, count, n_local, stream);
  };
  return global_select(d_temp, temp_bytes, local, counts, comm, stream);
}

std::string last_nccl_error() { return nccl_error_text; }

void nccl_check(ncclResult_t r, const std::string& what) {
  if (r != ncclSuccess) throw cuda_error(cudaErrorUnknown, what + ": NCCL: " + ncclGetErrorString(r));
}

std::int64_t global_count(std::int64_t n_local, ncclComm_t comm, cudaStream_t stream) {
  std::int64_t* d = nullptr;
  PARASCAN_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&d), sizeof(std::int64_t), stream));
  std::int64_t h = n_local;
  cudaError_t e = cudaMemcpyAsync(d, &h, sizeof h, cudaMemcpyHostToDevice, stream);
  const ncclResult_t r = e == cudaSuccess ? ncclAllReduce(d, d, 1, ncclInt64, ncclSum, comm, stream) : ncclSuccess;
  if (e == cudaSuccess && r == ncclSuccess) e = cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  (void)cudaFreeAsync(d, stream);
  nccl_check(r, "parascan::dist::global_count");
  PARASCAN_CUDA_CHECK(e);
  return h;
}

#define PARASCAN_DIST_SCAN(T, Op)                                                                                  \
  template cudaError_t inclusive_scan<T, Op>(void*, std::size_t&, const T*, T*, std::int64_t, Op, ncclComm_t,       \
                                             cudaStream_t);                                                          \
  template cudaError_t exclusive_scan<T, Op>(void*, std::size_t&, const T*, T*, std::int64_t, Op, T, ncclComm_t,    \
                                             cudaStream_t);
PARASCAN_DIST_SCAN(std::int32_t, sum)
PARASCAN_DIST_SCAN(std::uint32_t, sum)
PARASCAN_DIST_SCAN(std::int64_t, sum)
PARASCAN_DIST_SCAN(std::uint64_t, sum)
PARASCAN_DIST_SCAN(float, sum)
PARASCAN_DIST_SCAN(double, sum)
PARASCAN_DIST_SCAN(std::int32_t, max_op)
PARASCAN_DIST_SCAN(float, max_op)
PARASCAN_DIST_SCAN(std::int32_t, min_op)

#define PARASCAN_DIST_SELECT(T)                                                                                       \
  template cudaError_t select_if<T>(void*, std::size_t&, const T*, T*, std::int64_t, keep_rule<T>, select_counts,        \
                                    ncclComm_t, cudaStream_t);                                                           \
  template cudaError_t select_flagged<T>(void*, std::size_t&, const T*, const std::uint8_t*, T*, std::int64_t,           \
                                         select_counts, ncclComm_t, cudaStream_t);
PARASCAN_DIST_SELECT(std::int32_t)
PARASCAN_DIST_SELECT(std::uint32_t)
PARASCAN_DIST_SELECT(std::int64_t)
PARASCAN_DIST_SELECT(std::uint64_t)
PARASCAN_DIST_SELECT(float)
PARASCAN_DIST_SELECT(double)

}  // namespace parascan::dist
