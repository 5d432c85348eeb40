// parascan._core: the nanobind layer between Python and libparascan. It takes raw device pointers,
// element types as NumPy type codes ("u4", "f8", "b1", ...) and a stream handle; the Python package
// (parascan/__init__.py) does the array interop. Temporary storage comes from parascan's own stream-ordered
// pool (cudaMallocFromPoolAsync on the caller's stream, back with cudaFreeAsync), which keeps up to 1 GiB
// between calls, so nothing here synchronises except the calls
// that must read a count (`read_count`). CUDA errors raise RuntimeError naming the error, out of
// device memory MemoryError with the bytes requested.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <cuda_runtime_api.h>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>
#include "parascan/config.hpp"
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/instantiated.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/ops.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/sat.hpp"
#include "parascan/scan.hpp"
#include "parascan/select.hpp"
#include "parascan/version.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using namespace parascan;

namespace {

/// Raised to Python as MemoryError.
struct memory_error : std::exception {
  std::string msg;
  explicit memory_error(std::string m) : msg(std::move(m)) {}
  const char* what() const noexcept override { return msg.c_str(); }
};

void check(cudaError_t e, const char* what, std::size_t bytes = 0) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a sticky launch error so the next call starts clean
  if (e == cudaErrorMemoryAllocation)
    throw memory_error(std::string("parascan: ") + what + ": out of device memory (" + std::to_string(bytes) +
                       " bytes of temporary storage requested)");
  throw std::runtime_error(std::string("parascan: ") + what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

/// parascan's stream-ordered memory pool on the current device, made on first use. It keeps up to
/// 1 GiB cached between calls: the device's default pool keeps nothing, so after every synchronisation
/// the next call paid a fresh allocation (0.2–0.3 ms per call at 2^20 on the H100, more than the work).
/// Larger blocks go back to the driver at the next synchronisation, for the caller's framework to use.
cudaMemPool_t pool() {
  constexpr int max_devices = 64;
  static cudaMemPool_t pools[max_devices] = {};
  static std::mutex made;
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  if (dev >= max_devices) throw std::runtime_error("parascan: device ordinal past 64");
  std::lock_guard<std::mutex> lock(made);
  if (pools[dev] == nullptr) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t p = nullptr;
    check(cudaMemPoolCreate(&p, &props), "cudaMemPoolCreate");
    std::uint64_t keep = std::uint64_t(1) << 30;
    check(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
    pools[dev] = p;
  }
  return pools[dev];
}

/// `bytes` of device memory from the pool, ordered on `stream`; MemoryError when there is none.
void* pool_alloc(std::size_t bytes, cudaStream_t stream, const char* what) {
  void* p = nullptr;
  if (bytes == 0) return p;
  const cudaError_t e = cudaMallocFromPoolAsync(&p, bytes, pool(), stream);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw memory_error(std::string("parascan: out of device memory: ") + what + " of " + std::to_string(bytes) +
                       " bytes requested");
  }
  check(e, "cudaMallocFromPoolAsync");
  return p;
}

/// Stream-ordered temporary storage.
struct temp_storage {
  void* ptr = nullptr;
  cudaStream_t stream;
  temp_storage(std::size_t bytes, cudaStream_t s) : ptr(pool_alloc(bytes, s, "temporary storage")), stream(s) {}
  ~temp_storage() {
    if (ptr) (void)cudaFreeAsync(ptr, stream);
  }
  temp_storage(const temp_storage&) = delete;
  temp_storage& operator=(const temp_storage&) = delete;
};

/// Runs a CUB-shaped two-phase call: size query, stream-ordered temporary, the call.
template <class F>
void two_phase(F&& f, cudaStream_t stream, const char* what) {
  std::size_t bytes = 0;
  check(f(nullptr, bytes), what);
  temp_storage temp(bytes, stream);
  check(f(temp.ptr, bytes), what, bytes);
}

template <class T> struct tag { using type = T; };

/// Calls f(tag<T>) for the element type named by a NumPy type code ("b1" is handled as u1).
template <class F>
void with_type(const std::string& code, F&& f) {
  if (code == "u1" || code == "b1") f(tag<std::uint8_t>{});
  else if (code == "i1") f(tag<std::int8_t>{});
  else if (code == "u2") f(tag<std::uint16_t>{});
  else if (code == "i2") f(tag<std::int16_t>{});
  else if (code == "u4") f(tag<std::uint32_t>{});
  else if (code == "i4") f(tag<std::int32_t>{});
  else if (code == "u8") f(tag<std::uint64_t>{});
  else if (code == "i8") f(tag<std::int64_t>{});
  else if (code == "f4") f(tag<float>{});
  else if (code == "f8") f(tag<double>{});
  else throw nb::value_error(("parascan: element type '" + code + "' is not supported").c_str());
}

template <class F>
void with_op(const std::string& op, F&& f) {
  if (op == "sum") f(tag<sum>{});
  else if (op == "product") f(tag<product>{});
  else if (op == "min") f(tag<min_op>{});
  else if (op == "max") f(tag<max_op>{});
  else if (op == "and") f(tag<bit_and>{});
  else if (op == "or") f(tag<bit_or>{});
  else if (op == "xor") f(tag<bit_xor>{});
  else throw nb::value_error(("parascan: op '" + op + "' is not one of sum, product, min, max, and, or, xor").c_str());
}

/// Calls f(tag<In>, tag<Out>, tag<Op>) for the scan named by its input type, output type and operator.
template <class F>
void with_scan_types(const std::string& in_type, const std::string& out_type, const std::string& op, F&& f) {
  with_type(in_type, [&](auto in_tag) {
    with_type(out_type, [&](auto out_tag) { with_op(op, [&](auto op_tag) { f(in_tag, out_tag, op_tag); }); });
  });
}

cudaStream_t as_stream(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }
template <class T> T* as_ptr(std::uintptr_t p) { return reinterpret_cast<T*>(p); }

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
      if (inclusive && init.is_none()) {
        two_phase([&](void* t, std::size_t& b) { return inclusive_scan(t, b, as_ptr<const In>(in), as_ptr<Out>(out), n, Op{}, s, o); }, s, "inclusive_scan");
      } else if (inclusive) {
        const Out v = from_python<Out>(init);
        two_phase([&](void* t, std::size_t& b) { return inclusive_scan_init(t, b, as_ptr<const In>(in), as_ptr<Out>(out), n, Op{}, v, s, o); }, s, "inclusive_scan");
      } else {
        const Out v = init.is_none() ? identity_of<Op, Out>() : from_python<Out>(init);
        two_phase([&](void* t, std::size_t& b) { return exclusive_scan(t, b, as_ptr<const In>(in), as_ptr<Out>(out), n, Op{}, v, s, o); }, s, "exclusive_scan");
      }
    } else {
      throw nb::value_error(("parascan: no " + op + " scan from " + in_type + " to " + out_type +
                             " (same-type scans of every integer and float type, bitwise ops on integers only; "
                             "widening sums u1→u4/u8, i1→i4, u2→u4, i2→i4, u4→u8, i4→i8, f4→f8)").c_str());
    }
  });
}

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

