// parascan::dist::sort_keys / sort_pairs (distributed.hpp): the global stable sort over ranks with
// balanced output, every rank ending with n_global / P items (± 1) whatever the key distribution.
//   1. each rank sorts its shard (Onesweep);
//   2. the global positions B_1 … B_{P−1} where the output is cut are located exactly, digit by digit
//      from the top of the sorted bit range: per round, each rank finds by binary search where each
//      next digit starts inside its candidate range (its shard is sorted), the counts are summed over
//      ranks (ncclAllReduce), and the digit holding B_j narrows the range. After the last digit the
//      range holds the keys equal to the key at B_j; those are shared in rank order (the global stable
//      order: rank, then position), so ties — all keys equal, one value holding half the keys — split
//      exactly too;
//   3. the pieces go to their ranks with grouped ncclSend / ncclRecv;
//   4. each rank merges the sorted runs it received, pairwise and neighbours only (runs come in
//      source-rank order, ties taken from the earlier run), so ties stay in global input order: one
//      local sort per item in all, plus log2(P) merge passes.
// Synchronises the stream (the exchange needs its counts on the host); allocates its own temporary
// storage (cudaMallocAsync on the stream); throws parascan::cuda_error.
#include <algorithm>
#include <string>
#include <vector>
#include "parascan/device/radix_digits.cuh"
#include "parascan/distributed.hpp"
#include "parascan/error.hpp"
#include "dist_cuts.hpp"

namespace parascan::dist::detail {
namespace {

using device::sort_detail::ordered_bits;

void nccl_check(ncclResult_t r, const char* what) {
  dist::nccl_check(r, std::string("parascan::dist sort: ") + what);
}

/// The compared field of a key: bits [begin, begin + width) of its order image.
template <class U>
struct field_of {
  key_kind kind;
  bool descending;
  int begin, width;
  __device__ __forceinline__ std::uint64_t operator()(U raw) const {
    const std::uint64_t b = static_cast<std::uint64_t>(ordered_bits(raw, kind, descending)) >> begin;
    return width >= 64 ? b : b & ((std::uint64_t(1) << width) - 1);
  }
};

/// starts[j · 257 + d] = the first position in [lo_j, hi_j) of `sorted` whose field is ≥ (prefix_j
/// followed by digit d, then zeros), for d = 0 … 256 (d = 256: hi_j). One thread per (j, d).
template <class U>
__global__ void digit_starts_kernel(const U* sorted, field_of<U> field, const std::int64_t* lo, const std::int64_t* hi,
                                    const std::uint64_t* prefix, int shift, int digit_bits, int cuts,
                                    std::int64_t* starts) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= cuts * 257) return;
  const int j = t / 257, d = t % 257;
  std::int64_t a = lo[j], b = hi[j];
  if (d < (1 << digit_bits)) {
    const std::uint64_t target = ((prefix[j] << digit_bits) | static_cast<std::uint64_t>(d)) << shift;
    while (a < b) {  // first position with field ≥ target
      const std::int64_t m = a + (b - a) / 2;
      if (field(sorted[m]) < target) a = m + 1;
      else b = m;
    }
  } else {
    a = b;
  }
  starts[t] = a;
}

/// Stable merge of the sorted runs a = [a0, a1) and b = [a1, b1) of `in` (b follows a in the global
/// order, so ties take a's first) into out[a0, b1), by field; values follow. Each thread writes
/// `per` consecutive outputs from the merge-path split of its first one (a binary search on its
/// diagonal), so the work is independent of how the runs interleave.
template <class U, class V, bool Pairs>
__global__ void merge_kernel(const U* in, const V* in_v, U* out, V* out_v, std::int64_t a0, std::int64_t a1,
                             std::int64_t b1, field_of<U> field, int per) {
  const std::int64_t na = a1 - a0, nb = b1 - a1, n = na + nb;
  const std::int64_t diag = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * per;
  if (diag >= n) return;
  const auto le = [&](std::int64_t i, std::int64_t j) { return field(in[a0 + i]) <= field(in[a1 + j]); };
  merge_path_run(diag, per, na, nb, le, [&](std::int64_t k, bool from_a, std::int64_t idx) {
    const std::int64_t src = from_a ? a0 + idx : a1 + idx;
    out[a0 + k] = in[src];
    if constexpr (Pairs) out_v[a0 + k] = in_v[src];
  });
}

