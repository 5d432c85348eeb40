// compact: stream compaction on the GPU — keep the items that pass a rule or a flag, write them (or
// their positions, or the stable split), timed beside CUB in the same run and optionally validated.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>
#include "../common/array_io.hpp"
#include "../common/cli.hpp"
#include "../common/dtype.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/multi_gpu.hpp"
#include "../common/ops_cli.hpp"
#include "../common/option_parsers.hpp"
#include "../common/report.hpp"
#include "../common/timing.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device_info.hpp"
#include "parascan/select.hpp"
#include "parascan/validation/compare.hpp"
#include "parascan/validation/cub_select.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct compact_args {
  std::string input, flags, type_name, keep = "nonzero", strategy;
  bool indices = false, split = false;
  std::int64_t n = std::int64_t(1) << 24;
  std::uint64_t seed = 1;
  int gpus = 1;
  common_options common;
};

template <class T, class F>
int run(const compact_args& a, const host_array* file, const host_array* flags_file, scan_options options) {
  const keep_rule<T> rule = parse_keep<T>(a.keep);
  std::vector<T> h_in;
  if (file) {
    h_in.resize(static_cast<std::size_t>(file->count));
    if (file->count > 0) std::memcpy(h_in.data(), file->as<T>(), h_in.size() * sizeof(T));
  } else {  // generated: random values, half of them zero, so the default rule keeps about half
    std::mt19937_64 rng(a.seed);
    h_in.resize(static_cast<std::size_t>(a.n));
    for (auto& x : h_in) x = (rng() & 1) ? static_cast<T>(1 + rng() % 1000) : T(0);
  }
  const std::int64_t n = static_cast<std::int64_t>(h_in.size());
  std::vector<F> h_flags;
  if (flags_file) {  // lengths were checked before the GPU was touched
    h_flags.resize(static_cast<std::size_t>(n));
    if (n > 0) std::memcpy(h_flags.data(), flags_file->as<F>(), h_flags.size() * sizeof(F));
  }
  const bool flagged = flags_file != nullptr;
  auto keep = [&](std::size_t i) { return flagged ? h_flags[i] != 0 : rule(h_in[i]); };

  device_buffer<T> d_in(n), d_out(n), d_ref(n);
  device_buffer<F> d_flags(h_flags.size());
  device_buffer<std::uint8_t> d_flags_u8(flagged ? n : 0);
  device_buffer<std::int64_t> d_idx(a.indices ? n : 0), d_count(1), d_ref_count(1);
  d_in.copy_from_host(h_in.data(), n);
  if (flagged) {
    d_flags.copy_from_host(h_flags.data(), n);
    std::vector<std::uint8_t> u8(n);
    for (std::int64_t i = 0; i < n; ++i) u8[i] = h_flags[i] != 0;
    d_flags_u8.copy_from_host(u8.data(), n);
  }
  auto ours = [&](void* t, std::size_t& b) -> cudaError_t {
    if (a.split)
      return flagged ? partition_flagged(t, b, d_in.data(), d_flags.data(), d_out.data(), d_count.data(), n, 0, options)
                     : partition_if(t, b, d_in.data(), d_out.data(), d_count.data(), n, rule, 0, options);
    if (a.indices)
      return flagged ? select_flagged_indices(t, b, d_flags.data(), d_idx.data(), d_count.data(), n, 0, options)
                     : select_if_indices(t, b, d_in.data(), d_idx.data(), d_count.data(), n, rule, 0, options);
    return flagged ? select_flagged(t, b, d_in.data(), d_flags.data(), d_out.data(), d_count.data(), n, 0, options)
                   : select_if(t, b, d_in.data(), d_out.data(), d_count.data(), n, rule, 0, options);
  };
  auto cub = [&](void* t, std::size_t& b, validation::cub_count c) -> cudaError_t {
    return flagged ? validation::cub_select_flagged(t, b, d_in.data(), d_flags_u8.data(), d_ref.data(),
                                                    d_ref_count.data(), n, 0, c)
                   : validation::cub_select_if(t, b, d_in.data(), d_ref.data(), d_ref_count.data(), n, rule, 0, c);
  };
  std::size_t our_bytes = 0, cub_bytes = cub_temp_bytes(cub);
  PARASCAN_CUDA_CHECK(ours(nullptr, our_bytes));
  device_buffer<char> our_temp(our_bytes), cub_temp(cub_bytes);
  d_out.poison();
  d_idx.poison();
  // CUB has the same operation only for the plain select: its partition reverses the rejected items
  // (ours keeps them in order) and it has no call for the kept positions, so those modes have no ratio.
  const bool cub_same_op = !a.split && !a.indices;
  const timed_beside_cub t = time_beside_cub(
      a.common.repeat, [&] { PARASCAN_CUDA_CHECK(ours(our_temp.data(), our_bytes)); },
      [&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); }, "CUB select",
      cub_same_op ? "" : a.split ? "its partition reverses the rejected items" : "no call for kept positions");
  std::int64_t kept = 0;
  d_count.copy_to_host(&kept, 1);
  if (kept < 0 || kept > n)  // checked before anything is read by it
    throw mismatch_error("the kept count from the GPU, " + std::to_string(kept) + ", is outside 0.." + std::to_string(n));

  // Results on the host: values, positions, or the split.
  const std::int64_t out_n = a.split ? n : kept;
  std::vector<T> h_out(a.indices ? 0 : out_n);
  std::vector<std::int64_t> h_idx(a.indices ? kept : 0);
  if (a.indices) d_idx.copy_to_host(h_idx.data(), kept);
  else d_out.copy_to_host(h_out.data(), out_n);

  std::string gpus_report;
  double gpus_ms = 0;
