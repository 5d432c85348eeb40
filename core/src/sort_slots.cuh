// The slots of radix_sort_pipeline (sort_pipeline.cu): per slot device buffers for keys and values,
// the sort's temporary storage, pinned staging, a stream and an event; copies of pieces of host
// arrays in and out, the sort of a slot, and the host work left once a slot's event has fired.
// Included by sort_pipeline.cu only.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>
#include "parascan/device/radix_digits.cuh"
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/sort_pipeline.hpp"

namespace parascan::detail {
namespace {

constexpr int bucket_bits = 8, buckets_max = 1 << bucket_bits;
using device::sort_detail::digit_place;

/// counts[d] += the keys of [0, n) whose digit at `p` is d.
template <class U>
__global__ void __launch_bounds__(256) bucket_counts_kernel(const U* keys, std::int64_t n, digit_place p,
                                                            unsigned long long* counts) {
  __shared__ unsigned hist[buckets_max];
  for (int i = threadIdx.x; i < buckets_max; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    atomicAdd(&hist[device::sort_detail::digit_of(keys[i], p)], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < (1 << p.bits); i += blockDim.x)
    if (hist[i] != 0) atomicAdd(&counts[i], static_cast<unsigned long long>(hist[i]));
}

/// values[i] = first + i: the input positions, for argsort.
template <class V>
__global__ void positions_kernel(V* values, std::int64_t n, std::int64_t first) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    values[i] = static_cast<V>(first + i);
}

inline unsigned grid_for(std::int64_t n) { return static_cast<unsigned>(std::clamp<std::int64_t>((n + 255) / 256, 1, 2048)); }

}  // namespace

/// A run of items of a host array: [at, at + len).
struct piece {
  std::int64_t at, len;
};

template <class U, class V>
struct sort_slots {
  static constexpr bool pairs = !std::is_same_v<V, no_value>;
  using value_t = std::conditional_t<pairs, V, char>;  // a stand-in type for keys only

  sort_pipeline_options o;
  key_kind kind{};
  sort_options so;
  sort_pipeline_stats st;

  // Slots: device buffers, pinned staging, a stream and an event each.
  std::int64_t cap = 0;  // items per slot
  std::size_t temp_bytes = 0;
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> done;
  std::vector<U*> dk_in, dk_out, hk_stage;
  std::vector<value_t*> dv_in, dv_out, hv_stage;
  std::vector<void*> temp;
  unsigned long long* d_counts = nullptr;  // buckets_max per slot
  unsigned long long* h_counts = nullptr;  // pinned copies

  // What each slot's last queued work left to do on the host once its event has fired.
  struct pending {
    bool queued = false;   // its event is recorded
    U* keys_to = nullptr;  // unstage its output here (pageable destination)
    value_t* values_to = nullptr;
    std::int64_t len = 0;
    std::vector<unsigned long long>* counts_to = nullptr;  // copy its bucket counts here
  };
  std::vector<pending> wait;

  ~sort_slots() { release_slots(); }

  std::size_t item_bytes() const { return 2 * (sizeof(U) + (pairs ? sizeof(V) : 0)); }

  std::size_t sort_temp(std::int64_t n) const {
    std::size_t a = 0, b = 0;
    sort_options q = so;
    q.begin_bit = 0, q.end_bit = -1;  // the most passes
    if constexpr (pairs) {
      PARASCAN_CUDA_CHECK((radix_sort_bits_pairs<U, V>(nullptr, a, nullptr, nullptr, nullptr, nullptr, n, kind, q)));
      PARASCAN_CUDA_CHECK((radix_sort_bits_pairs<U, V>(nullptr, b, nullptr, nullptr, reinterpret_cast<const V*>(alignof(V)),
                                                       nullptr, n, kind, q)));
    } else {
      PARASCAN_CUDA_CHECK(radix_sort_bits<U>(nullptr, a, nullptr, nullptr, n, kind, q));
    }
    return std::max(a, b);
  }

