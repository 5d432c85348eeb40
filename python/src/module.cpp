// parascan._core: the nanobind layer between Python and libparascan. It takes raw device pointers,
// element types as NumPy type codes ("u4", "f8", "b1", ...) and a stream handle; the Python package
// (parascan/__init__.py) does the array interop. Temporary storage comes from parascan's own
// stream-ordered pool (layer.hpp), so nothing here synchronises except the calls that must read a count
// (`read_count`) and the host pipelines. CUDA errors raise RuntimeError naming the error, out of device
// memory MemoryError with the bytes requested. This file: scans, compaction, sorting, the host pipelines
// and the module; images.cpp: summed-area tables and marching cubes; direct.cpp: the common calls
// made whole in C++ for torch and CuPy arrays.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <cuda_runtime_api.h>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include "calls.hpp"
#include "layer.hpp"
#include "parascan/axis_scan.hpp"
#include "parascan/config.hpp"
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/instantiated.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/ops.hpp"
#include "parascan/sat.hpp"
#include "parascan/scan.hpp"
#include "parascan/select.hpp"
#include "parascan/version.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using namespace parascan;
using namespace parascan::python;

namespace parascan::python {
void bind_images(nb::module_& m);  // images.cpp
void bind_direct(nb::module_& m);  // direct.cpp
#ifdef PARASCAN_JAX_FFI
void bind_jax(nb::module_& m);  // jax_ffi.cpp
#endif
}

namespace {

scan_options scan_opts(const std::string& algorithm, const std::string& strategy) {
  scan_options o;
  if (!algorithm.empty()) {
    const auto a = parse_block_algorithm(algorithm);
    if (!a) throw nb::value_error(("parascan: algorithm '" + algorithm + "' is not one of hillis_steele, blelloch_padded, brent_kung, warp_shuffle").c_str());
    o.algorithm = *a;
  }
  if (!strategy.empty()) {
    const auto s = parse_device_strategy(strategy);
    if (!s) throw nb::value_error(("parascan: strategy '" + strategy + "' is not one of recursive, reduce_then_scan, single_pass").c_str());
    o.strategy = *s;
  }
  return o;
}

template <class T>
T from_python(const nb::object& v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(nb::cast<double>(v));
  else if constexpr (std::is_signed_v<T>) return static_cast<T>(nb::cast<long long>(v));
  else return static_cast<T>(nb::cast<unsigned long long>(v));
}

/// The three scan forms a Python call asks for: inclusive (init None), inclusive with init, or
/// exclusive (init None: the operator's identity); `run(form, value)` makes the call.
enum class scan_form { inclusive, inclusive_init, exclusive };
template <class Out, class Op, class Run>
void with_scan_form(bool inclusive, const nb::object& init, Run&& run) {
  if (inclusive && init.is_none()) run(scan_form::inclusive, Out{});
  else if (inclusive) run(scan_form::inclusive_init, from_python<Out>(init));
  else run(scan_form::exclusive, init.is_none() ? identity_of<Op, Out>() : from_python<Out>(init));
}

}  // namespace

namespace parascan::python {  // declared in calls.hpp (direct.cpp calls them too)

/// Exclusive (with init) or inclusive (init None) scan of n items.
void scan_items(bool inclusive, std::uintptr_t in, const std::string& in_type, std::uintptr_t out, const std::string& out_type,
                std::int64_t n, const std::string& op, nb::object init, const std::string& algorithm,
                const std::string& strategy, std::uintptr_t stream) {
  const scan_options o = scan_opts(algorithm, strategy);
  with_scan_types(in_type, out_type, op, [&](auto in_tag, auto out_tag, auto op_tag) {
    using In = typename decltype(in_tag)::type;
    using Out = typename decltype(out_tag)::type;
    using Op = typename decltype(op_tag)::type;
    if constexpr (has_scan<In, Out, Op>) {
      const cudaStream_t s = as_stream(stream);
      const auto* i = as_ptr<const In>(in);
      auto* r = as_ptr<Out>(out);
      with_scan_form<Out, Op>(inclusive, init, [&](scan_form form, Out v) {
        two_phase([&](void* t, std::size_t& b) {
          if (form == scan_form::inclusive) return inclusive_scan(t, b, i, r, n, Op{}, s, o);
          if (form == scan_form::inclusive_init) return inclusive_scan_init(t, b, i, r, n, Op{}, v, s, o);
          return exclusive_scan(t, b, i, r, n, Op{}, v, s, o);
        }, s, form == scan_form::exclusive ? "exclusive_scan" : "inclusive_scan");
      });
    } else {
      throw nb::value_error(("parascan: no " + op + " scan from " + in_type + " to " + out_type +
                             " (same-type scans of every integer and float type, bitwise ops on integers only; "
                             "widening sums u1→u4/u8, i1→i4, u2→u4, i2→i4, u4→u8, i4→i8, f4→f8)").c_str());
    }
  });
}

void scan_items_plain(bool inclusive, std::uintptr_t in, std::uintptr_t out, const std::string& type, std::int64_t n,
                      const std::string& op, std::uintptr_t stream, const temp_source& temp) {
  with_scan_types(type, type, op, [&](auto in_tag, auto out_tag, auto op_tag) {
    using In = typename decltype(in_tag)::type;
    using Out = typename decltype(out_tag)::type;
    using Op = typename decltype(op_tag)::type;
    if constexpr (has_scan<In, Out, Op>) {
      const cudaStream_t s = as_stream(stream);
      two_phase([&](void* t, std::size_t& b) {
        if (inclusive) return inclusive_scan(t, b, as_ptr<const In>(in), as_ptr<Out>(out), n, Op{}, s);
        return exclusive_scan(t, b, as_ptr<const In>(in), as_ptr<Out>(out), n, Op{}, identity_of<Op, Out>(), s);
      }, s, inclusive ? "inclusive_scan" : "exclusive_scan", temp);
    } else {
      throw nb::value_error(("parascan: no " + op + " scan of " + type).c_str());
    }
  });
}

}  // namespace parascan::python

