// Run one compaction / split / positions / padded call on the device — outputs poisoned, input misaligned by
// one element, a guard word after the output — and compare with the CPU and with CUB's count.
// Host code; used by `validate` and the GPU tests.
#pragma once
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/select.hpp"
#include "parascan/validation/compare.hpp"
#include "parascan/validation/cub_select.hpp"
#include "parascan/validation/device_check.hpp"

namespace parascan::validation {

/// padded_*: select_*_padded, the output n items long, the rest after the kept ones set to padded_fill<T>().
enum class select_mode {
  select_flagged, select_if, select_in_place, split_flagged, split_if, indices_flagged, indices_if, padded_flagged, padded_if
};
inline const char* to_string(select_mode m) {
  const char* n[] = {"select_flagged", "select_if", "select_in_place", "split_flagged", "split_if",
                     "indices_flagged", "indices_if", "padded_flagged", "padded_if"};
  return n[static_cast<int>(m)];
}
inline bool by_predicate(select_mode m) {
  return m == select_mode::select_if || m == select_mode::select_in_place || m == select_mode::split_if ||
         m == select_mode::indices_if || m == select_mode::padded_if;
}
/// The padded modes' fill: outside make_select_case's values (1..100) and not the poison byte 0x5A.
template <class T>
T padded_fill() {
  return static_cast<T>(101);
}

enum class flag_pattern { random, all, none, first, last, alternating };
inline const char* to_string(flag_pattern p) {
  const char* n[] = {"random", "all", "none", "first", "last", "alternating"};
  return n[static_cast<int>(p)];
}
inline constexpr flag_pattern all_flag_patterns[] = {flag_pattern::random, flag_pattern::all, flag_pattern::none,
                                                     flag_pattern::first, flag_pattern::last, flag_pattern::alternating};

/// Flags (random non-zero bytes where set) and values; for the predicate modes (rule "nonzero") the
/// values are non-zero exactly where the flags are.
template <class T>
void make_select_case(std::int64_t n, flag_pattern p, std::uint64_t seed, std::vector<std::uint8_t>& flags,
                      std::vector<T>& values) {
  std::mt19937_64 r(seed);
  flags.resize(n);
  values.resize(n);
  for (std::int64_t i = 0; i < n; ++i) {
    bool k = false;
    switch (p) {
      case flag_pattern::random: k = r() % 3 == 0; break;
      case flag_pattern::all: k = true; break;
      case flag_pattern::none: k = false; break;
      case flag_pattern::first: k = i == 0; break;
      case flag_pattern::last: k = i == n - 1; break;
      case flag_pattern::alternating: k = i % 2 == 1; break;
    }
    flags[i] = k ? static_cast<std::uint8_t>(1 + r() % 255) : 0;
    values[i] = static_cast<T>(1 + r() % 100);
  }
}

template <class T>
comparison check_select(const std::vector<T>& values, const std::vector<std::uint8_t>& flags, select_mode m,
                        scan_options options) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  const bool pred = by_predicate(m);
  const bool split = m == select_mode::split_flagged || m == select_mode::split_if;
  const bool indices = m == select_mode::indices_flagged || m == select_mode::indices_if;
  const bool in_place = m == select_mode::select_in_place;
  const bool padded = m == select_mode::padded_flagged || m == select_mode::padded_if;
  std::vector<T> in = values;
  if (pred)
    for (std::int64_t i = 0; i < n; ++i)
      if (!flags[i]) in[i] = T(0);
  auto keep = [&](std::size_t i) { return flags[i] != 0; };
  std::int64_t ref_kept = 0;
  std::vector<T> ref = split ? cpu_partition(in, keep, ref_kept) : cpu_select(in, keep);
  std::vector<std::int64_t> ref_idx;
  for (std::int64_t i = 0; i < n; ++i)
    if (flags[i]) ref_idx.push_back(i);
  if (!split) ref_kept = static_cast<std::int64_t>(ref_idx.size());
  if (padded) ref.resize(static_cast<std::size_t>(n), padded_fill<T>());

