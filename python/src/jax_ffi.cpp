// XLA FFI handlers (compiled when the jaxlib headers are found at build time): parascan's scan, sort,
// argsort, top-k and select (rule or mask, padded to n items in its own pass) as targets of jax.ffi.ffi_call, so
// that they run inside jax.jit on XLA's stream, with temporary storage in a workspace result that XLA
// assigns, and may be recorded into XLA's command buffers (CUDA graphs). No Python object is touched in a
// handler (XLA calls them without the GIL). python/parascan/jax.py registers them and shapes the calls.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <cuda_runtime_api.h>
#include "calls.hpp"
#include "layer.hpp"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace parascan::python {
namespace {

/// parascan's type code of an XLA element type ("" where parascan has none).
std::string code_of(ffi::DataType t) {
  switch (t) {
    case ffi::DataType::U8: return "u1";
    case ffi::DataType::S8: return "i1";
    case ffi::DataType::U16: return "u2";
    case ffi::DataType::S16: return "i2";
    case ffi::DataType::U32: return "u4";
    case ffi::DataType::S32: return "i4";
    case ffi::DataType::U64: return "u8";
    case ffi::DataType::S64: return "i8";
    case ffi::DataType::F16: return "f2";
    case ffi::DataType::BF16: return "bf2";
    case ffi::DataType::F32: return "f4";
    case ffi::DataType::F64: return "f8";
    default: return "";
  }
}

/// Each target's last result is its workspace: a uint8 array that python/parascan/jax.py sizes at trace
/// time with jax_workspace_bytes (below), so XLA assigns it like any buffer. Handlers thus allocate no
/// device memory at run time, which is what lets XLA record them into a command buffer (a CUDA graph:
/// Traits::kCmdBufferCompatible; XLA's ScratchAllocator would be freed after a graph's recording).
/// parascan's temporary requests are carved from it in order, each at a 256-byte boundary.
constexpr std::size_t temp_align = 256;

temp_source carve(std::uintptr_t base, std::size_t size) {
  return [at = base, end = base + size](std::size_t bytes) mutable -> void* {
    const std::uintptr_t p = (at + temp_align - 1) & ~std::uintptr_t(temp_align - 1);
    if (p + bytes > end)
      throw std::runtime_error("parascan: the workspace of " + std::to_string(end - at) + " bytes is short of " +
                               std::to_string(bytes) + " (sized for other shapes?)");
    at = p + bytes;
    return reinterpret_cast<void*>(p);
  };
}

/// A temporary source that only counts: each request's bytes and alignment slack added to `total`, and
/// no memory (a null pointer makes the call that follows another size query, which launches nothing).
temp_source counting(std::size_t& total) {
  return [&total](std::size_t bytes) -> void* {
    total += bytes + temp_align - 1;
    return nullptr;
  };
}

/// One array as the calls see it: address, type code, items, and the length of its last axis.
struct operand {
  std::uintptr_t ptr;
  std::string code;
  std::int64_t n, length;
  std::int64_t rows() const { return length == 0 ? 0 : n / length; }
};

/// Handler calls so far, and those made while XLA was recording the stream into a command buffer (a
/// CUDA graph) — what jax_handler_calls reports, for the tests and anyone checking their graphs.
std::atomic<std::int64_t> handler_calls{0}, recorded_calls{0};

/// Runs f, turning an exception into an XLA error that names the call; counts the call.
template <class F>
ffi::Error guarded(const char* what, cudaStream_t stream, F&& f) {
  ++handler_calls;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) == cudaSuccess && capture == cudaStreamCaptureStatusActive) ++recorded_calls;
  try {
    f();
    return ffi::Error::Success();
  } catch (const std::exception& e) {
    return ffi::Error::Internal(std::string("parascan.jax.") + what + ": " + e.what());
  }
}

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