namespace {

keep_kind parse_keep(const std::string& k) {
  if (const auto kind = parse_keep_kind(k)) return *kind;
  throw nb::value_error(("parascan: keep rule '" + k + "' is not one of nonzero, gt:X, ge:X, lt:X, le:X, eq:X, ne:X, odd, even, finite").c_str());
}

/// The keep rule named `rule` for items of type T ('finite' needs floats, 'odd'/'even' integers).
template <class T>
keep_rule<T> checked_rule(const std::string& rule, double value) {
  const keep_kind k = parse_keep(rule);
  if constexpr (!std::is_floating_point_v<T>) {
    if (k == keep_kind::finite) throw nb::value_error("parascan: keep 'finite' needs float items");
  } else {
    if (k == keep_kind::odd || k == keep_kind::even) throw nb::value_error("parascan: keep 'odd'/'even' needs integer items");
  }
  return keep_rule<T>{k, static_cast<T>(value)};
}

}  // namespace

namespace parascan::python {  // declared in calls.hpp (direct.cpp calls them too)

/// Compaction: kept values (or their int64 positions with `indices`), or with `partition` all items,
/// kept first; *count gets the number kept. Kept by a rule (mask == 0) or by mask != 0. With `fill_bits`
/// (values only) the output holds n items, the rest set to the value of those bytes (select_*_padded).
void select_items(std::uintptr_t in, const std::string& type, std::int64_t n, std::uintptr_t mask, const std::string& mask_type,
            const std::string& rule, double value, bool indices, bool partition, std::uintptr_t out, std::uintptr_t count,
            std::uintptr_t stream, const temp_source& temp, const std::uint64_t* fill_bits) {
  const cudaStream_t s = as_stream(stream);
  auto* cnt = as_ptr<std::int64_t>(count);
  const bool fill = fill_bits != nullptr;
  if (fill && (indices || partition)) throw nb::value_error("parascan: a fill value pads selected values only");
  // The fill in T: the low sizeof(T) bytes of *fill_bits (little-endian, as the Python layer packs them).
  const auto fill_as = [fill_bits](auto t_tag) {
    typename decltype(t_tag)::type v;
    std::memcpy(&v, fill_bits, sizeof(v));
    return v;
  };
  if (mask != 0 && indices) {
    with_type(mask_type, [&](auto f_tag) {
      using F = typename decltype(f_tag)::type;
      if constexpr (std::is_integral_v<F>)
        two_phase([&](void* t, std::size_t& b) { return select_flagged_indices(t, b, as_ptr<const F>(mask), as_ptr<std::int64_t>(out), cnt, n, s); }, s, "select", temp);
      else throw nb::type_error("parascan: mask must hold integers or booleans");
    });
    return;
  }
  with_type(type, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    if (mask != 0) {
      with_type(mask_type, [&](auto f_tag) {
        using F = typename decltype(f_tag)::type;
        if constexpr (std::is_integral_v<F>) {
          if (partition) two_phase([&](void* t, std::size_t& b) { return partition_flagged(t, b, as_ptr<const T>(in), as_ptr<const F>(mask), as_ptr<T>(out), cnt, n, s); }, s, "partition", temp);
          else if (fill) two_phase([&](void* t, std::size_t& b) { return select_flagged_padded(t, b, as_ptr<const T>(in), as_ptr<const F>(mask), as_ptr<T>(out), cnt, n, fill_as(t_tag), s); }, s, "select", temp);
          else two_phase([&](void* t, std::size_t& b) { return select_flagged(t, b, as_ptr<const T>(in), as_ptr<const F>(mask), as_ptr<T>(out), cnt, n, s); }, s, "select", temp);
        } else {
          throw nb::type_error("parascan: mask must hold integers or booleans");
        }
      });
      return;
    }
    const keep_rule<T> r = checked_rule<T>(rule, value);
    if (indices) two_phase([&](void* t, std::size_t& b) { return select_if_indices(t, b, as_ptr<const T>(in), as_ptr<std::int64_t>(out), cnt, n, r, s); }, s, "select", temp);
    else if (partition) two_phase([&](void* t, std::size_t& b) { return partition_if(t, b, as_ptr<const T>(in), as_ptr<T>(out), cnt, n, r, s); }, s, "partition", temp);
    else if (fill) two_phase([&](void* t, std::size_t& b) { return select_if_padded(t, b, as_ptr<const T>(in), as_ptr<T>(out), cnt, n, r, fill_as(t_tag), s); }, s, "select", temp);
    else two_phase([&](void* t, std::size_t& b) { return select_if(t, b, as_ptr<const T>(in), as_ptr<T>(out), cnt, n, r, s); }, s, "select", temp);
  });
}

}  // namespace parascan::python