template <class U, class V>
struct sorter {
  static constexpr bool pairs = !std::is_same_v<V, parascan::detail::no_value>;
  cudaStream_t s;
  key_kind kind;
  sort_options o;
  void local_sort(const U* k_in, U* k_out, const V* v_in, V* v_out, std::int64_t n) {
    if (n == 0) return;
    std::size_t b = 0;
    if constexpr (pairs) {
      PARASCAN_CUDA_CHECK((radix_sort_bits_pairs<U, V>(nullptr, b, k_in, k_out, v_in, v_out, n, kind, o, s)));
      void* t = nullptr;
      PARASCAN_CUDA_CHECK(cudaMallocAsync(&t, b, s));
      const cudaError_t e = radix_sort_bits_pairs<U, V>(t, b, k_in, k_out, v_in, v_out, n, kind, o, s);
      PARASCAN_CUDA_CHECK(cudaFreeAsync(t, s));
      PARASCAN_CUDA_CHECK(e);
    } else {
      PARASCAN_CUDA_CHECK(radix_sort_bits<U>(nullptr, b, k_in, k_out, n, kind, o, s));
      void* t = nullptr;
      PARASCAN_CUDA_CHECK(cudaMallocAsync(&t, b, s));
      const cudaError_t e = radix_sort_bits<U>(t, b, k_in, k_out, n, kind, o, s);
      PARASCAN_CUDA_CHECK(cudaFreeAsync(t, s));
      PARASCAN_CUDA_CHECK(e);
    }
  }
};

/// Device memory freed at scope exit (stream-ordered).
struct scratch {
  cudaStream_t s;
  std::vector<void*> blocks;
  template <class T>
  T* get(std::int64_t n) {
    void* p = nullptr;
    PARASCAN_CUDA_CHECK(cudaMallocAsync(&p, std::max<std::size_t>(1, static_cast<std::size_t>(n) * sizeof(T)), s));
    blocks.push_back(p);
    return static_cast<T*>(p);
  }
  ~scratch() {
    for (void* p : blocks) (void)cudaFreeAsync(p, s);
  }
};

template <class T>
std::vector<T> to_host(const T* d, std::int64_t n, cudaStream_t s) {
  std::vector<T> h(static_cast<std::size_t>(n));
  if (n > 0) PARASCAN_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToHost, s));
  PARASCAN_CUDA_CHECK(cudaStreamSynchronize(s));
  return h;
}
template <class T>
void to_device(T* d, const std::vector<T>& h, cudaStream_t s) {
  if (!h.empty())
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s));
}

}  // namespace