  std::size_t slot_bytes(std::int64_t items) const { return static_cast<std::size_t>(items) * item_bytes() + sort_temp(items) + 4096; }

  void release_slots() noexcept {
    for (auto s : streams) (void)cudaStreamSynchronize(s);
    for (auto p : dk_in) (void)cudaFree(p);
    for (auto p : dk_out) (void)cudaFree(p);
    for (auto p : dv_in) (void)cudaFree(p);
    for (auto p : dv_out) (void)cudaFree(p);
    for (auto p : temp) (void)cudaFree(p);
    for (auto p : hk_stage) (void)cudaFreeHost(p);
    for (auto p : hv_stage) (void)cudaFreeHost(p);
    for (auto e : done) (void)cudaEventDestroy(e);
    for (auto s : streams) (void)cudaStreamDestroy(s);
    if (d_counts) (void)cudaFree(d_counts);
    if (h_counts) (void)cudaFreeHost(h_counts);
    streams.clear(), done.clear(), dk_in.clear(), dk_out.clear(), dv_in.clear(), dv_out.clear(), temp.clear();
    hk_stage.clear(), hv_stage.clear(), wait.clear();
    d_counts = nullptr, h_counts = nullptr, cap = 0;
    st.device_bytes = 0;
  }

  /// `count` slots of `items` each (kept when they are at least that), with pinned staging for
  /// pageable memory when `staging` (else copies go straight from and to pageable memory).
  void allocate_slots(int count, std::int64_t items, bool staging) {
    if (static_cast<int>(streams.size()) == count && cap >= items && (!staging || hk_stage[0] != nullptr)) return;
    release_slots();
    try {
      temp_bytes = sort_temp(items);
      const std::size_t kb = static_cast<std::size_t>(items) * sizeof(U), vb = static_cast<std::size_t>(items) * sizeof(value_t);
      for (int s = 0; s < count; ++s) {
        cudaStream_t stream;
        PARASCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        streams.push_back(stream);
        cudaEvent_t e;
        PARASCAN_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        done.push_back(e);
        U *a = nullptr, *b = nullptr, *c = nullptr;
        value_t *x = nullptr, *y = nullptr, *z = nullptr;
        void* t = nullptr;
        PARASCAN_CUDA_CHECK(cudaMalloc(&a, kb));
        dk_in.push_back(a);
        PARASCAN_CUDA_CHECK(cudaMalloc(&b, kb));
        dk_out.push_back(b);
        PARASCAN_CUDA_CHECK(cudaMalloc(&t, std::max<std::size_t>(temp_bytes, 1)));
        temp.push_back(t);
        if (staging) PARASCAN_CUDA_CHECK(cudaMallocHost(&c, kb));
        hk_stage.push_back(c);
        if constexpr (pairs) {
          PARASCAN_CUDA_CHECK(cudaMalloc(&x, vb));
          PARASCAN_CUDA_CHECK(cudaMalloc(&y, vb));
          if (staging) PARASCAN_CUDA_CHECK(cudaMallocHost(&z, vb));
        }
        dv_in.push_back(x), dv_out.push_back(y), hv_stage.push_back(z);
      }
      PARASCAN_CUDA_CHECK(cudaMalloc(&d_counts, static_cast<std::size_t>(count) * buckets_max * sizeof(unsigned long long)));
      PARASCAN_CUDA_CHECK(cudaMallocHost(&h_counts, static_cast<std::size_t>(count) * buckets_max * sizeof(unsigned long long)));
    } catch (...) {
      release_slots();
      throw;
    }
    wait.assign(count, pending{});
    cap = items;
    st.device_bytes = static_cast<std::size_t>(count) * (static_cast<std::size_t>(items) * item_bytes() + temp_bytes);
  }

