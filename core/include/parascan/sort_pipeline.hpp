// Sorting host arrays of any size, larger than the GPU's memory (out of core): keys, or keys with
// values, every key type, both directions, a bit range — the order of radix_sort.hpp.
//
//   parascan::radix_sort_pipeline<float> p;                 // device memory: what is free, or a limit
//   p.sort_keys(h_in, h_out, n);                            // blocks until h_out is sorted
//   parascan::radix_sort_pipeline<std::uint32_t, std::uint64_t> q;
//   q.sort_pairs(h_keys, h_keys_out, nullptr, h_order, n);  // values nullptr: the input positions (argsort)
//
// When the keys (and values) fit the device memory the pipeline may use, they make one round trip:
// copied in, sorted by radix_sort_pairs/keys, copied out. Otherwise two round trips over PCIe:
//   1. partition: chunks of the input are copied in, each partitioned stably by the top 8 bits of the
//      sorted bit range (one Onesweep pass) and copied into a pinned host buffer, with the chunk's
//      count of each bucket;
//   2. sort: consecutive buckets are grouped into batches that fit a slot; a batch is gathered from
//      its pieces in every chunk (in chunk order, so equal keys keep their input order), sorted on
//      the GPU and copied to its final place in the output.
// Several slots (device buffers, pinned staging, a stream each) keep copies in both directions and
// kernels overlapping. A bucket larger than a slot (skewed keys) is partitioned again on the next
// 8 bits into a pinned buffer of its size; a bucket whose keys agree on every bit of the range is
// already in order (the partitions are stable) and is copied as it stands.
//
// Host memory: a pinned buffer of n keys (and values), kept by the pipeline for its next runs (pinning
// gigabytes takes seconds: reuse the pipeline). Pageable input or output goes through pinned staging
// with a host memcpy. Errors throw parascan::cuda_error (out of memory: cudaErrorMemoryAllocation).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include "parascan/radix_sort.hpp"

namespace parascan {

struct sort_pipeline_options {
  /// Bytes of device memory the pipeline may hold; 0: the device's free memory less 5% (at least 256 MiB
  /// kept free). A limit smaller than the data forces the out-of-core path (tests, benchmarks).
  std::size_t device_memory_limit = 0;
  int slots = 3;  ///< batches in flight on the out-of-core path (≥ 2 to overlap copies and sorts)
};

struct sort_pipeline_stats {
  bool out_of_core = false;
  std::int64_t slot_items = 0;     ///< keys a slot holds
  std::int64_t partitions = 0;     ///< chunks partitioned (every level)
  std::int64_t batches = 0;        ///< batches sorted on the GPU
  std::int64_t repartitioned = 0;  ///< buckets larger than a slot, partitioned again
  std::int64_t unsorted = 0;       ///< buckets copied as they stand (keys equal on every sorted bit)
  std::size_t device_bytes = 0;    ///< device memory held
  std::size_t pinned_bytes = 0;    ///< pinned host memory held (slots' staging and the partition buffer)
};

namespace detail {
struct no_value {};
/// The engine over raw key bits U and value bits V (no_value: keys only), core/src/sort_pipeline.cu.
template <class U, class V>
class sort_engine {
 public:
  explicit sort_engine(sort_pipeline_options o);
  ~sort_engine();
  sort_engine(const sort_engine&) = delete;
  sort_engine& operator=(const sort_engine&) = delete;
  /// values_in == nullptr with values_out set: the values are the input positions.
  sort_pipeline_stats run(const U* keys_in, U* keys_out, const V* values_in, V* values_out, std::int64_t n,
                          key_kind kind, sort_options options);

 private:
  struct state;
  std::unique_ptr<state> s_;
};
template <std::size_t Bytes>
using value_bits_t = std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>;
}  // namespace detail

/// Value: void (keys only) or a type of 4 or 8 bytes (for argsort: std::uint32_t with n ≤ 2^32, or
/// std::uint64_t). Not thread-safe: one run at a time per pipeline.
template <class Key, class Value = void>
class radix_sort_pipeline {
  using value_or_int = std::conditional_t<std::is_void_v<Value>, int, Value>;  // sizeof(void) is no size
  static_assert(sizeof(value_or_int) == 4 || sizeof(value_or_int) == 8, "radix_sort_pipeline: values of 4 or 8 bytes");
  using bits = typename key_bits_of<Key>::type;
  struct none {
    using type = detail::no_value;
  };
  struct sized {
    using type = detail::value_bits_t<sizeof(value_or_int)>;
  };
  using value_bits = typename std::conditional_t<std::is_void_v<Value>, none, sized>::type;

 public:
  explicit radix_sort_pipeline(sort_pipeline_options o = {}) : engine_(o) {}

  /// keys_out = keys_in sorted (in place allowed).
  sort_pipeline_stats sort_keys(const Key* keys_in, Key* keys_out, std::int64_t n, sort_options options = {}) {
    static_assert(std::is_void_v<Value>, "radix_sort_pipeline<Key, Value>: use sort_pairs");
    return engine_.run(reinterpret_cast<const bits*>(keys_in), reinterpret_cast<bits*>(keys_out), nullptr, nullptr, n,
                       kind_of_key<Key>(), options);
  }
  /// The pairs sorted by key, stably; values_in == nullptr: values_out = the permutation (argsort).
  template <class V = Value, class = std::enable_if_t<!std::is_void_v<V>>>
  sort_pipeline_stats sort_pairs(const Key* keys_in, Key* keys_out, const V* values_in, V* values_out, std::int64_t n,
                                 sort_options options = {}) {
    return engine_.run(reinterpret_cast<const bits*>(keys_in), reinterpret_cast<bits*>(keys_out),
                       reinterpret_cast<const value_bits*>(values_in), reinterpret_cast<value_bits*>(values_out), n,
                       kind_of_key<Key>(), options);
  }

 private:
  detail::sort_engine<bits, value_bits> engine_;
};

}  // namespace parascan