  device_buffer<T> d_in_store(n + 1), d_out_store(n + 2);
  device_buffer<std::int64_t> d_idx(n + 1), d_count(1);
  device_buffer<std::uint8_t> d_flags(n);
  T* d_in = d_in_store.data() + 1;  // misaligned by one element
  PARASCAN_CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  d_flags.copy_from_host(flags.data(), n);
  d_out_store.poison(0x5A);
  d_idx.poison(0x5A);
  d_count.poison();
  T* d_out = in_place ? d_in : d_out_store.data();
  options.debug_synchronous = true;
  const keep_rule<T> rule;
  run_two_phase([&](void* t, std::size_t& b) -> cudaError_t {
    switch (m) {
      case select_mode::select_flagged: return select_flagged(t, b, d_in, d_flags.data(), d_out, d_count.data(), n, 0, options);
      case select_mode::select_if:
      case select_mode::select_in_place: return select_if(t, b, d_in, d_out, d_count.data(), n, rule, 0, options);
      case select_mode::split_flagged: return partition_flagged(t, b, d_in, d_flags.data(), d_out, d_count.data(), n, 0, options);
      case select_mode::split_if: return partition_if(t, b, d_in, d_out, d_count.data(), n, rule, 0, options);
      case select_mode::indices_flagged: return select_flagged_indices(t, b, d_flags.data(), d_idx.data(), d_count.data(), n, 0, options);
      case select_mode::indices_if: return select_if_indices(t, b, d_in, d_idx.data(), d_count.data(), n, rule, 0, options);
      case select_mode::padded_flagged:
        return select_flagged_padded(t, b, d_in, d_flags.data(), d_out, d_count.data(), n, padded_fill<T>(), 0, options);
      case select_mode::padded_if: return select_if_padded(t, b, d_in, d_out, d_count.data(), n, rule, padded_fill<T>(), 0, options);
    }
    return cudaErrorInvalidValue;
  }, 0);
  std::int64_t kept = -1;
  d_count.copy_to_host(&kept, 1);
  comparison c;
  if (kept != ref_kept) {
    c.mismatches = 1;
    c.detail = "count " + std::to_string(kept) + ", expected " + std::to_string(ref_kept);
    return c;
  }
  if (indices) {
    std::vector<std::int64_t> got(kept + 1);
    d_idx.copy_to_host(got.data(), got.size());
    c = compare_exact(got.data(), ref_idx.data(), kept);
    std::int64_t guard;
    std::memset(&guard, 0x5A, sizeof guard);
    if (c.ok() && got[kept] != guard) c.mismatches = 1, c.detail = "wrote past the last position";
    return c;
  }
  const std::int64_t out_n = split || padded ? n : kept;
  std::vector<T> got(out_n + (in_place ? 0 : 1));
  PARASCAN_CUDA_CHECK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  c = compare_exact(got.data(), ref.data(), out_n);
  if (c.ok() && !in_place) {
    T guard;
    std::memset(&guard, 0x5A, sizeof(T));
    if (std::memcmp(&got[out_n], &guard, sizeof(T)) != 0) c.mismatches = 1, c.detail = "wrote past the end of the output";
  }
  if (c.ok() && pred && !split) {  // CUB's DeviceSelect::If keeps the same number
    device_buffer<T> cub_out(n);
    device_buffer<std::int64_t> cub_count(1);
    run_two_phase([&](void* t, std::size_t& b) { return cub_select_if(t, b, d_in_store.data() + 1, cub_out.data(), cub_count.data(), n, rule); }, 0);
    std::int64_t ck = -1;
    cub_count.copy_to_host(&ck, 1);
    if (!in_place && ck != kept) c.mismatches = 1, c.detail = "CUB keeps " + std::to_string(ck);
  }
  return c;
}

}  // namespace parascan::validation
