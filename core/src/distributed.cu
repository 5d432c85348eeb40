// parascan::dist (distributed.hpp): the global scan over ranks — local scan, totals exchanged with
// ncclAllGather, each shard combined with the totals before it. Traffic per rank: the local scan (read
// and write n) and one pass that applies the offset (read and write n; rank 0's inclusive scan skips
// it), plus P small totals over the network.
#include <cstring>
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

template <class T>
__global__ void own_part_kernel(const T* scanned, std::int64_t n, part<T>* own) {
  own->has = n > 0;
  if (n > 0) own->value = scanned[n - 1];
}

/// out[i] = seed ∘ scanned[i] (inclusive) or seed ∘ scanned[i − 1], out[0] = seed (exclusive), where
/// seed = [init ∘] the totals of ranks 0 … rank − 1, in order.
template <class T, class Op>
__global__ void apply_seed_kernel(const part<T>* parts, int rank, const T* scanned, T* out, std::int64_t n, Op op,
                                  bool exclusive, bool has_init, T init) {
  __shared__ T seed_shared;
  __shared__ int has_seed_shared;
  if (threadIdx.x == 0) {
    T seed = init;
    int has = has_init;
    for (int q = 0; q < rank; ++q) {
      if (!parts[q].has) continue;
      seed = has ? op(seed, parts[q].value) : parts[q].value;
      has = 1;
    }
    seed_shared = seed;
    has_seed_shared = has;
  }
  __syncthreads();
  const T seed = seed_shared;
  const bool has = has_seed_shared != 0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (exclusive) out[i] = i == 0 ? seed : op(seed, scanned[i - 1]);
    else if (has) out[i] = op(seed, scanned[i]);
  }
}

unsigned grid_for(std::int64_t n) {
  const std::int64_t b = (n + 255) / 256;
  return static_cast<unsigned>(b < 1 ? 1 : b > 4096 ? 4096 : b);
}

template <class T, class Op>
cudaError_t global_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n, Op op,
                        bool exclusive, T init, ncclComm_t comm, cudaStream_t stream) {
  if (n < 0) return cudaErrorInvalidValue;
  int ranks = 0, rank = 0;
  cudaError_t e;
  if ((e = from_nccl(ncclCommCount(comm, &ranks))) != cudaSuccess) return e;
  if ((e = from_nccl(ncclCommUserRank(comm, &rank))) != cudaSuccess) return e;
  // Layout: the local scan's temporary storage, the scanned shard (exclusive only: the output is
  // written shifted by one), this rank's part, every rank's parts.
  std::size_t scan_bytes = 0;
  if (n > 0 && (e = inclusive_scan(nullptr, scan_bytes, d_in, d_out, n, op, stream)) != cudaSuccess) return e;
  const std::size_t scanned_bytes = exclusive ? device::align_up(static_cast<std::size_t>(n) * sizeof(T)) : 0;
  const std::size_t a = device::align_up(scan_bytes), b = a + scanned_bytes, c = b + device::align_up(sizeof(part<T>));
  const std::size_t need = c + device::align_up(static_cast<std::size_t>(ranks) * sizeof(part<T>));
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  char* t = static_cast<char*>(d_temp);
  T* scanned = exclusive ? reinterpret_cast<T*>(t + a) : d_out;
  auto* own = reinterpret_cast<part<T>*>(t + b);
  auto* parts = reinterpret_cast<part<T>*>(t + c);
  if (n > 0 && (e = inclusive_scan(static_cast<void*>(t), scan_bytes, d_in, scanned, n, op, stream)) != cudaSuccess) return e;
  own_part_kernel<T><<<1, 1, 0, stream>>>(scanned, n, own);
  if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
  if ((e = from_nccl(ncclAllGather(own, parts, sizeof(part<T>), ncclUint8, comm, stream))) != cudaSuccess) return e;
  if (n == 0 || (!exclusive && rank == 0)) return cudaSuccess;
  apply_seed_kernel<T, Op><<<grid_for(n), 256, 0, stream>>>(parts, rank, scanned, d_out, n, op, exclusive, exclusive, init);
  return cudaPeekAtLastError();
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

std::int64_t global_count(std::int64_t n_local, ncclComm_t comm, cudaStream_t stream) {
  std::int64_t* d = nullptr;
  PARASCAN_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&d), sizeof(std::int64_t), stream));
  std::int64_t h = n_local;
  cudaError_t e = cudaMemcpyAsync(d, &h, sizeof h, cudaMemcpyHostToDevice, stream);
  const ncclResult_t r = e == cudaSuccess ? ncclAllReduce(d, d, 1, ncclInt64, ncclSum, comm, stream) : ncclSuccess;
  if (e == cudaSuccess && r == ncclSuccess) e = cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  (void)cudaFreeAsync(d, stream);
  if (r != ncclSuccess) throw cuda_error(cudaErrorUnknown, std::string("parascan::dist::global_count: NCCL: ") + ncclGetErrorString(r));
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
