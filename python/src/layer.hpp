// parascan._core's shared pieces (python/src): the error translation (MemoryError, RuntimeError with the
// CUDA error's name), parascan's stream-ordered memory pool, the two-phase call, and the dispatch from
// NumPy type codes ("u4", "f8", ...) to C++ types.
#pragma once
#include <nanobind/nanobind.h>
#include <cuda_runtime_api.h>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include "parascan/ops.hpp"

namespace parascan::python {
namespace nb = nanobind;

/// Raised to Python as MemoryError.
struct memory_error : std::exception {
  std::string msg;
  explicit memory_error(std::string m) : msg(std::move(m)) {}
  const char* what() const noexcept override { return msg.c_str(); }
};

inline void check(cudaError_t e, const char* what, std::size_t bytes = 0) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a sticky launch error so the next call starts clean
  if (e == cudaErrorMemoryAllocation)
    throw memory_error(std::string("parascan: ") + what + ": out of device memory (" + std::to_string(bytes) +
                       " bytes of temporary storage requested)");
  throw std::runtime_error(std::string("parascan: ") + what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

/// parascan's stream-ordered memory pool on the current device, made on first use. It keeps up to
/// 1 GiB cached between calls: the device's default pool keeps nothing, so after every synchronisation
/// the next call paid a fresh allocation (0.2–0.3 ms per call at 2^20 on the H100, more than the work).
/// Larger blocks go back to the driver at the next synchronisation, for the caller's framework to use.
inline cudaMemPool_t pool() {
  constexpr int max_devices = 64;
  static cudaMemPool_t pools[max_devices] = {};
  static std::mutex made;
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  if (dev >= max_devices) throw std::runtime_error("parascan: device ordinal past 64");
  std::lock_guard<std::mutex> lock(made);
  if (pools[dev] == nullptr) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t p = nullptr;
    check(cudaMemPoolCreate(&p, &props), "cudaMemPoolCreate");
    std::uint64_t keep = std::uint64_t(1) << 30;
    check(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
    pools[dev] = p;
  }
  return pools[dev];
}

/// `bytes` of device memory from the pool, ordered on `stream`; MemoryError when there is none.
inline void* pool_alloc(std::size_t bytes, cudaStream_t stream, const char* what) {
  void* p = nullptr;
  if (bytes == 0) return p;
  const cudaError_t e = cudaMallocFromPoolAsync(&p, bytes, pool(), stream);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw memory_error(std::string("parascan: out of device memory: ") + what + " of " + std::to_string(bytes) +
                       " bytes requested");
  }
  check(e, "cudaMallocFromPoolAsync");
  return p;
}

/// Stream-ordered temporary storage.
struct temp_storage {
  void* ptr = nullptr;
  cudaStream_t stream;
  temp_storage(std::size_t bytes, cudaStream_t s) : ptr(pool_alloc(bytes, s, "temporary storage")), stream(s) {}
  ~temp_storage() {
    if (ptr) (void)cudaFreeAsync(ptr, stream);
  }
  temp_storage(const temp_storage&) = delete;
  temp_storage& operator=(const temp_storage&) = delete;
};

/// Where a call's temporary storage may come from instead of the pool: `bytes` of device memory,
/// valid in stream order on the call's stream until the caller lets go of it. Sorts of torch and CuPy
/// arrays take theirs from the framework's caching allocator, which keeps blocks between calls: from
/// the pool, a sort with more than 1 GiB of temporary storage mapped the excess again on every call
/// (~1.3 ms per GiB on the H100, 3 ms of a 2^28 argsort's 12.9; docs/performance.md entry 28).
using temp_source = std::function<void*(std::size_t bytes)>;

/// Runs a CUB-shaped two-phase call: size query, stream-ordered temporary (from `from` when given),
/// the call.
template <class F>
void two_phase(F&& f, cudaStream_t stream, const char* what, const temp_source& from = {}) {
  std::size_t bytes = 0;
  check(f(nullptr, bytes), what);
  if (from) {
    check(f(bytes == 0 ? nullptr : from(bytes), bytes), what, bytes);
    return;
  }
  temp_storage temp(bytes, stream);
  check(f(temp.ptr, bytes), what, bytes);
}

template <class T> struct tag { using type = T; };

/// Calls f(tag<T>) for the element type named by a NumPy type code ("b1" is handled as u1).
template <class F>
void with_type(const std::string& code, F&& f) {
  if (code == "u1" || code == "b1") f(tag<std::uint8_t>{});
  else if (code == "i1") f(tag<std::int8_t>{});
  else if (code == "u2") f(tag<std::uint16_t>{});
  else if (code == "i2") f(tag<std::int16_t>{});
  else if (code == "u4") f(tag<std::uint32_t>{});
  else if (code == "i4") f(tag<std::int32_t>{});
  else if (code == "u8") f(tag<std::uint64_t>{});
  else if (code == "i8") f(tag<std::int64_t>{});
  else if (code == "f4") f(tag<float>{});
  else if (code == "f8") f(tag<double>{});
  else throw nb::value_error(("parascan: element type '" + code + "' is not supported").c_str());
}

template <class F>
void with_op(const std::string& op, F&& f) {
  if (op == "sum") f(tag<sum>{});
  else if (op == "product") f(tag<product>{});
  else if (op == "min") f(tag<min_op>{});
  else if (op == "max") f(tag<max_op>{});
  else if (op == "and") f(tag<bit_and>{});
  else if (op == "or") f(tag<bit_or>{});
  else if (op == "xor") f(tag<bit_xor>{});
  else throw nb::value_error(("parascan: op '" + op + "' is not one of sum, product, min, max, and, or, xor").c_str());
}

/// Calls f(tag<In>, tag<Out>, tag<Op>) for the scan named by its input type, output type and operator.
template <class F>
void with_scan_types(const std::string& in_type, const std::string& out_type, const std::string& op, F&& f) {
  with_type(in_type, [&](auto in_tag) {
    with_type(out_type, [&](auto out_tag) { with_op(op, [&](auto op_tag) { f(in_tag, out_tag, op_tag); }); });
  });
}

inline cudaStream_t as_stream(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

/// A device count read back (a synchronisation of `stream`) through a pinned host word of this
/// thread's, allocated on first use: a copy into pageable memory is staged by the driver.
inline std::int64_t read_count(const void* count, cudaStream_t stream) {
  thread_local std::int64_t* word = nullptr;
  if (word == nullptr)
    check(cudaMallocHost(reinterpret_cast<void**>(&word), sizeof(std::int64_t)), "cudaMallocHost", sizeof(std::int64_t));
  check(cudaMemcpyAsync(word, count, sizeof(std::int64_t), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return *word;
}

template <class T> T* as_ptr(std::uintptr_t p) { return reinterpret_cast<T*>(p); }


}  // namespace parascan::python
