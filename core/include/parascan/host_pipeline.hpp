// Scans of arrays in host memory, streamed through the GPU: chunks copied host → device, scanned and
// copied back on several streams so that the copies in both directions and the kernels overlap, the
// running total carried from chunk to chunk on the device. Device memory use is streams × 2 chunks
// (plus the scan's temporary storage), independent of n: arrays larger than GPU memory work.
//
//   scan_pipeline<T> p;                      // allocates device buffers and pinned staging
//   p.run(h_in, h_out, n, /*inclusive=*/true);   // blocks until h_out is complete
//
// Pinned (cudaMallocHost / cudaHostRegister) input and output are copied straight from and to the
// caller's memory; pageable memory goes through pinned staging buffers with a host memcpy, which
// bounds it to the host's copy speed. In-place (h_in == h_out) is allowed. Sums of float types are
// rounded per chunk and then offset by the carry, so they can differ from a one-kernel scan in the
// last bits. Errors throw parascan::cuda_error (out of memory: cudaErrorMemoryAllocation).
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace parascan {

struct pipeline_options {
  std::int64_t chunk_items = std::int64_t(1) << 23;  ///< items per chunk (8 Mi: 32 MiB of u32)
  int streams = 3;                                    ///< chunks in flight
};

struct pipeline_stats {
  std::int64_t chunks = 0;
  bool pinned_in = false, pinned_out = false;  ///< copied without staging
  std::size_t device_bytes = 0;                ///< device memory held by the pipeline
};

/// True when `p` is device-accessible pinned host memory (cudaMallocHost or cudaHostRegister).
bool is_pinned(const void* p);

template <class T>
class scan_pipeline {
 public:
  explicit scan_pipeline(pipeline_options o = {});
  ~scan_pipeline();
  scan_pipeline(const scan_pipeline&) = delete;
  scan_pipeline& operator=(const scan_pipeline&) = delete;

  /// h_out[i] = h_in[0] + … + h_in[i] (inclusive) or + … + h_in[i−1] (exclusive, h_out[0] = 0).
  pipeline_stats run(const T* h_in, T* h_out, std::int64_t n, bool inclusive);
  /// The same pipeline with the scan left out (h_out = h_in): the copy bound the scan is held to.
  pipeline_stats copy(const T* h_in, T* h_out, std::int64_t n);

 private:
  void release() noexcept;
  pipeline_stats stream_chunks(const T* h_in, T* h_out, std::int64_t n, bool scan, bool inclusive);
  pipeline_options o_;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> done_, carried_;
  std::vector<T*> d_in_, d_out_, stage_in_, stage_out_;
  std::vector<void*> temp_;
  std::size_t temp_bytes_ = 0, device_bytes_ = 0;
  T* d_carry_ = nullptr;  // the running total before each chunk
  std::int64_t carry_slots_ = 0;
};

}  // namespace parascan
