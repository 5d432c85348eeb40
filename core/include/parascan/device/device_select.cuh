// Compaction, stable split and expand, composed from the scan core: flags → scan → scatter
// (ModernGPU's and GPU Gems 3 ch. 39's compaction; Blelloch 1990's split).
//
// select: one inclusive scan pass of keep(i) ? 1 : 0; the store writes kept item i to out[count − 1].
//   Padded (select_*_padded): the output holds n items, the rest after the kept ones set to a fill value,
//   written by the single pass's tiles themselves (select_tiles.cuh fill_unkept), by a second kernel
//   after the other strategies.
//   Out of place the store reads the item again (from L2: its tile was just loaded); the accumulator is
//   a plain 4- or 8-byte count. In place that second read could see an item another tile has already
//   overwritten, so there the accumulator carries (count, value, keep) — the operator adds the counts
//   and keeps the right-hand value, which is associative — and values travel in registers from load to
//   store: a tile writes only at or before positions every earlier tile has already loaded.
//   Traffic: read n (+ flags), write the kept items. Those are the reduce_then_scan paths; the default
//   single-pass path has kernels of its own (select_tiles.cuh): ranks come from warp ballots and each
//   warp writes contiguous runs.
// partition: select the kept items, then select the rest behind them (the start is read on the device
//   from the first pass's count): read 2n, write n.
// expand: offsets = exclusive sum of counts (+ the total); owners = scatter i to its first slot, then
//   an inclusive max-scan over the slots.
#pragma once
#include <cooperative_groups.h>
#include <algorithm>
#include <climits>
#include <cstring>
#include <cstdint>
#include <type_traits>
#include "parascan/device/device_scan.cuh"
#include "parascan/device/select_tiles.cuh"
#include "parascan/select.hpp"
#include "parascan/warp/warp_shuffle.cuh"

namespace parascan::device {

/// Storage-only stand-in for T: selection moves bits, so T is reduced to an unsigned of its size.
template <std::size_t Bytes> struct bits_of;
template <> struct bits_of<1> { using type = std::uint8_t; };
template <> struct bits_of<2> { using type = std::uint16_t; };
template <> struct bits_of<4> { using type = std::uint32_t; };
template <> struct bits_of<8> { using type = std::uint64_t; };
template <class T> using bits_t = typename bits_of<sizeof(T)>::type;

struct no_value {};  // the indices variants carry no value: the store writes the position

template <class Offset, class V>
struct select_value {
  Offset count;  // kept items up to here
  V value;       // the value of the rightmost item
  bool keep;     // whether the rightmost item is kept
};

struct select_op {
  template <class Offset, class V>
  __device__ __forceinline__ select_value<Offset, V> operator()(const select_value<Offset, V>& a,
                                                                const select_value<Offset, V>& b) const {
    return {static_cast<Offset>(a.count + b.count), b.value, b.keep};
  }
};

/// keep(i) from a predicate on the input, or from a non-zero flag; `negate` selects the rest.
/// test(i, x) is the rule before negation (the single-pass kernels ballot it and flip a row's bits at
/// once: keep_ballot in select_tiles.cuh).
/// visit(f): f(the same keep with Pred's run-time kind fixed) where Pred is a keep_rule (its visit), else
/// f(*this); the single-pass kernels wrap their loop of tests in it (fixed_rule_visit, select_tiles.cuh).
template <class T, class Pred>
struct keep_by_predicate {
  Pred pred;
  bool negate;
  __device__ __forceinline__ bool test(std::int64_t, const T& x) const { return pred(x); }
  __device__ __forceinline__ bool operator()(std::int64_t i, const T& x) const { return test(i, x) != negate; }
  template <class F>
  __device__ __forceinline__ void visit(F&& f) const {
    if constexpr (std::is_same_v<Pred, keep_rule<T>>) {
      pred.visit([&](const auto& fixed) { f(keep_by_predicate<T, std::decay_t<decltype(fixed)>>{fixed, negate}); });
    } else {
      f(*this);
    }
  }
};
template <class Flag>
struct keep_by_flag {
  const Flag* flags;
  bool negate;
  template <class X>
  __device__ __forceinline__ bool test(std::int64_t i, const X&) const { return flags[i] != 0; }
  template <class X>
  __device__ __forceinline__ bool operator()(std::int64_t i, const X& x) const { return test(i, x) != negate; }
};

/// In-place selection (reduce_then_scan): each item's (1 if kept, its bits, keep).
template <class Offset, class V, class T, class Keep>
struct select_loader {
  const T* in;
  Keep keep;
  __device__ __forceinline__ select_value<Offset, V> operator()(std::int64_t i) const {
    static_assert(sizeof(V) == sizeof(T), "values move as bits of the same size");
    const T x = in[i];
    const bool k = keep(i, x);
    V bits;
    memcpy(&bits, &x, sizeof(T));
    return {static_cast<Offset>(k ? 1 : 0), bits, k};
  }
};

template <class Offset, class V, class Out>
struct select_storer {
  Out* out;
  std::int64_t n;
  std::int64_t* count_out;     // written by the last item
  const std::int64_t* base;    // null, or the device count of a previous pass to write behind
  __device__ __forceinline__ void operator()(std::int64_t i, const select_value<Offset, V>& v) const {
    if (v.keep) {
      out[(base ? *base : 0) + static_cast<std::int64_t>(v.count) - 1] = v.value;
    }
    if (i == n - 1) *count_out = static_cast<std::int64_t>(v.count);
  }
};

template <class Offset, class T, class Keep>
struct count_loader {
  const T* in;  // null for the flag-only indices variant
  Keep keep;
  __device__ __forceinline__ Offset operator()(std::int64_t i) const {
    T x{};
    if (in) x = in[i];
    return keep(i, x) ? Offset(1) : Offset(0);
  }
};

/// Out-of-place store: reads item i again and writes it (or i) behind the kept items before it.
template <class Offset, class V, class T, class Keep, class Out>
struct reread_storer {
  const T* in;
  Keep keep;
  Out* out;
  std::int64_t n;
  std::int64_t* count_out;
  const std::int64_t* base;
  __device__ __forceinline__ void operator()(std::int64_t i, const Offset& inclusive) const {
    T x{};
    if (in) x = in[i];
    if (keep(i, x)) {
      const std::int64_t at = (base ? *base : 0) + static_cast<std::int64_t>(inclusive) - 1;
      if constexpr (std::is_same_v<V, no_value>) {
        out[at] = i;
      } else {
        V bits;
        memcpy(&bits, &x, sizeof(V));
        out[at] = bits;
      }
    }
    if (i == n - 1) *count_out = static_cast<std::int64_t>(inclusive);
  }
};

/// n == 0: the size query gets one byte; the run writes a zero count or total.
inline cudaError_t empty_result(void* d_temp, std::size_t& temp_bytes, void* d_result, std::size_t result_bytes,
                                cudaStream_t stream) {
  if (d_temp == nullptr) {
    temp_bytes = 1;
    return cudaSuccess;
  }
  return cudaMemsetAsync(d_result, 0, result_bytes, stream);
}

/// out[*count .. n) = fill, after a selection that left its count on the device: the padding of a
/// selection by a strategy other than the single pass (whose tiles write it themselves: fill_unkept).
/// A grid-stride loop of item stores; any grid.
template <class V>
__global__ void fill_after_count_kernel(V* out, std::int64_t n, const std::int64_t* count, V fill) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = *count + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = fill;
}