operand operand_of(const ffi::AnyBuffer& x) {
  const auto dims = x.dimensions();
  return {address(x.untyped_data()), code_of(x.element_type()), static_cast<std::int64_t>(x.element_count()),
          dims.size() == 0 ? 1 : dims[dims.size() - 1]};
}

temp_source workspace_of(ffi::Result<ffi::AnyBuffer>& w) { return carve(address(w->untyped_data()), w->size_bytes()); }

// The calls, shared by the handlers and by jax_workspace_bytes (a counting source, any non-null addresses).

void scan_call(const operand& x, std::uintptr_t y, bool inclusive, const std::string& op, std::uintptr_t stream,
               const temp_source& temp) {
  if (x.code.empty() || x.code == "f2" || x.code == "bf2") throw std::invalid_argument("no scan of this element type");
  scan_items_plain(inclusive, x.ptr, y, x.code, x.n, op, stream, temp);
}

/// Sorts along the last axis: keys into `keys_out`, or (argsort) positions into `positions` ("i4" or "i8",
/// as the result's type: JAX without x64 asks for int32) with the sorted keys in the workspace.
void sort_call(const operand& x, std::uintptr_t keys_out, std::uintptr_t positions, const std::string& position_code,
               bool descending, std::uintptr_t stream, const temp_source& temp) {
  if (x.code.empty()) throw std::invalid_argument("no sort of this element type");
  const int end_bit = x.code == "bf2" ? 16 : 8 * (x.code[1] - '0');
  const bool argsort = positions != 0;
  if (argsort && position_code != "i4" && position_code != "i8")
    throw std::invalid_argument("positions must be int32 or int64");
  if (argsort && x.n > 0) keys_out = address(temp(static_cast<std::size_t>(x.n) * (end_bit / 8)));
  const char* value_type = position_code == "i4" ? "u4" : "u8";
  if (x.rows() <= 1) {
    sort_items(x.ptr, keys_out, x.code, 0, positions, value_type, argsort, x.n, descending, 0, end_bit, stream, temp);
  } else {
    segmented_sort_items(x.ptr, keys_out, x.code, 0, positions, value_type, argsort, x.n, x.rows(), x.length, 0, 0,
                         descending, 0, end_bit, stream, temp);
  }
}

void topk_call(const operand& x, std::uintptr_t values, std::uintptr_t indices, std::int64_t k, bool largest,
               bool sorted, std::uintptr_t stream, const temp_source& temp) {
  if (x.code.empty()) throw std::invalid_argument("no top-k of this element type");
  topk_items(x.ptr, x.code, x.rows(), x.length, k, values, indices, largest, sorted, stream, temp);
}

/// Selection of the items of x (C order) where mask != 0 (mask.ptr != 0) or the rule holds, into the first
/// items of `out` (x's type, n items), the rest set to the value whose bytes in x's type are the low bytes of
/// `fill` (with `launch_fill`; the size queries skip it);
/// the count into `count` (int64), or into the workspace and then `count32` (JAX without x64).
void select_call(const operand& x, const operand& mask, std::uintptr_t out, std::uintptr_t count, std::uintptr_t count32,
                 const std::string& rule, double value, std::int64_t fill, bool launch_fill, std::uintptr_t stream,
                 const temp_source& temp) {
  if (x.code.empty() || x.code == "f2" || x.code == "bf2") throw std::invalid_argument("no select of this element type");
  if (mask.ptr != 0 && mask.n != x.n) throw std::invalid_argument("mask and x differ in size");
  if (count == 0) count = address(temp(sizeof(std::int64_t)));
  if (x.n == 0) {  // nothing to select, no temporary storage asked for, so no launch would write the count
    if (launch_fill) {
      check(cudaMemsetAsync(reinterpret_cast<void*>(count), 0, sizeof(std::int64_t), as_stream(stream)), "select");
      if (count32 != 0)
        check(cudaMemsetAsync(reinterpret_cast<void*>(count32), 0, sizeof(std::int32_t), as_stream(stream)), "select");
    }
    return;
  }
  const auto fill_bits = static_cast<std::uint64_t>(fill);
  select_items(x.ptr, x.code, x.n, mask.ptr, mask.code.empty() ? "u1" : mask.code, rule, value, false, false, out, count,
               stream, temp, launch_fill ? &fill_bits : nullptr);
  if (launch_fill && count32 != 0) copy_count_to_int32(count, count32, stream);
}