  /// Waits for the slot's last work and finishes its host side.
  void drain(int s) {
    pending& p = wait[s];
    if (!p.queued) return;
    PARASCAN_CUDA_CHECK(cudaEventSynchronize(done[s]));
    const std::size_t len = static_cast<std::size_t>(p.len);
    if (p.keys_to) std::memcpy(p.keys_to, hk_stage[s], len * sizeof(U));
    if constexpr (pairs)
      if (p.values_to) std::memcpy(p.values_to, hv_stage[s], len * sizeof(V));
    if (p.counts_to) p.counts_to->assign(h_counts + s * buckets_max, h_counts + (s + 1) * buckets_max);
    p = pending{};
  }
  void drain_all() {
    for (int s = 0; s < static_cast<int>(streams.size()); ++s) drain(s);
  }

  /// Copies the pieces of (keys, values) into slot s's input buffers, through staging when pageable.
  void copy_in(int s, const U* keys, const value_t* values, bool pinned, const std::vector<piece>& pieces) {
    const bool stage = !pinned && hk_stage[s] != nullptr;
    // `count` items from host `src` to device `dst`, through the slot's pinned `staging` when pageable.
    const auto put = [&](auto* dst, auto* staging, const auto* src, std::int64_t count) {
      const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(*src);
      if (stage) {
        std::memcpy(staging, src, bytes);
        src = staging;
      }
      PARASCAN_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, streams[s]));
    };
    std::int64_t filled = 0;
    for (const piece& q : pieces) {
      if (q.len == 0) continue;
      put(dk_in[s] + filled, stage ? hk_stage[s] + filled : nullptr, keys + q.at, q.len);
      if (pairs && values != nullptr) put(dv_in[s] + filled, stage ? hv_stage[s] + filled : nullptr, values + q.at, q.len);
      filled += q.len;
    }
  }

  /// Slot s's sorted output (dk_out/dv_out, len items) to keys/values, through staging when pageable.
  void copy_out(int s, U* keys, value_t* values, bool pinned, std::int64_t len) {
    const std::size_t kb = static_cast<std::size_t>(len) * sizeof(U), vb = static_cast<std::size_t>(len) * sizeof(value_t);
    const bool stage = !pinned && hk_stage[s] != nullptr;
    PARASCAN_CUDA_CHECK(cudaMemcpyAsync(stage ? hk_stage[s] : keys, dk_out[s], kb, cudaMemcpyDeviceToHost, streams[s]));
    if (pairs) PARASCAN_CUDA_CHECK(cudaMemcpyAsync(stage ? hv_stage[s] : values, dv_out[s], vb, cudaMemcpyDeviceToHost, streams[s]));
    if (stage) wait[s].keys_to = keys, wait[s].values_to = pairs ? values : nullptr, wait[s].len = len;
  }
  /// Marks the end of slot s's queued work.
  void record(int s) {
    PARASCAN_CUDA_CHECK(cudaEventRecord(done[s], streams[s]));
    wait[s].queued = true;
  }

  /// Sorts slot s's len items on [begin_bit, hi) (with positions first + i as values when argsort
  /// and `first` ≥ 0).
  void sort_slot(int s, std::int64_t len, int lo, int hi, std::int64_t first) {
    sort_options q = so;
    q.begin_bit = lo, q.end_bit = hi;
    std::size_t tb = temp_bytes;
    if constexpr (pairs) {
      if (first >= 0) {
        positions_kernel<V><<<grid_for(len), 256, 0, streams[s]>>>(dv_in[s], len, first);
        PARASCAN_CUDA_CHECK(cudaGetLastError());
      }
      PARASCAN_CUDA_CHECK((radix_sort_bits_pairs<U, V>(temp[s], tb, dk_in[s], dk_out[s], dv_in[s], dv_out[s], len, kind, q,
                                                       streams[s])));
    } else {
      PARASCAN_CUDA_CHECK(radix_sort_bits<U>(temp[s], tb, dk_in[s], dk_out[s], len, kind, q, streams[s]));
    }
  }

};

}  // namespace parascan::detail
