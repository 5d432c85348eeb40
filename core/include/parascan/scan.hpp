// Device-wide scans (prefix sums) — the public, host-only API of parascan's scan core.
//
// CUB-shaped: call once with d_temp == nullptr to learn `temp_bytes`, then again to run. All work is
// enqueued on `stream`; nothing synchronises with the host unless options.debug_synchronous is set.
// `In` is the input type, `Out` the output and accumulator type (u8 flags scanned into u32 offsets:
// In = uint8_t, Out = uint32_t). In-place (d_in == d_out, same type) is allowed. n is 64-bit.
//
//   exclusive: out[i] = init ⊕ in[0] ⊕ … ⊕ in[i-1]     (out[0] = init)
//   inclusive: out[i] = in[0] ⊕ … ⊕ in[i]               (with init: init ⊕ in[0] ⊕ … ⊕ in[i])
//   segmented (head flags, any non-zero byte starts a segment): the same, restarted at every head.
//
// The operator must be associative; it need not be commutative (operands are combined in order).
// Instantiated here for the built-in operators of ops.hpp and the types listed in README.md; for
// your own functor include "parascan/device/device_scan.cuh" from a .cu file, which defines these.
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include "parascan/ops.hpp"
#include "parascan/options.hpp"

namespace parascan {

template <class In, class Out, class Op>
cudaError_t exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                           Op op, Out init, cudaStream_t stream = 0, scan_options options = {});

template <class In, class Out, class Op>
cudaError_t inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                           Op op, cudaStream_t stream = 0, scan_options options = {});

template <class In, class Out, class Op>
cudaError_t inclusive_scan_init(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out,
                                std::int64_t n, Op op, Out init, cudaStream_t stream = 0,
                                scan_options options = {});

/// Segmented scans: the recursive strategy is not available for them (it needs a plain output to
/// fix up); asking for it returns cudaErrorNotSupported.
template <class In, class Out, class Op>
cudaError_t segmented_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                     const std::uint8_t* d_head_flags, Out* d_out, std::int64_t n, Op op,
                                     Out init, cudaStream_t stream = 0, scan_options options = {});

template <class In, class Out, class Op>
cudaError_t segmented_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                     const std::uint8_t* d_head_flags, Out* d_out, std::int64_t n, Op op,
                                     cudaStream_t stream = 0, scan_options options = {});

}  // namespace parascan

namespace parascan {
/// Items per tile of the scan kernels for an output type of `out_bytes` bytes (1, 2, 4 or 8), plain or
/// segmented: tests and benchmarks use it for the sizes where tiles and recursion levels change.
int scan_tile_items(std::size_t out_bytes, bool segmented = false);
}  // namespace parascan
