// radix_sort: LSD radix sort on the GPU — keys, keys with values, or the sorting permutation —
// timed beside cub::DeviceRadixSort in the same run and optionally validated against CUB and a CPU
// stable sort. With --segments or --rows, each segment (row) is sorted on its own (segmented.cpp).
// With --topk K, only the K largest of each row are kept (topk.cpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>
#include "../common/array_io.hpp"
#include "../common/cli.hpp"
#include "../common/report.hpp"
#include "../common/dtype.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/multi_gpu.hpp"
#include "../common/timing.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device_info.hpp"
#include "parascan/error.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/sort_pipeline.hpp"
#include "parascan/validation/sort_check.hpp"
#include "segmented.hpp"
#include "topk.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct sort_args {
  std::string input, values, values_out, type_name, algorithm = "onesweep", dist = "uniform";
  bool argsort = false, descending = false;
  int bits = -1, begin_bit = 0, gpus = 1;
  std::int64_t n = std::int64_t(1) << 24;
  std::uint64_t seed = 1;
  std::string memory_limit;  // --device-memory-limit
  std::string segments;      // --segments
  std::int64_t rows = -1;    // --rows
  std::int64_t topk = -1;    // --topk
  bool smallest = false;     // --smallest
  common_options common;
};

/// Generated keys: uniform bits, already sorted, reverse sorted, 16 distinct values, or all equal.
template <class Key>
std::vector<Key> generate(const sort_args& a) {
  std::mt19937_64 rng(a.seed);
  std::vector<Key> k(static_cast<std::size_t>(a.n));
  for (auto& x : k) {
    std::uint64_t r = rng();
    if (a.dist == "few_unique") r = (r % 16) * 0x9E3779B97F4A7C15ull;
    if constexpr (std::is_floating_point_v<Key>) x = static_cast<Key>((static_cast<double>(r >> 11) / 9007199254740992.0 - 0.5) * 2e6);
    else std::memcpy(&x, &r, sizeof(x));
  }
  if (a.dist == "all_equal" && !k.empty()) std::fill(k.begin(), k.end(), k[0]);
  if (a.dist == "sorted" || a.dist == "reverse") {
    std::sort(k.begin(), k.end(), [](Key p, Key q) { return validation::cpu_order_of(p) < validation::cpu_order_of(q); });
    if (a.dist == "reverse") std::reverse(k.begin(), k.end());
  }
  return k;
}

template <class V>
dtype value_dtype(const host_array* values) {
  return values ? values->type : dtype_of<V>();
}

/// The values (argsort: the permutation) against the CPU stable sort's order; throws on a mismatch.
template <class V>
void check_values(const std::vector<std::int64_t>& order, const std::vector<V>& h_values, const std::vector<V>& got_values,
                  bool have_values) {
  std::int64_t bad = 0, first = -1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::int64_t src = order[i];
    const V want_v = have_values ? h_values[static_cast<std::size_t>(src)] : static_cast<V>(src);
    if (std::memcmp(&got_values[i], &want_v, sizeof(V)) != 0 && bad++ == 0) first = static_cast<std::int64_t>(i);
  }
  if (bad) throw mismatch_error("validation FAILED: " + std::to_string(bad) + (have_values ? " values" : " indices") +
                                " differ from the CPU stable sort; first at " + std::to_string(first));
}

/// -o (the keys, or the permutation as i64 with --argsort) and --values-out.
template <class Key, class V>
void write_outputs(const sort_args& a, const std::vector<Key>& got, const std::vector<V>& got_values, const host_array* values,
                   std::int64_t n) {
  if (!a.common.output.empty()) {
    if (a.argsort) {
      std::vector<std::int64_t> perm(got_values.begin(), got_values.end());
      write_array(a.common.output, dtype::i64, perm.data(), n);
    } else {
      write_array(a.common.output, dtype_of<Key>(), got.data(), n);
    }
  }
  if (!a.values_out.empty()) write_array(a.values_out, value_dtype<V>(values), got_values.data(), n);
}