/// Compaction: kept values (or their int64 positions with `indices`), or with `partition` all items,
/// kept first; *count gets the number kept. Kept by a rule (mask == 0) or by mask != 0.
void select_items(std::uintptr_t in, const std::string& type, std::int64_t n, std::uintptr_t mask, const std::string& mask_type,
            const std::string& rule, double value, bool indices, bool partition, std::uintptr_t out, std::uintptr_t count,
            std::uintptr_t stream) {
  const cudaStream_t s = as_stream(stream);
  auto* cnt = as_ptr<std::int64_t>(count);
  if (mask != 0 && indices) {
    with_type(mask_type, [&](auto f_tag) {
      using F = typename decltype(f_tag)::type;
      if constexpr (std::is_integral_v<F>)
        two_phase([&](void* t, std::size_t& b) { return select_flagged_indices(t, b, as_ptr<const F>(mask), as_ptr<std::int64_t>(out), cnt, n, s); }, s, "select");
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
          if (partition) two_phase([&](void* t, std::size_t& b) { return partition_flagged(t, b, as_ptr<const T>(in), as_ptr<const F>(mask), as_ptr<T>(out), cnt, n, s); }, s, "partition");
          else two_phase([&](void* t, std::size_t& b) { return select_flagged(t, b, as_ptr<const T>(in), as_ptr<const F>(mask), as_ptr<T>(out), cnt, n, s); }, s, "select");
        } else {
          throw nb::type_error("parascan: mask must hold integers or booleans");
        }
      });
      return;
    }
    const keep_rule<T> r = checked_rule<T>(rule, value);
    if (indices) two_phase([&](void* t, std::size_t& b) { return select_if_indices(t, b, as_ptr<const T>(in), as_ptr<std::int64_t>(out), cnt, n, r, s); }, s, "select");
    else if (partition) two_phase([&](void* t, std::size_t& b) { return partition_if(t, b, as_ptr<const T>(in), as_ptr<T>(out), cnt, n, r, s); }, s, "partition");
    else two_phase([&](void* t, std::size_t& b) { return select_if(t, b, as_ptr<const T>(in), as_ptr<T>(out), cnt, n, r, s); }, s, "select");
  });
}

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

