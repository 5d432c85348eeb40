// radix_sort_pipeline (sort_pipeline.hpp): host arrays sorted through the GPU in one round trip when
// they fit, in two (partition, then sort per batch of buckets) when they do not.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>
#include "sort_slots.cuh"

namespace parascan::detail {

template <class U, class V>
struct sort_engine<U, V>::state : sort_slots<U, V> {
  using base = sort_slots<U, V>;
  using typename base::pending;
  using typename base::value_t;
  using base::pairs;
  using base::cap, base::so, base::kind, base::st, base::streams, base::wait, base::dk_out, base::d_counts;
  using base::h_counts, base::drain, base::drain_all, base::copy_in, base::copy_out, base::record, base::sort_slot;

  // The partition buffer (pinned), kept between runs.
  U* xk = nullptr;
  value_t* xv = nullptr;
  std::int64_t x_cap = 0;

  ~state() {
    base::release_slots();
    if (xk) (void)cudaFreeHost(xk);
    if (xv) (void)cudaFreeHost(xv);
  }

  void reserve_partition_buffer(std::int64_t n) {
    if (x_cap >= n) return;
    if (xk) PARASCAN_CUDA_CHECK(cudaFreeHost(xk));
    if (xv) PARASCAN_CUDA_CHECK(cudaFreeHost(xv));
    xk = nullptr, xv = nullptr, x_cap = 0;
    PARASCAN_CUDA_CHECK(cudaMallocHost(&xk, static_cast<std::size_t>(n) * sizeof(U)));
    if constexpr (pairs) PARASCAN_CUDA_CHECK(cudaMallocHost(&xv, static_cast<std::size_t>(n) * sizeof(V)));
    x_cap = n;
  }

  /// The source of a level: a host array (keys, values) and whether it is pinned.
  struct source {
    const U* keys;
    const value_t* values;  // null: argsort at the top level (positions)
    bool pinned;
  };

  /// Partitions `total` items of src (its pieces, in order) by the digit [lo, hi) into dst (chunk
  /// after chunk, each in bucket order). Returns the bucket pieces of dst: [bucket][chunk].
  std::vector<std::vector<piece>> partition(const source& src, const std::vector<piece>& pieces, std::int64_t total,
                                            int lo, int hi, U* dst_keys, value_t* dst_values) {
    const int S = static_cast<int>(streams.size());
    const std::int64_t chunks = (total + cap - 1) / cap;
    std::vector<std::vector<unsigned long long>> counts(chunks);
    std::size_t pi = 0;  // walks the source pieces
    std::int64_t used = 0;  // items of pieces[pi] already taken
    const digit_place place{lo, hi - lo, kind, so.descending};
    for (std::int64_t c = 0; c < chunks; ++c) {
      const int s = static_cast<int>(c % S);
      drain(s);
      const std::int64_t len = std::min(cap, total - c * cap);
      std::vector<piece> mine;  // the source pieces of this chunk
      for (std::int64_t need = len; need > 0;) {
        const std::int64_t take = std::min(need, pieces[pi].len - used);
        mine.push_back({pieces[pi].at + used, take});
        need -= take, used += take;
        if (used == pieces[pi].len) ++pi, used = 0;
      }
      copy_in(s, src.keys, src.values, src.pinned, mine);
      // Positions only make sense while the source is the input itself, as one piece.
      const std::int64_t first = (pairs && src.values == nullptr) ? mine.front().at : -1;
      sort_slot(s, len, lo, hi, first);
      unsigned long long* dc = d_counts + s * buckets_max;
      PARASCAN_CUDA_CHECK(cudaMemsetAsync(dc, 0, buckets_max * sizeof(unsigned long long), streams[s]));
      bucket_counts_kernel<U><<<grid_for(len), 256, 0, streams[s]>>>(dk_out[s], len, place, dc);
      PARASCAN_CUDA_CHECK(cudaGetLastError());
      PARASCAN_CUDA_CHECK(cudaMemcpyAsync(h_counts + s * buckets_max, dc, buckets_max * sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost, streams[s]));
      copy_out(s, dst_keys + c * cap, dst_values ? dst_values + c * cap : nullptr, true, len);
      wait[s].counts_to = &counts[c];
      record(s);
      ++st.partitions;
    }
    drain_all();
    const int buckets = 1 << (hi - lo);
    std::vector<std::vector<piece>> out(buckets, std::vector<piece>(chunks));
    for (std::int64_t c = 0; c < chunks; ++c) {
      std::int64_t at = c * cap;
      for (int b = 0; b < buckets; ++b) {
        const auto k = static_cast<std::int64_t>(counts[c][b]);
        out[b][c] = {at, k};
        at += k;
      }
      if (at != c * cap + std::min(cap, total - c * cap))
        throw cuda_error(cudaErrorUnknown, "radix_sort_pipeline: bucket counts do not add up to the chunk");
    }
    return out;
  }

