// CUB references for the core's scans, with the same two-phase shape as parascan's own calls, so
// validation and benchmarks read line for line against cub::DeviceScan.
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include "parascan/ops.hpp"
#include "parascan/validation/cub_count.hpp"

namespace parascan::validation {

template <class In, class Out, class Op>
cudaError_t cub_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                               Op op, Out init, cudaStream_t stream = 0, cub_count count = cub_count::int64);
template <class In, class Out, class Op>
cudaError_t cub_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                               Op op, cudaStream_t stream = 0, cub_count count = cub_count::int64);
template <class In, class Out, class Op>
cudaError_t cub_inclusive_scan_init(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out,
                                    std::int64_t n, Op op, Out init, cudaStream_t stream = 0,
                                    cub_count count = cub_count::int64);

/// Segmented scans through cub::DeviceScan::{Exclusive,Inclusive}ScanByKey, keys = running count of
/// heads (computed with cub::DeviceScan::InclusiveSum into the temporary storage).
template <class In, class Out, class Op>
cudaError_t cub_segmented_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                         const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op, Out init,
                                         cudaStream_t stream = 0, cub_count count = cub_count::int64);
template <class In, class Out, class Op>
cudaError_t cub_segmented_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                         const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op,
                                         cudaStream_t stream = 0, cub_count count = cub_count::int64);

/// Each of `rows` rows of `length` items scanned on its own, as a CUB user writes it:
/// cub::DeviceScan::{Inclusive,Exclusive}ScanByKey with the row index as key (a counting iterator
/// divided by the length: no key array). CUB has no inclusive scan by key with an init value.
/// Instantiated for PARASCAN_ALL_SEGMENTED_SCANS (cub_axis_scan.cu).
template <class In, class Out, class Op>
cudaError_t cub_rows_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t rows,
                          std::int64_t length, Op op, bool exclusive, Out init, cudaStream_t stream = 0,
                          cub_count count = cub_count::int64);

/// Device copy of `bytes` bytes (cudaMemcpyAsync), the bandwidth yardstick of the benchmarks.
cudaError_t device_copy(void* d_dst, const void* d_src, std::size_t bytes, cudaStream_t stream = 0);

/// For the > 2^31-item test: in[i] = 1 + i % 3 (u8), and a count of out[i] ≠ the closed form of
/// its exclusive sum, Σ_{j<i} (1 + j % 3) = i + 3·⌊i/3⌋ + (i % 3 == 2), all on the device.
cudaError_t fill_one_plus_mod3(std::uint8_t* d_in, std::int64_t n, cudaStream_t stream = 0);
cudaError_t count_mod3_exclusive_mismatches(const std::uint64_t* d_out, std::int64_t n, std::int64_t& mismatches,
                                            cudaStream_t stream = 0);

/// Benchmark helpers: fill with hashed pseudo-random words (never all zero), and count the 32-bit
/// words where two device buffers differ.
cudaError_t fill_random_words(std::uint32_t* d, std::size_t words, std::uint64_t seed, cudaStream_t stream = 0);
/// Keeps `stream` busy for about `microseconds` (one thread spinning on the GPU clock), so that work
/// the host enqueues meanwhile starts back to back: timing then measures the GPU, not the host's
/// launch latency (nvbench blocks its stream for the same reason).
cudaError_t hold_stream(cudaStream_t stream, unsigned microseconds);

/// Floats 1 (one in 64, hashed) or 0: every prefix sum of up to 2^30 of them is exact in f32, so a
/// float scan can be checked word for word whatever the order of its additions.
cudaError_t fill_sparse_ones(float* d, std::size_t n, std::uint64_t seed, cudaStream_t stream = 0);
cudaError_t count_word_differences(const std::uint32_t* d_a, const std::uint32_t* d_b, std::size_t words,
                                   std::int64_t& differences, cudaStream_t stream = 0);

}  // namespace parascan::validation
