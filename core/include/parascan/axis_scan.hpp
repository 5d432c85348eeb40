// Scans along one axis of a C-contiguous array — the rows of a matrix, or any axis of an N-D array —
// without a transposing copy. The public, host-only API; definitions in device/device_axis_scan.cuh.
//
// The array is seen as outer × extent × inner items, C order: item (o, r, c) at (o·extent + r)·inner + c.
// Every one of the outer·inner lines (o, ·, c) is scanned along r on its own:
//   inclusive: out(o, r, c) = [init ⊕] in(o, 0, c) ⊕ … ⊕ in(o, r, c)
//   exclusive: out(o, r, c) = init ⊕ in(o, 0, c) ⊕ … ⊕ in(o, r-1, c)      (out(o, 0, c) = init)
// numpy.cumsum(x, axis=k) of a C-contiguous x is outer = prod(shape[:k]), extent = shape[k],
// inner = prod(shape[k+1:]); the rows of a matrix (axis -1) are inner = 1.
//
// The mechanism is chosen by the shape (docs/performance.md entries 33, 37, 40):
//   inner == 1   rows: at least 2048 rows of at most 2048 items, 1 to 32 lanes a row; rows longer than a
//                scan tile, one single-pass scan whose rows' tiles look back only within their row
//                (~2n of traffic, built-in operators); other long rows, reduce-then-scan over tiles
//                inside rows; fewer short rows, the head-flag segmented scan whose heads are every
//                extent-th item, computed rather than stored (~2n of traffic)
//   inner  > 1   reduce-then-scan down the columns: tiles of 32 columns × up to 128 rows, each read
//                coalesced a row at a time; tile sums scanned by the same routine one level down
//                (~3n of traffic); inner < 32 leaves lanes of each warp idle
// CUB-shaped two-phase contract (d_temp == nullptr asks for temp_bytes), stream-ordered, no host
// synchronisation (CUDA-graph capturable). In place (d_in == d_out, same type) is allowed.
// `options`: inner == 1 follows options.strategy (single_pass or reduce_then_scan; recursive returns
// cudaErrorNotSupported, as for the segmented scans) with the warp_shuffle block scan; inner > 1 reads
// only debug_synchronous. Instantiated for PARASCAN_ALL_AXIS_SCANS (scan_combinations.hpp).
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include "parascan/ops.hpp"
#include "parascan/options.hpp"

namespace parascan {

/// outer × extent × inner, scanned along extent (see above). A zero anywhere: nothing to do.
struct axis_shape {
  std::int64_t outer = 1;
  std::int64_t extent = 0;
  std::int64_t inner = 1;
  /// `rows` rows of `length` items, each scanned on its own (axis -1 of a matrix).
  static axis_shape rows(std::int64_t rows, std::int64_t length) { return {rows, length, 1}; }
  /// The `rows` × `columns` matrix scanned down each column (axis 0).
  static axis_shape columns(std::int64_t rows, std::int64_t columns) { return {1, rows, columns}; }
  std::int64_t size() const { return outer * extent * inner; }
};

template <class In, class Out, class Op>
cudaError_t inclusive_scan_axis(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, axis_shape shape,
                                Op op, cudaStream_t stream = 0, scan_options options = {});

/// Inclusive, every line seeded with init.
template <class In, class Out, class Op>
cudaError_t inclusive_scan_axis_init(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out,
                                     axis_shape shape, Op op, Out init, cudaStream_t stream = 0,
                                     scan_options options = {});

template <class In, class Out, class Op>
cudaError_t exclusive_scan_axis(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, axis_shape shape,
                                Op op, Out init, cudaStream_t stream = 0, scan_options options = {});

}  // namespace parascan