namespace {

/// NumPy arrays larger than the GPU: sums and rule-based compaction streamed through the host pipelines
/// (host pointers in and out; blocks until the output is complete). Types i4, u4, i8, u8, f4, f8.
template <class F>
void with_pipeline_type(const std::string& code, F&& f) {
  if (code == "i4" || code == "u4" || code == "i8" || code == "u8" || code == "f4" || code == "f8")
    with_type(code, [&](auto t_tag) {
      using T = typename decltype(t_tag)::type;
      if constexpr (sizeof(T) >= 4) f(t_tag);
    });
  else throw nb::value_error(("parascan: no host pipeline for element type '" + code + "'").c_str());
}

void scan_host(bool inclusive, std::uintptr_t in, std::uintptr_t out, const std::string& type, std::int64_t n) {
  with_pipeline_type(type, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    nb::gil_scoped_release unlocked;
    scan_pipeline<T>().run(as_ptr<const T>(in), as_ptr<T>(out), n, inclusive);
  });
}

std::int64_t select_host(std::uintptr_t in, std::uintptr_t out, const std::string& type, std::int64_t n,
                         const std::string& rule, double value) {
  std::int64_t kept = 0;
  with_pipeline_type(type, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    const keep_rule<T> r = checked_rule<T>(rule, value);
    nb::gil_scoped_release unlocked;
    kept = select_pipeline<T>().run(as_ptr<const T>(in), as_ptr<T>(out), n, r);
  });
  return kept;
}

}  // namespace