/// Sorts keys (Key) with values of raw type V (argsort: V is the index type, values == nullptr and
/// `argsort`); no values at all when `pairs` is false.
template <class Key, class V>
int run(const sort_args& a, const host_array* file, const host_array* values, bool pairs, sort_options o) {
  std::vector<Key> h_keys = file ? std::vector<Key>(file->as<Key>(), file->as<Key>() + file->count) : generate<Key>(a);
  const std::int64_t n = static_cast<std::int64_t>(h_keys.size());
  const int key_bits = static_cast<int>(8 * sizeof(Key));
  const int end_bit = o.end_bit < 0 ? key_bits : o.end_bit;
  std::vector<V> h_values;
  if (values) h_values.assign(values->as<V>(), values->as<V>() + n);
  device_buffer<Key> d_keys(n), d_out(n), d_cub(n);
  device_buffer<V> d_vin(values ? n : 0), d_vout(pairs ? n : 0);
  d_keys.copy_from_host(h_keys.data(), n);
  if (values) d_vin.copy_from_host(h_values.data(), n);
  const V* vin = values ? d_vin.data() : nullptr;
  auto ours = [&](void* t, std::size_t& b) -> cudaError_t {
    if (pairs) return radix_sort_pairs(t, b, d_keys.data(), d_out.data(), vin, d_vout.data(), n, o);
    return radix_sort_keys(t, b, d_keys.data(), d_out.data(), n, o);
  };
  // CUB beside it: the same keys, bit range and direction; with 4- or 8-byte values (or argsort, whose
  // indices CUB gets as an array 0..n−1) its SortPairs, else its SortKeys.
  constexpr bool cub_has_pairs = sizeof(V) == 4 || sizeof(V) == 8;
  using cub_value = std::conditional_t<sizeof(V) == 8, std::uint64_t, std::uint32_t>;
  const bool cub_pairs = pairs && cub_has_pairs;
  device_buffer<cub_value> d_cub_vin(cub_pairs ? n : 0), d_cub_vout(cub_pairs ? n : 0);
  if (cub_pairs) {
    if (values) {
      PARASCAN_CUDA_CHECK(cudaMemcpy(d_cub_vin.data(), d_vin.data(), static_cast<std::size_t>(n) * sizeof(V),
                                     cudaMemcpyDeviceToDevice));
    } else {
      std::vector<cub_value> iota(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) iota[static_cast<std::size_t>(i)] = static_cast<cub_value>(i);
      d_cub_vin.copy_from_host(iota.data(), n);
    }
  }
  auto cub = [&](void* t, std::size_t& b, validation::cub_count c) -> cudaError_t {
    if (cub_pairs)
      return validation::cub_sort_pairs(t, b, d_keys.data(), d_cub.data(), d_cub_vin.data(), d_cub_vout.data(), n,
                                        o.begin_bit, end_bit, o.descending, 0, c);
    return validation::cub_sort_keys(t, b, d_keys.data(), d_cub.data(), n, o.begin_bit, end_bit, o.descending, 0, c);
  };
  const std::string cub_what = cub_pairs ? "CUB SortPairs" : "CUB SortKeys";
  std::size_t our_bytes = 0, cub_bytes = cub_temp_bytes(cub);
  PARASCAN_CUDA_CHECK(ours(nullptr, our_bytes));
  device_buffer<char> our_temp(our_bytes), cub_temp(cub_bytes);
  d_out.poison();
  d_vout.poison();
  const timed_beside_cub t = time_beside_cub(
      a.common.repeat, [&] { PARASCAN_CUDA_CHECK(ours(our_temp.data(), our_bytes)); },
      [&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); }, cub_what);
  std::vector<Key> got(static_cast<std::size_t>(n));
  d_out.copy_to_host(got.data(), n);
  std::vector<V> got_values(pairs ? static_cast<std::size_t>(n) : 0);
  if (pairs) d_vout.copy_to_host(got_values.data(), n);

  std::string verdict = "not checked", gpus_report;
  double gpus_ms = 0;
#ifdef PARASCAN_HAVE_NCCL
  if (a.gpus > 1) {  // the same sort over several GPUs: equal to the one-GPU result, which the checks below judge
    std::vector<V> index;  // argsort: the global positions travel as values
    if (pairs && !values) {
      index.resize(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) index[static_cast<std::size_t>(i)] = static_cast<V>(i);
    }
    auto multi = sort_on_gpus<Key, V>(a.gpus, a.common.repeat, h_keys, pairs ? (values ? &h_values : &index) : nullptr, o);
    std::int64_t first = -1;
    if (const std::int64_t bad = validation::bit_mismatches(multi.first.items, got, &first); bad != 0 || multi.second != got_values)
      throw mismatch_error("validation FAILED: the " + std::to_string(a.gpus) + "-GPU sort differs from the one-GPU sort (" +
                           std::to_string(bad) + " keys; first at " + std::to_string(first) + ")");
    gpus_ms = multi.first.ms;
    gpus_report = gpus_line(a.gpus, multi.first.ms, t.ours_ms, static_cast<double>(n), "keys");
    got = std::move(multi.first.items);
    got_values = std::move(multi.second);
  }
