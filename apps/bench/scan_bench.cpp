// bench --primitive scan: the u32 exclusive sum, every block algorithm × device strategy, and the
// default scan of u64 and f32, each beside cub::DeviceScan and checked word for word against it.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "runner.hpp"
#include "parascan/scan.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "parascan/validation/device_check.hpp"

namespace parascan::app {
namespace {

void scan_u32(runner& r, std::int64_t n) {
  const int rot = r.rotations(8.0 * n);
  device_buffer<std::uint32_t> in(static_cast<std::size_t>(n) * rot), out(n), ref(n);
  PARASCAN_CUDA_CHECK(validation::fill_random_words(in.data(), in.size(), 1234 + n));
  int turn = 0;
  auto next_in = [&] { return in.data() + static_cast<std::size_t>(n) * (turn++ % rot); };
  const double copy = r.copy_gbs(in.data(), out.data(), n * sizeof(std::uint32_t));
  const auto cub = [&](void* t, std::size_t& b, validation::cub_count c, const std::uint32_t* from) {
    return validation::cub_exclusive_scan(t, b, from, ref.data(), n, sum{}, 0u, 0, c);
  };
  std::size_t cub_bytes = cub_temp_bytes([&](void* t, std::size_t& b, validation::cub_count c) { return cub(t, b, c, in.data()); });
  device_buffer<char> cub_temp(cub_bytes);
  const cub_times cub_t = r.time_cub([&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c, next_in())); });
  const double cub_ms = cub_t.best_ms();
  PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, cub_t.best(), in.data()));
  const double bytes = 8.0 * n;
  r.add(with_cub({"scan", "u32", "CUB", "DeviceScan", n, bytes, cub_ms, cub_ms, copy, true}, cub_t));
  for (auto alg : all_block_algorithms) {
    for (auto strat : all_device_strategies) {
      if (!r.wanted(std::string(to_string(alg)) + "/" + std::string(to_string(strat)))) continue;
      scan_options o{alg, strat, false};
      std::size_t b = 0;
      PARASCAN_CUDA_CHECK(exclusive_scan(nullptr, b, in.data(), out.data(), n, sum{}, 0u, 0, o));
      device_buffer<char> temp(b);
      const double ms = r.time([&] { PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, next_in(), out.data(), n, sum{}, 0u, 0, o)); });
      out.poison();
      PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, in.data(), out.data(), n, sum{}, 0u, 0, o));
      std::int64_t diff = 0;
      PARASCAN_CUDA_CHECK(validation::count_word_differences(out.data(), ref.data(), n, diff));
      r.add(with_cub({"scan", "u32", std::string(to_string(alg)), std::string(to_string(strat)), n, bytes, ms, cub_ms, copy,
                      diff == 0}, cub_t));
    }
  }
}

/// The default scan (warp_shuffle / single_pass) of u64 or f32 beside CUB. f32 inputs are 0 or 1
/// (one in 64) so that every sum is exact and both can be checked word for word.
template <class T>
void scan_type(runner& r, std::int64_t n) {
  if (!r.wanted("warp_shuffle/single_pass")) return;
  const int rot = r.rotations(2.0 * sizeof(T) * n);
  device_buffer<T> in(static_cast<std::size_t>(n) * rot), out(n), ref(n);
  if constexpr (std::is_same_v<T, float>)
    PARASCAN_CUDA_CHECK(validation::fill_sparse_ones(in.data(), in.size(), 99 + n));
  else
    PARASCAN_CUDA_CHECK(validation::fill_random_words(reinterpret_cast<std::uint32_t*>(in.data()),
                                                      in.size() * sizeof(T) / 4, 99 + n));
  int turn = 0;
  auto next_in = [&] { return in.data() + static_cast<std::size_t>(n) * (turn++ % rot); };
  const double copy = r.copy_gbs(in.data(), out.data(), n * sizeof(T));
  const auto cub = [&](void* t, std::size_t& bytes, validation::cub_count c, const T* from) {
    return validation::cub_exclusive_scan(t, bytes, from, ref.data(), n, sum{}, T(0), 0, c);
  };
  std::size_t b = 0, cub_bytes = cub_temp_bytes([&](void* t, std::size_t& bytes, validation::cub_count c) {
    return cub(t, bytes, c, in.data());
  });
  device_buffer<char> cub_temp(cub_bytes);
  const cub_times cub_t = r.time_cub([&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c, next_in())); });
  const double cub_ms = cub_t.best_ms();
  PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, cub_t.best(), in.data()));
  PARASCAN_CUDA_CHECK(exclusive_scan(nullptr, b, in.data(), out.data(), n, sum{}, T(0)));
  device_buffer<char> temp(b);
  const double ms = r.time([&] { PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, next_in(), out.data(), n, sum{}, T(0))); });
  out.poison();
  PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), b, in.data(), out.data(), n, sum{}, T(0)));
  std::int64_t diff = 0;
  PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<const std::uint32_t*>(out.data()),
                                                         reinterpret_cast<const std::uint32_t*>(ref.data()),
                                                         static_cast<std::size_t>(n) * sizeof(T) / 4, diff));
  const std::string type = std::is_same_v<T, float> ? "f32" : "u64";
  const double bytes = 2.0 * sizeof(T) * n;
  r.add(with_cub({"scan", type, "CUB", "DeviceScan", n, bytes, cub_ms, cub_ms, copy, true}, cub_t));
  r.add(with_cub({"scan", type, "warp_shuffle", "single_pass", n, bytes, ms, cub_ms, copy, diff == 0}, cub_t));
}

}  // namespace

void bench_scan(runner& r, std::int64_t n) {
  scan_u32(r, n);
  if (n <= (std::int64_t(1) << 29) || r.device().global_memory_bytes > 40e9) {
    scan_type<std::uint64_t>(r, n);
    scan_type<float>(r, n);
  }
}

}  // namespace parascan::app
