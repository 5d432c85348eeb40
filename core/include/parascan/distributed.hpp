// Primitives over several GPUs with NCCL (namespace parascan::dist): each rank holds a contiguous
// shard of a global array on its own GPU, in rank order, and calls the function with the
// communicator it created (ncclCommInitAll for one process driving every GPU of a host,
// ncclCommInitRank for one process per GPU — torchrun, mpirun) and a stream on its device. Two-phase
// temporary storage as in scan.hpp (the size query needs the communicator: the size depends on the
// rank count). Built when CMake finds NCCL (PARASCAN_WITH_NCCL); link parascan::dist.
//
//   inclusive_scan / exclusive_scan  the global scan: a local scan of the shard, its total exchanged
//                                    with every rank (ncclAllGather), each shard's items combined
//                                    with the totals of the ranks before it, in rank order (any
//                                    associative operator; non-commutative ones too). Empty shards
//                                    are allowed.
//   select_if / select_flagged       stable compaction of the global array: each rank's kept items
//                                    (its slice of the global result, which is in global order
//                                    because shards are), and in device memory its kept count, the
//                                    global offset of its slice and the global kept count (the
//                                    counts exchanged with ncclAllGather).
//
// One process driving several GPUs calls these from one host thread per GPU: each call enqueues an
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
#include "parascan/select.hpp"

namespace parascan::dist {

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

template <class T>
cudaError_t select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t n_local,
                      keep_rule<T> rule, select_counts counts, ncclComm_t comm, cudaStream_t stream = 0);
template <class T>
cudaError_t select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const std::uint8_t* d_flags, T* d_out,
                           std::int64_t n_local, select_counts counts, ncclComm_t comm, cudaStream_t stream = 0);

/// The text of the last NCCL error of this thread ("" if none).
std::string last_nccl_error();

}  // namespace parascan::dist
