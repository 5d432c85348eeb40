// radix_sort --segments / --rows (segmented.hpp).
#include "segmented.hpp"
#include <climits>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/report.hpp"
#include "dtype.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/validation/segmented_sort_check.hpp"

namespace parascan::app {

segments_spec read_segments(const std::string& file, std::int64_t rows, std::int64_t n) {
  segments_spec s;
  if (file.empty()) {
    if (rows < 1) throw input_error("--rows " + std::to_string(rows) + ": at least one row");
    if (n % rows != 0)
      throw input_error("--rows " + std::to_string(rows) + ": " + std::to_string(n) + " keys do not split into rows of equal length");
    s.rows = rows;
    s.length = n / rows;
    return s;
  }
  const host_array a = read_array(file, dtype::i64, false);
  if (is_float(a.type)) throw input_error(file + ": offsets must be integers, not " + std::string(to_string(a.type)));
  if (a.npy && a.shape.size() != 1)
    throw input_error(file + ": offsets must be a 1-D array, not " + std::to_string(a.shape.size()) + "-D");
  if (a.count < 1) throw input_error(file + ": holds no offsets (segments + 1 are needed, the first 0 and the last " + std::to_string(n) + ")");
  s.offsets.resize(static_cast<std::size_t>(a.count));
  visit_dtype(a.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::int64_t i = 0; i < a.count; ++i) s.offsets[i] = static_cast<std::int64_t>(a.as<T>()[i]);
  });
  if (s.offsets.front() != 0 || s.offsets.back() != n)
    throw input_error(file + ": the offsets must run from 0 to the " + std::to_string(n) + " keys, not from " +
                      std::to_string(s.offsets.front()) + " to " + std::to_string(s.offsets.back()));
  for (std::size_t i = 1; i < s.offsets.size(); ++i)
    if (s.offsets[i] < s.offsets[i - 1])
      throw input_error(file + ": offset " + std::to_string(i) + " (" + std::to_string(s.offsets[i]) +
                        ") is smaller than the one before (" + std::to_string(s.offsets[i - 1]) + ")");
  return s;
}