#ifdef PARASCAN_HAVE_NCCL
  if constexpr (dist::has_select<T>) {
    if (a.gpus > 1) {  // the same selection over several GPUs: equal to the one-GPU result, judged below
      std::vector<std::uint8_t> u8;
      for (const F f : h_flags) u8.push_back(f != 0);
      const auto multi = select_on_gpus<T>(a.gpus, a.common.repeat, h_in, flagged ? &u8 : nullptr, rule);
      const std::int64_t multi_kept = static_cast<std::int64_t>(multi.items.size());
      const auto c = validation::compare_exact(multi.items.data(), h_out.data(), std::min(multi_kept, kept));
      if (multi_kept != kept || !c.ok())
        throw mismatch_error("validation FAILED: the " + std::to_string(a.gpus) + "-GPU selection keeps " +
                             std::to_string(multi_kept) + " items, the one-GPU one " + std::to_string(kept) + "; " + c.detail);
      gpus_ms = multi.ms;
      gpus_report = gpus_line(a.gpus, multi.ms, t.ours_ms, static_cast<double>(n), "items");
    }
  }
#endif
  const bool validate = a.common.validate || !file;
  std::string verdict = "not checked";
  if (validate) {
    std::vector<std::int64_t> positions;
    for (std::int64_t i = 0; i < n; ++i)
      if (keep(i)) positions.push_back(i);
    if (static_cast<std::int64_t>(positions.size()) != kept)
      throw mismatch_error("validation FAILED: kept " + std::to_string(kept) + ", the CPU keeps " +
                           std::to_string(positions.size()));
    validation::comparison c;
    if (a.indices) {
      c = validation::compare_exact(h_idx.data(), positions.data(), kept);
      verdict = "PASS (the positions match the CPU's)";
    } else if (a.split) {
      std::int64_t cpu_kept = 0;
      const auto ref = validation::cpu_partition(h_in, keep, cpu_kept);
      if (!flagged) {  // Thrust's stable_partition must agree too
        const std::int64_t tk = validation::thrust_stable_partition(d_in.data(), d_ref.data(), n, rule);
        std::vector<T> th(n);
        d_ref.copy_to_host(th.data(), n);
        const auto ct = validation::compare_exact(th.data(), ref.data(), n);
        if (tk != cpu_kept || !ct.ok())
          throw mismatch_error(std::string(validation::stable_partition_name()) + " disagrees with the CPU: " + ct.detail);
      }
      c = validation::compare_exact(h_out.data(), ref.data(), n);
      verdict = flagged ? "PASS (matches the CPU's stable split)"
                        : std::string("PASS (matches ") + validation::stable_partition_name() + " and the CPU)";
    } else {
      const auto ref = validation::cpu_select(h_in, keep);
      c = validation::compare_exact(h_out.data(), ref.data(), kept);
      std::int64_t cub_kept = 0;
      d_ref_count.copy_to_host(&cub_kept, 1);
      if (cub_kept != kept)
        throw mismatch_error("validation FAILED: CUB kept " + std::to_string(cub_kept) + ", parascan and the CPU " + std::to_string(kept));
      std::vector<T> cub_out(cub_kept);
      d_ref.copy_to_host(cub_out.data(), cub_kept);
      const auto vs_cub = validation::compare_exact(h_out.data(), cub_out.data(), cub_kept);
      if (!vs_cub.ok())
        throw mismatch_error("validation FAILED against CUB: " + std::to_string(vs_cub.mismatches) + " differ; first: " + vs_cub.detail);
      verdict = "PASS (matches CUB and the CPU)";
    }
    if (!c.ok()) throw mismatch_error("validation FAILED against the CPU: " + std::to_string(c.mismatches) + " differ; first: " + c.detail);
  }
  if (!a.common.output.empty()) {
    if (a.indices) write_array(a.common.output, dtype::i64, h_idx.data(), kept);
    else write_array(a.common.output, dtype_of<T>(), h_out.data(), out_n);
  }
  const double bytes = static_cast<double>(n) * (sizeof(T) + (flagged ? sizeof(F) : 0)) +
                       static_cast<double>(kept) * (a.indices ? 8 : sizeof(T)) + (a.split ? (n - kept) * sizeof(T) : 0);
  const std::string what = a.split ? "split" : a.indices ? "select indices" : "select";
  if (!a.common.quiet) {
    std::printf("compact: %lld items of %s, %s by %s\n", static_cast<long long>(n), std::string(to_string(dtype_of<T>())).c_str(),
                what.c_str(), flagged ? ("flags " + a.flags).c_str() : ("--keep " + a.keep).c_str());
    std::printf("kept: %lld (%.1f%%)%s\n", static_cast<long long>(kept), n ? 100.0 * kept / n : 0.0,
                a.split ? (", second part starts at " + std::to_string(kept)).c_str() : "");
    std::printf("%s\n", time_line(t, static_cast<double>(n), "items", bytes).c_str());
    if (!gpus_report.empty()) std::printf("%s\n", gpus_report.c_str());
    std::printf("validation: %s%s\n", a.gpus > 1 ? "the multi-GPU result equals the one-GPU result; " : "", verdict.c_str());
  }
  if (!a.common.json.empty()) {
    json_object j;
    j.add("tool", "compact").add("n", n).add("type", std::string(to_string(dtype_of<T>()))).add("mode", what)
        .add("rule", flagged ? "flags" : a.keep).add("kept", kept);
    add_times(j, t, static_cast<double>(n), "items", bytes);
    if (a.gpus > 1) j.add("gpus", a.gpus).add("gpus_ms", gpus_ms);
    j.add("validation", verdict);
    write_json(a.common.json, j.str());
  }
  return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"compact: stream compaction, positions and stable split on the GPU (parascan), beside CUB", "compact"};
  compact_args a;
  app.add_option("input", a.input, "Input array: .npy or raw (needs --type); without one, --n generated items (half zero)");
  app.add_option("--type", a.type_name, "Element type of a raw input or of generated data (" + dtype_names() + "; default u32)");
  app.add_option("--keep", a.keep, "Rule: nonzero, gt:X, ge:X, lt:X, le:X, eq:X, ne:X, odd, even, finite")->capture_default_str();
  app.add_option("--flags", a.flags, "Keep where this array (.npy or raw u8, same length, any integer type) is non-zero");
  auto* idx = app.add_flag("--indices", a.indices, "Write the kept positions (i64) instead of the values");
  app.add_flag("--split", a.split, "Write the stable split: kept items, then the rest, both in input order")->excludes(idx);
  app.add_option("--strategy", a.strategy, "Device strategy of the scan: single_pass (default) or reduce_then_scan");
  app.add_option("--n", a.n, "Items to generate when there is no input")->capture_default_str()->check(non_negative());
  app.add_option("--seed", a.seed, "Seed of the generated data")->capture_default_str();
  app.add_option("--gpus", a.gpus, "Also select over the first N GPUs of this host (NCCL; i32, u32, i64, u64, f32, f64), "
                                   "checked against the one-GPU selection")->capture_default_str();
  add_common_options(app, a.common, "compact values.npy --keep gt:0.5 --validate -o kept.npy");
  return run_tool(app, argc, argv, [&]() -> int {
    scan_options options;
    if (!a.strategy.empty()) {
      auto s = parse_device_strategy(a.strategy);
      if (!s || *s == device_strategy::recursive)
        throw input_error("--strategy: '" + a.strategy + "' is not available for compaction (single_pass, reduce_then_scan)");
      options.strategy = *s;
    }
    std::optional<dtype> type;
    if (!a.type_name.empty() && !(type = parse_dtype(a.type_name)))
      throw input_error("--type: unknown type '" + a.type_name + "' (" + dtype_names() + ")");
    std::optional<host_array> file, flags;
    if (!a.input.empty()) file = read_array(a.input, type);
    if (!a.flags.empty()) {
      if (!file) throw input_error("--flags needs an input file of the same length");
      flags = read_array(a.flags, dtype::u8, false);  // raw flags are bytes; .npy flags may be any integer type
      if (is_float(flags->type)) throw input_error(a.flags + ": flags must be integers, not " + std::string(to_string(flags->type)));
      if (flags->count != file->count)
        throw input_error(a.flags + ": holds " + std::to_string(flags->count) + " flags, but the input has " +
                          std::to_string(file->count) + " items");
    }
    const dtype t = file ? file->type : type.value_or(dtype::u32);
    visit_dtype(t, [&](auto tag) { parse_keep<typename decltype(tag)::type>(a.keep); return 0; });  // bad rules: exit 2 before the GPU
    check_gpus_option(a.gpus);
    if (a.gpus > 1) {
      if (a.indices || a.split) throw input_error("--gpus: --indices and --split run on one GPU");
#ifdef PARASCAN_HAVE_NCCL
      if (!visit_dtype(t, [](auto tag) { return dist::has_select<typename decltype(tag)::type>; }))
        throw input_error("--gpus: selections of " + std::string(to_string(t)) + " over several GPUs are not built "
                          "(i32, u32, i64, u64, f32, f64)");
#endif
    }
    require_gpus(a.gpus);
    const auto d = select_device(a.common.device);
    if (!a.common.quiet) std::fprintf(stderr, "compact: device %d: %s\n", d.id, d.name.c_str());
    return visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return visit_dtype(flags ? flags->type : dtype::u8, [&](auto ftag) -> int {
        using F = typename decltype(ftag)::type;
        if constexpr (std::is_integral_v<F>) return run<T, F>(a, file ? &*file : nullptr, flags ? &*flags : nullptr, options);
        throw input_error("flags must be integers");
      });
    });
  });
}