#endif
  // CUB is not a reference in one corner (floats, a partial bit range, descending: see radix_sort.hpp).
  const bool cub_ambiguous = validation::cub_zero_ambiguity<Key>(o.begin_bit, end_bit, o.descending);
  const bool full_check = a.common.validate || (!file && (n <= (std::int64_t(1) << 22) || cub_ambiguous));
  if (!full_check && !file) {  // large generated inputs: the keys against CUB's (the CPU sort would take minutes)
    std::vector<Key> cub_keys(static_cast<std::size_t>(n));
    d_cub.copy_to_host(cub_keys.data(), n);
    std::int64_t first = -1;
    if (const std::int64_t bad = validation::bit_mismatches(got, cub_keys, &first); bad != 0)
      throw mismatch_error("validation FAILED: " + std::to_string(bad) + " keys differ from cub::DeviceRadixSort; first at " +
                           std::to_string(first));
    verdict = "PASS (keys match cub::DeviceRadixSort; --validate adds the CPU stable sort and the values)";
  }
  if (full_check) {
    const auto order = validation::cpu_sort_order(h_keys, o.begin_bit, end_bit, o.descending);
    const auto want = validation::permuted(h_keys, order);
    std::vector<Key> cub_keys(static_cast<std::size_t>(n));
    d_cub.copy_to_host(cub_keys.data(), n);
    std::int64_t first = -1;
    if (!cub_ambiguous && validation::bit_mismatches(cub_keys, want, &first) != 0)
      throw mismatch_error("cub::DeviceRadixSort disagrees with the CPU stable sort at " + std::to_string(first));
    if (const std::int64_t bad = validation::bit_mismatches(got, want, &first); bad != 0)
      throw mismatch_error("validation FAILED: " + std::to_string(bad) + " keys differ from CUB and the CPU; first at " +
                           std::to_string(first));
    if (pairs) check_values(order, h_values, got_values, values != nullptr);
    verdict = std::string(cub_ambiguous ? "PASS (keys match a CPU stable sort" : "PASS (keys match cub::DeviceRadixSort and a CPU stable sort") +
              std::string(pairs ? (values ? ", values match the CPU)" : ", the permutation matches the CPU)") : ")");
  }
  write_outputs(a, got, got_values, values, n);

  const double value_bytes = pairs ? static_cast<double>(sizeof(V)) * (values ? 2 : 1) : 0.0;
  const double bytes = static_cast<double>(n) * (2.0 * sizeof(Key) + value_bytes);  // read and write once
  const std::string what = !pairs ? "keys" : a.argsort ? "argsort" : "pairs";
  if (!a.common.quiet) {
    std::printf("radix_sort: %lld %s keys (%s), bits [%d,%d) %s, algorithm %s, %s\n", static_cast<long long>(n),
                std::string(to_string(dtype_of<Key>())).c_str(), file ? a.input.c_str() : a.dist.c_str(), o.begin_bit,
                end_bit, o.descending ? "descending" : "ascending", std::string(to_string(o.algorithm)).c_str(),
                what.c_str());
    std::printf("%s\n", time_line(t, static_cast<double>(n), "keys", bytes, " of one read + one write").c_str());
    if (!gpus_report.empty()) std::printf("%s\n", gpus_report.c_str());
    std::printf("validation: %s%s\n", a.gpus > 1 ? "the multi-GPU result equals the one-GPU result; " : "", verdict.c_str());
  }
  if (!a.common.json.empty()) {
    json_object j;
    j.add("tool", "radix_sort").add("n", n).add("type", std::string(to_string(dtype_of<Key>())))
        .add("mode", what).add("dist", file ? std::string("file") : a.dist).add("algorithm", std::string(to_string(o.algorithm))).add("begin_bit", o.begin_bit)
        .add("end_bit", end_bit).add("descending", o.descending);
    add_times(j, t, static_cast<double>(n), "keys", bytes);
    if (a.gpus > 1) j.add("gpus", a.gpus).add("gpus_ms", gpus_ms);
    j.add("validation", verdict);
    write_json(a.common.json, j.str());
  }
  return exit_ok;
}