/// One selection pass, sized or run (two-phase); n == 0 writes a zero count. With `fill.on` the output
/// holds n items, the kept ones then the fill value (select_if_padded); out must not alias the input and
/// `base` must be null (checked when run).
template <class V, class T, class Keep, class Out>
cudaError_t select_pass(void* d_temp, std::size_t& temp_bytes, const T* in, Keep keep, Out* out,
                        std::int64_t* count_out, const std::int64_t* base, std::int64_t n, cudaStream_t stream,
                        scan_options options, tail_fill<V> fill = {}) {
  if (options.strategy == device_strategy::recursive) return cudaErrorNotSupported;
  if (n == 0) return empty_result(d_temp, temp_bytes, count_out, sizeof(std::int64_t), stream);
  // The size query answers for both paths, so it may be asked with any pointers.
  const bool in_place = d_temp != nullptr && static_cast<const void*>(in) == static_cast<const void*>(out);
  if (fill.on && d_temp != nullptr && (base != nullptr || in_place)) return cudaErrorInvalidValue;
  auto run = [&](auto offset_tag) {
    using Offset = decltype(offset_tag);
    if constexpr (!std::is_same_v<V, no_value>) {
      if (options.strategy == device_strategy::single_pass) {
        const std::size_t need = select_single_pass_bytes<V, Offset>(n);
        if (d_temp == nullptr) {
          temp_bytes = need;
          return cudaSuccess;
        }
        if (temp_bytes < need) return cudaErrorInvalidValue;
        return select_single_pass<V, Offset>(d_temp, in, keep, out, count_out, base, n, stream, options, fill);
      }
      if (d_temp == nullptr) {
        using acc = select_value<Offset, V>;
        temp_bytes = std::max({scan_temp_bytes<acc>(n, options.strategy), scan_temp_bytes<Offset>(n, options.strategy),
                               std::size_t(1)});
        return cudaSuccess;
      }
      if (in_place) {
        using acc = select_value<Offset, V>;
        return dispatch_scan<acc, false>(d_temp, temp_bytes, select_loader<Offset, V, T, Keep>{in, keep},
                                         select_storer<Offset, V, Out>{out, n, count_out, base}, nullptr, n,
                                         select_op{}, scan_mode<acc>{false, false, acc{}}, stream, options);
      }
    }
    const cudaError_t e = dispatch_scan<Offset, false>(
        d_temp, temp_bytes, count_loader<Offset, T, Keep>{in, keep},
        reread_storer<Offset, V, T, Keep, Out>{in, keep, out, n, count_out, base}, nullptr, n, sum{},
        scan_mode<Offset>{false, false, Offset(0)}, stream, options);
    if constexpr (!std::is_same_v<V, no_value>) {
      if (e == cudaSuccess && fill.on && d_temp != nullptr) {
        const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(1024, (n + 255) / 256));
        fill_after_count_kernel<<<blocks, 256, 0, stream>>>(out, n, count_out, fill.value);
        return check_launch(stream, options.debug_synchronous);
      }
    }
    return e;
  };
  return n <= static_cast<std::int64_t>(UINT32_MAX) ? run(std::uint32_t{}) : run(std::uint64_t{});
}

