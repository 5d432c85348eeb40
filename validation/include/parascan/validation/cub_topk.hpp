// CUB's top-k of rows, where the CUB parascan::validation is built against has it (cub_topk.cu):
// cub::DeviceBatchedTopK, CUB 3.6 and on (the `cuda-cccl` 1.2 wheel's headers through
// PARASCAN_CUB_INCLUDE; the toolkit's CUB 3.0.1 has no top-k). On Hopper its cluster backend takes rows
// of up to 2^21 keys. Rows are given as CUB's examples give them: strided iterators over one array,
// positions a counting iterator from 0 in each row.
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

namespace parascan::validation {

/// The two contracts CUB's batched top-k offers that a user would pick for torch.topk's job.
enum class cub_topk_contract {
  sorted_earliest,  ///< determinism gpu_to_gpu, ties to the smaller position, sorted output: parascan::topk's default
  unsorted_any,     ///< determinism not_guaranteed, tie-break unspecified, unsorted output: CUB's fastest
};
const char* to_string(cub_topk_contract c);

/// Whether this build's CUB has cub::DeviceBatchedTopK (else cub_batched_topk returns cudaErrorNotSupported).
bool cub_has_batched_topk();

/// The k largest keys of each of `rows` rows of `length` keys (length ≤ 2^21, 1 ≤ k ≤ 1024) with their
/// positions in the row, written at out_keys[r·k + j], out_at[r·k + j]. Two-phase temporary storage as
/// CUB's. Instantiated for float and __nv_bfloat16 (as std::uint16_t bits).
template <class Key>
cudaError_t cub_batched_topk(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, Key* d_out_keys,
                             std::int64_t* d_out_at, std::int64_t rows, std::int64_t length, std::int64_t k,
                             cub_topk_contract contract, cudaStream_t stream = 0);

}  // namespace parascan::validation
