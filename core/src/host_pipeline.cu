// Host arrays streamed through the GPU (see host_pipeline.hpp).
#include <algorithm>
#include <cstring>
#include <string>
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/ops.hpp"
#include "parascan/scan.hpp"
#include "parascan/select.hpp"

namespace parascan {
namespace {

/// out[i] += carry[0]; the thread at the last item also writes carry[1] = carry[0] + the chunk's
/// total (its last inclusive sum, or its last exclusive sum plus its last input) before it adds.
template <class T>
__global__ void add_carry_kernel(const T* in, T* out, std::int64_t len, T* carry, bool inclusive) {
  const T c = carry[0];
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < len;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const T raw = out[i];
    if (i == len - 1) carry[1] = c + (inclusive ? raw : T(raw + in[i]));
    out[i] = c + raw;
  }
}

void check_options(const pipeline_options& o) {
  if (o.streams < 1 || o.chunk_items < 1)
    throw cuda_error(cudaErrorInvalidValue, "host pipeline: streams and chunk_items must be positive");
}

pipeline_stats start_stats(const void* h_in, const void* h_out, std::int64_t n, const pipeline_options& o,
                           std::size_t device_bytes, const char* who);

}  // namespace

bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();  // pageable memory on older drivers reports an error: clear it
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

namespace {
/// A run's chunk count and the copy paths its memory allows; n < 0 throws.
pipeline_stats start_stats(const void* h_in, const void* h_out, std::int64_t n, const pipeline_options& o,
                           std::size_t device_bytes, const char* who) {
  if (n < 0) throw cuda_error(cudaErrorInvalidValue, std::string(who) + ": n < 0");
  pipeline_stats st;
  st.chunks = (n + o.chunk_items - 1) / o.chunk_items;
  st.pinned_in = n > 0 && is_pinned(h_in);
  st.pinned_out = n > 0 && is_pinned(h_out);
  st.device_bytes = device_bytes;
  return st;
}
}  // namespace

namespace detail {

template <class T>
void pipeline_slots<T>::allocate(const pipeline_options& o, std::size_t temp_bytes_per_slot) {
  const std::size_t chunk_bytes = static_cast<std::size_t>(o.chunk_items) * sizeof(T);
  temp_bytes = temp_bytes_per_slot;
  try {
    for (int s = 0; s < o.streams; ++s) {
      cudaStream_t st;
      PARASCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
      streams.push_back(st);
      cudaEvent_t e1, e2;
      PARASCAN_CUDA_CHECK(cudaEventCreateWithFlags(&e1, cudaEventDisableTiming));
      done.push_back(e1);
      PARASCAN_CUDA_CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));
      carried.push_back(e2);
      T *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
      void* t = nullptr;
      PARASCAN_CUDA_CHECK(cudaMalloc(&a, chunk_bytes));
      d_in.push_back(a);
      PARASCAN_CUDA_CHECK(cudaMalloc(&b, chunk_bytes));
      d_out.push_back(b);
      PARASCAN_CUDA_CHECK(cudaMalloc(&t, temp_bytes > 0 ? temp_bytes : 1));
      temp.push_back(t);
      PARASCAN_CUDA_CHECK(cudaMallocHost(&c, chunk_bytes));
      stage_in.push_back(c);
      PARASCAN_CUDA_CHECK(cudaMallocHost(&d, chunk_bytes));
      stage_out.push_back(d);
    }
    PARASCAN_CUDA_CHECK(cudaMalloc(&d_counts, static_cast<std::size_t>(o.streams) * sizeof(std::int64_t)));
    PARASCAN_CUDA_CHECK(cudaMallocHost(&h_counts, static_cast<std::size_t>(o.streams) * sizeof(std::int64_t)));
    device_bytes = static_cast<std::size_t>(o.streams) * (2 * chunk_bytes + temp_bytes);
  } catch (...) {
    release();
    throw;
  }
}

template <class T>
void pipeline_slots<T>::release() noexcept {
  for (auto s : streams) (void)cudaStreamSynchronize(s);
  for (auto p : d_in) (void)cudaFree(p);
  for (auto p : d_out) (void)cudaFree(p);
  for (auto p : temp) (void)cudaFree(p);
  for (auto p : stage_in) (void)cudaFreeHost(p);
  for (auto p : stage_out) (void)cudaFreeHost(p);
  for (auto e : done) (void)cudaEventDestroy(e);
  for (auto e : carried) (void)cudaEventDestroy(e);
  for (auto s : streams) (void)cudaStreamDestroy(s);
  if (d_counts) (void)cudaFree(d_counts);
  if (h_counts) (void)cudaFreeHost(h_counts);
  streams.clear(), d_in.clear(), d_out.clear(), temp.clear(), stage_in.clear(), stage_out.clear();
  done.clear(), carried.clear();
  d_counts = nullptr, h_counts = nullptr;
}

}  // namespace detail

