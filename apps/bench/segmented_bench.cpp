// bench --primitive segmented: the segmented sort of f32 keys (keys, and argsort with 4-byte
// positions) on batches of rows and on ragged segments, beside CUB's two segmented sorts
// (DeviceSegmentedSort, stable; DeviceSegmentedRadixSort), each timed with `int` and with
// std::int64_t offsets. The ratio divides by the fastest of those four CUB calls; every output is
// compared word for word with DeviceSegmentedSort's. Traffic counted: keys (and positions) written
// once and keys read once.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/segmented_sort.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "parascan/validation/segmented_sort_check.hpp"
#include "runner.hpp"

namespace parascan::app {
namespace {

struct shape {
  std::string name;
  std::int64_t rows = -1, length = 0;  // rows ≥ 0: a batch
  std::vector<std::int64_t> lengths;   // else ragged segments of these lengths
};

/// 2^20 segments with truncated Pareto lengths (α = 1.1) in 1 .. 2^16: mostly a few items, a long
/// tail of long ones (about 7.7 million items in all).
shape ragged_power_law() {
  shape s{"2^20 ragged 1..2^16", -1, 0, {}};
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < (1 << 20); ++i) {
    const double len = std::floor(std::pow(1.0 - u(rng), -1.0 / 1.1));
    s.lengths.push_back(static_cast<std::int64_t>(len < 65536.0 ? len : 65536.0));
  }
  return s;
}

void segmented_case(runner& r, const shape& sh, bool argsort) {
  const std::string variant = sh.name + (argsort ? " argsort" : " keys");
  if (!r.wanted(variant)) return;
  std::vector<std::int64_t> begin, end;
  std::int64_t n = 0;
  if (sh.rows >= 0) {
    n = sh.rows * sh.length;
    for (std::int64_t i = 0; i < sh.rows; ++i) {
      begin.push_back(i * sh.length);
      end.push_back((i + 1) * sh.length);
    }
  } else {
    for (std::int64_t len : sh.lengths) {
      begin.push_back(n);
      end.push_back(n += len);
    }
  }
  const std::int64_t count = static_cast<std::int64_t>(begin.size());
  std::vector<std::uint32_t> positions(static_cast<std::size_t>(n));
  for (std::int64_t s = 0; s < count; ++s)
    for (std::int64_t i = begin[s]; i < end[s]; ++i) positions[i] = static_cast<std::uint32_t>(i - begin[s]);
  device_buffer<float> in(n), out(n), ref(n);
  device_buffer<std::uint32_t> pin(n), pout(n), pref(n);
  const validation::cub_segment_bounds bounds(begin, end);
  // Finite keys: CUB's DeviceSegmentedSort compares floats with `<` in its small segments and by
  // bits in its large ones, so NaNs would make it disagree with itself (docs/performance.md).
  std::vector<float> keys(static_cast<std::size_t>(n));
  std::mt19937 rng(77 + static_cast<unsigned>(n));
  std::uniform_real_distribution<float> uniform(-1e6f, 1e6f);
  for (float& k : keys) k = uniform(rng);
  in.copy_from_host(keys.data(), n);
  pin.copy_from_host(positions.data(), n);
  const double copy = r.copy_gbs(in.data(), out.data(), n * sizeof(float));
  const double bytes = 2.0 * n * sizeof(float) + (argsort ? 4.0 * n : 0.0);
  const std::uint32_t* values_in = argsort ? pin.data() : nullptr;

  // CUB: each algorithm with `int` (cub_count::int32) and std::int64_t (int64) offsets.
  cub_times best{1e30, 1e30};
  for (const auto which : {validation::cub_segmented::stable_sort, validation::cub_segmented::radix_sort}) {
    const auto cub = [&](void* t, std::size_t& b, validation::cub_count c) {
      return bounds.sort(t, b, in.data(), ref.data(), values_in, pref.data(), n, false, which, c);
    };
    std::size_t cub_bytes = cub_temp_bytes(cub);
    device_buffer<char> temp(cub_bytes);
    const cub_times t = r.time_cub([&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(temp.data(), cub_bytes, c)); });
    r.add(with_cub({"segsort", "f32", std::string("CUB ") + to_string(which), variant, n, bytes, t.best_ms(), t.best_ms(), copy,
                    true},
                   t));
    if (t.best_ms() < best.best_ms()) best = t;
  }
  // The reference output: DeviceSegmentedSort (stable), run last on its own.
  {
    const auto ref_call = [&](void* t, std::size_t& b) {
      return bounds.sort(t, b, in.data(), ref.data(), values_in, pref.data(), n, false,
                         validation::cub_segmented::stable_sort, validation::cub_count::int64);
    };
    std::size_t b = 0;
    PARASCAN_CUDA_CHECK(ref_call(nullptr, b));
    device_buffer<char> temp(b);
    PARASCAN_CUDA_CHECK(ref_call(temp.data(), b));
  }
  const segment_layout layout = sh.rows >= 0 ? segment_layout::rows(sh.rows, sh.length)
                                             : segment_layout::offsets(count, bounds.begin64(), bounds.end64());
  const auto ours = [&](void* t, std::size_t& b) {
    return argsort ? segmented_argsort(t, b, in.data(), out.data(), pout.data(), n, layout)
                   : segmented_sort_keys(t, b, in.data(), out.data(), n, layout);
  };
  std::size_t b = 0;
  PARASCAN_CUDA_CHECK(ours(nullptr, b));
  device_buffer<char> temp(b);
  const double ms = r.time([&] { PARASCAN_CUDA_CHECK(ours(temp.data(), b)); });
  out.poison();
  pout.poison();
  PARASCAN_CUDA_CHECK(ours(temp.data(), b));
  std::int64_t diff = 0, pdiff = 0;
  PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<const std::uint32_t*>(out.data()),
                                                         reinterpret_cast<const std::uint32_t*>(ref.data()), n, diff));
  if (argsort) PARASCAN_CUDA_CHECK(validation::count_word_differences(pout.data(), pref.data(), n, pdiff));
  r.add(with_cub({"segsort", "f32", "parascan", variant, n, bytes, ms, best.best_ms(), copy, diff == 0 && pdiff == 0}, best));
}

}  // namespace

void bench_segmented(runner& r) {
  const std::vector<shape> shapes = {{"1x2^24", 1, 1 << 24, {}},         {"8x2^20", 8, 1 << 20, {}},
                                     {"64x50257", 64, 50257, {}},         {"256x128256", 256, 128256, {}},
                                     {"2^16x256", 1 << 16, 256, {}},      {"2^20x16", 1 << 20, 16, {}},
                                     ragged_power_law()};
  for (const shape& s : shapes)
    for (bool argsort : {false, true}) segmented_case(r, s, argsort);
}

}  // namespace parascan::app
