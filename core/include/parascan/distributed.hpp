// Primitives over several GPUs with NCCL (namespace parascan::dist): each rank holds a contiguous
// shard of a global array on its own GPU, in rank order, and calls the function with the
// communicator it created (ncclCommInitAll for one process driving every GPU of a host,
// ncclCommInitRank for one process per GPU — torchrun, mpirun) and a stream on its device. Two-phase
// temporary storage as in scan.hpp (the size query needs the communicator: the size depends on the
// rank count). Built when CMake finds NCCL (PARASCAN_WITH_NCCL); link parascan::dist.
//
//   inclusive_scan / exclusive_scan  the global scan: each shard reduced, the totals exchanged with
//                                    every rank (ncclAllGather), the rank's seed (init and the totals
//                                    before it, in rank order) brought to the host — the call
//                                    synchronises the stream once — and the shard scanned once with
//                                    it: 3n/P of traffic per rank. Instantiated for parascan's own
//                                    operators (they commute; the per-shard reduction relies on it).
//                                    Empty shards are allowed.
//   select_if / select_flagged       stable compaction of the global array: each rank's kept items
//                                    (its slice of the global result, which is in global order
//                                    because shards are), and in device memory its kept count, the
//                                    global offset of its slice and the global kept count (the
//                                    counts exchanged with ncclAllGather).
//   sort_keys / sort_pairs           the global stable sort (every key type, descending, bit range;
//                                    radix_sort.hpp's order), rank r ending with the r-th slice:
//                                    n_global / P items, one more on the first n_global % P ranks,
//                                    whatever the keys; cuts located exactly by a digit-by-digit
//                                    search over the sorted shards, ties shared in
//                                    global input order, pieces exchanged with ncclSend/ncclRecv, then
//                                    sorted locally (core/src/distributed_sort.cu). Synchronous (the
//                                    exchange needs its counts on the host); allocates its own storage;
//                                    throws parascan::cuda_error. global_count() gives n_global, so a
//                                    rank can size its output: n_global / P + 1 items always suffice.
//
// One process per GPU (several hosts too): join_job() reads the launcher's environment and makes the
// communicator. One process driving several GPUs calls these from one host thread per GPU: each call enqueues an
// NCCL operation between kernels on the rank's stream, so the calls cannot sit inside one thread's
// ncclGroupStart/ncclGroupEnd (the operation would be enqueued after the kernels that read it).
//
// Errors: CUDA errors as cudaError_t; an NCCL error returns cudaErrorUnknown and leaves its text in
// last_nccl_error().
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include "parascan/ops.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/select.hpp"
#include "parascan/sort_pipeline.hpp"

namespace parascan::dist {

/// The scans distributed.cu instantiates: sums of i32, u32, i64, u64, f32, f64; max of i32 and f32;
/// min of i32 (input and output of one type).
template <class T, class Op>
constexpr bool has_scan =
    (std::is_same_v<Op, sum> && (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
                                 std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
                                 std::is_same_v<T, float> || std::is_same_v<T, double>)) ||
    (std::is_same_v<Op, max_op> && (std::is_same_v<T, std::int32_t> || std::is_same_v<T, float>)) ||
    (std::is_same_v<Op, min_op> && std::is_same_v<T, std::int32_t>);

template <class T, class Op>
cudaError_t inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n_local, Op op,
                           ncclComm_t comm, cudaStream_t stream = 0);

/// out[0] of rank 0 is `init`; every other item is init ∘ (all items before it, globally).
template <class T, class Op>
cudaError_t exclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n_local, Op op,
                           T init, ncclComm_t comm, cudaStream_t stream = 0);

/// Device outputs of select: this rank's kept count, where its slice starts in the global result, and
/// the global kept count (each one std::int64_t in device memory; any may be null).
struct select_counts {
  std::int64_t* local = nullptr;
  std::int64_t* offset = nullptr;
  std::int64_t* global = nullptr;
};

/// The element types distributed.cu instantiates select_if / select_flagged for.
template <class T>
constexpr bool has_select = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
                            std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
                            std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T>
cudaError_t select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n_local,
                      keep_rule<T> rule, select_counts counts, ncclComm_t comm, cudaStream_t stream = 0);
