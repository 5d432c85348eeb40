// XLA FFI handlers (compiled when the jaxlib headers are found at build time): parascan's scan, sort,
// argsort and top-k as targets of jax.ffi.ffi_call, so that they run inside jax.jit on XLA's stream
// with temporary storage from XLA's scratch allocator. No Python object is touched here (XLA calls the
// handlers without the GIL). python/parascan/jax.py registers them and shapes the calls.
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
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

/// XLA's scratch allocator as parascan's temporary-storage source (freed by XLA after the handler, in
/// the stream's order). XLA accepts alignments of at most 16 bytes, so 255 more bytes are asked for and
/// the pointer rounded up to parascan's 256.
temp_source scratch_of(ffi::ScratchAllocator& scratch) {
  return [&scratch](std::size_t bytes) -> void* {
    constexpr std::size_t align = 256;
    const auto p = scratch.Allocate(bytes + align - 1, 16);
    if (!p.has_value()) throw std::runtime_error("parascan: XLA's scratch allocator refused " + std::to_string(bytes) + " bytes");
    const auto at = (reinterpret_cast<std::uintptr_t>(*p) + align - 1) & ~std::uintptr_t(align - 1);
    return reinterpret_cast<void*>(at);
  };
}

/// Runs f, turning an exception into an XLA error that names the call.
template <class F>
ffi::Error guarded(const char* what, F&& f) {
  try {
    f();
    return ffi::Error::Success();
  } catch (const std::exception& e) {
    return ffi::Error::Internal(std::string("parascan.jax.") + what + ": " + e.what());
  }
}

/// The length of the last axis (1 for a scalar).
std::int64_t last_extent(const ffi::AnyBuffer& x) {
  const auto dims = x.dimensions();
  return dims.size() == 0 ? 1 : dims[dims.size() - 1];
}

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

ffi::Error scan_impl(cudaStream_t stream, ffi::ScratchAllocator scratch, ffi::AnyBuffer x,
                     ffi::Result<ffi::AnyBuffer> y, bool inclusive, std::string_view op) {
  return guarded("scan", [&] {
    const std::string code = code_of(x.element_type());
    if (code.empty() || code == "f2" || code == "bf2") throw std::invalid_argument("no scan of this element type");
    scan_items_plain(inclusive, address(x.untyped_data()), address(y->untyped_data()), code,
                     static_cast<std::int64_t>(x.element_count()), std::string(op), address(stream), scratch_of(scratch));
  });
}

/// Sorts along the last axis: keys into `keys_out`, or (argsort) positions into `positions` (int32 or
/// int64, as the result's type: JAX without x64 asks for int32) with the sorted keys in scratch.
void sort_rows(cudaStream_t stream, ffi::ScratchAllocator& scratch, const ffi::AnyBuffer& x, void* keys_out,
               void* positions, ffi::DataType position_type, bool descending) {
  const std::string code = code_of(x.element_type());
  if (code.empty()) throw std::invalid_argument("no sort of this element type");
  const auto n = static_cast<std::int64_t>(x.element_count());
  const std::int64_t length = last_extent(x), rows = length == 0 ? 0 : n / length;
  const temp_source temp = scratch_of(scratch);
  const int end_bit = code == "bf2" ? 16 : 8 * (code[1] - '0');
  const bool argsort = positions != nullptr;
  if (argsort && n > 0) keys_out = temp(static_cast<std::size_t>(n) * (end_bit / 8));
  const char* value_type = position_type == ffi::DataType::S32 ? "u4" : "u8";
  if (rows <= 1) {
    sort_items(address(x.untyped_data()), address(keys_out), code, 0, address(positions), value_type, argsort, n,
               descending, 0, end_bit, address(stream), temp);
  } else {
    segmented_sort_items(address(x.untyped_data()), address(keys_out), code, 0, address(positions), value_type, argsort,
                         n, rows, length, 0, 0, descending, 0, end_bit, address(stream), temp);
  }
}

ffi::Error sort_impl(cudaStream_t stream, ffi::ScratchAllocator scratch, ffi::AnyBuffer x,
                     ffi::Result<ffi::AnyBuffer> y, bool descending) {
  return guarded("sort", [&] {
    sort_rows(stream, scratch, x, y->untyped_data(), nullptr, ffi::DataType::S64, descending);
  });
}

ffi::Error argsort_impl(cudaStream_t stream, ffi::ScratchAllocator scratch, ffi::AnyBuffer x,
                        ffi::Result<ffi::AnyBuffer> positions, bool descending) {
  return guarded("argsort", [&] {
    const ffi::DataType t = positions->element_type();
    if (t != ffi::DataType::S32 && t != ffi::DataType::S64) throw std::invalid_argument("positions must be int32 or int64");
    sort_rows(stream, scratch, x, nullptr, positions->untyped_data(), t, descending);
  });
}

ffi::Error topk_impl(cudaStream_t stream, ffi::ScratchAllocator scratch, ffi::AnyBuffer x,
                     ffi::Result<ffi::AnyBuffer> values, ffi::Result<ffi::AnyBuffer> indices, std::int64_t k,
                     bool largest, bool sorted) {
  return guarded("topk", [&] {
    const std::string code = code_of(x.element_type());
    if (code.empty()) throw std::invalid_argument("no top-k of this element type");
    if (indices->element_type() != ffi::DataType::S64) throw std::invalid_argument("indices must be int64 (jax_enable_x64)");
    const std::int64_t length = last_extent(x), n = static_cast<std::int64_t>(x.element_count());
    const std::int64_t rows = length == 0 ? 0 : n / length;
    topk_items(address(x.untyped_data()), code, rows, length, k, address(values->untyped_data()),
               address(indices->untyped_data()), largest, sorted, address(stream), scratch_of(scratch));
  });
}

/// Every handler's head: XLA's stream, its scratch allocator, the one input array.
auto bind_input() {
  return ffi::Ffi::Bind().Ctx<ffi::PlatformStream<cudaStream_t>>().Ctx<ffi::ScratchAllocator>().Arg<ffi::AnyBuffer>();
}

}  // namespace
}  // namespace parascan::python

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_scan, parascan::python::scan_impl,
                              parascan::python::bind_input()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<bool>("inclusive")
                                  .Attr<std::string_view>("op"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_sort, parascan::python::sort_impl,
                              parascan::python::bind_input().Ret<ffi::AnyBuffer>().Attr<bool>("descending"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_argsort, parascan::python::argsort_impl,
                              parascan::python::bind_input().Ret<ffi::AnyBuffer>().Attr<bool>("descending"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(parascan_jax_topk, parascan::python::topk_impl,
                              parascan::python::bind_input()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<std::int64_t>("k")
                                  .Attr<bool>("largest")
                                  .Attr<bool>("sorted"));

namespace parascan::python {

/// The handlers as PyCapsules, by target name, for jax.ffi.register_ffi_target.
void bind_jax(nb::module_& m) {
  m.def("jax_targets", [] {
    nb::dict d;
    d["parascan_scan"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_scan));
    d["parascan_sort"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_sort));
    d["parascan_argsort"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_argsort));
    d["parascan_topk"] = nb::capsule(reinterpret_cast<void*>(&parascan_jax_topk));
    return d;
  });
}

}  // namespace parascan::python