  /// Sorts the buckets (pieces of src) of a level whose digit was [lo, hi) into out (keys, values)
  /// at their places, in order.
  void sort_buckets(const source& src, const std::vector<std::vector<piece>>& buckets, int lo, int hi, U* out_keys,
                    value_t* out_values, bool out_pinned) {
    const int S = static_cast<int>(streams.size());
    std::int64_t next_slot = 0, at = 0;
    std::vector<piece> batch;
    std::int64_t batch_len = 0, batch_at = 0;
    const auto flush = [&] {
      if (batch_len == 0) return;
      const int s = static_cast<int>(next_slot++ % S);
      drain(s);
      copy_in(s, src.keys, src.values, src.pinned, batch);
      sort_slot(s, batch_len, so.begin_bit, hi, -1);
      copy_out(s, out_keys + batch_at, pairs ? out_values + batch_at : nullptr, out_pinned, batch_len);
      record(s);
      ++st.batches;
      batch_len = 0;
    };
    for (const auto& bucket : buckets) {
      std::int64_t len = 0;
      for (const piece& q : bucket) len += q.len;
      if (len == 0) continue;
      if (batch_len + len > cap) flush();
      if (len <= cap) {
        // Consecutive buckets lie side by side in every chunk: a batch is one piece per chunk. Its keys
        // arrive chunk-major, not bucket-major; the batch's sort on all its bits orders them, and equal
        // keys (one bucket) still come in chunk order, which is input order.
        if (batch_len == 0) {
          batch_at = at;
          batch = bucket;
        } else {
          for (std::size_t c = 0; c < bucket.size(); ++c) {
            if (bucket[c].at != batch[c].at + batch[c].len)
              throw cuda_error(cudaErrorUnknown, "radix_sort_pipeline: buckets of a batch are not adjacent");
            batch[c].len += bucket[c].len;
          }
        }
        batch_len += len;
      } else if (lo <= so.begin_bit) {  // every key of the bucket agrees on the sorted bits: in order already
        ++st.unsorted;
        std::int64_t k = at;
        for (const piece& q : bucket) {
          std::memcpy(out_keys + k, src.keys + q.at, static_cast<std::size_t>(q.len) * sizeof(U));
          if constexpr (pairs) std::memcpy(out_values + k, src.values + q.at, static_cast<std::size_t>(q.len) * sizeof(V));
          k += q.len;
        }
      } else {  // too large for a slot: partition it again on the next digit
        drain_all();
        ++st.repartitioned;
        const int lo2 = std::max(so.begin_bit, lo - bucket_bits);
        U* yk = nullptr;
        value_t* yv = nullptr;
        PARASCAN_CUDA_CHECK(cudaMallocHost(&yk, static_cast<std::size_t>(len) * sizeof(U)));
        try {
          if constexpr (pairs) PARASCAN_CUDA_CHECK(cudaMallocHost(&yv, static_cast<std::size_t>(len) * sizeof(V)));
          const auto sub = partition(src, bucket, len, lo2, lo, yk, yv);
          sort_buckets(source{yk, yv, true}, sub, lo2, lo, out_keys + at, pairs ? out_values + at : nullptr, out_pinned);
          drain_all();
        } catch (...) {
          drain_all();
          (void)cudaFreeHost(yk);
          if (yv) (void)cudaFreeHost(yv);
          throw;
        }
        PARASCAN_CUDA_CHECK(cudaFreeHost(yk));
        if (yv) PARASCAN_CUDA_CHECK(cudaFreeHost(yv));
      }
      at += len;
    }
    flush();
  }
};

template <class U, class V>
sort_engine<U, V>::sort_engine(sort_pipeline_options o) : s_(std::make_unique<state>()) {
  if (o.slots < 1) throw cuda_error(cudaErrorInvalidValue, "radix_sort_pipeline: slots must be positive");
  s_->o = o;
}

template <class U, class V>
sort_engine<U, V>::~sort_engine() = default;

template <class U, class V>
sort_pipeline_stats sort_engine<U, V>::run(const U* keys_in, U* keys_out, const V* values_in, V* values_out, std::int64_t n,
                                           key_kind kind, sort_options options) {
  state& s = *s_;
  constexpr bool pairs = state::pairs;
  using value_t = typename state::value_t;
  if (n < 0) throw cuda_error(cudaErrorInvalidValue, "radix_sort_pipeline: n < 0");
  constexpr int key_bits = static_cast<int>(sizeof(U) * 8);
  const int end_bit = options.end_bit < 0 ? key_bits : options.end_bit;
  if (options.begin_bit < 0 || options.begin_bit > end_bit || end_bit > key_bits)
    throw cuda_error(cudaErrorInvalidValue, "radix_sort_pipeline: bit range [" + std::to_string(options.begin_bit) + ", " +
                                                std::to_string(end_bit) + ") outside the key's " + std::to_string(key_bits) + " bits");
  if (pairs && values_out == nullptr) throw cuda_error(cudaErrorInvalidValue, "radix_sort_pipeline: values_out is null");
  if (pairs && values_in == nullptr && sizeof(V) < 8 && n > static_cast<std::int64_t>(UINT32_MAX))
    throw cuda_error(cudaErrorInvalidValue, "radix_sort_pipeline: positions of more than 2^32 keys need 8-byte values");
  s.kind = kind;
  s.so = options;
  s.so.end_bit = end_bit;
  s.so.algorithm = sort_algorithm::onesweep;
  s.st = sort_pipeline_stats{};
  if (n == 0) return s.st;

  std::size_t limit = s.o.device_memory_limit;
  if (limit == 0) {
    std::size_t free_bytes = 0, total = 0;
    PARASCAN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    const std::size_t keep = std::max<std::size_t>(free_bytes / 20, std::size_t(256) << 20);
    limit = free_bytes > keep ? free_bytes - keep : 0;
  }
  const auto* vin = reinterpret_cast<const value_t*>(values_in);
  auto* vout = reinterpret_cast<value_t*>(values_out);
  const bool in_pinned = is_pinned(keys_in) && (!pairs || values_in == nullptr || is_pinned(values_in));
  const bool out_pinned = is_pinned(keys_out) && (!pairs || is_pinned(values_out));

  if (s.slot_bytes(n) <= limit) {  // one round trip
    s.allocate_slots(1, n, false);
    s.st.slot_items = n;
    s.copy_in(0, keys_in, vin, in_pinned, {{0, n}});
    s.sort_slot(0, n, s.so.begin_bit, end_bit, pairs && values_in == nullptr ? 0 : -1);
    s.copy_out(0, keys_out, vout, out_pinned, n);
    s.record(0);
    s.drain(0);
    s.st.batches = 1;
    return s.st;
  }

  // Out of core: slots of equal size within the limit.
  const int slots = std::max(2, s.o.slots);
  std::int64_t items = static_cast<std::int64_t>(limit / slots / s.item_bytes());
  while (items > 0 && s.slot_bytes(items) * slots > limit) items -= std::max<std::int64_t>(1, items / 64);
  items = items / 256 * 256;
  if (items < 256)
    throw cuda_error(cudaErrorMemoryAllocation, "radix_sort_pipeline: a device memory limit of " + std::to_string(limit) +
                                                    " bytes leaves no room for " + std::to_string(slots) + " slots");
  s.allocate_slots(slots, items, true);
  s.reserve_partition_buffer(n);
  s.st.out_of_core = true;
  s.st.slot_items = items;
  s.st.pinned_bytes = static_cast<std::size_t>(items) * slots * (sizeof(U) + (pairs ? sizeof(V) : 0)) +
                      static_cast<std::size_t>(s.x_cap) * (sizeof(U) + (pairs ? sizeof(V) : 0));
  const int lo = std::max(s.so.begin_bit, end_bit - bucket_bits);
  const typename state::source input{keys_in, vin, in_pinned};
  try {
    if (end_bit == s.so.begin_bit) {  // no bits: the output is the input
      if (keys_out != keys_in) std::memcpy(keys_out, keys_in, static_cast<std::size_t>(n) * sizeof(U));
      if constexpr (pairs) {
        if (vin == nullptr) {
          for (std::int64_t i = 0; i < n; ++i) vout[i] = static_cast<V>(i);
        } else if (vout != vin) {
          std::memcpy(vout, vin, static_cast<std::size_t>(n) * sizeof(V));
        }
      }
      s.st.unsorted = 1;
    } else {
      const auto buckets = s.partition(input, {{0, n}}, n, lo, end_bit, s.xk, pairs ? s.xv : nullptr);
      s.sort_buckets(typename state::source{s.xk, s.xv, true}, buckets, lo, end_bit, keys_out, vout, out_pinned);
    }
    s.drain_all();
  } catch (...) {
    for (auto st : s.streams) (void)cudaStreamSynchronize(st);
    for (auto& p : s.wait) p = typename state::pending{};
    throw;
  }
  return s.st;
}

template class sort_engine<std::uint8_t, no_value>;
template class sort_engine<std::uint16_t, no_value>;
template class sort_engine<std::uint32_t, no_value>;
template class sort_engine<std::uint64_t, no_value>;
template class sort_engine<std::uint8_t, std::uint32_t>;
template class sort_engine<std::uint16_t, std::uint32_t>;
template class sort_engine<std::uint32_t, std::uint32_t>;
template class sort_engine<std::uint64_t, std::uint32_t>;
template class sort_engine<std::uint8_t, std::uint64_t>;
template class sort_engine<std::uint16_t, std::uint64_t>;
template class sort_engine<std::uint32_t, std::uint64_t>;
template class sort_engine<std::uint64_t, std::uint64_t>;

}  // namespace parascan::detail
