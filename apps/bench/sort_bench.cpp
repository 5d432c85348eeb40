// bench --primitive sort (see sort_bench.hpp). Traffic counted for a row: the floor of an LSD sort
// with 8-bit digits — the keys read once for the counts, then per digit pass the keys (and values)
// read and written once; argsort reads no values on its first pass.
#include "sort_bench.hpp"
#include <cstdio>
#include <string>
#include <type_traits>
#include "../common/timing.hpp"
#include "runner.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "parascan/validation/sort_check.hpp"

namespace parascan::app {
namespace {

using validation::sort_input;

template <class T>
const char* name_of() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return "u8";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "u16";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "u32";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "u64";
  else if constexpr (std::is_same_v<T, float>) return "f32";
  else return "f64";
}
const char* name_of(sort_input d) {
  switch (d) {
    case sort_input::uniform: return "uniform";
    case sort_input::few_distinct: return "few_distinct";
    case sort_input::sorted: return "sorted";
    case sort_input::all_equal: return "all_equal";
    case sort_input::runs: return "runs64";
  }
  return "?";
}

std::int64_t differences(const void* a, const void* b, std::size_t bytes) {
  std::int64_t diff = 0;
  PARASCAN_CUDA_CHECK(validation::count_word_differences(static_cast<const std::uint32_t*>(a),
                                                         static_cast<const std::uint32_t*>(b), bytes / 4, diff));
  return diff;
}

enum class mode { keys, pairs, argsort };

/// One case: Value is the value type of pairs and argsort (argsort: std::uint32_t indices, or
/// std::uint64_t positions, labelled argsort-u64, as torch and Python users get them).
template <class Key, class Value, mode Mode>
void run_case(std::int64_t n, sort_input dist, const sort_bench_options& o, const std::function<void(const row&)>& add) {
  constexpr bool has_values = Mode != mode::keys;
  const std::size_t kb = static_cast<std::size_t>(n) * sizeof(Key), vb = has_values ? static_cast<std::size_t>(n) * sizeof(Value) : 0;
  std::string label = Mode == mode::keys    ? std::string("keys")
                      : Mode == mode::pairs ? std::string("pairs-") + name_of<Value>()
                      : sizeof(Value) == 8  ? std::string("argsort-") + name_of<Value>()
                                            : std::string("argsort");
  label += std::string("/") + name_of(dist);
  if (!o.filter.empty() && (std::string(name_of<Key>()) + " " + label).find(o.filter) == std::string::npos) return;
  std::size_t free_bytes = 0, total = 0;
  PARASCAN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  if (5.0 * (kb + vb) > 0.92 * free_bytes) {  // inputs, ours, CUB's, and each sort's second buffers
    std::printf("sort    %-4s 2^%-3d %-16s skipped: needs %.1f GB, %.1f GB free\n", name_of<Key>(), bench_log2(n),
                label.c_str(), 5.0 * (kb + vb) / 1e9, free_bytes / 1e9);
    return;
  }
  device_buffer<Key> in(n), out(n), ref(n);
  device_buffer<Value> vin(has_values ? n : 0), vout(has_values ? n : 0), vref(has_values ? n : 0);
  PARASCAN_CUDA_CHECK(validation::fill_sort_keys(in.data(), n, dist, 17 + n));
  if constexpr (Mode == mode::pairs)
    PARASCAN_CUDA_CHECK(validation::fill_random_words(reinterpret_cast<std::uint32_t*>(vin.data()), vb / 4, 29 + n));
  if constexpr (Mode == mode::argsort) PARASCAN_CUDA_CHECK(validation::fill_indices(vin.data(), n));
  const double copy_ms = median_ms(o.repeat, [&] { PARASCAN_CUDA_CHECK(validation::device_copy(out.data(), in.data(), kb)); });
  const double copy_gbs = 2.0 * kb / (copy_ms * 1e-3) / 1e9;
  const int passes = static_cast<int>(sizeof(Key));
  const double bytes = static_cast<double>(kb) + passes * 2.0 * (kb + vb) - (Mode == mode::argsort ? vb : 0);

  // CUB as a user calls it (SortPairs with the index array for argsort), with each count form.
  const auto cub = [&](void* temp, std::size_t& cub_bytes, validation::cub_count c) {
    if constexpr (has_values)
      return validation::cub_sort_pairs(temp, cub_bytes, in.data(), ref.data(), vin.data(), vref.data(), n, 0,
                                        8 * sizeof(Key), false, 0, c);
    else
      return validation::cub_sort_keys(temp, cub_bytes, in.data(), ref.data(), n, 0, 8 * sizeof(Key), false, 0, c);
  };
  cub_times cub_t;
  {
    std::size_t cub_bytes = cub_temp_bytes(cub);
    device_buffer<char> cub_temp(cub_bytes);
    cub_t = time_cub_both(o.repeat, [&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); });
  }
  const double cub_ms = cub_t.best_ms();
  add(with_cub({"sort", name_of<Key>(), "CUB", label, n, bytes, cub_ms, cub_ms, copy_gbs, true, passes}, cub_t));

