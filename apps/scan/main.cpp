// scan: prefix sums (and min/max/product/bitwise scans) of an array file or generated data on the GPU,
// timed beside CUB in the same run, optionally validated against CUB and a CPU reference.
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include "../common/array_io.hpp"
#include "../common/cli.hpp"
#include "../common/dtype.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "../common/multi_gpu.hpp"
#include "../common/ops_cli.hpp"
#include "../common/report.hpp"
#include "../common/timing.hpp"
#include "parascan/axis_scan.hpp"
#include "parascan/buffer.hpp"
#include "parascan/device_info.hpp"
#include "parascan/instantiated.hpp"
#include "parascan/scan.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "parascan/validation/device_check.hpp"
#include "parascan/validation/inputs.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct scan_args {
  std::string input, segments, type_name, acc_name, op = "sum", init, algorithm, strategy;
  bool inclusive = false, exclusive = false;
  std::int64_t n = std::int64_t(1) << 24;
  std::int64_t rows = 0;  // > 0: the items are a matrix of `rows` rows, scanned along `axis`
  int axis = 1;
  std::uint64_t seed = 1;
  int gpus = 1;
  common_options common;
};

/// The file's items as a vector (memcpy only when there are any: GCC 12's -Wnonnull flagged the
/// vector::assign of a possibly empty range).
template <class T>
std::vector<T> items_of(const host_array& f) {
  std::vector<T> v(static_cast<std::size_t>(f.count));
  if (f.count > 0) std::memcpy(v.data(), f.as<T>(), v.size() * sizeof(T));
  return v;
}

template <class In, class Out, class Op>
int run(const scan_args& a, const host_array* file, const host_array* heads_file, Op op, scan_options options) {
  const bool exclusive = !a.inclusive;
  validation::scan_spec<Out> spec;
  spec.exclusive = exclusive;
  spec.has_init = exclusive || !a.init.empty();
  spec.init = a.init.empty() ? identity_of<Op, Out>() : parse_value<Out>(a.init, "--init");

  std::vector<In> h_in;
  if (file) {
    h_in = items_of<In>(*file);
  } else {
    h_in = validation::make_input<In, Op>(a.n, validation::distribution::random, a.seed);
  }
  std::vector<std::uint8_t> h_heads;
  if (heads_file) h_heads = items_of<std::uint8_t>(*heads_file);  // lengths were checked before the GPU was touched
  const std::int64_t n = static_cast<std::int64_t>(h_in.size());
  const bool segmented = heads_file != nullptr;

  device_buffer<In> d_in(h_in.size());
  device_buffer<Out> d_out(h_in.size()), d_cub_out(h_in.size());
  device_buffer<std::uint8_t> d_heads(h_heads.size());
  d_in.copy_from_host(h_in.data(), h_in.size());
  if (segmented) d_heads.copy_from_host(h_heads.data(), h_heads.size());
  const std::uint8_t* heads = segmented ? d_heads.data() : nullptr;

  // Time parascan and CUB in the same process, each with its temporary storage allocated once.
  // Ours called directly, as a user calls the library (validation/ only times CUB and checks).
  const In* in = d_in.data();
  Out* out = d_out.data();
  // --rows: a matrix of a.rows rows (the length was checked before the GPU was touched).
  const std::int64_t columns = a.rows > 0 ? n / a.rows : 0;
  const bool matrix = a.rows > 0, down = matrix && a.axis == 0;
  const axis_shape shape = down ? axis_shape::columns(a.rows, columns) : axis_shape::rows(a.rows, columns);
  auto ours = [&](void* temp, std::size_t& bytes) -> cudaError_t {
    if (matrix) {
      if constexpr (has_axis_scan<In, Out, Op>) {
        if (exclusive) return exclusive_scan_axis(temp, bytes, in, out, shape, op, spec.init, 0, options);
        return spec.has_init ? inclusive_scan_axis_init(temp, bytes, in, out, shape, op, spec.init, 0, options)
                             : inclusive_scan_axis(temp, bytes, in, out, shape, op, 0, options);
      }
      return cudaErrorNotSupported;  // refused before the GPU was touched (main)
    }
    if (heads) {
      if constexpr (has_segmented_scan<In, Out, Op>)
        return exclusive ? segmented_exclusive_scan(temp, bytes, in, heads, out, n, op, spec.init, 0, options)
                         : segmented_inclusive_scan(temp, bytes, in, heads, out, n, op, 0, options);
      return cudaErrorNotSupported;  // refused before the GPU was touched (main)
    }
    if constexpr (has_scan<In, Out, Op>) {
      if (exclusive) return exclusive_scan(temp, bytes, in, out, n, op, spec.init, 0, options);
      return spec.has_init ? inclusive_scan_init(temp, bytes, in, out, n, op, spec.init, 0, options)
                           : inclusive_scan(temp, bytes, in, out, n, op, 0, options);
    }
    return cudaErrorNotSupported;  // refused before the GPU was touched (main)
  };
  // CUB: the same scan; along rows its ScanByKey over computed row keys; down the columns (which CUB
  // has no call for) its 1-D scan of the same items, a yardstick whose output is not compared.
  std::function<cudaError_t(void*, std::size_t&, validation::cub_count)> cub =
      validation::cub_scan_call(d_in.data(), heads, d_cub_out.data(), n, op, spec);
  if (matrix && !down) {
    cub = [&](void* temp, std::size_t& bytes, validation::cub_count c) -> cudaError_t {
      if constexpr (has_segmented_scan<In, Out, Op>)
        return validation::cub_rows_scan(temp, bytes, in, d_cub_out.data(), a.rows, columns, op, exclusive, spec.init, 0, c);
      return cudaErrorNotSupported;  // refused before the GPU was touched (main)
    };
  }
  std::size_t our_bytes = 0, cub_bytes = cub_temp_bytes(cub);
  PARASCAN_CUDA_CHECK(ours(nullptr, our_bytes));
  device_buffer<char> our_temp(our_bytes), cub_temp(cub_bytes);
  d_out.poison();
  const timed_beside_cub t = time_beside_cub(
      a.common.repeat, [&] { PARASCAN_CUDA_CHECK(ours(our_temp.data(), our_bytes)); },
      [&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); },
      down ? "CUB 1-D scan of the same items" : "CUB");
  std::vector<Out> h_out(h_in.size());
  d_out.copy_to_host(h_out.data(), h_out.size());

  std::string gpus_report;
  double gpus_ms = 0;
