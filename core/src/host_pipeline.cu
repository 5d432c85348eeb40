// Host arrays streamed through the GPU (see host_pipeline.hpp).
#include <algorithm>
#include <cstring>
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/ops.hpp"
#include "parascan/scan.hpp"

namespace parascan {
namespace {

/// out[i] += carry[0]; the thread at the last item also writes carry[1] = carry[0] + the chunk's
/// total (its last inclusive sum, or its last exclusive sum plus its last input) before it adds.
template <class T>
__global__ void add_carry_kernel(const T* in, T* out, std::int64_t len, const T* carry, bool inclusive) {
  const T c = carry[0];
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < len;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const T raw = out[i];
    if (i == len - 1) const_cast<T*>(carry)[1] = c + (inclusive ? raw : T(raw + in[i]));
    out[i] = c + raw;
  }
}

}  // namespace

bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();  // pageable memory on older drivers reports an error: clear it
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

template <class T>
scan_pipeline<T>::scan_pipeline(pipeline_options o) : o_(o) {
  if (o_.streams < 1 || o_.chunk_items < 1) throw cuda_error(cudaErrorInvalidValue, "scan_pipeline: streams and chunk_items must be positive");
  const std::size_t chunk_bytes = static_cast<std::size_t>(o_.chunk_items) * sizeof(T);
  PARASCAN_CUDA_CHECK((inclusive_scan<T, T, sum>(nullptr, temp_bytes_, nullptr, nullptr, o_.chunk_items, sum{})));
  std::size_t ex_bytes = 0;
  PARASCAN_CUDA_CHECK((exclusive_scan<T, T, sum>(nullptr, ex_bytes, nullptr, nullptr, o_.chunk_items, sum{}, T(0))));
  temp_bytes_ = std::max(temp_bytes_, ex_bytes);
  try {
    for (int s = 0; s < o_.streams; ++s) {
      cudaStream_t st;
      PARASCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
      streams_.push_back(st);
      cudaEvent_t e1, e2;
      PARASCAN_CUDA_CHECK(cudaEventCreateWithFlags(&e1, cudaEventDisableTiming));
      done_.push_back(e1);
      PARASCAN_CUDA_CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));
      carried_.push_back(e2);
      T *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
      void* t = nullptr;
      PARASCAN_CUDA_CHECK(cudaMalloc(&a, chunk_bytes));
      d_in_.push_back(a);
      PARASCAN_CUDA_CHECK(cudaMalloc(&b, chunk_bytes));
      d_out_.push_back(b);
      PARASCAN_CUDA_CHECK(cudaMalloc(&t, temp_bytes_ > 0 ? temp_bytes_ : 1));
      temp_.push_back(t);
      PARASCAN_CUDA_CHECK(cudaMallocHost(&c, chunk_bytes));
      stage_in_.push_back(c);
      PARASCAN_CUDA_CHECK(cudaMallocHost(&d, chunk_bytes));
      stage_out_.push_back(d);
    }
    device_bytes_ = static_cast<std::size_t>(o_.streams) * (2 * chunk_bytes + temp_bytes_);
  } catch (...) {
    release();
    throw;
  }
}

template <class T>
scan_pipeline<T>::~scan_pipeline() {
  release();
}

template <class T>
void scan_pipeline<T>::release() noexcept {
  for (auto s : streams_) cudaStreamSynchronize(s);
  for (auto p : d_in_) cudaFree(p);
  for (auto p : d_out_) cudaFree(p);
  for (auto p : temp_) cudaFree(p);
  for (auto p : stage_in_) cudaFreeHost(p);
  for (auto p : stage_out_) cudaFreeHost(p);
  for (auto e : done_) cudaEventDestroy(e);
  for (auto e : carried_) cudaEventDestroy(e);
  for (auto s : streams_) cudaStreamDestroy(s);
  if (d_carry_) cudaFree(d_carry_);
  streams_.clear(), d_in_.clear(), d_out_.clear(), temp_.clear(), stage_in_.clear(), stage_out_.clear();
  done_.clear(), carried_.clear();
  d_carry_ = nullptr;
}

template <class T>
pipeline_stats scan_pipeline<T>::run(const T* h_in, T* h_out, std::int64_t n, bool inclusive) {
  return stream_chunks(h_in, h_out, n, true, inclusive);
}

template <class T>
pipeline_stats scan_pipeline<T>::copy(const T* h_in, T* h_out, std::int64_t n) {
  return stream_chunks(h_in, h_out, n, false, true);
}

