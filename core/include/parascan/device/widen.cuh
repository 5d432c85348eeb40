// Argsort into 8-byte positions through 4-byte ones: a sort carries 4-byte positions (8 bytes an item a
// pass instead of 12, with the pairs tile of 4-byte values), then one pass widens them into the
// caller's buffer (read 4, write 8 bytes an item). The plain sort (device_radix_sort.cuh) and the rows
// Onesweep of the segmented sort (device_segmented_sort.cuh) take it.
#pragma once
#include <cstddef>
#include <cstdint>
#include "parascan/device/launch.cuh"

namespace parascan::device {

/// out[i] = in[i], 4-byte positions widened to the caller's 8-byte ones.
template <class V>
__global__ void widen_kernel(const std::uint32_t* in, V* out, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<V>(in[i]);
}

/// Launches widen_kernel over n positions on `stream` and checks the launch.
template <class V>
cudaError_t widen_positions(const std::uint32_t* in, V* out, std::int64_t n, cudaStream_t stream, bool sync) {
  constexpr int threads = 256;
  const std::int64_t blocks = (n + threads - 1) / threads;
  widen_kernel<<<static_cast<unsigned>(blocks < 8192 ? (blocks > 0 ? blocks : 1) : 8192), threads, 0, stream>>>(in, out, n);
  return check_launch(stream, sync);
}

/// Argsort into n 8-byte positions through 4-byte ones, two-phase (d_temp == nullptr: the size query).
/// sort(temp, bytes, narrow) is the caller's two-phase sort writing 4-byte positions to `narrow`
/// (temp and narrow nullptr: its size query). Temporary storage: the 4-byte positions, then the sort's.
template <class V, class Sort>
cudaError_t argsort_through_4_bytes(void* d_temp, std::size_t& temp_bytes, V* positions, std::int64_t n, Sort&& sort,
                                    cudaStream_t stream, bool sync) {
  static_assert(sizeof(V) == 8);
  const std::size_t narrow_bytes = align_up(static_cast<std::size_t>(n) * sizeof(std::uint32_t));
  std::size_t sort_bytes = 0;
  cudaError_t e = sort(nullptr, sort_bytes, nullptr);
  if (e != cudaSuccess) return e;
  if (d_temp == nullptr) {
    temp_bytes = narrow_bytes + sort_bytes;
    return cudaSuccess;
  }
  if (temp_bytes < narrow_bytes + sort_bytes) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  auto* narrow = static_cast<std::uint32_t*>(d_temp);
  if ((e = sort(static_cast<char*>(d_temp) + narrow_bytes, sort_bytes, narrow)) != cudaSuccess) return e;
  return widen_positions(narrow, positions, n, stream, sync);
}

}  // namespace parascan::device