/// Temporary layout of a partition: [second pass's count][pass storage], each pass sized alike.
template <class V, class T, class Keep, class Out>
cudaError_t partition_passes(void* d_temp, std::size_t& temp_bytes, const T* in, Keep keep, Out* out,
                             std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream, scan_options options) {
  std::size_t pass_bytes = 0;
  cudaError_t e = select_pass<V>(nullptr, pass_bytes, in, keep, out, d_num_selected, nullptr, n, stream, options);
  if (e != cudaSuccess) return e;
  const std::size_t need = align_up(sizeof(std::int64_t)) + pass_bytes;
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  auto* rest_count = static_cast<std::int64_t*>(d_temp);
  void* pass_temp = static_cast<char*>(d_temp) + align_up(sizeof(std::int64_t));
  if ((e = select_pass<V>(pass_temp, pass_bytes, in, keep, out, d_num_selected, nullptr, n, stream, options)) != cudaSuccess)
    return e;
  Keep rest = keep;
  rest.negate = !keep.negate;
  return select_pass<V>(pass_temp, pass_bytes, in, rest, out, rest_count, d_num_selected, n, stream, options);
}

template <class Count, class Offset>
struct offsets_storer {
  Offset* offsets;
  Offset* total;
  const Count* counts;
  std::int64_t n;
  __device__ __forceinline__ void operator()(std::int64_t i, const Offset& e) const {
    if (i == n - 1) *total = static_cast<Offset>(e + static_cast<Offset>(counts[i]));  // before a possible alias
    offsets[i] = e;
  }
};

template <class Count, class Offset, class Owner>
__global__ void scatter_owners_kernel(const Count* counts, const Offset* offsets, std::int64_t n, Owner* owners) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    if (counts[i] > 0) owners[offsets[i]] = static_cast<Owner>(i);
}

}  // namespace parascan::device

