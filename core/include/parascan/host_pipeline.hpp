// Scans and compactions of arrays in host memory, streamed through the GPU: chunks copied host → device, scanned and
// copied back on several streams so that the copies in both directions and the kernels overlap, the
// running total carried from chunk to chunk on the device. Device memory use is streams × 2 chunks
// (plus the scan's temporary storage), independent of n: arrays larger than GPU memory work.
//
//   scan_pipeline<T> p;                      // allocates device buffers and pinned staging
//   p.run(h_in, h_out, n, /*inclusive=*/true);   // blocks until h_out is complete
//   select_pipeline<T> q;  q.run(h_in, h_out, n, keep_rule<T>{keep_kind::gt, 0})  → the kept count
//
// Compaction: each chunk is selected on the device (select_if), its count copied back, and its kept
// items copied to the running output offset once that count is known on the host (the host waits
// for chunk k's count while chunks k+1… are already in flight).
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
#include "parascan/select.hpp"

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

namespace detail {
/// A pipeline's slots: per stream its device buffers, pinned staging and events.
template <class T>
struct pipeline_slots {
  void allocate(const pipeline_options& o, std::size_t temp_bytes);  // throws cuda_error
  void release() noexcept;
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> done, carried;
  std::vector<T*> d_in, d_out, stage_in, stage_out;
  std::vector<void*> temp;
  std::int64_t* d_counts = nullptr;  // one per slot (compaction)
  std::int64_t* h_counts = nullptr;  // pinned copies of them
  std::size_t temp_bytes = 0, device_bytes = 0;
};
}  // namespace detail

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
  pipeline_stats stream_chunks(const T* h_in, T* h_out, std::int64_t n, bool scan, bool inclusive);
  pipeline_options o_;
  detail::pipeline_slots<T> s_;
  T* d_carry_ = nullptr;  // the running total before each chunk
  std::int64_t carry_slots_ = 0;
};

/// Stable compaction of a host array: the items for which `rule` holds, in input order, to h_out
/// (room for n items; in place allowed). Returns the kept count.
template <class T>
class select_pipeline {
 public:
  explicit select_pipeline(pipeline_options o = {});
  ~select_pipeline();
  select_pipeline(const select_pipeline&) = delete;
  select_pipeline& operator=(const select_pipeline&) = delete;

  std::int64_t run(const T* h_in, T* h_out, std::int64_t n, keep_rule<T> rule, pipeline_stats* stats = nullptr);

 private:
  pipeline_options o_;
  detail::pipeline_slots<T> s_;
};

}  // namespace parascan