template <class T>
pipeline_stats scan_pipeline<T>::stream_chunks(const T* h_in, T* h_out, std::int64_t n, bool scan, bool inclusive) {
  pipeline_stats st;
  if (n < 0) throw cuda_error(cudaErrorInvalidValue, "scan_pipeline: n < 0");
  st.chunks = (n + o_.chunk_items - 1) / o_.chunk_items;
  st.pinned_in = n > 0 && is_pinned(h_in);
  st.pinned_out = n > 0 && is_pinned(h_out);
  st.device_bytes = device_bytes_;
  if (n == 0) return st;
  // One carry per chunk boundary (chunk k reads slot k, writes slot k + 1), zero before chunk 0.
  if (scan && carry_slots_ < st.chunks + 1) {
    if (d_carry_) PARASCAN_CUDA_CHECK(cudaFree(d_carry_));
    d_carry_ = nullptr;
    PARASCAN_CUDA_CHECK(cudaMalloc(&d_carry_, static_cast<std::size_t>(st.chunks + 1) * sizeof(T)));
    carry_slots_ = st.chunks + 1;
  }
  if (scan) PARASCAN_CUDA_CHECK(cudaMemsetAsync(d_carry_, 0, sizeof(T), streams_[0]));  // chunk 0 runs on stream 0
  const int S = o_.streams;
  std::vector<std::int64_t> pending(S, -1);  // the chunk whose output waits in a slot's staging buffer
  const auto chunk_len = [&](std::int64_t k) { return std::min(o_.chunk_items, n - k * o_.chunk_items); };
  const auto drain = [&](int slot) {  // the slot's previous chunk is complete: unstage its output
    if (pending[slot] < 0) return;
    PARASCAN_CUDA_CHECK(cudaEventSynchronize(done_[slot]));
    if (!st.pinned_out) {
      const std::int64_t k = pending[slot];
      std::memcpy(h_out + k * o_.chunk_items, stage_out_[slot], static_cast<std::size_t>(chunk_len(k)) * sizeof(T));
    }
    pending[slot] = -1;
  };
  for (std::int64_t k = 0; k < st.chunks; ++k) {
    const int slot = static_cast<int>(k % S);
    cudaStream_t s = streams_[slot];
    const std::int64_t len = chunk_len(k), at = k * o_.chunk_items;
    const std::size_t bytes = static_cast<std::size_t>(len) * sizeof(T);
    // The slot's buffers are reused: its previous chunk must be out (and, in place, its input may be
    // overwritten only after this chunk has been read, which the stream order guarantees).
    drain(slot);
    const T* src = h_in + at;
    if (!st.pinned_in) {
      std::memcpy(stage_in_[slot], h_in + at, bytes);
      src = stage_in_[slot];
    }
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(d_in_[slot], src, bytes, cudaMemcpyHostToDevice, s));
    T* result = d_in_[slot];
    if (scan) {
      std::size_t tb = temp_bytes_;
      if (inclusive)
        PARASCAN_CUDA_CHECK((inclusive_scan<T, T, sum>(temp_[slot], tb, d_in_[slot], d_out_[slot], len, sum{}, s)));
      else
        PARASCAN_CUDA_CHECK((exclusive_scan<T, T, sum>(temp_[slot], tb, d_in_[slot], d_out_[slot], len, sum{}, T(0), s)));
      if (k > 0) PARASCAN_CUDA_CHECK(cudaStreamWaitEvent(s, carried_[(k - 1) % S], 0));
      const std::int64_t blocks = std::min<std::int64_t>((len + 255) / 256, 4096);
      add_carry_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, s>>>(d_in_[slot], d_out_[slot], len, d_carry_ + k,
                                                                         inclusive);
      PARASCAN_CUDA_CHECK(cudaGetLastError());
      PARASCAN_CUDA_CHECK(cudaEventRecord(carried_[slot], s));
      result = d_out_[slot];
    }
    T* dst = st.pinned_out ? h_out + at : stage_out_[slot];
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(dst, result, bytes, cudaMemcpyDeviceToHost, s));
    PARASCAN_CUDA_CHECK(cudaEventRecord(done_[slot], s));
    pending[slot] = k;
  }
  for (std::int64_t k = std::max<std::int64_t>(0, st.chunks - S); k < st.chunks; ++k) drain(static_cast<int>(k % S));
  return st;
}

template class scan_pipeline<std::int32_t>;
template class scan_pipeline<std::uint32_t>;
template class scan_pipeline<std::int64_t>;
template class scan_pipeline<std::uint64_t>;
template class scan_pipeline<float>;
template class scan_pipeline<double>;

}  // namespace parascan