/// Radix sort of keys, with values (values_in != 0), or argsort (argsort: values_out gets the
/// positions, of value_type u4 or u8).
void sort_items(std::uintptr_t keys_in, std::uintptr_t keys_out, const std::string& key_type, std::uintptr_t values_in,
          std::uintptr_t values_out, const std::string& value_type, bool argsort, std::int64_t n, bool descending,
          int begin_bit, int end_bit, std::uintptr_t stream) {
  const cudaStream_t s = as_stream(stream);
  sort_options o;
  o.descending = descending;
  o.begin_bit = begin_bit;
  o.end_bit = end_bit;
  with_type(key_type, [&](auto k_tag) {
    using K = typename decltype(k_tag)::type;
    if (values_out == 0) {
      two_phase([&](void* t, std::size_t& b) { return radix_sort_keys(t, b, as_ptr<const K>(keys_in), as_ptr<K>(keys_out), n, o, s); }, s, "sort");
      return;
    }
    with_type(value_type, [&](auto v_tag) {
      using V = typename decltype(v_tag)::type;
      const V* vin = argsort ? nullptr : as_ptr<const V>(values_in);
      two_phase([&](void* t, std::size_t& b) { return radix_sort_pairs(t, b, as_ptr<const K>(keys_in), as_ptr<K>(keys_out), vin, as_ptr<V>(values_out), n, o, s); }, s, "sort");
    });
  });
}

void summed_area(std::uintptr_t image, const std::string& in_type, std::int64_t image_pitch, std::uintptr_t table,
                 const std::string& acc_type, std::int64_t table_pitch, std::int64_t width, std::int64_t height,
                 bool padded, bool squared, std::uintptr_t stream) {
  const cudaStream_t s = as_stream(stream);
  with_type(in_type, [&](auto i_tag) {
    with_type(acc_type, [&](auto a_tag) {
      using In = typename decltype(i_tag)::type;
      using Acc = typename decltype(a_tag)::type;
      constexpr bool integer_in = std::is_same_v<In, std::uint8_t> || std::is_same_v<In, std::uint16_t> || std::is_same_v<In, std::uint32_t>;
      constexpr bool acc_ok = std::is_same_v<Acc, std::uint32_t> || std::is_same_v<Acc, std::uint64_t> || std::is_floating_point_v<Acc>;
      if constexpr ((integer_in && acc_ok) || (std::is_same_v<In, float> && std::is_floating_point_v<Acc>)) {
        two_phase([&](void* t, std::size_t& b) {
          return summed_area_table(t, b, as_ptr<const In>(image), static_cast<std::size_t>(image_pitch), as_ptr<Acc>(table),
                                   static_cast<std::size_t>(table_pitch), image_shape{width, height},
                                   padded ? sat_layout::padded : sat_layout::inclusive, squared, s);
        }, s, "summed_area_table");
      } else {
        throw nb::value_error(("parascan: no summed-area table from " + in_type + " to " + acc_type +
                               " (images u1/u2/u4 into u4/u8/f4/f8, f4 into f4/f8)").c_str());
      }
    });
  });
}

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

void rect_sums(std::uintptr_t table, const std::string& acc_type, std::int64_t table_pitch, std::int64_t width,
               std::int64_t height, bool padded, std::uintptr_t rects, std::uintptr_t sums, std::int64_t count,
               std::uintptr_t stream) {
  with_type(acc_type, [&](auto a_tag) {
    using Acc = typename decltype(a_tag)::type;
    if constexpr (std::is_same_v<Acc, std::uint32_t> || std::is_same_v<Acc, std::uint64_t> || std::is_floating_point_v<Acc>) {
      check(sat_rect_sums(as_ptr<const Acc>(table), static_cast<std::size_t>(table_pitch), image_shape{width, height},
                          padded ? sat_layout::padded : sat_layout::inclusive, as_ptr<const sat_rect>(rects),
                          as_ptr<Acc>(sums), count, as_stream(stream)),
            "rect_sums");
    } else {
      throw nb::value_error(("parascan: a summed-area table of " + acc_type + " is not one parascan makes (u4, u8, f4, f8)").c_str());
    }
  });
}