/// The keys (and values) sorted from host memory by radix_sort_pipeline: one round trip when they
/// fit `limit` bytes of device memory (0: the free memory), two otherwise. Timed on the host (the
/// copies are the work); checked against the CPU stable sort (CUB cannot hold what the GPU cannot).
template <class Key, class V>
int run_out_of_core(const sort_args& a, const host_array* file, const host_array* values, bool pairs, sort_options o,
                    std::size_t limit) {
  if constexpr (sizeof(V) < 4) {
    throw input_error(a.values + ": the out-of-core sort moves values of 4 or 8 bytes, not " + std::to_string(sizeof(V)));
  } else {
    std::vector<Key> h_keys = file ? std::vector<Key>(file->as<Key>(), file->as<Key>() + file->count) : generate<Key>(a);
    const std::int64_t n = static_cast<std::int64_t>(h_keys.size());
    const int end_bit = o.end_bit < 0 ? static_cast<int>(8 * sizeof(Key)) : o.end_bit;
    std::vector<V> h_values;
    if (values) h_values.assign(values->as<V>(), values->as<V>() + n);
    std::vector<Key> got(static_cast<std::size_t>(n), Key(0x5a));
    std::vector<V> got_values(pairs ? static_cast<std::size_t>(n) : 0, V(0xa5));
    sort_pipeline_options po;
    po.device_memory_limit = limit;
    radix_sort_pipeline<Key> keys_only(po);
    radix_sort_pipeline<Key, V> with_values(po);
    sort_pipeline_stats st;
    std::vector<double> ms;
    for (int r = 0; r < std::max(1, a.common.repeat); ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      st = pairs ? with_values.sort_pairs(h_keys.data(), got.data(), values ? h_values.data() : nullptr, got_values.data(), n, o)
                 : keys_only.sort_keys(h_keys.data(), got.data(), n, o);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    std::string verdict = "not checked (--validate compares with a CPU stable sort)";
    if (a.common.validate || (!file && n <= (std::int64_t(1) << 22))) {
      const auto order = validation::cpu_sort_order(h_keys, o.begin_bit, end_bit, o.descending);
      std::int64_t first = -1;
      if (const std::int64_t bad = validation::bit_mismatches(got, validation::permuted(h_keys, order), &first); bad != 0)
        throw mismatch_error("validation FAILED: " + std::to_string(bad) + " keys differ from the CPU stable sort; first at " +
                             std::to_string(first));
      if (pairs) check_values(order, h_values, got_values, values != nullptr);
      verdict = std::string("PASS (keys match a CPU stable sort") +
                (pairs ? (values ? ", values match the CPU)" : ", the permutation matches the CPU)") : ")");
    }
    write_outputs(a, got, got_values, values, n);
    const std::string what = !pairs ? "keys" : a.argsort ? "argsort" : "pairs";
    const double gkeys = median > 0 ? static_cast<double>(n) / (median * 1e6) : 0.0;
    if (!a.common.quiet) {
      std::printf("radix_sort: %lld %s keys (%s), bits [%d,%d) %s, %s from host memory: %s\n", static_cast<long long>(n),
                  std::string(to_string(dtype_of<Key>())).c_str(), file ? a.input.c_str() : a.dist.c_str(), o.begin_bit,
                  end_bit, o.descending ? "descending" : "ascending", what.c_str(),
                  st.out_of_core ? "out of core (two round trips)" : "one round trip");
      if (st.out_of_core)
        std::printf("pipeline: slots of %lld keys, %lld chunks partitioned, %lld batches sorted, %lld buckets split again, "
                    "%lld copied as they stood\n",
                    static_cast<long long>(st.slot_items), static_cast<long long>(st.partitions),
                    static_cast<long long>(st.batches), static_cast<long long>(st.repartitioned),
                    static_cast<long long>(st.unsorted));
      std::printf("time: %.3f ms host to host (median of %d), %.3f Gkeys/s\n", median, static_cast<int>(ms.size()), gkeys);
      std::printf("validation: %s\n", verdict.c_str());
    }
    if (!a.common.json.empty()) {
      json_object j;
      j.add("tool", "radix_sort").add("n", n).add("type", std::string(to_string(dtype_of<Key>()))).add("mode", what)
          .add("dist", file ? std::string("file") : a.dist).add("begin_bit", o.begin_bit).add("end_bit", end_bit)
          .add("descending", o.descending).add("out_of_core", st.out_of_core)
          .add("device_memory_limit", static_cast<std::int64_t>(limit)).add("batches", st.batches)
          .add("partitions", st.partitions).add("time_ms", median).add("gkeys_per_s", gkeys).add("validation", verdict);
      write_json(a.common.json, j.str());
    }
    return exit_ok;
  }
}

/// "4096", "512M", "2G" (binary units) → bytes; nullopt when malformed.
std::optional<std::size_t> parse_bytes(const std::string& s) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used);
  } catch (...) {
    return std::nullopt;
  }
  if (s.empty() || s[0] == '-') return std::nullopt;
  const std::string unit = s.substr(used);
  int shift = 0;
  if (unit == "K" || unit == "KiB") shift = 10;
  else if (unit == "M" || unit == "MiB") shift = 20;
  else if (unit == "G" || unit == "GiB") shift = 30;
  else if (!unit.empty()) return std::nullopt;
  if (v == 0 || v > (~0ull >> shift)) return std::nullopt;
  return static_cast<std::size_t>(v << shift);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"radix_sort: LSD radix sort of keys, pairs or a permutation on the GPU (parascan), beside cub::DeviceRadixSort",
               "radix_sort"};
  sort_args a;
  app.add_option("input", a.input, "Keys: .npy or raw (needs --type); without one, --n generated keys (--dist)");
  app.add_option("--type", a.type_name, "Key type of a raw input or of generated keys (" + dtype_names() + "; default u32)");
  auto* vals = app.add_option("--values", a.values, "Values to sort along, one per key: a .npy of any 1-, 2-, 4- or 8-byte type (moved as raw bytes), or a raw file of u32");
  app.add_flag("--argsort", a.argsort, "Sort the indices along: -o writes the permutation (i64)")->excludes(vals);
  app.add_option("--values-out", a.values_out, "Write the sorted values (or the permutation) here")->check(writable_file());
  app.add_option("--bits", a.bits, "Sort by this many bits from --begin-bit (default: all the key's bits)");
  app.add_option("--begin-bit", a.begin_bit, "First key bit compared (of the key's order-preserving image)")->capture_default_str();
  app.add_flag("--descending", a.descending, "Largest first (stable: equal keys keep their input order)");
  app.add_option("--algorithm", a.algorithm, "onesweep (8-bit digits, one pass each with look-back; the fastest), split1 (1-bit splits), split4 (4-bit digits) or split8 (8-bit digits)")
      ->capture_default_str();
  app.add_option("--n", a.n, "Keys to generate when there is no input")->capture_default_str()->check(non_negative());
  app.add_option("--dist", a.dist, "Generated keys: uniform, sorted, reverse, few_unique, all_equal (hyphens read as underscores)")->capture_default_str();
  app.add_option("--seed", a.seed, "Seed of the generated keys")->capture_default_str();
  app.add_option("--device-memory-limit", a.memory_limit,
                 "Sort from host memory through at most this much device memory (bytes, or with K/M/G): two round trips "
                 "over PCIe when the keys do not fit (out of core); used without this option when they do not fit the GPU");
  app.add_option("--gpus", a.gpus, "Also sort over the first N GPUs of this host (NCCL; each ends with n/N keys), "
                                   "checked against the one-GPU sort; -o writes that result")->capture_default_str();
  auto* segs = app.add_option("--segments", a.segments,
                              "Sort each segment on its own: a 1-D .npy of integers (or raw i64) holding segments + 1 offsets "
                              "from 0 to n, segment s = [offsets[s], offsets[s+1]); --argsort gives positions within each segment");
  app.add_option("--rows", a.rows, "Sort each of R equal rows of the keys on its own (numpy.sort(axis=-1) of an R × n/R array)")
      ->excludes(segs);
  auto* topk_opt = app.add_option("--topk", a.topk, "Only the K largest keys of each row (--rows R; the whole input without it), "
                                                    "largest first, ties to the earliest; -o gets them (R × K), --values-out "
                                                    "their i64 positions in the row (torch.topk)")
                       ->check(CLI::NonNegativeNumber)->excludes(segs);
  app.add_flag("--smallest", a.smallest, "With --topk: the K smallest, smallest first")->needs(topk_opt);
  add_common_options(app, a.common, "radix_sort keys.npy --values ids.npy --validate -o sorted.npy --values-out ids_sorted.npy");
  return run_tool(app, argc, argv, [&]() -> int {
    sort_options o;
    const auto alg = parse_sort_algorithm(a.algorithm);
    if (!alg) throw input_error("--algorithm: unknown '" + a.algorithm + "' (onesweep, split1, split4, split8)");
    o.algorithm = *alg;
    o.descending = a.descending;
    std::replace(a.dist.begin(), a.dist.end(), '-', '_');  // one spelling: snake_case, hyphens accepted
    static const char* dists[] = {"uniform", "sorted", "reverse", "few_unique", "all_equal"};
    if (std::find_if(std::begin(dists), std::end(dists), [&](const char* d) { return a.dist == d; }) == std::end(dists))
      throw input_error("--dist: unknown '" + a.dist + "' (uniform, sorted, reverse, few_unique, all_equal)");
    std::optional<dtype> type;
    if (!a.type_name.empty() && !(type = parse_dtype(a.type_name)))
      throw input_error("--type: unknown type '" + a.type_name + "' (" + dtype_names() + ")");
    std::optional<host_array> file, values;
    if (!a.input.empty()) file = read_array(a.input, type);
    const dtype t = file ? file->type : type.value_or(dtype::u32);
    const int key_bits = static_cast<int>(8 * size_of(t));
    if (a.begin_bit < 0 || a.begin_bit > key_bits)
      throw input_error("--begin-bit " + std::to_string(a.begin_bit) + ": outside the " + std::to_string(key_bits) +
                        " bits of " + std::string(to_string(t)));
    if (a.bits >= 0) {
      if (a.begin_bit + a.bits > key_bits)
        throw input_error("--bits " + std::to_string(a.bits) + " from bit " + std::to_string(a.begin_bit) + ": beyond the " +
                          std::to_string(key_bits) + " bits of " + std::string(to_string(t)));
      o.begin_bit = a.begin_bit;
      o.end_bit = a.begin_bit + a.bits;
    } else {
      o.begin_bit = a.begin_bit;
      o.end_bit = key_bits;
    }
    if (!a.values.empty()) {
      values = read_array(a.values, dtype::u32, false);
      const std::int64_t nkeys = file ? file->count : a.n;
      if (values->count != nkeys)
        throw input_error(a.values + ": holds " + std::to_string(values->count) + " values, but there are " +
                          std::to_string(nkeys) + " keys");
    }
    if (!a.values_out.empty() && a.values.empty() && !a.argsort && a.topk < 0)
      throw input_error("--values-out needs --values or --argsort");
    std::optional<std::size_t> limit;
    if (!a.memory_limit.empty() && !(limit = parse_bytes(a.memory_limit)))
      throw input_error("--device-memory-limit: '" + a.memory_limit + "' is not a positive byte count (e.g. 4096, 512M, 2G)");
    if (limit && o.algorithm != sort_algorithm::onesweep)
      throw input_error("--device-memory-limit: the out-of-core sort runs onesweep, not " + a.algorithm);
    if (limit && values && size_of(values->type) < 4)
      throw input_error(a.values + ": the out-of-core sort moves values of 4 or 8 bytes, not " +
                        std::to_string(size_of(values->type)));
    if (a.topk >= 0) {  // every refusal before the GPU is touched
      const bool other_options = values || a.argsort || limit || a.gpus > 1 || a.bits >= 0 || a.begin_bit != 0 ||
                                 a.descending || o.algorithm != sort_algorithm::onesweep;
      const topk_run r = topk_args(file ? file->count : a.n, a.rows, a.topk, a.smallest, other_options);
      const auto d = select_device(a.common.device);
      if (!a.common.quiet) std::fprintf(stderr, "radix_sort: device %d: %s\n", d.id, d.name.c_str());
      return visit_dtype(t, [&](auto tag) -> int {
        using Key = typename decltype(tag)::type;
        const host_array* f = file ? &*file : nullptr;
        const std::vector<Key> keys = f ? std::vector<Key>(f->as<Key>(), f->as<Key>() + f->count) : generate<Key>(a);
        return run_topk<Key>(r, keys, a.common, a.values_out, f ? a.input : a.dist);
      });
    }
    const bool segmented = !a.segments.empty() || a.rows >= 0;
    std::optional<segments_spec> seg;
    if (segmented) {
      if (limit || a.gpus > 1 || o.algorithm != sort_algorithm::onesweep)
        throw input_error("--segments/--rows: the segmented sort runs in one GPU's memory with its own algorithms "
                          "(no --device-memory-limit, --gpus or --algorithm)");
      if (values && size_of(values->type) < 4)
        throw input_error(a.values + ": the segmented sort moves values of 4 or 8 bytes, not " +
                          std::to_string(size_of(values->type)));
      seg = read_segments(a.segments, a.rows, file ? file->count : a.n);
    }
    check_gpus_option(a.gpus);
    if (a.gpus > 1 && (limit || o.algorithm != sort_algorithm::onesweep || (values && size_of(values->type) < 4)))
      throw input_error("--gpus: the multi-GPU sort runs onesweep in device memory, with values of 4 or 8 bytes");
    require_gpus(a.gpus);
    const auto d = select_device(a.common.device);
    if (!a.common.quiet) std::fprintf(stderr, "radix_sort: device %d: %s\n", d.id, d.name.c_str());
    const std::int64_t n = file ? file->count : a.n;
    if (!limit && !segmented && o.algorithm == sort_algorithm::onesweep && (!values || size_of(values->type) >= 4)) {
      // The GPU run holds the keys three times (ours, CUB's, the input) and the values four times.
      const std::size_t value_bytes = a.argsort ? 8 : values ? size_of(values->type) : 0;
      const double need = static_cast<double>(n) * (3.0 * size_of(t) + 4.0 * value_bytes) * 1.25;
      std::size_t free_bytes = 0, total = 0;
      PARASCAN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
      if (need > static_cast<double>(free_bytes)) {
        if (a.gpus > 1)  // the tool checks the multi-GPU sort against a one-GPU run, which must fit
          throw input_error("--gpus: " + std::to_string(n) + " keys do not fit one GPU's free memory for the one-GPU "
                            "run the multi-GPU result is checked against (the library's dist::sort_keys has no such limit)");
        limit = 0;  // what is free
        if (!a.common.quiet)
          std::fprintf(stderr, "radix_sort: %lld keys need more than the GPU's %.1f GiB free: sorting from host memory "
                               "(no CUB comparison)\n", static_cast<long long>(n), static_cast<double>(free_bytes) / (1 << 30));
      }
    }
    return visit_dtype(t, [&](auto tag) -> int {
      using Key = typename decltype(tag)::type;
      const host_array* f = file ? &*file : nullptr;
      if (seg) {
        segmented_run r;
        r.what = a.argsort ? "argsort" : values ? "pairs" : "keys";
        r.values = values ? &*values : nullptr;
        r.argsort = a.argsort;
        r.options.begin_bit = o.begin_bit;
        r.options.end_bit = o.end_bit;
        r.options.descending = o.descending;
        const std::vector<Key> keys = f ? std::vector<Key>(f->as<Key>(), f->as<Key>() + f->count) : generate<Key>(a);
        return run_segmented<Key>(*seg, keys, r, a.common, a.values_out, f ? a.input : a.dist);
      }
      if (limit) {
        if (a.argsort) return run_out_of_core<Key, std::uint64_t>(a, f, nullptr, true, o, *limit);
        if (!values) return run_out_of_core<Key, std::uint32_t>(a, f, nullptr, false, o, *limit);
        if (size_of(values->type) == 4) return run_out_of_core<Key, std::uint32_t>(a, f, &*values, true, o, *limit);
        return run_out_of_core<Key, std::uint64_t>(a, f, &*values, true, o, *limit);
      }
      if (a.argsort) {
        if (n > static_cast<std::int64_t>(UINT32_MAX)) return run<Key, std::uint64_t>(a, f, nullptr, true, o);
        return run<Key, std::uint32_t>(a, f, nullptr, true, o);
      }
      if (!values) return run<Key, std::uint32_t>(a, f, nullptr, false, o);
      switch (size_of(values->type)) {
        case 1: return run<Key, std::uint8_t>(a, f, &*values, true, o);
        case 2: return run<Key, std::uint16_t>(a, f, &*values, true, o);
        case 4: return run<Key, std::uint32_t>(a, f, &*values, true, o);
        default: return run<Key, std::uint64_t>(a, f, &*values, true, o);
      }
    });
  });
}
