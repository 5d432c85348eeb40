// A small owning layer for host code: a typed device buffer (RAII) and a device-side memset/poison.
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include "parascan/error.hpp"

namespace parascan {

/// Thrown when cudaMalloc fails for lack of memory; says how many bytes were asked for and free.
class out_of_memory : public cuda_error {
 public:
  out_of_memory(std::size_t requested, std::size_t free_bytes, std::size_t total_bytes)
      : cuda_error(cudaErrorMemoryAllocation,
                   "out of device memory: requested " + std::to_string(requested) + " bytes, " +
                       std::to_string(free_bytes) + " of " + std::to_string(total_bytes) + " bytes free"),
        requested_(requested) {}
  std::size_t requested() const noexcept { return requested_; }

 private:
  std::size_t requested_;
};

/// Owning, move-only device allocation of `count` elements of T.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T));
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // clear the sticky-free allocation error
      std::size_t free_b = 0, total_b = 0;
      (void)cudaMemGetInfo(&free_b, &total_b);
      throw out_of_memory(count * sizeof(T), free_b, total_b);
    }
    PARASCAN_CUDA_CHECK(e);
  }
  ~device_buffer() { reset(); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  void reset() noexcept {
    if (ptr_) (void)cudaFree(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  void copy_from_host(const T* h, std::size_t count, cudaStream_t s = 0) {
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(ptr_, h, count * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void copy_to_host(T* h, std::size_t count, cudaStream_t s = 0) const {
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(h, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost, s));
    PARASCAN_CUDA_CHECK(cudaStreamSynchronize(s));
  }
  /// Fill every byte with `byte` (0xA5 by default): outputs are poisoned before each run.
  void poison(int byte = 0xA5, cudaStream_t s = 0) {
    if (ptr_) PARASCAN_CUDA_CHECK(cudaMemsetAsync(ptr_, byte, bytes(), s));
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace parascan