void box_filter(std::uintptr_t table, const std::string& acc_type, std::int64_t table_pitch, std::int64_t width,
                std::int64_t height, int radius, std::uintptr_t out, const std::string& out_type, std::int64_t out_pitch,
                std::uintptr_t stream) {
  with_type(acc_type, [&](auto a_tag) {
    with_type(out_type, [&](auto o_tag) {
      using Acc = typename decltype(a_tag)::type;
      using Out = typename decltype(o_tag)::type;
      if constexpr ((std::is_same_v<Acc, std::uint32_t> || std::is_same_v<Acc, std::uint64_t>) &&
                    (std::is_same_v<Out, std::uint8_t> || std::is_same_v<Out, std::uint16_t>)) {
        check(sat_box_filter(as_ptr<const Acc>(table), static_cast<std::size_t>(table_pitch), image_shape{width, height},
                             sat_layout::padded, radius, as_ptr<Out>(out), static_cast<std::size_t>(out_pitch), as_stream(stream)),
              "box_filter");
      } else {
        throw nb::value_error("parascan: box_filter takes uint8 or uint16 images");
      }
    });
  });
}

/// A marching-cubes mesh in device memory, until its arrays are copied into the caller's.
struct mesh {
  mc_mesh m;
  std::int64_t vertices() const { return m.vertices; }
  std::int64_t triangles() const { return m.triangles; }
  bool welded() const { return m.welded; }
  bool has_normals() const { return m.normals.size() != 0; }
  void copy_to(std::uintptr_t positions, std::uintptr_t normals, std::uintptr_t faces, std::uintptr_t stream) const {
    const cudaStream_t s = as_stream(stream);
    if (positions) check(cudaMemcpyAsync(as_ptr<float>(positions), m.positions.data(), m.positions.bytes(), cudaMemcpyDeviceToDevice, s), "copy");
    if (normals && has_normals()) check(cudaMemcpyAsync(as_ptr<float>(normals), m.normals.data(), m.normals.bytes(), cudaMemcpyDeviceToDevice, s), "copy");
    if (faces && m.welded) check(cudaMemcpyAsync(as_ptr<std::uint32_t>(faces), m.indices.data(), m.indices.bytes(), cudaMemcpyDeviceToDevice, s), "copy");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");  // the mesh's buffers are freed with it
  }
};

mesh march(std::uintptr_t volume, const std::string& type, std::int64_t nz, std::int64_t ny, std::int64_t nx, double iso,
           bool weld, bool normals, std::uintptr_t stream) {
  mc_options o;
  o.weld = weld;
  o.normals = normals;
  mesh out;
  with_type(type, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> || std::is_same_v<T, float>) {
      try {
        out.m = marching_cubes(as_ptr<const T>(volume), volume_shape{nx, ny, nz}, static_cast<float>(iso), o, as_stream(stream));
      } catch (const out_of_memory& e) {
        throw memory_error(std::string("parascan: marching_cubes: ") + e.what());
      } catch (const std::invalid_argument& e) {
        throw nb::value_error((std::string("parascan: marching_cubes: ") + e.what()).c_str());
      }
    } else {
      throw nb::value_error(("parascan: marching_cubes takes uint8, uint16 or float32 volumes, not " + type).c_str());
    }
  });
  return out;
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
    std::int64_t v = 0;
    check(cudaMemcpyAsync(&v, reinterpret_cast<const void*>(count), sizeof v, cudaMemcpyDeviceToHost, as_stream(stream)), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(as_stream(stream)), "cudaStreamSynchronize");
    return v;
  });
  m.def("free_device_memory", [] {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
  });
  // `init` is None for "no initial value": nanobind refuses None unless an argument is marked so.
  m.def("scan", &scan_items, "inclusive"_a, "in"_a, "in_type"_a, "out"_a, "out_type"_a, "n"_a, "op"_a,
        "init"_a.none(), "algorithm"_a, "strategy"_a, "stream"_a);
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
  m.def("select", &select_items);
  m.def("sort", &sort_items);
  m.def("summed_area_table", &summed_area);
  m.def("segmented_scan", &segmented_scan_items, "inclusive"_a, "in"_a, "in_type"_a, "heads"_a, "out"_a,
        "out_type"_a, "n"_a, "op"_a, "init"_a.none(), "stream"_a);
  m.def("rect_sums", &rect_sums);
  m.def("box_filter", &box_filter);
  nb::class_<mesh>(m, "Mesh")
      .def_prop_ro("vertices", &mesh::vertices)
      .def_prop_ro("triangles", &mesh::triangles)
      .def_prop_ro("welded", &mesh::welded)
      .def_prop_ro("has_normals", &mesh::has_normals)
      .def("copy_to", &mesh::copy_to);
  m.def("marching_cubes", &march);
}