template <class T>
cudaError_t select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const std::uint8_t* d_flags, T* d_out,
                           std::int64_t n_local, select_counts counts, ncclComm_t comm, cudaStream_t stream = 0);

/// n_global (ranks' item counts summed; synchronises the stream; throws on NCCL errors).
std::int64_t global_count(std::int64_t n_local, ncclComm_t comm, cudaStream_t stream = 0);

struct sort_stats {
  std::int64_t global = 0;  ///< items over every rank
  std::int64_t local = 0;   ///< items this rank holds after the sort (its slice of the global order)
};

namespace detail {
template <class U, class V>
sort_stats sort(const U* keys_in, const V* values_in, std::int64_t n_local, U* keys_out, V* values_out,
                std::int64_t capacity, key_kind kind, sort_options o, ncclComm_t comm, cudaStream_t stream);
}  // namespace detail

/// d_keys_out holds `capacity` keys (at least this rank's share, n_global / P rounded up).
template <class Key>
sort_stats sort_keys(const Key* d_keys_in, std::int64_t n_local, Key* d_keys_out, std::int64_t capacity, ncclComm_t comm,
                     cudaStream_t stream = 0, sort_options options = {}) {
  using U = typename key_bits_of<Key>::type;
  return detail::sort<U, parascan::detail::no_value>(reinterpret_cast<const U*>(d_keys_in), nullptr, n_local,
                                                     reinterpret_cast<U*>(d_keys_out), nullptr, capacity,
                                                     kind_of_key<Key>(), options, comm, stream);
}
/// Values of 4 or 8 bytes travel with their keys.
template <class Key, class Value>
sort_stats sort_pairs(const Key* d_keys_in, const Value* d_values_in, std::int64_t n_local, Key* d_keys_out,
                      Value* d_values_out, std::int64_t capacity, ncclComm_t comm, cudaStream_t stream = 0,
                      sort_options options = {}) {
  static_assert(sizeof(Value) == 4 || sizeof(Value) == 8, "dist::sort_pairs: values of 4 or 8 bytes");
  using U = typename key_bits_of<Key>::type;
  using V = parascan::detail::value_bits_t<sizeof(Value)>;
  return detail::sort<U, V>(reinterpret_cast<const U*>(d_keys_in), reinterpret_cast<const V*>(d_values_in), n_local,
                            reinterpret_cast<U*>(d_keys_out), reinterpret_cast<V*>(d_values_out), capacity,
                            kind_of_key<Key>(), options, comm, stream);
}

/// The text of the last NCCL error of this thread ("" if none).
std::string last_nccl_error();

/// Throws cuda_error "<what>: NCCL: <NCCL's text>" when r is not ncclSuccess (the throwing calls of
/// this header, the tools and the benches check NCCL results with it).
void nccl_check(ncclResult_t r, const std::string& what);

/// This process's rank in a job of one process per GPU, as torchrun, mpirun or srun start one.
struct process_rank {
  int rank = 0, size = 1, device = 0;
  ncclComm_t comm = nullptr;  ///< the caller destroys it (ncclCommDestroy)
};

/// Joins the job this process was started in: rank and size from RANK / WORLD_SIZE (torchrun), else
/// OMPI_COMM_WORLD_RANK / _SIZE (Open MPI), else PMI_RANK / PMI_SIZE (MPICH, srun); the GPU from
/// LOCAL_RANK or OMPI_COMM_WORLD_LOCAL_RANK, else rank modulo the visible devices (made current).
/// The NCCL id travels through `id_file` (or the file named by PARASCAN_NCCL_ID_FILE; a path fresh for
/// each job, since the other ranks read whatever id is there): rank 0 writes
/// it (atomically, by rename), the others wait for it up to `timeout_s` — on several hosts the file
/// must be on a shared file system; or rank 0's id is given as 256 hex digits in PARASCAN_NCCL_ID
/// (print it with nccl_id_hex). Throws std::runtime_error naming the missing variable or the timeout,
/// cuda_error for CUDA and NCCL failures.
process_rank join_job(const std::string& id_file = "", double timeout_s = 120);

/// A new NCCL id as 256 hex digits (for PARASCAN_NCCL_ID).
std::string nccl_id_hex();

}  // namespace parascan::dist