namespace parascan {

template <class T, class Pred>
cudaError_t select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                      std::int64_t n, Pred pred, cudaStream_t stream, scan_options options) {
  using V = device::bits_t<T>;
  return device::select_pass<V>(d_temp, temp_bytes, d_in, device::keep_by_predicate<T, Pred>{pred, false},
                                reinterpret_cast<V*>(d_out), d_num_selected, nullptr, n, stream, options);
}
template <class T, class Flag>
cudaError_t select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const Flag* d_flags, T* d_out,
                           std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream, scan_options options) {
  using V = device::bits_t<T>;
  using F = device::bits_t<Flag>;
  return device::select_pass<V>(d_temp, temp_bytes, reinterpret_cast<const V*>(d_in),
                                device::keep_by_flag<F>{reinterpret_cast<const F*>(d_flags), false},
                                reinterpret_cast<V*>(d_out), d_num_selected, nullptr, n, stream, options);
}
template <class T, class Pred>
cudaError_t select_if_padded(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out,
                             std::int64_t* d_num_selected, std::int64_t n, Pred pred, T fill, cudaStream_t stream,
                             scan_options options) {
  using V = device::bits_t<T>;
  device::tail_fill<V> f{true, {}};
  std::memcpy(&f.value, &fill, sizeof(T));
  return device::select_pass<V>(d_temp, temp_bytes, d_in, device::keep_by_predicate<T, Pred>{pred, false},
                                reinterpret_cast<V*>(d_out), d_num_selected, nullptr, n, stream, options, f);
}
template <class T, class Flag>
cudaError_t select_flagged_padded(void* d_temp, std::size_t& temp_bytes, const T* d_in, const Flag* d_flags, T* d_out,
                                  std::int64_t* d_num_selected, std::int64_t n, T fill, cudaStream_t stream,
                                  scan_options options) {
  using V = device::bits_t<T>;
  using F = device::bits_t<Flag>;
  device::tail_fill<V> f{true, {}};
  std::memcpy(&f.value, &fill, sizeof(T));
  return device::select_pass<V>(d_temp, temp_bytes, reinterpret_cast<const V*>(d_in),
                                device::keep_by_flag<F>{reinterpret_cast<const F*>(d_flags), false},
                                reinterpret_cast<V*>(d_out), d_num_selected, nullptr, n, stream, options, f);
}
template <class T, class Pred>
cudaError_t select_if_indices(void* d_temp, std::size_t& temp_bytes, const T* d_in, std::int64_t* d_out,
                              std::int64_t* d_num_selected, std::int64_t n, Pred pred, cudaStream_t stream,
                              scan_options options) {
  return device::select_pass<device::no_value>(d_temp, temp_bytes, d_in,
                                               device::keep_by_predicate<T, Pred>{pred, false}, d_out,
                                               d_num_selected, nullptr, n, stream, options);
}
template <class Flag>
cudaError_t select_flagged_indices(void* d_temp, std::size_t& temp_bytes, const Flag* d_flags, std::int64_t* d_out,
                                   std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream,
                                   scan_options options) {
  using F = device::bits_t<Flag>;
  return device::select_pass<device::no_value>(d_temp, temp_bytes, static_cast<const F*>(nullptr),
                                               device::keep_by_flag<F>{reinterpret_cast<const F*>(d_flags), false},
                                               d_out, d_num_selected, nullptr, n, stream, options);
}
template <class T, class Pred>
cudaError_t partition_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                         std::int64_t n, Pred pred, cudaStream_t stream, scan_options options) {
  using V = device::bits_t<T>;
  return device::partition_passes<V>(d_temp, temp_bytes, d_in, device::keep_by_predicate<T, Pred>{pred, false},
                                     reinterpret_cast<V*>(d_out), d_num_selected, n, stream, options);
}
template <class T, class Flag>
cudaError_t partition_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const Flag* d_flags, T* d_out,
                              std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream, scan_options options) {
  using V = device::bits_t<T>;
  using F = device::bits_t<Flag>;
  return device::partition_passes<V>(d_temp, temp_bytes, reinterpret_cast<const V*>(d_in),
                                     device::keep_by_flag<F>{reinterpret_cast<const F*>(d_flags), false},
                                     reinterpret_cast<V*>(d_out), d_num_selected, n, stream, options);
}

template <class Count, class Offset>
cudaError_t expand_offsets(void* d_temp, std::size_t& temp_bytes, const Count* d_counts, Offset* d_offsets,
                           Offset* d_total, std::int64_t n, cudaStream_t stream, scan_options options) {
  if (options.strategy == device_strategy::recursive) return cudaErrorNotSupported;
  if (n == 0) return device::empty_result(d_temp, temp_bytes, d_total, sizeof(Offset), stream);
  return device::dispatch_scan<Offset, false>(d_temp, temp_bytes, device::pointer_loader<Count, Offset>{d_counts},
                                              device::offsets_storer<Count, Offset>{d_offsets, d_total, d_counts, n},
                                              nullptr, n, sum{}, device::scan_mode<Offset>{true, true, Offset(0)}, stream,
                                              options);
}

template <class Count, class Offset, class Owner>
cudaError_t expand_owners(void* d_temp, std::size_t& temp_bytes, const Count* d_counts, const Offset* d_offsets,
                          std::int64_t n, Owner* d_owners, std::int64_t total, cudaStream_t stream,
                          scan_options options) {
  if (options.strategy == device_strategy::recursive) options.strategy = device_strategy::reduce_then_scan;
  const device::scan_mode<Owner> mode{false, false, Owner(0)};
  auto max_scan = [&](void* temp) {
    return device::dispatch_scan<Owner, false>(temp, temp_bytes, device::pointer_loader<Owner, Owner>{d_owners},
                                               device::pointer_storer<Owner>{d_owners}, d_owners, total, max_op{},
                                               mode, stream, options);
  };
  if (d_temp == nullptr) return max_scan(nullptr);
  if (total == 0) return cudaSuccess;
  cudaError_t e = cudaMemsetAsync(d_owners, 0, static_cast<std::size_t>(total) * sizeof(Owner), stream);
  if (e != cudaSuccess) return e;
  if (n > 0) {
    device::scatter_owners_kernel<<<1024, 256, 0, stream>>>(d_counts, d_offsets, n, d_owners);
    if ((e = device::check_launch(stream, options.debug_synchronous)) != cudaSuccess) return e;
  }
  return max_scan(d_temp);
}

}  // namespace parascan