ffi::Error scan_impl(cudaStream_t stream, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> y,
                     ffi::Result<ffi::AnyBuffer> w, bool inclusive, std::string_view op) {
  return guarded("scan", stream, [&] {
    scan_call(operand_of(x), address(y->untyped_data()), inclusive, std::string(op), address(stream), workspace_of(w));
  });
}

ffi::Error sort_impl(cudaStream_t stream, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> y,
                     ffi::Result<ffi::AnyBuffer> w, bool descending) {
  return guarded("sort", stream, [&] {
    sort_call(operand_of(x), address(y->untyped_data()), 0, "", descending, address(stream), workspace_of(w));
  });
}

ffi::Error argsort_impl(cudaStream_t stream, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> positions,
                        ffi::Result<ffi::AnyBuffer> w, bool descending) {
  return guarded("argsort", stream, [&] {
    sort_call(operand_of(x), 0, address(positions->untyped_data()), code_of(positions->element_type()), descending,
              address(stream), workspace_of(w));
  });
}

ffi::Error topk_impl(cudaStream_t stream, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> values,
                     ffi::Result<ffi::AnyBuffer> indices, ffi::Result<ffi::AnyBuffer> w, std::int64_t k, bool largest,
                     bool sorted) {
  return guarded("topk", stream, [&] {
    if (indices->element_type() != ffi::DataType::S64) throw std::invalid_argument("indices must be int64 (jax_enable_x64)");
    topk_call(operand_of(x), address(values->untyped_data()), address(indices->untyped_data()), k, largest, sorted,
              address(stream), workspace_of(w));
  });
}

/// The count result as select_call takes it: int64 directly, int32 through the workspace.
std::pair<std::uintptr_t, std::uintptr_t> count_of(ffi::Result<ffi::AnyBuffer>& c) {
  if (c->element_type() == ffi::DataType::S64) return {address(c->untyped_data()), 0};
  if (c->element_type() == ffi::DataType::S32) return {0, address(c->untyped_data())};
  throw std::invalid_argument("the count must be int32 or int64");
}

ffi::Error select_impl(cudaStream_t stream, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> out, ffi::Result<ffi::AnyBuffer> count,
                       ffi::Result<ffi::AnyBuffer> w, std::string_view rule, double value, std::int64_t fill) {
  return guarded("select", stream, [&] {
    const auto [c64, c32] = count_of(count);
    select_call(operand_of(x), operand{0, "", 0, 0}, address(out->untyped_data()), c64, c32, std::string(rule), value,
                fill, true, address(stream), workspace_of(w));
  });
}

ffi::Error select_mask_impl(cudaStream_t stream, ffi::AnyBuffer x, ffi::AnyBuffer mask, ffi::Result<ffi::AnyBuffer> out,
                            ffi::Result<ffi::AnyBuffer> count, ffi::Result<ffi::AnyBuffer> w, std::int64_t fill) {
  return guarded("select", stream, [&] {
    const auto [c64, c32] = count_of(count);
    select_call(operand_of(x), operand_of(mask), address(out->untyped_data()), c64, c32, "nonzero", 0.0, fill, true,
                address(stream), workspace_of(w));
  });
}

/// Every handler's head: XLA's stream and the one input array (the results, workspace last, follow).
auto bind_input() { return ffi::Ffi::Bind().Ctx<ffi::PlatformStream<cudaStream_t>>().Arg<ffi::AnyBuffer>(); }

