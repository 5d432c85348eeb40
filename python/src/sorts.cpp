// The sorts' compiled calls (declared in calls.hpp): radix sort, segmented sort and top-k, with key
// types from the NumPy-style codes plus the 16-bit floats only the sorts take.
#include <nanobind/nanobind.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <string>
#include "calls.hpp"
#include "layer.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/segmented_sort.hpp"
#include "parascan/topk.hpp"

using namespace parascan;
using namespace parascan::python;

namespace {

/// Calls f(tag<Key>) for a sort's key type: with_type's, and the 16-bit floats "f2" (__half) and "bf2"
/// (__nv_bfloat16, torch.bfloat16) that only the sorts take.
template <class F>
void with_key_type(const std::string& code, F&& f) {
  if (code == "f2") f(tag<__half>{});
  else if (code == "bf2") f(tag<__nv_bfloat16>{});
  else with_type(code, f);
}

}  // namespace

namespace parascan::python {  // declared in calls.hpp (direct.cpp and module.cpp call them)

/// Radix sort of keys, with values (values_in != 0), or argsort (argsort: values_out gets the
/// positions, of value_type u4 or u8).
void sort_items(std::uintptr_t keys_in, std::uintptr_t keys_out, const std::string& key_type, std::uintptr_t values_in,
          std::uintptr_t values_out, const std::string& value_type, bool argsort, std::int64_t n, bool descending,
          int begin_bit, int end_bit, std::uintptr_t stream, const temp_source& temp) {
  const cudaStream_t s = as_stream(stream);
  sort_options o;
  o.descending = descending;
  o.begin_bit = begin_bit;
  o.end_bit = end_bit;
  with_key_type(key_type, [&](auto k_tag) {
    using K = typename decltype(k_tag)::type;
    if (values_out == 0) {
      two_phase([&](void* t, std::size_t& b) { return radix_sort_keys(t, b, as_ptr<const K>(keys_in), as_ptr<K>(keys_out), n, o, s); }, s, "sort", temp);
      return;
    }
    with_type(value_type, [&](auto v_tag) {
      using V = typename decltype(v_tag)::type;
      const V* vin = argsort ? nullptr : as_ptr<const V>(values_in);
      two_phase([&](void* t, std::size_t& b) { return radix_sort_pairs(t, b, as_ptr<const K>(keys_in), as_ptr<K>(keys_out), vin, as_ptr<V>(values_out), n, o, s); }, s, "sort", temp);
    });
  });
}

/// Segmented sort: rows (row_length ≥ 0: `count` rows of that length) or segments [begin[s], end[s])
/// (device int64 arrays); keys, pairs with 4- or 8-byte values, or argsort (positions within each
/// segment, u4 or u8).
void segmented_sort_items(std::uintptr_t keys_in, std::uintptr_t keys_out, const std::string& key_type,
                          std::uintptr_t values_in, std::uintptr_t values_out, const std::string& value_type, bool argsort,
                          std::int64_t n, std::int64_t count, std::int64_t row_length, std::uintptr_t begin,
                          std::uintptr_t end, bool descending, int begin_bit, int end_bit, std::uintptr_t stream,
                          const temp_source& temp) {
  const cudaStream_t s = as_stream(stream);
  segmented_sort_options o;
  o.descending = descending;
  o.begin_bit = begin_bit;
  o.end_bit = end_bit;
  const segment_layout layout = row_length >= 0 ? segment_layout::rows(count, row_length)
                                                : segment_layout::offsets(count, as_ptr<const std::int64_t>(begin),
                                                                          as_ptr<const std::int64_t>(end));
  with_key_type(key_type, [&](auto k_tag) {
    using K = typename decltype(k_tag)::type;
    const K* in = as_ptr<const K>(keys_in);
    K* out = as_ptr<K>(keys_out);
    if (values_out == 0) {
      two_phase([&](void* t, std::size_t& b) { return segmented_sort_keys(t, b, in, out, n, layout, o, s); }, s,
                "segmented_sort", temp);
      return;
    }
    const auto run = [&](auto v_tag) {
      using V = typename decltype(v_tag)::type;
      const V* vin = argsort ? nullptr : as_ptr<const V>(values_in);
      two_phase([&](void* t, std::size_t& b) { return segmented_sort_pairs(t, b, in, out, vin, as_ptr<V>(values_out), n, layout, o, s); },
                s, "segmented_sort", temp);
    };
    if (value_type.size() == 2 && value_type[1] == '4') run(tag<std::uint32_t>{});
    else if (value_type.size() == 2 && value_type[1] == '8') run(tag<std::uint64_t>{});
    else throw nb::value_error(("parascan: the segmented sort moves values of 4 or 8 bytes, not '" + value_type + "'").c_str());
  });
}

}  // namespace parascan::python

namespace parascan::python {

/// temp: None (parascan's pool) or a callable taking a byte count and returning a device array with
/// `.ptr` (the framework's caching allocator); `held` keeps that block until the call is enqueued.
temp_source temp_from(nb::object temp, nb::object& held) {
  if (temp.is_none()) return {};
  return [temp, &held](std::size_t bytes) {
    held = temp(bytes);
    return reinterpret_cast<void*>(nb::cast<std::uintptr_t>(held.attr("ptr")));
  };
}

/// Top-k of `rows` rows of `length` keys: keys and int64 positions, rows × k each.
void topk_items(std::uintptr_t keys, const std::string& key_type, std::int64_t rows, std::int64_t length, std::int64_t k,
                std::uintptr_t out_keys, std::uintptr_t out_indices, bool largest, bool sorted, std::uintptr_t stream,
                const temp_source& from) {
  const cudaStream_t s = as_stream(stream);
  topk_options o;
  o.largest = largest;
  o.sorted = sorted;
  with_key_type(key_type, [&](auto k_tag) {
    using K = typename decltype(k_tag)::type;
    two_phase([&](void* t, std::size_t& b) {
      return topk(t, b, as_ptr<const K>(keys), rows, length, k, as_ptr<K>(out_keys), as_ptr<std::int64_t>(out_indices), o, s);
    }, s, "topk", from);
  });
}

void topk_items(std::uintptr_t keys, const std::string& key_type, std::int64_t rows, std::int64_t length, std::int64_t k,
                std::uintptr_t out_keys, std::uintptr_t out_indices, bool largest, bool sorted, std::uintptr_t stream,
                nb::object temp) {
  nb::object held;
  topk_items(keys, key_type, rows, length, k, out_keys, out_indices, largest, sorted, stream, temp_from(temp, held));
}

}  // namespace parascan::python
