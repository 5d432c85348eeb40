// fill_after_count (calls.hpp): the tail of a selection's output set to a fill value, after the count that
// the selection left on the device, so that a JAX select under jit (jax_ffi.cpp) returns a whole array, as
// jnp.extract(..., size=n, fill_value=...) does; and the count copied to int32 for JAX without x64.
#include <cuda_runtime_api.h>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace parascan::python {
namespace {

/// out[*count .. n) = fill: the unaligned head item by item, then 16-byte stores, then the tail item by item.
template <class T>
__global__ void fill_tail_kernel(T* out, std::int64_t n, const std::int64_t* count, T fill, std::int32_t* count32) {
  constexpr int per = 16 / sizeof(T);  // items a 16-byte store
  const std::int64_t kept = *count;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  if (count32 != nullptr && thread == 0) *count32 = static_cast<std::int32_t>(kept);
  if (kept >= n) return;
  const auto misaligned = static_cast<std::int64_t>((reinterpret_cast<std::uintptr_t>(out + kept) % 16) / sizeof(T));
  const std::int64_t head = misaligned == 0 ? 0 : (per - misaligned < n - kept ? per - misaligned : n - kept);
  const std::int64_t first = kept + head, vectors = (n - first) / per, rest = first + vectors * per;
  if (thread < head) out[kept + thread] = fill;
  union {
    T items[per];
    uint4 v;
  } pattern;
  for (int i = 0; i < per; ++i) pattern.items[i] = fill;
  uint4* v = reinterpret_cast<uint4*>(out + first);
  for (std::int64_t i = thread; i < vectors; i += stride) v[i] = pattern.v;
  if (thread < n - rest) out[rest + thread] = fill;
}

template <class T>
void launch(std::uintptr_t out, std::int64_t n, std::uintptr_t count, double fill, std::uintptr_t count32, unsigned blocks,
            cudaStream_t s) {
  fill_tail_kernel<T><<<blocks, 256, 0, s>>>(reinterpret_cast<T*>(out), n, reinterpret_cast<const std::int64_t*>(count),
                                             static_cast<T>(fill), reinterpret_cast<std::int32_t*>(count32));
}

}  // namespace

void fill_after_count(std::uintptr_t out, const std::string& type, std::int64_t n, std::uintptr_t count, double fill,
                      std::uintptr_t count32, std::uintptr_t stream) {
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  // One 16-byte store a thread where the whole output is to be filled, at most 8 blocks of 256 an SM of an
  // H100 (1056), striding: a full selection (nothing to fill) costs one short launch.
  const std::int64_t blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(1056, (n + 4 * 256 - 1) / (4 * 256)));
  const auto b = static_cast<unsigned>(blocks);
  // The element types select_items takes (layer.hpp's with_type; this file is compiled without nanobind).
  if (type == "u1" || type == "b1") launch<std::uint8_t>(out, n, count, fill, count32, b, s);
  else if (type == "i1") launch<std::int8_t>(out, n, count, fill, count32, b, s);
  else if (type == "u2") launch<std::uint16_t>(out, n, count, fill, count32, b, s);
  else if (type == "i2") launch<std::int16_t>(out, n, count, fill, count32, b, s);
  else if (type == "u4") launch<std::uint32_t>(out, n, count, fill, count32, b, s);
  else if (type == "i4") launch<std::int32_t>(out, n, count, fill, count32, b, s);
  else if (type == "u8") launch<std::uint64_t>(out, n, count, fill, count32, b, s);
  else if (type == "i8") launch<std::int64_t>(out, n, count, fill, count32, b, s);
  else if (type == "f4") launch<float>(out, n, count, fill, count32, b, s);
  else if (type == "f8") launch<double>(out, n, count, fill, count32, b, s);
  else throw std::invalid_argument("no select of element type '" + type + "'");
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw std::runtime_error(std::string("parascan: select's tail fill: ") + cudaGetErrorString(e));
}

}  // namespace parascan::python