  const bool split_too = o.every_algorithm || (std::is_same_v<Key, std::uint32_t> && Mode == mode::keys &&
                                               (dist == sort_input::uniform || dist == sort_input::few_distinct));
  for (sort_algorithm alg : {sort_algorithm::onesweep, sort_algorithm::split8, sort_algorithm::split4, sort_algorithm::split1}) {
    if (alg != sort_algorithm::onesweep && !split_too) continue;
    sort_options so;
    so.algorithm = alg;
    std::size_t b = 0;
    const Value* values_in = Mode == mode::argsort ? nullptr : vin.data();
    const auto ours = [&](void* temp) {
      if constexpr (has_values) return radix_sort_pairs(temp, b, in.data(), out.data(), values_in, vout.data(), n, so);
      else return radix_sort_keys(temp, b, in.data(), out.data(), n, so);
    };
    PARASCAN_CUDA_CHECK(ours(nullptr));
    device_buffer<char> temp(b);
    const double ms = median_ms(o.repeat, [&] { PARASCAN_CUDA_CHECK(ours(temp.data())); });
    out.poison();
    vout.poison();
    PARASCAN_CUDA_CHECK(ours(temp.data()));
    const bool ok = differences(out.data(), ref.data(), kb) == 0 && (!has_values || differences(vout.data(), vref.data(), vb) == 0);
    add(with_cub({"sort", name_of<Key>(), std::string(to_string(alg)), label, n, bytes, ms, cub_ms, copy_gbs, ok, passes}, cub_t));
  }
}

template <class Key>
void key_cases(std::int64_t n, const sort_bench_options& o, const std::function<void(const row&)>& add) {
  for (sort_input d :
       {sort_input::uniform, sort_input::few_distinct, sort_input::sorted, sort_input::all_equal, sort_input::runs})
    run_case<Key, std::uint32_t, mode::keys>(n, d, o, add);
}

}  // namespace

void bench_sort(std::int64_t n, const sort_bench_options& o, const std::function<void(const row&)>& add) {
  key_cases<std::uint32_t>(n, o, add);
  key_cases<float>(n, o, add);
  key_cases<std::uint64_t>(n, o, add);
  key_cases<std::uint8_t>(n, o, add);
  key_cases<std::uint16_t>(n, o, add);
  key_cases<double>(n, o, add);
  run_case<std::uint32_t, std::uint32_t, mode::pairs>(n, sort_input::uniform, o, add);
  run_case<std::uint32_t, std::uint32_t, mode::pairs>(n, sort_input::few_distinct, o, add);
  run_case<float, std::uint32_t, mode::pairs>(n, sort_input::uniform, o, add);
  run_case<std::uint32_t, std::uint64_t, mode::pairs>(n, sort_input::uniform, o, add);
  run_case<std::uint64_t, std::uint32_t, mode::pairs>(n, sort_input::uniform, o, add);
  run_case<std::uint64_t, std::uint64_t, mode::pairs>(n, sort_input::uniform, o, add);
  for (sort_input d : {sort_input::uniform, sort_input::few_distinct}) {
    run_case<std::uint32_t, std::uint32_t, mode::argsort>(n, d, o, add);
    run_case<std::uint32_t, std::uint64_t, mode::argsort>(n, d, o, add);
    run_case<float, std::uint32_t, mode::argsort>(n, d, o, add);
    run_case<std::uint64_t, std::uint32_t, mode::argsort>(n, d, o, add);
  }
}

}  // namespace parascan::app