namespace {

/// Segmented scan: restarts at every item whose head flag (u1) is non-zero.
void segmented_scan_items(bool inclusive, std::uintptr_t in, const std::string& in_type, std::uintptr_t heads,
                          std::uintptr_t out, const std::string& out_type, std::int64_t n, const std::string& op,
                          nb::object init, std::uintptr_t stream) {
  with_scan_types(in_type, out_type, op, [&](auto in_tag, auto out_tag, auto op_tag) {
    using In = typename decltype(in_tag)::type;
    using Out = typename decltype(out_tag)::type;
    using Op = typename decltype(op_tag)::type;
    if constexpr (has_segmented_scan<In, Out, Op>) {
      const cudaStream_t s = as_stream(stream);
      const auto* h = as_ptr<const std::uint8_t>(heads);
      if (inclusive) {
        two_phase([&](void* t, std::size_t& b) { return segmented_inclusive_scan(t, b, as_ptr<const In>(in), h, as_ptr<Out>(out), n, Op{}, s); }, s, "segmented_scan");
      } else {
        const Out v = init.is_none() ? identity_of<Op, Out>() : from_python<Out>(init);
        two_phase([&](void* t, std::size_t& b) { return segmented_exclusive_scan(t, b, as_ptr<const In>(in), h, as_ptr<Out>(out), n, Op{}, v, s); }, s, "segmented_scan");
      }
    } else {
      throw nb::value_error(("parascan: no segmented " + op + " scan from " + in_type + " to " + out_type +
                             " (sums of every type into the same type, u1 into u4; max of i4 and f4; min of i4)").c_str());
    }
  });
}

/// Scan along an axis: outer × extent × inner items, each (o, ·, c) line scanned on its own.
void axis_scan_items(bool inclusive, std::uintptr_t in, const std::string& in_type, std::uintptr_t out,
                     const std::string& out_type, std::int64_t outer, std::int64_t extent, std::int64_t inner,
                     const std::string& op, nb::object init, std::uintptr_t stream) {
  with_scan_types(in_type, out_type, op, [&](auto in_tag, auto out_tag, auto op_tag) {
    using In = typename decltype(in_tag)::type;
    using Out = typename decltype(out_tag)::type;
    using Op = typename decltype(op_tag)::type;
    if constexpr (has_axis_scan<In, Out, Op>) {
      const cudaStream_t s = as_stream(stream);
      const axis_shape shape{outer, extent, inner};
      const auto* i = as_ptr<const In>(in);
      auto* o = as_ptr<Out>(out);
      with_scan_form<Out, Op>(inclusive, init, [&](scan_form form, Out v) {
        two_phase([&](void* t, std::size_t& b) {
          if (form == scan_form::inclusive) return inclusive_scan_axis(t, b, i, o, shape, Op{}, s);
          if (form == scan_form::inclusive_init) return inclusive_scan_axis_init(t, b, i, o, shape, Op{}, v, s);
          return exclusive_scan_axis(t, b, i, o, shape, Op{}, v, s);
        }, s, form == scan_form::exclusive ? "exclusive_scan" : "inclusive_scan");
      });
    } else {
      throw nb::value_error(("parascan: no " + op + " scan along an axis from " + in_type + " to " + out_type +
                             " (sum, product, min, max of 32/64-bit integers and floats; sums of 8/16-bit integers; "
                             "widening sums u1→u4/u8, i1→i4, u2→u4, i2→i4, u4→u8, i4→i8, f4→f8; "
                             "axis=None scans the flattened array with every operator)").c_str());
    }
  });
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "parascan's compiled layer (use the functions of the parascan package)";
  m.attr("version") = PARASCAN_VERSION_STRING;
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const memory_error& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const cuda_error& e) {  // from the host pipelines
      (void)cudaGetLastError();
      PyErr_SetString(e.code() == cudaErrorMemoryAllocation ? PyExc_MemoryError : PyExc_RuntimeError,
                      (std::string("parascan: ") + e.what()).c_str());
    }
  });
  m.def("device_count", [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  });
  m.def("current_device", [] {
    int d = 0;
    check(cudaGetDevice(&d), "cudaGetDevice");
    return d;
  });
  m.def("set_device", [](int d) { check(cudaSetDevice(d), "cudaSetDevice"); });
  m.def("malloc", [](std::size_t bytes, std::uintptr_t stream) {
    return reinterpret_cast<std::uintptr_t>(pool_alloc(bytes, as_stream(stream), "an array"));
  });
  m.def("free", [](std::uintptr_t p, std::uintptr_t stream) {
    if (p) check(cudaFreeAsync(reinterpret_cast<void*>(p), as_stream(stream)), "cudaFreeAsync");
  });
  m.def("copy", [](std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream) {
    if (bytes) check(cudaMemcpyAsync(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes, cudaMemcpyDefault, as_stream(stream)), "cudaMemcpyAsync");
  });
  m.def("synchronize", [](std::uintptr_t stream) { check(cudaStreamSynchronize(as_stream(stream)), "cudaStreamSynchronize"); });
  m.def("read_count", [](std::uintptr_t count, std::uintptr_t stream) {
    return read_count(reinterpret_cast<const void*>(count), as_stream(stream));
  });
  m.def("free_device_memory", [] {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
  });
  // `init` is None for "no initial value": nanobind refuses None unless an argument is marked so.
  m.def("scan", &scan_items, "inclusive"_a, "in"_a, "in_type"_a, "out"_a, "out_type"_a, "n"_a, "op"_a,
        "init"_a.none(), "algorithm"_a, "strategy"_a, "stream"_a);
  m.def("axis_scan", &axis_scan_items, "inclusive"_a, "in"_a, "in_type"_a, "out"_a, "out_type"_a, "outer"_a,
        "extent"_a, "inner"_a, "op"_a, "init"_a.none(), "stream"_a);
  m.def("scan_host", &scan_host);
  // The benchmark's reference for the call overhead: `calls` inclusive sums of n int32 issued from C++ the
  // way this module issues them (size query, stream-ordered temporary, the call), host µs per call.
  m.def("cxx_scan_call_us", [](std::uintptr_t in, std::uintptr_t out, std::int64_t n, int calls, std::uintptr_t stream) {
    const cudaStream_t s = as_stream(stream);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i)
      two_phase([&](void* t, std::size_t& b) { return inclusive_scan(t, b, as_ptr<const std::int32_t>(in), as_ptr<std::int32_t>(out), n, sum{}, s, scan_options{}); }, s, "inclusive_scan");
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(t1 - t0).count() / calls;
  });
  m.def("select_host", &select_host);
  // fill_bits: None, or the padded select's fill value as the bytes of the items' type (select_*_padded:
  // out holds n items)
  m.def("select", [](std::uintptr_t in, const std::string& type, std::int64_t n, std::uintptr_t mask,
                     const std::string& mask_type, const std::string& rule, double value, bool indices, bool partition,
                     std::uintptr_t out, std::uintptr_t count, std::uintptr_t stream, std::optional<std::uint64_t> fill_bits) {
    select_items(in, type, n, mask, mask_type, rule, value, indices, partition, out, count, stream, {},
                 fill_bits ? &*fill_bits : nullptr);
  });
  // temp: None (the pool) or a callable taking a byte count and returning a device array with `.ptr`
  // (the Python layer passes one for torch and CuPy arrays: their framework's caching allocator).
  m.def(
      "sort",
      [](std::uintptr_t keys_in, std::uintptr_t keys_out, const std::string& key_type, std::uintptr_t values_in,
         std::uintptr_t values_out, const std::string& value_type, bool argsort, std::int64_t n, bool descending,
         int begin_bit, int end_bit, std::uintptr_t stream, nb::object temp) {
        nb::object held;  // the framework's block, kept until the sort is enqueued
        const temp_source from = temp_from(temp, held);
        sort_items(keys_in, keys_out, key_type, values_in, values_out, value_type, argsort, n, descending, begin_bit,
                   end_bit, stream, from);
      },
      "keys_in"_a, "keys_out"_a, "key_type"_a, "values_in"_a, "values_out"_a, "value_type"_a, "argsort"_a, "n"_a,
      "descending"_a, "begin_bit"_a, "end_bit"_a, "stream"_a, "temp"_a = nb::none());
  m.def(
      "segmented_sort",
      [](std::uintptr_t keys_in, std::uintptr_t keys_out, const std::string& key_type, std::uintptr_t values_in,
         std::uintptr_t values_out, const std::string& value_type, bool argsort, std::int64_t n, std::int64_t count,
         std::int64_t row_length, std::uintptr_t begin, std::uintptr_t end, bool descending, int begin_bit, int end_bit,
         std::uintptr_t stream, nb::object temp) {
        nb::object held;  // the framework's block, kept until the sort is enqueued
        const temp_source from = temp_from(temp, held);
        segmented_sort_items(keys_in, keys_out, key_type, values_in, values_out, value_type, argsort, n, count, row_length,
                             begin, end, descending, begin_bit, end_bit, stream, from);
      },
      "keys_in"_a, "keys_out"_a, "key_type"_a, "values_in"_a, "values_out"_a, "value_type"_a, "argsort"_a, "n"_a,
      "count"_a, "row_length"_a, "begin"_a, "end"_a, "descending"_a, "begin_bit"_a, "end_bit"_a, "stream"_a,
      "temp"_a = nb::none());
  m.def("topk",
        [](std::uintptr_t keys, const std::string& key_type, std::int64_t rows, std::int64_t length, std::int64_t k,
           std::uintptr_t out_keys, std::uintptr_t out_indices, bool largest, bool sorted, std::uintptr_t stream,
           nb::object temp) {
          topk_items(keys, key_type, rows, length, k, out_keys, out_indices, largest, sorted, stream, std::move(temp));
        },
        "keys"_a, "key_type"_a, "rows"_a, "length"_a, "k"_a, "out_keys"_a, "out_indices"_a,
        "largest"_a, "sorted"_a, "stream"_a, "temp"_a = nb::none());
  m.def("segmented_scan", &segmented_scan_items, "inclusive"_a, "in"_a, "in_type"_a, "heads"_a, "out"_a,
        "out_type"_a, "n"_a, "op"_a, "init"_a.none(), "stream"_a);
  bind_images(m);
  bind_direct(m);
#ifdef PARASCAN_JAX_FFI
  bind_jax(m);
#endif
}

