// radix_sort --topk (topk.hpp).
#include "topk.hpp"
#include <climits>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include "../common/array_io.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/report.hpp"
#include "dtype.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/topk.hpp"
#include "parascan/validation/segmented_sort_check.hpp"

namespace parascan::app {

topk_run topk_args(std::int64_t keys, std::int64_t rows, std::int64_t k, bool smallest, bool other_options) {
  if (rows < 0) rows = 1;
  if (rows < 1) throw input_error("--rows " + std::to_string(rows) + ": at least one row");
  if (keys % rows != 0)
    throw input_error("--rows " + std::to_string(rows) + ": " + std::to_string(keys) + " keys do not split into rows of equal length");
  if (k > keys / rows)
    throw input_error("--topk " + std::to_string(k) + ": more than the " + std::to_string(keys / rows) + " keys of a row");
  if (other_options)
    throw input_error("--topk takes --rows, --smallest, -o and --values-out (the positions) only: no --values, --argsort, "
                      "--bits/--begin-bit, --descending, --algorithm, --device-memory-limit or --gpus");
  return {rows, k, smallest};
}

template <class Key>
int run_topk(const topk_run& r, const std::vector<Key>& h_keys, const common_options& c, const std::string& values_out,
             const std::string& input_name) {
  const std::int64_t n = static_cast<std::int64_t>(h_keys.size()), length = n / r.rows, m = r.rows * r.k;
  device_buffer<Key> d_keys(n), d_out(m);
  device_buffer<std::int64_t> d_at(m);
  d_keys.copy_from_host(h_keys.data(), n);
  topk_options o;
  o.largest = !r.smallest;
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(topk(nullptr, bytes, d_keys.data(), r.rows, length, r.k, d_out.data(), d_at.data(), o));
  device_buffer<char> temp(bytes);

  // CUB 3.0.1 has no top-k: a CUB user sorts the whole rows (DeviceSegmentedSort) and keeps K of each.
  std::vector<std::int64_t> begin(static_cast<std::size_t>(r.rows)), end(static_cast<std::size_t>(r.rows));
  for (std::int64_t s = 0; s < r.rows; ++s) {
    begin[s] = s * length;
    end[s] = (s + 1) * length;
  }
  std::string no_cub;
  if (!std::is_same_v<Key, float>) no_cub = "CUB 3.0.1 has no top-k; its segmented-sort yardstick is built for f32 keys";
  else if (n > INT_MAX) no_cub = "over 2^31 keys";
  const validation::cub_segment_bounds bounds(begin, end);
  device_buffer<Key> d_sorted(no_cub.empty() ? n : 0);  // CUB's sorted rows
  std::size_t cub_bytes = 0;
  const auto cub = [&](void* t, std::size_t& b, validation::cub_count form) -> cudaError_t {
    if constexpr (std::is_same_v<Key, float>) {
      const auto* none = static_cast<const std::uint32_t*>(nullptr);
      auto* no_out = static_cast<std::uint32_t*>(nullptr);
      return bounds.sort(t, b, d_keys.data(), d_sorted.data(), none, no_out, n, !r.smallest,
                         validation::cub_segmented::stable_sort, form);
    } else {
      (void)t, (void)b, (void)form;
      return cudaErrorNotSupported;
    }
  };
  if (no_cub.empty()) cub_bytes = cub_temp_bytes(cub);
  device_buffer<char> cub_temp(cub_bytes);
  d_out.poison();
  d_at.poison();
  const timed_beside_cub t = time_beside_cub(
      c.repeat, [&] { PARASCAN_CUDA_CHECK(topk(temp.data(), bytes, d_keys.data(), r.rows, length, r.k, d_out.data(), d_at.data(), o)); },
      [&](validation::cub_count form) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, form)); },
      "CUB DeviceSegmentedSort of the whole rows", no_cub);
  std::vector<Key> got(static_cast<std::size_t>(m));
  std::vector<std::int64_t> got_at(static_cast<std::size_t>(m));
  d_out.copy_to_host(got.data(), m);
  d_at.copy_to_host(got_at.data(), m);

  std::string verdict = "not checked (--validate compares every row with a CPU stable sort)";
  if (c.validate || n <= (std::int64_t(1) << 22)) {
    const auto order = validation::cpu_segmented_order(h_keys, begin, end, 0, static_cast<int>(8 * sizeof(Key)), !r.smallest);
    std::int64_t bad = 0, first = -1;
    for (std::int64_t s = 0; s < r.rows; ++s)
      for (std::int64_t j = 0; j < r.k; ++j) {
        const std::int64_t at = order[begin[s] + j], i = s * r.k + j;
        const bool ok = got_at[i] == at && std::memcmp(&got[i], &h_keys[begin[s] + at], sizeof(Key)) == 0;
        if (!ok && bad++ == 0) first = i;
      }
    if (bad)
      throw mismatch_error("validation FAILED: " + std::to_string(bad) + " of the top " + std::to_string(r.k) +
                           " differ from a CPU stable sort of their row; first at " + std::to_string(first));
    verdict = "PASS (each row's top " + std::to_string(r.k) + " and positions match a CPU stable sort of the row)";
  }
  if (!c.output.empty()) write_array(c.output, dtype_of<Key>(), got.data(), m);
  if (!values_out.empty()) write_array(values_out, dtype::i64, got_at.data(), m);
  const double bytes_moved = static_cast<double>(n) * sizeof(Key) + static_cast<double>(m) * (sizeof(Key) + 8.0);
  if (!c.quiet) {
    std::printf("radix_sort: top %lld of %lld rows of %lld %s keys (%s), %s first\n", static_cast<long long>(r.k),
                static_cast<long long>(r.rows), static_cast<long long>(length),
                std::string(to_string(dtype_of<Key>())).c_str(), input_name.c_str(), r.smallest ? "smallest" : "largest");
    std::printf("%s\n", time_line(t, static_cast<double>(n), "keys", bytes_moved, " of one read of the keys").c_str());
    std::printf("validation: %s\n", verdict.c_str());
  }
  if (!c.json.empty()) {
    json_object j;
    j.add("tool", "radix_sort").add("mode", "topk").add("n", n).add("rows", r.rows).add("k", r.k)
        .add("type", std::string(to_string(dtype_of<Key>()))).add("largest", !r.smallest);
    add_times(j, t, static_cast<double>(n), "keys", bytes_moved);
    j.add("validation", verdict);
    write_json(c.json, j.str());
  }
  return exit_ok;
}

#define PARASCAN_RUN_TOPK(K)                                                                                   \
  template int run_topk<K>(const topk_run&, const std::vector<K>&, const common_options&, const std::string&, \
                           const std::string&);
PARASCAN_RUN_TOPK(std::int8_t)
PARASCAN_RUN_TOPK(std::uint8_t)
PARASCAN_RUN_TOPK(std::int16_t)
PARASCAN_RUN_TOPK(std::uint16_t)
PARASCAN_RUN_TOPK(std::int32_t)
PARASCAN_RUN_TOPK(std::uint32_t)
PARASCAN_RUN_TOPK(std::int64_t)
PARASCAN_RUN_TOPK(std::uint64_t)
PARASCAN_RUN_TOPK(float)
PARASCAN_RUN_TOPK(double)

}  // namespace parascan::app
