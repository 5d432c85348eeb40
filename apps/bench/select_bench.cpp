// bench --primitive select: select_if keeping 10%, 50% and 90% of u32 and u64 items beside
// cub::DeviceSelect::If, each output checked against CUB's. Ours takes the rule as the tools and Python
// pass it (keep_rule: its kind chosen at run time); CUB takes it as a compile-time functor (x < bound),
// its faster form.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "runner.hpp"
#include "parascan/select.hpp"
#include "parascan/validation/cub_select.hpp"
#include "parascan/validation/device_check.hpp"

namespace parascan::app {
namespace {

template <class T>
void select_case(runner& r, std::int64_t n, int percent_kept) {
  const double in_bytes = static_cast<double>(n) * sizeof(T);
  const int rot = r.rotations(2 * in_bytes);
  device_buffer<T> in(static_cast<std::size_t>(n) * rot), out(n), ref(n);
  PARASCAN_CUDA_CHECK(validation::fill_random_words(reinterpret_cast<std::uint32_t*>(in.data()), in.bytes() / 4, 99 + n));
  device_buffer<std::int64_t> count(1), ref_count(1);
  int turn = 0;
  auto next_in = [&] { return in.data() + static_cast<std::size_t>(n) * (turn++ % rot); };
  // Uniform random words: keep x < percent% of the range.
  keep_rule<T> rule{keep_kind::lt, static_cast<T>(static_cast<double>(static_cast<T>(~T(0))) * percent_kept / 100.0)};
  const double copy = r.copy_gbs(in.data(), out.data(), static_cast<std::size_t>(in_bytes));
  const auto cub = [&](void* t, std::size_t& b, validation::cub_count c, const T* from) {
    return validation::cub_select_less(t, b, from, ref.data(), ref_count.data(), n, rule.value, 0, c);
  };
  std::size_t our_bytes = 0, cub_bytes = cub_temp_bytes([&](void* t, std::size_t& b, validation::cub_count c) {
    return cub(t, b, c, in.data());
  });
  PARASCAN_CUDA_CHECK(select_if(nullptr, our_bytes, in.data(), out.data(), count.data(), n, rule));
  device_buffer<char> cub_temp(cub_bytes), our_temp(our_bytes);
  const cub_times cub_t = r.time_cub([&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c, next_in())); });
  const double cub_ms = cub_t.best_ms();
  const double ms = r.time([&] {
    PARASCAN_CUDA_CHECK(select_if(our_temp.data(), our_bytes, next_in(), out.data(), count.data(), n, rule));
  });
  PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, cub_t.best(), in.data()));
  out.poison();
  PARASCAN_CUDA_CHECK(select_if(our_temp.data(), our_bytes, in.data(), out.data(), count.data(), n, rule));
  std::int64_t kept = 0, ref_kept = 0, diff = 0;
  count.copy_to_host(&kept, 1);
  ref_count.copy_to_host(&ref_kept, 1);
  PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<std::uint32_t*>(out.data()),
                                                         reinterpret_cast<std::uint32_t*>(ref.data()),
                                                         static_cast<std::size_t>(kept) * sizeof(T) / 4, diff));
  const double bytes = in_bytes + static_cast<double>(kept) * sizeof(T);
  const std::string type = sizeof(T) == 4 ? "u32" : "u64";
  const std::string variant = "keep " + std::to_string(percent_kept) + "%";
  r.add(with_cub({"select", type, "CUB", "DeviceSelect::If " + std::to_string(percent_kept) + "%", n, bytes, cub_ms, cub_ms,
                  copy, true}, cub_t));
  r.add(with_cub({"select", type, "parascan", variant, n, bytes, ms, cub_ms, copy, diff == 0 && kept == ref_kept}, cub_t));
}

}  // namespace

void bench_select(runner& r, std::int64_t n) {
  for (int pct : {10, 50, 90}) select_case<std::uint32_t>(r, n, pct);
  if (n <= (std::int64_t(1) << 29) || r.device().global_memory_bytes > 60e9)
    for (int pct : {10, 50, 90}) select_case<std::uint64_t>(r, n, pct);
}

}  // namespace parascan::app
