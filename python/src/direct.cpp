// parascan._core's direct calls: the common calls of the Python API made here whole, for a torch.Tensor
// or a cupy.ndarray that is C-contiguous, of a supported type and on the current device, with the
// default keywords or caller-given outputs of the same framework (out=; select's out= and count=).
// Reading the array (a few attribute lookups), the framework's current stream, the
// output allocated by the framework and the launch all happen in C++: after a synchronisation the
// Python layer's wrapping, stream lookup and allocation took ~25 µs of host time, twice torch's whole
// call at 2^20 (docs/performance.md entries 22 and 24). Anything else — NumPy, other frameworks,
// non-contiguous or unsupported arrays, another device — returns None, and the Python layer
// (parascan/__init__.py) makes the call with its full checks and error messages. Both reach the same
// functions (calls.hpp), so the two paths give the same results.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <cuda_runtime_api.h>
#include <cstdint>
#include <optional>
#include <tuple>
#include <string>
#include <utility>
#include <vector>
#include "calls.hpp"
#include "layer.hpp"

namespace parascan::python {
using namespace nb::literals;
namespace {

/// An interned attribute name, made once (a lookup then builds no string).
PyObject* name(const char* s) {
  PyObject* n = PyUnicode_InternFromString(s);
  if (n == nullptr) throw nb::python_error();
  return n;  // kept for the life of the process
}

nb::object get(nb::handle o, PyObject* attr) {
  PyObject* r = PyObject_GetAttr(o.ptr(), attr);
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

nb::object call(nb::handle o, PyObject* method) {
  PyObject* r = PyObject_CallMethodNoArgs(o.ptr(), method);
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

/// A module already imported by the caller (never imported here), or null.
nb::object imported(const char* module) {
  PyObject* m = PyImport_GetModule(nb::str(module).ptr());
  if (m == nullptr && PyErr_Occurred()) throw nb::python_error();
  return nb::steal(m);
}

enum class framework { torch, cupy };

/// What the call needs of a caller's array.
struct view {
  framework kind;
  nb::handle obj;
  std::uintptr_t ptr;
  std::string code;  // NumPy type code, as the Python layer passes it
  std::int64_t n;
  int device;
};

/// PyTorch's objects, looked up once torch has been imported (a process without torch never pays).
struct torch_api {
  PyTypeObject* tensor = nullptr;
  std::vector<std::pair<PyObject*, const char*>> dtypes;  // torch dtype → type code
  PyObject *int64 = nullptr, *uint8 = nullptr;
  nb::object empty_like, raw_stream;  // torch.empty_like, torch._C._cuda_getCurrentRawStream
  PyObject *is_cuda = name("is_cuda"), *dtype = name("dtype"), *is_contiguous = name("is_contiguous"),
           *get_device = name("get_device"), *data_ptr = name("data_ptr"), *numel = name("numel"),
           *new_empty = name("new_empty"), *shape = name("shape");
};

torch_api* torch_state() {
  static torch_api* api = nullptr;
  if (api != nullptr) return api;
  nb::object torch = imported("torch");
  if (!torch.is_valid()) return nullptr;
  nb::object c = nb::getattr(torch, "_C", nb::none());
  nb::object raw = c.is_none() ? nb::none() : nb::getattr(c, "_cuda_getCurrentRawStream", nb::none());
  if (raw.is_none()) return nullptr;  // a torch without it: the Python layer's path
  auto* t = new torch_api;  // kept for the life of the process
  t->tensor = reinterpret_cast<PyTypeObject*>(nb::getattr(torch, "Tensor").ptr());
  const std::pair<const char*, const char*> types[] = {{"uint8", "u1"}, {"int8", "i1"}, {"uint16", "u2"}, {"int16", "i2"},
                                                       {"uint32", "u4"}, {"int32", "i4"}, {"uint64", "u8"}, {"int64", "i8"},
                                                       {"float32", "f4"}, {"float64", "f8"}, {"bool", "b1"}};
  for (const auto& [torch_name, code] : types) {
    nb::object d = nb::getattr(torch, torch_name, nb::none());
    if (!d.is_none()) t->dtypes.emplace_back(d.release().ptr(), code);
  }
  t->int64 = nb::getattr(torch, "int64").release().ptr();
  t->uint8 = nb::getattr(torch, "uint8").release().ptr();
  t->empty_like = nb::getattr(torch, "empty_like");
  t->raw_stream = raw;
  return api = t;
}

/// CuPy's objects, looked up once cupy has been imported.
struct cupy_api {
  PyTypeObject* ndarray = nullptr;
  nb::object get_current_stream, int64, uint8;  // int64, uint8: NumPy dtypes for new arrays
  bool has_c_contiguous = false;  // ndarray._c_contiguous, a plain field (flags.c_contiguous builds an object)
  PyObject *flags = name("flags"), *c_contiguous = name("c_contiguous"), *c_field = name("_c_contiguous"),
           *dtype = name("dtype"), *chr = name("char"), *data = name("data"), *ptr = name("ptr"), *size = name("size"),
           *device_id = name("device_id"), *shape = name("shape");
};

cupy_api* cupy_state() {
  static cupy_api* api = nullptr;
  if (api != nullptr) return api;
  nb::object cupy = imported("cupy");
  if (!cupy.is_valid()) return nullptr;
  auto* c = new cupy_api;  // kept for the life of the process
  c->ndarray = reinterpret_cast<PyTypeObject*>(nb::getattr(cupy, "ndarray").ptr());
  c->has_c_contiguous = PyObject_HasAttr(reinterpret_cast<PyObject*>(c->ndarray), c->c_field) == 1;
  c->get_current_stream = nb::getattr(nb::getattr(cupy, "cuda"), "get_current_stream");
  nb::object dtype = nb::getattr(nb::module_::import_("numpy"), "dtype");
  c->int64 = dtype("int64");
  c->uint8 = dtype("uint8");
  return api = c;
}

const char* cupy_code(char c) {
  switch (c) {
    case 'B': return "u1";
    case 'b': return "i1";
    case 'H': return "u2";
    case 'h': return "i2";
    case 'I': return "u4";
    case 'i': return "i4";
    case 'L': case 'Q': return "u8";
    case 'l': case 'q': return "i8";
    case 'f': return "f4";
    case 'd': return "f8";
    case '?': return "b1";
    default: return nullptr;
  }
}

/// The array as a view when the direct path can take it: a CUDA torch.Tensor or a cupy.ndarray,
/// C-contiguous, of a supported type, on the current device. Otherwise nothing.
std::optional<view> direct_view(nb::handle x) {
  int current = 0;
  if (torch_api* t = torch_state(); t != nullptr && PyObject_TypeCheck(x.ptr(), t->tensor)) {
    if (get(x, t->is_cuda).ptr() != Py_True) return std::nullopt;
    const nb::object dt = get(x, t->dtype);
    const char* code = nullptr;
    for (const auto& [d, c] : t->dtypes)
      if (d == dt.ptr()) code = c;
    if (code == nullptr || call(x, t->is_contiguous).ptr() != Py_True) return std::nullopt;
    const int device = nb::cast<int>(call(x, t->get_device));
    check(cudaGetDevice(&current), "cudaGetDevice");
    if (device != current) return std::nullopt;
    return view{framework::torch, x, nb::cast<std::uintptr_t>(call(x, t->data_ptr)), code,
                nb::cast<std::int64_t>(call(x, t->numel)), device};
  }
  if (cupy_api* c = cupy_state(); c != nullptr && PyObject_TypeCheck(x.ptr(), c->ndarray)) {
    const nb::object contiguous = c->has_c_contiguous ? get(x, c->c_field) : get(get(x, c->flags), c->c_contiguous);
    if (contiguous.ptr() != Py_True) return std::nullopt;
    const std::string chr = nb::cast<std::string>(get(get(x, c->dtype), c->chr));
    const char* code = chr.size() == 1 ? cupy_code(chr[0]) : nullptr;
    if (code == nullptr) return std::nullopt;
    const nb::object data = get(x, c->data);  // the MemoryPointer: address and device, no Device object made
    const int device = nb::cast<int>(get(data, c->device_id));
    check(cudaGetDevice(&current), "cudaGetDevice");
    if (device != current) return std::nullopt;
    return view{framework::cupy, x, nb::cast<std::uintptr_t>(get(data, c->ptr)), code,
                nb::cast<std::int64_t>(get(x, c->size)), device};
  }
  return std::nullopt;
}

/// The framework's current stream on the array's device (the order the caller's own work runs in).
std::uintptr_t current_stream(const view& a) {
  if (a.kind == framework::torch) return nb::cast<std::uintptr_t>(torch_state()->raw_stream(a.device));
  return nb::cast<std::uintptr_t>(get(cupy_state()->get_current_stream(), cupy_state()->ptr));
}

/// A new array of the caller's framework on the array's device, with its shape (flat: n items) and
/// type (int64: positions), and the array's device pointer.
std::pair<nb::object, std::uintptr_t> new_array(const view& a, bool flat, bool int64) {
  if (a.kind == framework::torch) {
    torch_api* t = torch_state();
    nb::object o;
    if (int64) o = get(a.obj, t->new_empty)(get(a.obj, t->shape), "dtype"_a = nb::handle(t->int64));
    else if (flat) o = get(a.obj, t->new_empty)(a.n);
    else o = t->empty_like(a.obj);
    return {o, nb::cast<std::uintptr_t>(call(o, t->data_ptr))};
  }
  // cupy.ndarray(shape, dtype) itself: cupy.empty / empty_like are Python functions around it (the array
  // lands on the current device, which direct_view checked is the input's).
  cupy_api* c = cupy_state();
  const nb::object shape = flat ? nb::object(nb::make_tuple(a.n)) : get(a.obj, c->shape);
  const nb::object o = nb::handle(reinterpret_cast<PyObject*>(c->ndarray))(shape, int64 ? c->int64 : get(a.obj, c->dtype));
  return {o, nb::cast<std::uintptr_t>(get(get(o, c->data), c->ptr))};
}

/// `bytes` of temporary storage from the array's framework (its caching allocator keeps the block for
/// the next call; layer.hpp temp_source), kept in `held` until the caller lets go.
void* framework_bytes(const view& a, std::size_t bytes, nb::object& held) {
  const auto n = static_cast<std::int64_t>(bytes);
  if (a.kind == framework::torch) {
    torch_api* t = torch_state();
    held = get(a.obj, t->new_empty)(n, "dtype"_a = nb::handle(t->uint8));
    return reinterpret_cast<void*>(nb::cast<std::uintptr_t>(call(held, t->data_ptr)));
  }
  cupy_api* c = cupy_state();
  held = nb::handle(reinterpret_cast<PyObject*>(c->ndarray))(nb::make_tuple(n), c->uint8);
  return reinterpret_cast<void*>(nb::cast<std::uintptr_t>(get(get(held, c->data), c->ptr)));
}

/// scan(x) / scan(x, out=y): y of the same framework, type and size (any shape, as the Python layer
/// takes it; y may be x); anything else about y is the Python layer's to refuse with its message.
nb::object direct_scan(bool inclusive, nb::handle x, const std::string& op, nb::handle given) {
  const auto a = direct_view(x);
  // bool scans, and the 16-bit floats (sort keys only: refused by name there): the Python layer's path
  if (!a || a->code == "b1" || a->code == "f2" || a->code == "bf2") return nb::none();
  nb::object out;
  std::uintptr_t out_ptr = 0;
  if (given.is_none()) {
    std::tie(out, out_ptr) = new_array(*a, false, false);
  } else {
    const auto o = direct_view(given);
    if (!o || o->kind != a->kind || o->code != a->code || o->n != a->n) return nb::none();
    out = nb::borrow(given);
    out_ptr = o->ptr;
  }
  scan_items(inclusive, a->ptr, a->code, out_ptr, a->code, a->n, op, nb::none(), "", "", current_stream(*a));
  return out;
}

/// select(x) / select(x, mask=m) / select(x, keep=rule): the kept items, read back after the count (a
/// synchronisation); with out= (n items of x's type) and count= (one int64) of x's framework, those are
/// written and returned as they are, with no synchronisation (the form a CUDA graph captures). `rule`
/// and `value` as the Python layer parses keep= ("nonzero" with a mask); a rule the type does not take
/// raises as there.
nb::object direct_select(nb::handle x, nb::handle mask, nb::handle given_out, nb::handle given_count,
                         const std::string& rule, double value) {
  const auto a = direct_view(x);
  if (!a || a->code == "f2" || a->code == "bf2") return nb::none();
  std::optional<view> m;
  if (!mask.is_none()) {
    m = direct_view(mask);
    if (!m || m->n != a->n || m->code == "f4" || m->code == "f8") return nb::none();
  }
  const std::uintptr_t s = current_stream(*a);
  const auto select = [&](std::uintptr_t out_ptr, std::uintptr_t count_ptr) {
    select_items(a->ptr, a->code, a->n, m ? m->ptr : 0, m ? m->code : "u1", rule, value, false, false, out_ptr,
                 count_ptr, s);
  };
  if (!given_out.is_none() || !given_count.is_none()) {
    if (given_out.is_none() || given_count.is_none()) return nb::none();
    const auto o = direct_view(given_out), c = direct_view(given_count);
    if (!o || !c || o->kind != a->kind || c->kind != a->kind || o->code != a->code || o->n != a->n ||
        c->code != "i8" || c->n != 1)
      return nb::none();
    select(o->ptr, c->ptr);
    return nb::make_tuple(given_out, given_count);
  }
  auto [out, out_ptr] = new_array(*a, true, false);
  temp_storage count(sizeof(std::int64_t), as_stream(s));
  select(out_ptr, reinterpret_cast<std::uintptr_t>(count.ptr));
  const std::int64_t kept = read_count(count.ptr, as_stream(s));
  PyObject* r = PySequence_GetSlice(out.ptr(), 0, static_cast<Py_ssize_t>(kept));
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

/// sort(keys) (argsort: the int64 positions instead); temporary storage from the framework.
nb::object direct_sort(nb::handle keys, bool descending, bool argsort) {
  const auto a = direct_view(keys);
  if (!a) return nb::none();
  const std::uintptr_t s = current_stream(*a);
  const int bits = 8 * (a->code[1] - '0');
  auto [sorted, sorted_ptr] = new_array(*a, false, false);
  nb::object held;
  const temp_source temp = [&](std::size_t bytes) { return framework_bytes(*a, bytes, held); };
  if (!argsort) {
    sort_items(a->ptr, sorted_ptr, a->code, 0, 0, "u4", false, a->n, descending, 0, bits, s, temp);
    return sorted;
  }
  auto [perm, perm_ptr] = new_array(*a, false, true);
  sort_items(a->ptr, sorted_ptr, a->code, 0, perm_ptr, "u8", true, a->n, descending, 0, bits, s, temp);
  return perm;
}

}  // namespace

void bind_direct(nb::module_& m) {
  m.def("direct_scan", &direct_scan, "inclusive"_a, "x"_a, "op"_a, "out"_a.none() = nb::none());
  m.def("direct_select", &direct_select, "x"_a, "mask"_a.none(), "out"_a.none() = nb::none(),
        "count"_a.none() = nb::none(), "rule"_a = "nonzero", "value"_a = 0.0);
  m.def("direct_sort", &direct_sort, "keys"_a, "descending"_a, "argsort"_a);
}

}  // namespace parascan::python