#ifdef PARASCAN_HAVE_NCCL
  if constexpr (std::is_same_v<In, Out> && dist::has_scan<Out, Op>) {
    if (a.gpus > 1) {  // the same scan over several GPUs: checked against the one-GPU result, then judged below
      auto multi = scan_on_gpus(a.gpus, a.common.repeat, h_in, op, exclusive, spec.init);
      const auto vs_one = validation::check_against(h_in.data(), multi.items.data(), h_out.data(), n, op, spec);
      if (!vs_one.ok())
        throw mismatch_error("validation FAILED: the " + std::to_string(a.gpus) + "-GPU scan differs from the one-GPU scan: " +
                             std::to_string(vs_one.mismatches) + " of " + std::to_string(n) + "; first: " + vs_one.detail);
      gpus_ms = multi.ms;
      gpus_report = gpus_line(a.gpus, multi.ms, t.ours_ms, static_cast<double>(n), "items");
      h_out = std::move(multi.items);
    }
  }
#endif
  // Validate: against the CPU reference and against CUB's output of this same run.
  const bool validate = a.common.validate || !file;
  std::string verdict = "not checked";
  if (validate) {
    std::vector<Out> h_cub(h_in.size());
    d_cub_out.copy_to_host(h_cub.data(), h_cub.size());
    if (segmented) spec.heads = h_heads.data();
    // A matrix is checked as segments: rows in place; columns transposed on the host first.
    std::vector<std::uint8_t> line_heads;
    std::vector<In> t_in;
    std::vector<Out> t_out;
    const In* check_in = h_in.data();
    const Out* check_out = h_out.data();
    if (matrix) {
      const std::int64_t line = down ? a.rows : columns;
      line_heads.assign(static_cast<std::size_t>(n), 0);
      for (std::int64_t i = 0; i < n; i += line) line_heads[i] = 1;
      spec.heads = line_heads.data();
      if (down) {
        t_in.resize(h_in.size());
        t_out.resize(h_out.size());
        for (std::int64_t r = 0; r < a.rows; ++r)
          for (std::int64_t c = 0; c < columns; ++c) {
            t_in[c * a.rows + r] = h_in[r * columns + c];
            t_out[c * a.rows + r] = h_out[r * columns + c];
          }
        check_in = t_in.data();
        check_out = t_out.data();
      }
    }
    const auto vs_cpu = validation::check_scan(check_in, check_out, n, op, spec);
    const auto vs_cub = down ? validation::comparison{} : validation::check_against(h_in.data(), h_out.data(), h_cub.data(), n, op, spec);
    if (!vs_cpu.ok())
      throw mismatch_error("validation FAILED against the CPU reference: " + std::to_string(vs_cpu.mismatches) +
                           " of " + std::to_string(n) + " differ; first: " + vs_cpu.detail);
    if (!vs_cub.ok())
      throw mismatch_error("validation FAILED against CUB: " + std::to_string(vs_cub.mismatches) + " of " +
                           std::to_string(n) + " differ; first: " + vs_cub.detail);
    verdict = down ? "PASS (matches the CPU reference of each column" : "PASS (matches CUB and the CPU reference";
    verdict += validation::uses_float_bound<Out, Op> ? ", within the documented float bound)" : ", exactly)";
  }
  if (!a.common.output.empty()) write_array(a.common.output, dtype_of<Out>(), h_out.data(), n);

  const double bytes = static_cast<double>(n) * (sizeof(In) + sizeof(Out)) + (segmented ? n : 0);
  std::string mode = std::string(segmented ? "segmented " : "") + (exclusive ? "exclusive" : "inclusive");
  if (matrix) mode += (down ? " down the columns of " : " along the rows of ") + std::to_string(a.rows) + " x " + std::to_string(columns);
  const std::string last = n ? validation::show(h_out.back()) : "(empty)";
  if (!a.common.quiet) {
    std::printf("scan: %lld items, %s -> %s, %s %s, algorithm %s, strategy %s\n", static_cast<long long>(n),
                std::string(to_string(dtype_of<In>())).c_str(), std::string(to_string(dtype_of<Out>())).c_str(),
                a.op.c_str(), mode.c_str(), std::string(to_string(options.algorithm)).c_str(),
                std::string(to_string(options.strategy)).c_str());
    std::printf("last value: %s\n", last.c_str());
    std::printf("%s\n", time_line(t, static_cast<double>(n), "items", bytes).c_str());
    if (!gpus_report.empty()) std::printf("%s\n", gpus_report.c_str());
    std::printf("validation: %s%s\n", a.gpus > 1 ? "the multi-GPU result matches the one-GPU result; " : "", verdict.c_str());
  }
  if (!a.common.json.empty()) {
    json_object j;
    j.add("tool", "scan").add("n", n).add("input_type", std::string(to_string(dtype_of<In>())))
        .add("output_type", std::string(to_string(dtype_of<Out>()))).add("op", a.op).add("mode", mode)
        .add("algorithm", std::string(to_string(options.algorithm))).add("strategy", std::string(to_string(options.strategy)))
        .add("last_value", last);
    add_times(j, t, static_cast<double>(n), "items", bytes);
    if (a.gpus > 1) j.add("gpus", a.gpus).add("gpus_ms", gpus_ms);
    j.add("validated", validate).add("validation", verdict);
    write_json(a.common.json, j.str());
  }
  return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"scan: parallel prefix scan of an array on the GPU (parascan), beside CUB", "scan"};
  scan_args a;
  app.add_option("input", a.input, "Input array: .npy (dtype from the header) or raw little-endian (needs --type). "
                                   "Without one, random data of --n items is generated and validated");
  app.add_option("--type", a.type_name, "Element type of a raw input or of generated data (" + dtype_names() + "; default u32)");
  app.add_option("--acc", a.acc_name, "Output/accumulator type (default: the input type); widening sums such as u8->u32");
  app.add_option("--op", a.op, std::string("Operator: ") + op_names)->capture_default_str();
  auto* inc = app.add_flag("--inclusive", a.inclusive, "Inclusive scan: out[i] includes in[i]");
  app.add_flag("--exclusive", a.exclusive, "Exclusive scan (the default): out[i] = init + in[0..i)")->excludes(inc);
  app.add_option("--init", a.init, "Initial value (default: the operator's identity; optional for --inclusive)");
  app.add_option("--segments", a.segments, "Head flags (.npy or raw u8, one per item, non-zero starts a segment): segmented scan");
  app.add_option("--rows", a.rows, "View the items as a matrix of R rows (C order; the count must be a multiple of R) and "
                                   "scan each row on its own (numpy.cumsum(x.reshape(R, -1), axis=1)), or with --axis 0 "
                                   "down each column")
      ->check(CLI::PositiveNumber);
  app.add_option("--axis", a.axis, "With --rows: 1 scans along each row (default), 0 down each column")
      ->check(CLI::IsMember({0, 1}))->capture_default_str();
  app.add_option("--algorithm", a.algorithm, "Block scan: hillis_steele, blelloch_padded, brent_kung, warp_shuffle (default)");
  app.add_option("--strategy", a.strategy, "Device strategy: recursive, reduce_then_scan, single_pass (default)");
  app.add_option("--n", a.n, "Items to generate when there is no input")->capture_default_str()->check(non_negative());
  app.add_option("--seed", a.seed, "Seed of the generated data")->capture_default_str();
  app.add_option("--gpus", a.gpus, "Also scan over the first N GPUs of this host (NCCL), checked against the one-GPU "
                                   "scan; -o writes that result (sum of i32/u32/i64/u64/f32/f64, max of i32/f32, min of i32)")
      ->capture_default_str();
  common_options& c = a.common;
  add_common_options(app, c, "scan data/coins_u8.npy --acc u64 --inclusive --validate -o prefix.npy");

  return run_tool(app, argc, argv, [&]() -> int {
    scan_options options;
    if (!a.algorithm.empty()) {
      auto v = parse_block_algorithm(a.algorithm);
      if (!v) throw input_error("--algorithm: unknown '" + a.algorithm + "' (hillis_steele, blelloch_padded, brent_kung, warp_shuffle)");
      options.algorithm = *v;
    }
    if (!a.strategy.empty()) {
      auto v = parse_device_strategy(a.strategy);
      if (!v) throw input_error("--strategy: unknown '" + a.strategy + "' (recursive, reduce_then_scan, single_pass)");
      options.strategy = *v;
    }
    std::optional<dtype> type, acc;
    if (!a.type_name.empty() && !(type = parse_dtype(a.type_name)))
      throw input_error("--type: unknown type '" + a.type_name + "' (" + dtype_names() + ")");
    if (!a.acc_name.empty() && !(acc = parse_dtype(a.acc_name)))
      throw input_error("--acc: unknown type '" + a.acc_name + "' (" + dtype_names() + ")");
    visit_op(a.op, [](auto) { return 0; });  // reject an unknown operator before reading files

    std::optional<host_array> file, heads;
    if (!a.input.empty()) file = read_array(a.input, type);
    if (!a.segments.empty()) {
      heads = read_array(a.segments, dtype::u8);
      if (!file) throw input_error("--segments needs an input file of the same length");
      if (heads->count != file->count)
        throw input_error(a.segments + ": holds " + std::to_string(heads->count) + " head flags, but the input has " +
                          std::to_string(file->count) + " items");
    }
    const std::int64_t items = file ? file->count : a.n;
    if (a.rows > 0) {
      if (!a.segments.empty()) throw input_error("--rows and --segments: give one (rows are segments of equal length)");
      if (items % a.rows != 0)
        throw input_error((file ? a.input : std::string("--n")) + ": " + std::to_string(items) + " items are not " +
                          std::to_string(a.rows) + " rows of equal length (--rows must divide the count)");
      if (a.axis == 1 && options.strategy == device_strategy::recursive)
        throw input_error("--rows: the recursive strategy has no scan along rows (use reduce_then_scan or single_pass)");
      if (a.axis == 1 && a.inclusive && !a.init.empty())
        throw input_error("--rows with --inclusive --init: CUB, the reference, has no inclusive scan by key with an init");
      if (a.gpus > 1) throw input_error("--gpus: scans along rows or columns run on one GPU");
    } else if (app.count("--axis")) {
      throw input_error("--axis needs --rows (the matrix's shape)");
    }
    if (!a.segments.empty() && options.strategy == device_strategy::recursive)
      throw input_error("--segments: the recursive strategy does not support segmented scans (use reduce_then_scan or single_pass)");
    const dtype in_t = file ? file->type : type.value_or(dtype::u32);
    const dtype out_t = acc.value_or(in_t);

    // Refuse a combination the library does not build before touching the GPU.
    const bool built = visit_dtype(in_t, [&](auto in_tag) {
      return visit_dtype(out_t, [&](auto out_tag) {
        return visit_op(a.op, [&](auto op) {
          using In = typename decltype(in_tag)::type;
          using Out = typename decltype(out_tag)::type;
          using Op = decltype(op);
          if (a.rows > 0) return has_axis_scan<In, Out, Op> && (a.axis == 0 ? has_scan<In, Out, Op> : has_segmented_scan<In, Out, Op>);
          return heads ? has_segmented_scan<In, Out, Op> : has_scan<In, Out, Op>;
        });
      });
    });
    const std::string combo = a.op + " scans of " + std::string(to_string(in_t)) + " -> " + std::string(to_string(out_t));
    if (!built && heads) throw input_error("--segments: segmented " + combo + " are not built (see README: supported types)");
    if (!built && a.rows > 0)
      throw input_error("--rows: " + combo + " along an axis are not built beside a CUB reference (sums of every type, "
                        "u8->u32 sums, max of i32/f32, min of i32 along rows; down columns also sum/product/min/max of "
                        "32/64-bit types and the widening sums)");
    if (!built)
      throw input_error("--op " + combo + " are not built: bitwise operators need integers, and a wider --acc is for "
                        "sums only (u8->u32, u8->u64, i8->i32, u16->u32, i16->i32, u32->u64, i32->i64, f32->f64)");

    if (!a.init.empty())  // a bad --init is exit 2 before the GPU is touched
      visit_dtype(out_t, [&](auto out_tag) { return (void)parse_value<typename decltype(out_tag)::type>(a.init, "--init"), 0; });

    check_gpus_option(a.gpus);
    if (a.gpus > 1) {
      if (heads) throw input_error("--gpus: segmented scans run on one GPU");
      if (a.inclusive && !a.init.empty()) throw input_error("--gpus: an inclusive scan over several GPUs takes no --init");
#ifdef PARASCAN_HAVE_NCCL
      const bool dist_built = in_t == out_t && visit_dtype(in_t, [&](auto tag) {
        return visit_op(a.op, [&](auto op) { return dist::has_scan<typename decltype(tag)::type, decltype(op)>; });
      });
      if (!dist_built) throw input_error("--gpus: " + combo + " over several GPUs are not built (sum of i32, u32, i64, u64, "
                                         "f32, f64; max of i32, f32; min of i32; no --acc)");
#endif
    }
    require_gpus(a.gpus);
    const auto d = select_device(c.device);
    if (!c.quiet) std::fprintf(stderr, "scan: device %d: %s (sm_%d%d, %d SMs)\n", d.id, d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count);

    return visit_dtype(in_t, [&](auto in_tag) {
      using In = typename decltype(in_tag)::type;
      return visit_dtype(out_t, [&](auto out_tag) {
        using Out = typename decltype(out_tag)::type;
        return visit_op(a.op, [&](auto op) -> int {
          using Op = decltype(op);
          if constexpr (has_segmented_scan<In, Out, Op>) {
            if (heads) return run<In, Out>(a, &*file, &*heads, op, options);
          }
          if constexpr (has_scan<In, Out, Op> || has_axis_scan<In, Out, Op>)
            return run<In, Out>(a, file ? &*file : nullptr, nullptr, op, options);
          throw std::logic_error("unreachable: combination checked above");
        });
      });
    });
  });
}
