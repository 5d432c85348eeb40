// The compiled calls on raw device pointers that both the Python layer (through module.cpp's bindings)
// and the direct calls (direct.cpp) make: element types as NumPy type codes ("u4", "f8", "b1", ...),
// a stream handle; temporary storage from parascan's pool (layer.hpp). Defined in module.cpp (scans,
// selection) and sorts.cpp (sorts, top-k).
#pragma once
#include <nanobind/nanobind.h>
#include <cstdint>
#include <string>
#include "layer.hpp"

namespace parascan::python {
namespace nb = nanobind;

/// Exclusive (with init, or the identity when init is None) or inclusive scan of n items.
void scan_items(bool inclusive, std::uintptr_t in, const std::string& in_type, std::uintptr_t out, const std::string& out_type,
                std::int64_t n, const std::string& op, nb::object init, const std::string& algorithm,
                const std::string& strategy, std::uintptr_t stream);

/// Compaction: kept values (or their int64 positions with `indices`), or with `partition` all items,
/// kept first; *count gets the number kept. Kept by a rule (mask == 0) or by mask != 0. With `fill_bits`
/// (values only) `out` holds n items, the rest after the kept ones set to the fill value whose bytes in the
/// items' type are the low bytes of *fill_bits, in the same pass (select_if_padded, select_flagged_padded;
/// out must not alias in): every value of every type, 64-bit integers past 2^53 too.
/// Temporary storage from `temp` when given (layer.hpp temp_source), else the pool.
void select_items(std::uintptr_t in, const std::string& type, std::int64_t n, std::uintptr_t mask, const std::string& mask_type,
                  const std::string& rule, double value, bool indices, bool partition, std::uintptr_t out, std::uintptr_t count,
                  std::uintptr_t stream, const temp_source& temp = {}, const std::uint64_t* fill_bits = nullptr);

/// *count32 = *count (an int32 copy of a selection's count, for JAX without x64). One launch; defined in
/// count32.cu, which is built with the JAX targets only (its one caller, jax_ffi.cpp).
void copy_count_to_int32(std::uintptr_t count, std::uintptr_t count32, std::uintptr_t stream);

/// Radix sort of keys, with values (values_in != 0), or argsort (values_out gets the positions, of
/// value_type u4 or u8). Temporary storage from `temp` when given (layer.hpp temp_source), else the pool.
void sort_items(std::uintptr_t keys_in, std::uintptr_t keys_out, const std::string& key_type, std::uintptr_t values_in,
                std::uintptr_t values_out, const std::string& value_type, bool argsort, std::int64_t n, bool descending,
                int begin_bit, int end_bit, std::uintptr_t stream, const temp_source& temp = {});

/// Segmented sort: `count` rows of row_length ≥ 0, or segments [begin[s], end[s]) (device int64
/// arrays) when row_length < 0; keys, pairs (4- or 8-byte values) or argsort (positions within each
/// segment). Temporary storage as sort_items.
void segmented_sort_items(std::uintptr_t keys_in, std::uintptr_t keys_out, const std::string& key_type,
                          std::uintptr_t values_in, std::uintptr_t values_out, const std::string& value_type, bool argsort,
                          std::int64_t n, std::int64_t count, std::int64_t row_length, std::uintptr_t begin,
                          std::uintptr_t end, bool descending, int begin_bit, int end_bit, std::uintptr_t stream,
                          const temp_source& temp = {});

/// Top-k of `rows` rows of `length` keys: the k chosen keys and their int64 positions per row
/// (largest or smallest first when sorted, else in row order). `temp` as the sorts' (None: the pool).
void topk_items(std::uintptr_t keys, const std::string& key_type, std::int64_t rows, std::int64_t length, std::int64_t k,
                std::uintptr_t out_keys, std::uintptr_t out_indices, bool largest, bool sorted, std::uintptr_t stream,
                nb::object temp);
/// The same without Python objects (callable without the GIL: the JAX FFI handlers).
void topk_items(std::uintptr_t keys, const std::string& key_type, std::int64_t rows, std::int64_t length, std::int64_t k,
                std::uintptr_t out_keys, std::uintptr_t out_indices, bool largest, bool sorted, std::uintptr_t stream,
                const temp_source& temp);

/// A same-type scan of n items (inclusive, or exclusive from the operator's identity) without Python
/// objects; temporary storage from `temp`.
void scan_items_plain(bool inclusive, std::uintptr_t in, std::uintptr_t out, const std::string& type, std::int64_t n,
                      const std::string& op, std::uintptr_t stream, const temp_source& temp);

/// temp: None (parascan's pool) or a callable taking a byte count and returning a device array with
/// `.ptr` (the framework's caching allocator); `held` keeps that block until the call is enqueued.
temp_source temp_from(nb::object temp, nb::object& held);

}  // namespace parascan::python
