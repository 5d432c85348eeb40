// The tools' --gpus N: the input split over the first N GPUs of this host (contiguous shards in rank
// order, one NCCL rank per GPU, gpu_group.hpp), the global operation of distributed.hpp run and timed
// on all of them at once, and the result gathered into one host array, which the tool then checks
// against its one-GPU result (and so against CUB and the CPU with --validate) and writes.
// Without NCCL in the build, --gpus above 1 is refused (exit 2) before any device work.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>
#include "exit_codes.hpp"
#include "parascan/buffer.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/select.hpp"
#ifdef PARASCAN_HAVE_NCCL
#include "gpu_group.hpp"
#include "parascan/distributed.hpp"
#endif

namespace parascan::app {

/// A multi-GPU run's result: the gathered output and the median wall time of the global operation.
template <class T>
struct gathered {
  std::vector<T> items;
  double ms = 0;
};

/// --gpus N checked before any input is read: N ≥ 1, and above 1 a build with NCCL.
inline void check_gpus_option(int gpus) {
  if (gpus < 1) throw input_error("--gpus: must be 1 or more, got " + std::to_string(gpus));
#ifndef PARASCAN_HAVE_NCCL
  if (gpus > 1)
    throw input_error("--gpus " + std::to_string(gpus) + ": this build has no NCCL (configure with "
                      "-DPARASCAN_WITH_NCCL=ON and NCCL installed, or the nvidia-nccl-cu13 wheel)");
#endif
}

/// At least `gpus` CUDA devices on this host (exit 4 otherwise); called before any device work.
inline void require_gpus(int gpus) {
#ifdef PARASCAN_HAVE_NCCL
  check_gpu_count(gpus);
#else
  (void)gpus;
#endif
}

/// The line the tools print for a multi-GPU run: its time, rate and speedup over the one-GPU run.
inline std::string gpus_line(int gpus, double ms, double one_gpu_ms, double items, const char* unit) {
  char b[256];
  std::snprintf(b, sizeof b, "%d GPUs: %.4f ms, %.2f G%s/s, %.2fx the one-GPU time (wall clock, all ranks)", gpus, ms,
                items / (ms * 1e-3) / 1e9, unit, one_gpu_ms / ms);
  return b;
}

#ifdef PARASCAN_HAVE_NCCL

/// Rank r's shard of `in` (shard_of) copied to its GPU.
template <class T>
std::vector<device_buffer<T>> scatter(gpu_group& g, const std::vector<T>& in) {
  std::vector<device_buffer<T>> d(static_cast<std::size_t>(g.size()));
  g.each([&](int r) {
    const shard s = shard_of(static_cast<std::int64_t>(in.size()), g.size(), r);
    d[r] = device_buffer<T>(static_cast<std::size_t>(s.count));
    if (s.count > 0) d[r].copy_from_host(in.data() + s.first, static_cast<std::size_t>(s.count));
  });
  return d;
}

/// Each rank's temporary storage as call(rank, nullptr, bytes) asks (the CUB-shaped size query), then
/// the median time of call(rank, temp, bytes) on every rank at once.
template <class Call>
double time_two_phase(gpu_group& g, int repeat, const Call& call) {
  std::vector<device_buffer<char>> temp(static_cast<std::size_t>(g.size()));
  g.each([&](int r) {
    std::size_t b = 0;
    PARASCAN_CUDA_CHECK(call(r, nullptr, b));
    temp[r] = device_buffer<char>(b);
  });
  return g.median_ms(repeat, [&](int r) {
    std::size_t b = temp[r].size();
    PARASCAN_CUDA_CHECK(call(r, temp[r].data(), b));
  });
}

/// The global scan (inclusive, or exclusive from `init`) of `in` over `gpus` GPUs.
template <class T, class Op>
gathered<T> scan_on_gpus(int gpus, int repeat, const std::vector<T>& in, Op op, bool exclusive, T init) {
  gpu_group g(gpus);
  const std::int64_t n = static_cast<std::int64_t>(in.size());
  auto d_in = scatter(g, in);
  std::vector<device_buffer<T>> d_out(gpus);
  const auto call = [&](int r, void* t, std::size_t& b) {
    const shard s = shard_of(n, gpus, r);
    return exclusive ? dist::exclusive_scan(t, b, d_in[r].data(), d_out[r].data(), s.count, op, init, g.comm(r))
                     : dist::inclusive_scan(t, b, d_in[r].data(), d_out[r].data(), s.count, op, g.comm(r));
  };
  g.each([&](int r) {
    d_out[r] = device_buffer<T>(d_in[r].size());
    d_out[r].poison();
  });
  gathered<T> res;
  res.ms = time_two_phase(g, repeat, call);
  res.items.resize(in.size());
  g.each([&](int r) {
    const shard s = shard_of(n, gpus, r);
    if (s.count > 0) d_out[r].copy_to_host(res.items.data() + s.first, static_cast<std::size_t>(s.count));
  });
  return res;
}

/// The stable global selection of `in` (by `rule`, or by non-zero `flags` when given) over `gpus` GPUs.
template <class T>
gathered<T> select_on_gpus(int gpus, int repeat, const std::vector<T>& in, const std::vector<std::uint8_t>* flags,
                           keep_rule<T> rule) {
  gpu_group g(gpus);
  const std::int64_t n = static_cast<std::int64_t>(in.size());
  auto d_in = scatter(g, in);
  std::vector<device_buffer<std::uint8_t>> d_flags;
  if (flags) d_flags = scatter(g, *flags);
  std::vector<device_buffer<T>> d_out(gpus);
  std::vector<device_buffer<std::int64_t>> d_counts(gpus);  // local kept, offset, global kept
  const auto call = [&](int r, void* t, std::size_t& b) {
    const shard s = shard_of(n, gpus, r);
    std::int64_t* c = d_counts[r].data();
    const dist::select_counts counts{c, c + 1, c + 2};
    return flags ? dist::select_flagged(t, b, d_in[r].data(), d_flags[r].data(), d_out[r].data(), s.count, counts, g.comm(r))
                 : dist::select_if(t, b, d_in[r].data(), d_out[r].data(), s.count, rule, counts, g.comm(r));
  };
  g.each([&](int r) {
    d_out[r] = device_buffer<T>(d_in[r].size());
    d_out[r].poison();
    d_counts[r] = device_buffer<std::int64_t>(3);
    d_counts[r].poison();
  });
  gathered<T> res;
  res.ms = time_two_phase(g, repeat, call);
  // Each rank's slice at its global offset; the counts are checked before anything is read by them.
  std::vector<std::int64_t> c(3 * static_cast<std::size_t>(gpus));
  g.each([&](int r) { d_counts[r].copy_to_host(c.data() + 3 * r, 3); });
  const std::int64_t total = c[2];
  std::int64_t offset = 0;
  for (int r = 0; r < gpus; ++r) {
    const std::int64_t kept = c[3 * r], at = c[3 * r + 1];
    if (kept < 0 || kept > static_cast<std::int64_t>(d_out[r].size()) || at != offset || c[3 * r + 2] != total)
      throw mismatch_error("--gpus: rank " + std::to_string(r) + " reports kept " + std::to_string(kept) + " at offset " +
                           std::to_string(at) + " of " + std::to_string(c[3 * r + 2]) + " (expected offset " +
                           std::to_string(offset) + ")");
    offset += kept;
  }
  res.items.resize(static_cast<std::size_t>(total));
  g.each([&](int r) {
    if (c[3 * r] > 0) d_out[r].copy_to_host(res.items.data() + c[3 * r + 1], static_cast<std::size_t>(c[3 * r]));
  });
  return res;
}

/// The global stable sort of `keys` (with `values` when given: 4- or 8-byte items) over `gpus` GPUs;
/// keys and values gathered in rank order, each rank's slice n / P (± 1) items.
template <class Key, class V>
std::pair<gathered<Key>, std::vector<V>> sort_on_gpus(int gpus, int repeat, const std::vector<Key>& keys,
                                                     const std::vector<V>* values, sort_options o) {
  constexpr bool value_ok = sizeof(V) == 4 || sizeof(V) == 8;
  if (values && !value_ok) throw input_error("--gpus: values of 4 or 8 bytes only (the multi-GPU sort's exchange)");
  gpu_group g(gpus);
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  const std::int64_t capacity = n / gpus + 1;
  auto d_keys = scatter(g, keys);
  std::vector<device_buffer<V>> d_values;
  if (values) d_values = scatter(g, *values);
  std::vector<device_buffer<Key>> d_out(gpus);
  std::vector<device_buffer<V>> d_vout(gpus);
  std::vector<dist::sort_stats> st(gpus);
  g.each([&](int r) {
    d_out[r] = device_buffer<Key>(static_cast<std::size_t>(capacity));
    d_out[r].poison();
    if (values) {
      d_vout[r] = device_buffer<V>(static_cast<std::size_t>(capacity));
      d_vout[r].poison();
    }
  });
  std::pair<gathered<Key>, std::vector<V>> res;
  res.first.ms = g.median_ms(repeat, [&](int r) {
    const shard s = shard_of(n, gpus, r);
    if constexpr (value_ok) {
      if (values) {
        st[r] = dist::sort_pairs(d_keys[r].data(), d_values[r].data(), s.count, d_out[r].data(), d_vout[r].data(),
                                 capacity, g.comm(r), 0, o);
        return;
      }
    }
    st[r] = dist::sort_keys(d_keys[r].data(), s.count, d_out[r].data(), capacity, g.comm(r), 0, o);
  });
  res.first.items.resize(keys.size());
  if (values) res.second.resize(keys.size());
  std::int64_t at = 0;
  std::vector<std::int64_t> first(gpus);
  for (int r = 0; r < gpus; ++r) {
    if (st[r].local < 0 || st[r].local > capacity || st[r].global != n)
      throw mismatch_error("--gpus: rank " + std::to_string(r) + " holds " + std::to_string(st[r].local) + " of " +
                           std::to_string(st[r].global) + " keys (capacity " + std::to_string(capacity) + ", n " +
                           std::to_string(n) + ")");
    first[r] = at;
    at += st[r].local;
  }
  if (at != n) throw mismatch_error("--gpus: the ranks hold " + std::to_string(at) + " keys of " + std::to_string(n));
  g.each([&](int r) {
    const auto m = static_cast<std::size_t>(st[r].local);
    if (m == 0) return;
    d_out[r].copy_to_host(res.first.items.data() + first[r], m);
    if (values) d_vout[r].copy_to_host(res.second.data() + first[r], m);
  });
  return res;
}

#endif  // PARASCAN_HAVE_NCCL

}  // namespace parascan::app