template <class U, class V>
sort_stats sort(const U* keys_in, const V* values_in, std::int64_t n_local, U* keys_out, V* values_out,
                std::int64_t capacity, key_kind kind, sort_options o, ncclComm_t comm, cudaStream_t s) {
  constexpr bool pairs = sorter<U, V>::pairs;
  constexpr int key_bits = static_cast<int>(8 * sizeof(U));
  const int end_bit = o.end_bit < 0 ? key_bits : o.end_bit;
  if (n_local < 0 || o.begin_bit < 0 || o.begin_bit > end_bit || end_bit > key_bits)
    throw cuda_error(cudaErrorInvalidValue, "parascan::dist sort: n < 0 or a bit range outside the key");
  o.end_bit = end_bit;
  o.algorithm = sort_algorithm::onesweep;
  int P = 0, r = 0;
  nccl_check(ncclCommCount(comm, &P), "ncclCommCount");
  nccl_check(ncclCommUserRank(comm, &r), "ncclCommUserRank");
  scratch mem{s, {}};

  // Every rank's count and output capacity, and the balanced output: rank q gets B[q+1] − B[q] items.
  // Every rank checks every capacity, so that all throw together rather than leave the others waiting.
  std::int64_t* d_counts = mem.get<std::int64_t>(2 * (P + 1));
  to_device(d_counts + 2 * P, std::vector<std::int64_t>{n_local, capacity}, s);
  nccl_check(ncclAllGather(d_counts + 2 * P, d_counts, 2, ncclInt64, comm, s), "ncclAllGather (counts)");
  const std::vector<std::int64_t> counts = to_host(d_counts, 2 * P, s);
  std::vector<std::int64_t> n_of(P);
  for (int q = 0; q < P; ++q) n_of[q] = counts[2 * q];
  const std::vector<std::int64_t> B = balanced_bounds(n_of);
  const std::int64_t n_global = B[P], n_out = B[r + 1] - B[r];
  sort_stats st{n_global, n_out};
  for (int q = 0; q < P; ++q)
    if (counts[2 * q + 1] < B[q + 1] - B[q])
      throw cuda_error(cudaErrorInvalidValue, "parascan::dist sort: rank " + std::to_string(q) + " receives " +
                                                  std::to_string(B[q + 1] - B[q]) + " items but its output holds " +
                                                  std::to_string(counts[2 * q + 1]));
  if (n_global == 0) return st;

  // 1. The shard sorted.
  sorter<U, V> local{s, kind, o};
  U* sorted = mem.get<U>(n_local);
  V* sorted_v = pairs ? mem.get<V>(n_local) : nullptr;
  local.local_sort(keys_in, sorted, values_in, sorted_v, n_local);

  // 2. The cuts, digit by digit (dist_cuts.hpp): c[q] … c[q+1] of the sorted shard go to rank q.
  const int cuts = P - 1, width = end_bit - o.begin_bit;
  cut_search search(cuts, n_local);
  const field_of<U> field{kind, o.descending, o.begin_bit, width};
  if (cuts > 0 && width > 0) {
    std::int64_t* d_lo = mem.get<std::int64_t>(cuts);
    std::int64_t* d_hi = mem.get<std::int64_t>(cuts);
    std::uint64_t* d_prefix = mem.get<std::uint64_t>(cuts);
    std::int64_t* d_starts = mem.get<std::int64_t>(cuts * 257);
    std::int64_t* d_sizes = mem.get<std::int64_t>(cuts * 256);
    for (int done = 0; done < width;) {
      const int bits = std::min(8, width - done), shift = width - done - bits;
      to_device(d_lo, search.lo, s), to_device(d_hi, search.hi, s), to_device(d_prefix, search.prefix, s);
      digit_starts_kernel<U><<<(cuts * 257 + 255) / 256, 256, 0, s>>>(sorted, field, d_lo, d_hi, d_prefix, shift, bits,
                                                                      cuts, d_starts);
      PARASCAN_CUDA_CHECK(cudaGetLastError());
      const std::vector<std::int64_t> starts = to_host(d_starts, cuts * 257, s);
      to_device(d_sizes, search.sizes(starts), s);
      nccl_check(ncclAllReduce(d_sizes, d_sizes, static_cast<std::size_t>(cuts) * 256, ncclInt64, ncclSum, comm, s),
                 "ncclAllReduce (digit counts)");
      search.narrow(B, n_global, starts, to_host(d_sizes, cuts * 256, s), bits);
      done += bits;
    }
  }
  std::vector<std::int64_t> ties_all;
  if (cuts > 0) {
    std::int64_t* d_ties = mem.get<std::int64_t>(static_cast<std::int64_t>(cuts) * (P + 1));
    to_device(d_ties + static_cast<std::int64_t>(cuts) * P, search.ties(), s);
    nccl_check(ncclAllGather(d_ties + static_cast<std::int64_t>(cuts) * P, d_ties, cuts, ncclInt64, comm, s),
               "ncclAllGather (ties)");
    ties_all = to_host(d_ties, static_cast<std::int64_t>(cuts) * P, s);
  }
  const std::vector<std::int64_t> c = search.positions(B, n_global, ties_all, r, n_local);

  // 3. The exchange: every rank's cut positions, then grouped sends and receives.
  std::int64_t* d_c = mem.get<std::int64_t>(static_cast<std::int64_t>(P + 1) * (P + 1));
  to_device(d_c + static_cast<std::int64_t>(P) * (P + 1), c, s);
  nccl_check(ncclAllGather(d_c + static_cast<std::int64_t>(P) * (P + 1), d_c, P + 1, ncclInt64, comm, s),
             "ncclAllGather (cuts)");
  const std::vector<std::int64_t> c_all = to_host(d_c, static_cast<std::int64_t>(P) * (P + 1), s);
  U* received = mem.get<U>(n_out);
  V* received_v = pairs ? mem.get<V>(n_out) : nullptr;
  std::int64_t at = 0;
  nccl_check(ncclGroupStart(), "ncclGroupStart");
  for (int q = 0; q < P; ++q) {
    const std::int64_t send = c[q + 1] - c[q];
    const std::int64_t recv = c_all[static_cast<std::size_t>(q) * (P + 1) + r + 1] - c_all[static_cast<std::size_t>(q) * (P + 1) + r];
    if (send > 0) {
      nccl_check(ncclSend(sorted + c[q], static_cast<std::size_t>(send) * sizeof(U), ncclUint8, q, comm, s), "ncclSend");
      if (pairs) nccl_check(ncclSend(sorted_v + c[q], static_cast<std::size_t>(send) * sizeof(V), ncclUint8, q, comm, s), "ncclSend");
    }
    if (recv > 0) {
      nccl_check(ncclRecv(received + at, static_cast<std::size_t>(recv) * sizeof(U), ncclUint8, q, comm, s), "ncclRecv");
      if (pairs) nccl_check(ncclRecv(received_v + at, static_cast<std::size_t>(recv) * sizeof(V), ncclUint8, q, comm, s), "ncclRecv");
    }
    at += recv;
  }
  nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  if (at != n_out)
    throw cuda_error(cudaErrorUnknown, "parascan::dist sort: rank " + std::to_string(r) + " expected " + std::to_string(n_out) +
                                           " items and is sent " + std::to_string(at));
  // 4. The received runs (sorted, in source-rank order) merged pairwise, neighbours only so that ties
  //    keep the global order, ping-ponging between `received` and the output; the last round writes
  //    the output (a copy if the rounds ended in `received`).
  std::vector<std::int64_t> bounds{0};
  for (int q = 0; q < P; ++q) {
    const std::int64_t recv = c_all[static_cast<std::size_t>(q) * (P + 1) + r + 1] - c_all[static_cast<std::size_t>(q) * (P + 1) + r];
    if (recv > 0) bounds.push_back(bounds.back() + recv);
  }
  U* from = received;
  V* from_v = received_v;
  U* to = keys_out;
  V* to_v = values_out;
  constexpr int per = 16;
  while (bounds.size() > 2) {
    std::vector<std::int64_t> next{0};
    for (std::size_t k = 0; k + 1 < bounds.size(); k += 2) {
      const std::int64_t a0 = bounds[k], a1 = bounds[k + 1], b1 = k + 2 < bounds.size() ? bounds[k + 2] : a1;
      const std::int64_t threads = (b1 - a0 + per - 1) / per;
      merge_kernel<U, V, pairs><<<static_cast<unsigned>((threads + 255) / 256), 256, 0, s>>>(from, from_v, to, to_v, a0, a1,
                                                                                          b1, field, per);
      PARASCAN_CUDA_CHECK(cudaGetLastError());
      next.push_back(b1);
    }
    bounds.swap(next);
    std::swap(from, to);
    std::swap(from_v, to_v);
  }
  if (from != keys_out) {
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(keys_out, from, static_cast<std::size_t>(n_out) * sizeof(U), cudaMemcpyDeviceToDevice, s));
    if (pairs)
      PARASCAN_CUDA_CHECK(cudaMemcpyAsync(values_out, from_v, static_cast<std::size_t>(n_out) * sizeof(V), cudaMemcpyDeviceToDevice, s));
  }
  PARASCAN_CUDA_CHECK(cudaStreamSynchronize(s));
  return st;
}

#define PARASCAN_DIST_SORT(U, V)                                                                                 \
  template sort_stats sort<U, V>(const U*, const V*, std::int64_t, U*, V*, std::int64_t, key_kind, sort_options, \
                                 ncclComm_t, cudaStream_t);
#define PARASCAN_DIST_SORT_ALL(U)                            \
  PARASCAN_DIST_SORT(U, parascan::detail::no_value)          \
  PARASCAN_DIST_SORT(U, std::uint32_t)                       \
  PARASCAN_DIST_SORT(U, std::uint64_t)
PARASCAN_DIST_SORT_ALL(std::uint8_t)
PARASCAN_DIST_SORT_ALL(std::uint16_t)
PARASCAN_DIST_SORT_ALL(std::uint32_t)
PARASCAN_DIST_SORT_ALL(std::uint64_t)

}  // namespace parascan::dist::detail