// ---- scan ------------------------------------------------------------------------------------

template <class T>
scan_pipeline<T>::scan_pipeline(pipeline_options o) : o_(o) {
  check_options(o_);
  std::size_t in_bytes = 0, ex_bytes = 0;
  PARASCAN_CUDA_CHECK((inclusive_scan<T, T, sum>(nullptr, in_bytes, nullptr, nullptr, o_.chunk_items, sum{})));
  PARASCAN_CUDA_CHECK((exclusive_scan<T, T, sum>(nullptr, ex_bytes, nullptr, nullptr, o_.chunk_items, sum{}, T(0))));
  s_.allocate(o_, std::max(in_bytes, ex_bytes));
}

template <class T>
scan_pipeline<T>::~scan_pipeline() {
  s_.release();
  if (d_carry_) (void)cudaFree(d_carry_);
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
  const pipeline_stats st = start_stats(h_in, h_out, n, o_, s_.device_bytes, "scan_pipeline");
  if (n == 0) return st;
  // One carry per chunk boundary (chunk k reads slot k, writes slot k + 1), zero before chunk 0.
  if (scan && carry_slots_ < st.chunks + 1) {
    if (d_carry_) PARASCAN_CUDA_CHECK(cudaFree(d_carry_));
    d_carry_ = nullptr;
    PARASCAN_CUDA_CHECK(cudaMalloc(&d_carry_, static_cast<std::size_t>(st.chunks + 1) * sizeof(T)));
    carry_slots_ = st.chunks + 1;
  }
  if (scan) PARASCAN_CUDA_CHECK(cudaMemsetAsync(d_carry_, 0, sizeof(T), s_.streams[0]));  // chunk 0 runs on stream 0
  const int S = o_.streams;
  std::vector<std::int64_t> pending(S, -1);  // the chunk whose output waits in a slot's staging buffer
  const auto chunk_len = [&](std::int64_t k) { return std::min(o_.chunk_items, n - k * o_.chunk_items); };
  const auto drain = [&](int slot) {  // the slot's previous chunk is complete: unstage its output
    if (pending[slot] < 0) return;
    PARASCAN_CUDA_CHECK(cudaEventSynchronize(s_.done[slot]));
    if (!st.pinned_out) {
      const std::int64_t k = pending[slot];
      std::memcpy(h_out + k * o_.chunk_items, s_.stage_out[slot], static_cast<std::size_t>(chunk_len(k)) * sizeof(T));
    }
    pending[slot] = -1;
  };
  for (std::int64_t k = 0; k < st.chunks; ++k) {
    const int slot = static_cast<int>(k % S);
    cudaStream_t s = s_.streams[slot];
    const std::int64_t len = chunk_len(k), at = k * o_.chunk_items;
    const std::size_t bytes = static_cast<std::size_t>(len) * sizeof(T);
    drain(slot);  // the slot's buffers are reused
    const T* src = h_in + at;
    if (!st.pinned_in) {
      std::memcpy(s_.stage_in[slot], h_in + at, bytes);
      src = s_.stage_in[slot];
    }
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(s_.d_in[slot], src, bytes, cudaMemcpyHostToDevice, s));
    T* result = s_.d_in[slot];
    if (scan) {
      std::size_t tb = s_.temp_bytes;
      if (inclusive)
        PARASCAN_CUDA_CHECK((inclusive_scan<T, T, sum>(s_.temp[slot], tb, s_.d_in[slot], s_.d_out[slot], len, sum{}, s)));
      else
        PARASCAN_CUDA_CHECK(
            (exclusive_scan<T, T, sum>(s_.temp[slot], tb, s_.d_in[slot], s_.d_out[slot], len, sum{}, T(0), s)));
      if (k > 0) PARASCAN_CUDA_CHECK(cudaStreamWaitEvent(s, s_.carried[(k - 1) % S], 0));
      const std::int64_t blocks = std::min<std::int64_t>((len + 255) / 256, 4096);
      add_carry_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, s>>>(s_.d_in[slot], s_.d_out[slot], len,
                                                                         d_carry_ + k, inclusive);
      PARASCAN_CUDA_CHECK(cudaGetLastError());
      PARASCAN_CUDA_CHECK(cudaEventRecord(s_.carried[slot], s));
      result = s_.d_out[slot];
    }
    T* dst = st.pinned_out ? h_out + at : s_.stage_out[slot];
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(dst, result, bytes, cudaMemcpyDeviceToHost, s));
    PARASCAN_CUDA_CHECK(cudaEventRecord(s_.done[slot], s));
    pending[slot] = k;
  }
  for (std::int64_t k = std::max<std::int64_t>(0, st.chunks - S); k < st.chunks; ++k) drain(static_cast<int>(k % S));
  return st;
}