/// Every handler's traits: launches only, of the same kernels for the same shapes and attributes, into
/// buffers XLA gave it, so that XLA may record it into a command buffer.
constexpr auto graph_safe = {ffi::Traits::kCmdBufferCompatible};

}  // namespace
}  // namespace parascan::python

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_scan, parascan::python::scan_impl,
                              parascan::python::bind_input()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<bool>("inclusive")
                                  .Attr<std::string_view>("op"),
                              parascan::python::graph_safe);

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_sort, parascan::python::sort_impl,
                              parascan::python::bind_input().Ret<ffi::AnyBuffer>().Ret<ffi::AnyBuffer>().Attr<bool>(
                                  "descending"),
                              parascan::python::graph_safe);

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_argsort, parascan::python::argsort_impl,
                              parascan::python::bind_input().Ret<ffi::AnyBuffer>().Ret<ffi::AnyBuffer>().Attr<bool>(
                                  "descending"),
                              parascan::python::graph_safe);

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_topk, parascan::python::topk_impl,
                              parascan::python::bind_input()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<std::int64_t>("k")
                                  .Attr<bool>("largest")
                                  .Attr<bool>("sorted"),
                              parascan::python::graph_safe);

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_select, parascan::python::select_impl,
                              parascan::python::bind_input()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<std::string_view>("rule")
                                  .Attr<double>("value")
                                  .Attr<std::int64_t>("fill"),
                              parascan::python::graph_safe);

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_select_mask, parascan::python::select_mask_impl,
                              parascan::python::bind_input()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<std::int64_t>("fill"),
                              parascan::python::graph_safe);

namespace parascan::python {

/// The handlers as PyCapsules, by target name, for jax.ffi.register_ffi_target; the handler calls so far
/// (all, and those recorded into a command buffer); and the bytes of a
/// target's workspace for an input of `code` with n items whose last axis has `length` (the same calls
/// made with a counting source: size queries only, nothing launched or read).
void bind_jax(nb::module_& m) {
  using namespace nb::literals;
  m.def("jax_targets", [] {
    nb::dict d;
    d["parascan_scan"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_scan));
    d["parascan_sort"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_sort));
    d["parascan_argsort"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_argsort));
    d["parascan_topk"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_topk));
    d["parascan_select"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_select));
    d["parascan_select_mask"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_select_mask));
    return d;
  });
  m.def("jax_handler_calls", [] { return std::make_pair(handler_calls.load(), recorded_calls.load()); });
  m.def(
      "jax_workspace_bytes",
      [](const std::string& target, const std::string& code, std::int64_t n, std::int64_t length, bool inclusive,
         const std::string& op, bool descending, const std::string& positions, std::int64_t k, bool largest,
         bool sorted, const std::string& rule, const std::string& mask_code) {
        std::size_t total = 0;
        const temp_source count = counting(total);
        const std::uintptr_t some = temp_align;  // an address for the size queries, never read
        const operand x{some, code, n, length};
        if (target == "parascan_scan") scan_call(x, some, inclusive, op, 0, count);
        else if (target == "parascan_sort") sort_call(x, some, 0, "", descending, 0, count);
        else if (target == "parascan_argsort") sort_call(x, 0, some, positions, descending, 0, count);
        else if (target == "parascan_topk") topk_call(x, some, some, k, largest, sorted, 0, count);
        else if (target == "parascan_select" || target == "parascan_select_mask")  // the count in the workspace too
          select_call(x, operand{target == "parascan_select" ? 0 : some, mask_code, n, length}, some, 0, 0,
                      target == "parascan_select" ? rule : "nonzero", 0.0, 0, false, 0, count);
        else throw nb::value_error(("parascan: no JAX target '" + target + "'").c_str());
        return std::max<std::size_t>(total, 1);
      },
      "target"_a, "code"_a, "n"_a, "length"_a, "inclusive"_a = true, "op"_a = "sum", "descending"_a = false,
      "positions"_a = "i8", "k"_a = 0, "largest"_a = true, "sorted"_a = true, "rule"_a = "nonzero",
      "mask_code"_a = "u1");
}

}  // namespace parascan::python