namespace {

/// Runs ours on the device: keys, argsort (8-byte positions) or pairs with 4- or 8-byte values.
template <class Key, class V>
cudaError_t ours(void* t, std::size_t& b, const Key* in, Key* out, const V* vin, V* vout, std::int64_t n, segment_layout layout,
                 const segmented_run& r) {
  if (r.what == "keys") return segmented_sort_keys(t, b, in, out, n, layout, r.options);
  return segmented_sort_pairs(t, b, in, out, r.argsort ? nullptr : vin, vout, n, layout, r.options);
}

template <class Key, class V>
int run_typed(const segments_spec& seg, const std::vector<Key>& h_keys, const segmented_run& r, const common_options& c,
              const std::string& values_out, const std::string& input_name) {
  const std::int64_t n = static_cast<std::int64_t>(h_keys.size()), count = seg.count();
  const bool has_values = r.what != "keys";
  std::vector<std::int64_t> begin(static_cast<std::size_t>(count)), end(static_cast<std::size_t>(count));
  for (std::int64_t s = 0; s < count; ++s) {
    begin[s] = seg.begin_of(s);
    end[s] = seg.end_of(s);
  }
  device_buffer<Key> d_keys(n), d_out(n), d_cub(n);
  device_buffer<V> d_vin(r.values ? n : 0), d_vout(has_values ? n : 0);
  const validation::cub_segment_bounds bounds(begin, end);  // ours reads the int64 ones
  d_keys.copy_from_host(h_keys.data(), n);
  if (r.values) d_vin.copy_from_host(r.values->as<V>(), n);
  const segment_layout layout = seg.rows >= 0 ? segment_layout::rows(seg.rows, seg.length)
                                              : segment_layout::offsets(count, bounds.begin64(), bounds.end64());
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(ours(nullptr, bytes, d_keys.data(), d_out.data(), d_vin.data(), d_vout.data(), n, layout, r));
  device_buffer<char> temp(bytes);

  // CUB beside it: DeviceSegmentedSort (stable) with `int` and std::int64_t offsets, for f32 keys
  // with no values, positions or 4-byte values (the references parascan::validation instantiates).
  std::string no_cub;
  if (!std::is_same_v<Key, float>) no_cub = "the CUB reference is built for f32 keys only";
  else if (sizeof(V) != 4 && r.what == "pairs") no_cub = "the CUB reference is built for 4-byte values only";
  else if (n > INT_MAX) no_cub = "over 2^31 keys";
  device_buffer<std::uint32_t> d_cub_vin(no_cub.empty() && has_values ? n : 0), d_cub_vout(no_cub.empty() && has_values ? n : 0);
  std::size_t cub_bytes = 0;
  auto cub = [&](void* t, std::size_t& b, validation::cub_count form) -> cudaError_t {
    if constexpr (std::is_same_v<Key, float>) {
      const std::uint32_t* vin = has_values ? d_cub_vin.data() : nullptr;
      return bounds.sort(t, b, d_keys.data(), d_cub.data(), vin, d_cub_vout.data(), n, r.options.descending,
                         validation::cub_segmented::stable_sort, form);
    } else {
      (void)t, (void)b, (void)form;
      return cudaErrorNotSupported;
    }
  };
  if (no_cub.empty()) {
    if (has_values) {
      std::vector<std::uint32_t> v(static_cast<std::size_t>(n));
      for (std::int64_t s = 0; s < count; ++s)
        for (std::int64_t i = begin[s]; i < end[s]; ++i) v[i] = r.argsort ? static_cast<std::uint32_t>(i - begin[s]) : 0u;
      if (!r.argsort) std::memcpy(v.data(), r.values->bytes.data(), v.size() * sizeof(std::uint32_t));
      d_cub_vin.copy_from_host(v.data(), n);
    }
    cub_bytes = cub_temp_bytes(cub);
  }
  device_buffer<char> cub_temp(cub_bytes);
  d_out.poison();
  d_vout.poison();
  const timed_beside_cub t = time_beside_cub(
      c.repeat, [&] { PARASCAN_CUDA_CHECK(ours(temp.data(), bytes, d_keys.data(), d_out.data(), d_vin.data(), d_vout.data(), n, layout, r)); },
      [&](validation::cub_count form) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, form)); },
      "CUB DeviceSegmentedSort", no_cub);
  std::vector<Key> got(static_cast<std::size_t>(n));
  std::vector<V> got_values(has_values ? static_cast<std::size_t>(n) : 0);
  d_out.copy_to_host(got.data(), n);
  if (has_values) d_vout.copy_to_host(got_values.data(), n);

  std::string verdict = "not checked (--validate compares every segment with a CPU stable sort)";
  if (c.validate || n <= (std::int64_t(1) << 22)) {
    const int end_bit = r.options.end_bit < 0 ? static_cast<int>(8 * sizeof(Key)) : r.options.end_bit;
    const auto order = validation::cpu_segmented_order(h_keys, begin, end, r.options.begin_bit, end_bit, r.options.descending);
    std::int64_t bad = 0, first = -1;
    for (std::int64_t s = 0; s < count; ++s)
      for (std::int64_t i = begin[s]; i < end[s]; ++i) {
        const std::int64_t from = begin[s] + order[i];
        bool ok = std::memcmp(&got[i], &h_keys[from], sizeof(Key)) == 0;
        if (r.argsort) ok = ok && got_values[i] == static_cast<V>(order[i]);
        else if (r.values) ok = ok && std::memcmp(&got_values[i], r.values->as<V>() + from, sizeof(V)) == 0;
        if (!ok && bad++ == 0) first = i;
      }
    if (bad)
      throw mismatch_error("validation FAILED: " + std::to_string(bad) + " items differ from the CPU stable sort of their segment; first at " +
                           std::to_string(first));
    verdict = std::string("PASS (every segment matches a CPU stable sort") + (has_values ? ", with its " + r.what + ")" : ")");
  }
  if (!c.output.empty()) {
    if (r.argsort) {
      std::vector<std::int64_t> pos(got_values.begin(), got_values.end());
      write_array(c.output, dtype::i64, pos.data(), n);
    } else {
      write_array(c.output, dtype_of<Key>(), got.data(), n);
    }
  }
  if (!values_out.empty()) write_array(values_out, r.argsort ? dtype::u64 : r.values->type, got_values.data(), n);

  const double bytes_moved = static_cast<double>(n) * (2.0 * sizeof(Key) + (has_values ? (r.values ? 2.0 : 1.0) * sizeof(V) : 0.0));
  if (!c.quiet) {
    std::printf("radix_sort: %lld %s keys (%s) in %lld %s, %s, %s\n", static_cast<long long>(n),
                std::string(to_string(dtype_of<Key>())).c_str(), input_name.c_str(), static_cast<long long>(count),
                seg.rows >= 0 ? ("rows of " + std::to_string(seg.length)).c_str() : "segments",
                r.options.descending ? "descending" : "ascending", r.what.c_str());
    std::printf("%s\n", time_line(t, static_cast<double>(n), "keys", bytes_moved, " of one read + one write").c_str());
    std::printf("validation: %s\n", verdict.c_str());
  }
  if (!c.json.empty()) {
    json_object j;
    j.add("tool", "radix_sort").add("n", n).add("type", std::string(to_string(dtype_of<Key>()))).add("mode", r.what)
        .add("segments", count).add("descending", r.options.descending);
    if (seg.rows >= 0) j.add("row_length", seg.length);
    add_times(j, t, static_cast<double>(n), "keys", bytes_moved);
    j.add("validation", verdict);
    write_json(c.json, j.str());
  }
  return exit_ok;
}

}  // namespace

template <class Key>
int run_segmented(const segments_spec& seg, const std::vector<Key>& keys, const segmented_run& r, const common_options& c,
                  const std::string& values_out, const std::string& input_name) {
  if (r.values && size_of(r.values->type) == 4) return run_typed<Key, std::uint32_t>(seg, keys, r, c, values_out, input_name);
  return run_typed<Key, std::uint64_t>(seg, keys, r, c, values_out, input_name);
}

#define PARASCAN_RUN_SEGMENTED(K)                                                                                \
  template int run_segmented<K>(const segments_spec&, const std::vector<K>&, const segmented_run&, const common_options&, \
                                const std::string&, const std::string&);
PARASCAN_RUN_SEGMENTED(std::int8_t)
PARASCAN_RUN_SEGMENTED(std::uint8_t)
PARASCAN_RUN_SEGMENTED(std::int16_t)
PARASCAN_RUN_SEGMENTED(std::uint16_t)
PARASCAN_RUN_SEGMENTED(std::int32_t)
PARASCAN_RUN_SEGMENTED(std::uint32_t)
PARASCAN_RUN_SEGMENTED(std::int64_t)
PARASCAN_RUN_SEGMENTED(std::uint64_t)
PARASCAN_RUN_SEGMENTED(float)
PARASCAN_RUN_SEGMENTED(double)

}  // namespace parascan::app