// ---- compaction ------------------------------------------------------------------------------

template <class T>
select_pipeline<T>::select_pipeline(pipeline_options o) : o_(o) {
  check_options(o_);
  std::size_t tb = 0;
  PARASCAN_CUDA_CHECK((select_if<T, keep_rule<T>>(nullptr, tb, nullptr, nullptr, nullptr, o_.chunk_items, keep_rule<T>{})));
  s_.allocate(o_, tb);
}

template <class T>
select_pipeline<T>::~select_pipeline() {
  s_.release();
}

template <class T>
std::int64_t select_pipeline<T>::run(const T* h_in, T* h_out, std::int64_t n, keep_rule<T> rule, pipeline_stats* stats) {
  const pipeline_stats st = start_stats(h_in, h_out, n, o_, s_.device_bytes, "select_pipeline");
  const int S = o_.streams;
  // Per slot: the chunk whose kept items are on their way, where they go and how many.
  std::vector<std::int64_t> writing(S, -1), write_at(S, 0), write_len(S, 0);
  std::int64_t kept = 0;  // items of the chunks whose output offsets are known
  const auto finish_write = [&](int slot) {  // the slot's kept items have arrived
    if (writing[slot] < 0) return;
    PARASCAN_CUDA_CHECK(cudaEventSynchronize(s_.done[slot]));
    if (!st.pinned_out)
      std::memcpy(h_out + write_at[slot], s_.stage_out[slot], static_cast<std::size_t>(write_len[slot]) * sizeof(T));
    writing[slot] = -1;
  };
  std::int64_t next_write = 0;  // the first chunk whose write has not been started
  const auto start_writes_through = [&](std::int64_t last) {  // in chunk order: counts give offsets
    for (; next_write <= last && next_write < st.chunks; ++next_write) {
      const int slot = static_cast<int>(next_write % S);
      PARASCAN_CUDA_CHECK(cudaEventSynchronize(s_.carried[slot]));  // its count is in
      const std::int64_t c = s_.h_counts[slot];
      write_at[slot] = kept;
      write_len[slot] = c;
      kept += c;
      if (c > 0) {
        T* dst = st.pinned_out ? h_out + write_at[slot] : s_.stage_out[slot];
        PARASCAN_CUDA_CHECK(cudaMemcpyAsync(dst, s_.d_out[slot], static_cast<std::size_t>(c) * sizeof(T),
                                            cudaMemcpyDeviceToHost, s_.streams[slot]));
      }
      PARASCAN_CUDA_CHECK(cudaEventRecord(s_.done[slot], s_.streams[slot]));
      writing[slot] = next_write;
    }
  };
  for (std::int64_t k = 0; k < st.chunks; ++k) {
    const int slot = static_cast<int>(k % S);
    cudaStream_t s = s_.streams[slot];
    const std::int64_t at = k * o_.chunk_items, len = std::min(o_.chunk_items, n - at);
    const std::size_t bytes = static_cast<std::size_t>(len) * sizeof(T);
    // The slot's previous chunk (k − S) must have been written out before its buffers are reused.
    start_writes_through(k - S);
    finish_write(slot);
    const T* src = h_in + at;
    if (!st.pinned_in) {
      std::memcpy(s_.stage_in[slot], h_in + at, bytes);
      src = s_.stage_in[slot];
    }
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(s_.d_in[slot], src, bytes, cudaMemcpyHostToDevice, s));
    std::size_t tb = s_.temp_bytes;
    PARASCAN_CUDA_CHECK((select_if<T, keep_rule<T>>(s_.temp[slot], tb, s_.d_in[slot], s_.d_out[slot],
                                                   s_.d_counts + slot, len, rule, s)));
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(s_.h_counts + slot, s_.d_counts + slot, sizeof(std::int64_t),
                                        cudaMemcpyDeviceToHost, s));
    PARASCAN_CUDA_CHECK(cudaEventRecord(s_.carried[slot], s));
    // The previous chunk's count is on its way while this chunk is queued: start its write.
    start_writes_through(k - 1);
  }
  start_writes_through(st.chunks - 1);
  for (int slot = 0; slot < S; ++slot) finish_write(slot);
  if (stats) *stats = st;
  return kept;
}

template class scan_pipeline<std::int32_t>;
template class scan_pipeline<std::uint32_t>;
template class scan_pipeline<std::int64_t>;
template class scan_pipeline<std::uint64_t>;
template class scan_pipeline<float>;
template class scan_pipeline<double>;
template class select_pipeline<std::int32_t>;
template class select_pipeline<std::uint32_t>;
template class select_pipeline<std::int64_t>;
template class select_pipeline<std::uint64_t>;
template class select_pipeline<float>;
template class select_pipeline<double>;

}  // namespace parascan
