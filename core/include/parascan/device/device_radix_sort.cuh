// LSD radix sort (see radix_sort.hpp): the kernels and the host dispatch. Include from a .cu file.
//
// split4 / split8, one pass per digit of R bits:
//   1. counts:  a block per chunk of the input counts its digits (shared-memory histogram) and writes
//               counts[d · chunks + chunk], digit-major
//   2. offsets: an exclusive scan of those counts with the scan core: offsets[d · chunks + c] is
//               where chunk c's first item of digit d goes (all smaller digits, then the same digit
//               of the chunks before)
//   3. scatter: a block per chunk walks it in rounds of 256 items in input order; each item's rank
//               among the round's items of its digit comes from __match_any_sync within the warp and
//               a per-warp digit histogram scanned across the warps; the block's running count per
//               digit carries the rank across rounds. Stable by construction.
// split1: per bit, flags (bit == 0) and parascan::partition_flagged (stable: zeros, then ones).
// onesweep: device_onesweep.cuh. Sorts of up to a segmented-sort tile (2048 or 4096 items) go to the
// segmented sort as one row instead: one launch (sorted_by_one_block). Keys alone, from 2049 (1025 for
// 8-byte keys) up to 8192 (4096), are one block's at shapes of their own (sort_one_row).
#pragma once
#include <climits>
#include <cstdint>
#include <type_traits>
#include "parascan/device/device_onesweep.cuh"
#include "parascan/device/device_scan.cuh"
#include "parascan/device/radix_digits.cuh"
#include "parascan/device/segmented_sort/segments.cuh"
#include "parascan/device/segmented_sort/small.cuh"
#include "parascan/device/widen.cuh"
#include "parascan/ops.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/scan.hpp"
#include "parascan/segmented_sort.hpp"
#include "parascan/select.hpp"

namespace parascan::device::sort_detail {

constexpr int threads = 256;
constexpr int warps = threads / 32;
constexpr std::int64_t max_chunks = 4096;

struct chunking {
  std::int64_t n, items, count;  // items per chunk (a multiple of threads), chunks
};
inline chunking chunks_of(std::int64_t n) {
  std::int64_t items = (n + max_chunks - 1) / max_chunks;
  items = (items + threads - 1) / threads * threads;
  if (items < threads) items = threads;
  return {n, items, (n + items - 1) / items};
}

template <int R, class U, class Offset>
__global__ void __launch_bounds__(threads) count_digits_kernel(const U* keys, chunking ch, digit_place p, Offset* counts) {
  constexpr int digits = 1 << R;
  __shared__ unsigned hist[digits];
  for (int d = threadIdx.x; d < digits; d += threads) hist[d] = 0;
  __syncthreads();
  const std::int64_t begin = blockIdx.x * ch.items, end = begin + ch.items < ch.n ? begin + ch.items : ch.n;
  for (std::int64_t i = begin + threadIdx.x; i < end; i += threads) atomicAdd(&hist[digit_of(keys[i], p)], 1u);
  __syncthreads();
  for (int d = threadIdx.x; d < digits; d += threads) counts[static_cast<std::int64_t>(d) * ch.count + blockIdx.x] = hist[d];
}

template <int R, class U, class V, class Offset>
__global__ void __launch_bounds__(threads)
    scatter_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out, chunking ch, digit_place p,
                   const Offset* offsets) {
  constexpr int digits = 1 << R;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  __shared__ Offset base[digits];
  __shared__ unsigned warp_counts[2][warps][digits];  // double-buffered by round
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int d = threadIdx.x; d < digits; d += threads) base[d] = offsets[static_cast<std::int64_t>(d) * ch.count + blockIdx.x];
  const std::int64_t begin = blockIdx.x * ch.items, end = begin + ch.items < ch.n ? begin + ch.items : ch.n;
  const unsigned lanes_below = (1u << lane) - 1u;
  int buffer = 0;
  for (std::int64_t i0 = begin; i0 < end; i0 += threads, buffer ^= 1) {
    unsigned(&counts)[warps][digits] = warp_counts[buffer];
    for (int j = threadIdx.x; j < warps * digits; j += threads) (&counts[0][0])[j] = 0;
    const std::int64_t i = i0 + threadIdx.x;
    const bool valid = i < end;
    const U key = valid ? keys_in[i] : U(0);
    const unsigned d = valid ? digit_of(key, p) : static_cast<unsigned>(digits);
    __syncthreads();  // counts zeroed; the previous round's base updates visible
    const unsigned peers = __match_any_sync(0xffffffffu, d);
    const unsigned rank = __popc(peers & lanes_below);
    if (valid && rank == 0) counts[warp][d] = __popc(peers);
    __syncthreads();
    unsigned total = 0;
    if (threadIdx.x < digits) {  // exclusive scan of the digit's counts across the warps
      for (int w = 0; w < warps; ++w) {
        const unsigned c = counts[w][threadIdx.x];
        counts[w][threadIdx.x] = total;
        total += c;
      }
    }
    __syncthreads();
    if (valid) {
      const Offset pos = base[d] + counts[warp][d] + rank;
      keys_out[pos] = key;
      if constexpr (has_values) values_out[pos] = values_in ? values_in[i] : static_cast<V>(i);
    }
    __syncthreads();  // every thread has read base[] before it moves on
    if (threadIdx.x < digits) base[threadIdx.x] += total;
  }
}

template <class U>
__global__ void bit_flags_kernel(const U* keys, std::int64_t n, int bit, key_kind kind, bool descending,
                                 std::uint8_t* flags) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    flags[i] = ((ordered_bits(keys[i], kind, descending) >> bit) & 1u) == 0;
}

template <class V>
__global__ void iota_kernel(V* out, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<V>(i);
}

inline unsigned grid_for(std::int64_t n) {
  const std::int64_t blocks = (n + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 8192 ? (blocks > 0 ? blocks : 1) : 8192);
}

/// The buffers a pass reads and writes: pass p of `passes` writes the caller's output when
/// passes − 1 − p is even, the temporary buffer otherwise; pass 0 reads the caller's input.
template <class T>
struct ping_pong {
  const T* in;
  T* out;
  T* temp;
  int passes;
  const T* source(int p) const { return p == 0 ? in : target(p - 1); }
  T* target(int p) const { return (passes - 1 - p) % 2 == 0 ? out : temp; }
};

template <class U, class V>
cudaError_t sort(void* d_temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out, const V* values_in,
                 V* values_out, std::int64_t n, key_kind kind, sort_options o, cudaStream_t stream) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  constexpr int key_bits = static_cast<int>(sizeof(U) * 8);
  const int end_bit = o.end_bit < 0 ? key_bits : o.end_bit;
  if (n < 0 || o.begin_bit < 0 || end_bit > key_bits || o.begin_bit > end_bit) return cudaErrorInvalidValue;
  const int digit_bits = o.algorithm == sort_algorithm::split1 ? 1 : o.algorithm == sort_algorithm::split4 ? 4 : 8;
  const bool onesweep = o.algorithm == sort_algorithm::onesweep;
  const int passes = n <= 1 ? 0 : (end_bit - o.begin_bit + digit_bits - 1) / digit_bits;
  const bool wide = n > static_cast<std::int64_t>(UINT32_MAX);
  // The Onesweep's tiles: 32-bit output positions, or 64-bit ones past 2^32 keys (`wide`).
  using onesweep_policy = onesweep::default_policy_t<U, V>;
  using onesweep_wide_policy = onesweep::default_policy_t<U, V, std::uint64_t>;
  const chunking ch = chunks_of(n > 0 ? n : 1);
  const std::int64_t digits = std::int64_t(1) << digit_bits;
  // Temporary storage: the keys' and values' second buffers, then per algorithm the counts and their
  // scan, or the flags, the split's count and its temporary storage.
  const std::size_t key_buf = align_up(static_cast<std::size_t>(n) * sizeof(U));
  std::size_t value_buf = 0;
  if constexpr (has_values) value_buf = align_up(static_cast<std::size_t>(n) * sizeof(V));
  std::size_t counts_bytes = 0, scan_bytes = 0, flag_bytes = 0, split_bytes = 0;
  const std::int64_t count_items = digits * ch.count;
  if (o.algorithm == sort_algorithm::split1) {
    flag_bytes = align_up(static_cast<std::size_t>(n) + 1) + align_up(sizeof(std::int64_t));
    std::size_t b = 0;
    cudaError_t e = partition_flagged<U, std::uint8_t>(nullptr, b, nullptr, nullptr, nullptr, nullptr, n, stream);
    if (e != cudaSuccess) return e;
    split_bytes = align_up(b);
    if constexpr (has_values) {
      std::size_t bv = 0;
      e = partition_flagged<V, std::uint8_t>(nullptr, bv, nullptr, nullptr, nullptr, nullptr, n, stream);
      if (e != cudaSuccess) return e;
      if (align_up(bv) > split_bytes) split_bytes = align_up(bv);
    }
  } else if (onesweep) {
    counts_bytes = wide ? onesweep::temp_bytes<onesweep_wide_policy, std::uint64_t>(n, passes)
                        : onesweep::temp_bytes<onesweep_policy, std::uint32_t>(n, passes);
    if constexpr (onesweep::small_n_policy<U, V>::applies) {
      // The small tiles' storage for min(n, the line): storage sized for n then serves any smaller n too.
      using small = typename onesweep::small_n_policy<U, V>::type;
      const std::int64_t m = n < onesweep::small_pairs_below ? n : onesweep::small_pairs_below;
      const std::size_t b = onesweep::temp_bytes<small, std::uint32_t>(m, passes);
      if (b > counts_bytes) counts_bytes = b;
    }
  } else {
    counts_bytes = align_up(static_cast<std::size_t>(count_items) * (wide ? 8 : 4));
    cudaError_t e = wide ? exclusive_scan<std::uint64_t, std::uint64_t, sum>(nullptr, scan_bytes, nullptr, nullptr,
                                                                             count_items, sum{}, 0ull, stream)
                         : exclusive_scan<std::uint32_t, std::uint32_t, sum>(nullptr, scan_bytes, nullptr, nullptr,
                                                                             count_items, sum{}, 0u, stream);
    if (e != cudaSuccess) return e;
    scan_bytes = align_up(scan_bytes);
  }
  const std::size_t need = key_buf + value_buf + counts_bytes + scan_bytes + flag_bytes + split_bytes + 256;
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  char* t = static_cast<char*>(d_temp);
  U* key_temp = reinterpret_cast<U*>(t);
  t += key_buf;
  V* value_temp = nullptr;
  if constexpr (has_values) {
    value_temp = reinterpret_cast<V*>(t);
    t += value_buf;
  }
  const auto check = [&]() { return check_launch(stream, o.debug_synchronous); };
  cudaError_t e;
  if (passes == 0) {  // nothing to compare: the output is the input
    if ((e = cudaMemcpyAsync(keys_out, keys_in, static_cast<std::size_t>(n) * sizeof(U), cudaMemcpyDeviceToDevice,
                             stream)) != cudaSuccess)
      return e;
    if constexpr (has_values) {
      if (values_in) {
        e = cudaMemcpyAsync(values_out, values_in, static_cast<std::size_t>(n) * sizeof(V), cudaMemcpyDeviceToDevice, stream);
      } else {
        iota_kernel<<<grid_for(n), threads, 0, stream>>>(values_out, n);
        e = check();
      }
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  }
  const ping_pong<U> kb{keys_in, keys_out, key_temp, passes};
  ping_pong<V> vb{values_in, values_out, value_temp, passes};
  if (o.algorithm == sort_algorithm::split1) {
    std::uint8_t* flags = reinterpret_cast<std::uint8_t*>(t);
    t += align_up(static_cast<std::size_t>(n) + 1);
    std::int64_t* kept = reinterpret_cast<std::int64_t*>(t);
    t += align_up(sizeof(std::int64_t));
    void* split_temp = t;
    if constexpr (has_values) {
      if (!values_in) {  // argsort: the indices start in the buffer pass 0 does not write
        V* indices = vb.target(0) == values_out ? value_temp : values_out;
        iota_kernel<<<grid_for(n), threads, 0, stream>>>(indices, n);
        if ((e = check()) != cudaSuccess) return e;
        vb.in = indices;
      }
    }
    for (int p = 0; p < passes; ++p) {
      const int bit = o.begin_bit + p;
      bit_flags_kernel<<<grid_for(n), threads, 0, stream>>>(kb.source(p), n, bit, kind, o.descending, flags);
      if ((e = check()) != cudaSuccess) return e;
      std::size_t b = split_bytes;
      scan_options so;
      so.debug_synchronous = o.debug_synchronous;
      if ((e = partition_flagged(split_temp, b, kb.source(p), flags, kb.target(p), kept, n, stream, so)) != cudaSuccess)
        return e;
      if constexpr (has_values) {
        b = split_bytes;
        if ((e = partition_flagged(split_temp, b, vb.source(p), flags, vb.target(p), kept, n, stream, so)) != cudaSuccess)
          return e;
      }
    }
    return cudaSuccess;
  }
  if (onesweep) {
    const onesweep::pass_set ps{o.begin_bit, end_bit, passes, kind, o.descending};
    const onesweep::buffers<U, V> io{keys_in, keys_out, key_temp, values_in, values_out, value_temp};
    if constexpr (onesweep::small_n_policy<U, V>::applies) {
      if (n < onesweep::small_pairs_below)
        return onesweep::run<typename onesweep::small_n_policy<U, V>::type, std::uint32_t>(t, io, n, ps, stream,
                                                                                          o.debug_synchronous);
    }
    return wide ? onesweep::run<onesweep_wide_policy, std::uint64_t>(t, io, n, ps, stream, o.debug_synchronous)
                : onesweep::run<onesweep_policy, std::uint32_t>(t, io, n, ps, stream, o.debug_synchronous);
  }
  void* counts = t;
  t += counts_bytes;
  void* scan_temp = t;
  const unsigned blocks = static_cast<unsigned>(ch.count);
  for (int p = 0; p < passes; ++p) {
    const int shift = o.begin_bit + p * digit_bits;
    const digit_place place{shift, end_bit - shift < digit_bits ? end_bit - shift : digit_bits, kind, o.descending};
    const auto run = [&](auto offset_tag, auto radix_tag) -> cudaError_t {
      using Offset = decltype(offset_tag);
      constexpr int R = decltype(radix_tag)::value;
      Offset* c = static_cast<Offset*>(counts);
      count_digits_kernel<R, U, Offset><<<blocks, threads, 0, stream>>>(kb.source(p), ch, place, c);
      cudaError_t err = check();
      if (err != cudaSuccess) return err;
      std::size_t b = scan_bytes;
      scan_options so;
      so.debug_synchronous = o.debug_synchronous;
      if ((err = exclusive_scan(scan_temp, b, c, c, count_items, sum{}, Offset(0), stream, so)) != cudaSuccess) return err;
      const V* vin = nullptr;
      V* vout = nullptr;
      if constexpr (has_values) {
        vin = p == 0 ? values_in : vb.source(p);  // null on argsort's first pass: the kernel writes indices
        vout = vb.target(p);
      }
      scatter_kernel<R, U, V, Offset><<<blocks, threads, 0, stream>>>(kb.source(p), kb.target(p), vin, vout, ch, place, c);
      return check();
    };
    if (digit_bits == 4) e = wide ? run(std::uint64_t{}, std::integral_constant<int, 4>{}) : run(std::uint32_t{}, std::integral_constant<int, 4>{});
    else e = wide ? run(std::uint64_t{}, std::integral_constant<int, 8>{}) : run(std::uint32_t{}, std::integral_constant<int, 8>{});
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

/// Argsort into 8-byte positions of fewer than 2^32 keys through 4-byte ones (widen.cuh).
template <class U, class V>
cudaError_t argsort_through_4_bytes(void* d_temp, std::size_t& temp_bytes, const U* keys_in, U* keys_out,
                                    V* positions, std::int64_t n, key_kind kind, sort_options o, cudaStream_t stream) {
  return device::argsort_through_4_bytes(
      d_temp, temp_bytes, positions, n,
      [&](void* temp, std::size_t& bytes, std::uint32_t* narrow) {
        return sort<U, std::uint32_t>(temp, bytes, keys_in, keys_out, nullptr, narrow, n, kind, o, stream);
      },
      stream, o.debug_synchronous);
}

}  // namespace parascan::device::sort_detail

namespace parascan::device::sort_detail {

/// Options a one-block sort takes: the Onesweep's (the default algorithm) over a valid bit range.
template <class Bits>
bool one_block_takes(const sort_options& o) {
  constexpr int key_bits = static_cast<int>(8 * sizeof(Bits));
  const int end_bit = o.end_bit < 0 ? key_bits : o.end_bit;
  return o.algorithm == sort_algorithm::onesweep && o.begin_bit >= 0 && o.begin_bit < end_bit && end_bit <= key_bits;
}

/// Sorts of 2 keys to a segmented-sort tile (2048 or 4096 items, segmented_sort/segments.cuh) are that
/// sort's one row: one block sorts them in shared memory in one launch, where the Onesweep takes a
/// memset, a histogram and a launch per digit. The value widths it moves: 4 and 8 bytes (and none).
template <class Bits, class V>
bool sorted_by_one_block(std::int64_t n, const sort_options& o) {
  constexpr bool movable = std::is_same_v<V, no_values> || sizeof(V) == 4 || sizeof(V) == 8;
  return movable && n >= 2 && n <= segmented::tiles<Bits, V>::size && one_block_takes<Bits>(o);
}

/// Keys alone, one row for one block at a shape of its own (experiments/one_block_sort.cu, H100,
/// performance.md entry 48), before the segmented sort's row (sorted_by_one_block) and the Onesweep:
///   keys on every bit, keys only (one_row_keys_kernel; floats too since entry 51, their zeros' signs
///   put back where a −0.0 is present): ≤ 4-byte keys 2049–4096 at 512 × 8
///   (4096 u32: 13.9 µs against the segmented row's 16.1, CUB 12.5), 4097–8192 at 512 × 16 (8192:
///   19.8 µs against the Onesweep's 37.3, CUB 44.5); 8-byte keys 1025–2048 at 256 × 8 (2048 u64: 16.5
///   against 18.5, CUB 16.3), 2049–4096 at 512 × 8
///   keys on a bit range, ranked with their positions (one_row_kernel): past the segmented
///   row's tile up to 8192 ≤ 4-byte keys at 512 × 16 (24.2 µs) and 4096 8-byte keys at 512 × 8 (28.9
///   against the Onesweep's 58.5, CUB 71.6)
/// Smaller rows stay the segmented sort's (256 × 4 and 256 × 8 were faster up to 1024 and 2048).
template <class Bits>
struct one_row_plan {
  static constexpr bool narrow = sizeof(Bits) <= 4;
  static constexpr std::int64_t largest = narrow ? 8192 : 4096;
  bool keys_only;
  std::int64_t n;
  one_row_plan(std::int64_t count, const sort_options& o) : n(count) {
    const int key_bits = static_cast<int>(8 * sizeof(Bits));
    keys_only = o.begin_bit == 0 && (o.end_bit < 0 || o.end_bit == key_bits);
  }
  bool taken(const sort_options& o) const {
    const std::int64_t after = keys_only ? (narrow ? 2048 : 1024) : segmented::tiles<Bits, no_values>::size;
    return n > after && n <= largest && one_block_takes<Bits>(o);
  }
};

template <int Threads, int Items, class Bits>
cudaError_t launch_one_row(const Bits* in, Bits* out, int n, bool keys_only, key_kind kind, const sort_options& o,
                           cudaStream_t stream) {
  cudaError_t e;
  if (keys_only) {
    const auto kernel = segmented::one_row_keys_kernel<Threads, Items, Bits>;
    constexpr int smem = static_cast<int>(sizeof(typename block::radix_sort<Threads, Items, Bits, false>::storage));
    if ((e = allow_dynamic_smem(kernel, smem)) != cudaSuccess) return e;
    kernel<<<1, Threads, smem, stream>>>(in, out, n, key_codec<Bits>(kind, o.descending));
  } else {
    const int end_bit = o.end_bit < 0 ? static_cast<int>(8 * sizeof(Bits)) : o.end_bit;
    const auto kernel = segmented::one_row_kernel<Threads, Items, Bits, no_values>;
    constexpr int smem = static_cast<int>(sizeof(typename block::radix_sort<Threads, Items, Bits>::storage));
    if ((e = allow_dynamic_smem(kernel, smem)) != cudaSuccess) return e;
    kernel<<<1, Threads, smem, stream>>>(in, out, nullptr, nullptr, n, segmented::sort_key<Bits>(kind, o.begin_bit, end_bit, o.descending));
  }
  return check_launch(stream, o.debug_synchronous);
}

template <class Bits>
cudaError_t sort_one_row(void* d_temp, std::size_t& temp_bytes, const Bits* in, Bits* out, const one_row_plan<Bits>& p,
                         key_kind kind, const sort_options& o, cudaStream_t stream) {
  if (d_temp == nullptr) {
    temp_bytes = 1;
    return cudaSuccess;
  }
  const int n = static_cast<int>(p.n);
  if constexpr (one_row_plan<Bits>::narrow) {
    if (n <= 4096) return launch_one_row<512, 8>(in, out, n, p.keys_only, kind, o, stream);
    return launch_one_row<512, 16>(in, out, n, p.keys_only, kind, o, stream);
  } else {
    if (n <= 2048) return launch_one_row<256, 8>(in, out, n, p.keys_only, kind, o, stream);
    return launch_one_row<512, 8>(in, out, n, p.keys_only, kind, o, stream);
  }
}

/// A sort the one block takes: `one` (the segmented sort's row) does it, and its size query answers the
/// larger of `one`'s and `rest`'s (the Onesweep's) for the same n, so that storage sized for n also
/// serves any smaller n a caller then sorts with it (the out-of-core sort's last chunk; 0 or 1 keys
/// take the Onesweep's copy).
template <class One, class Rest>
cudaError_t one_block_or(void* d_temp, std::size_t& temp_bytes, One one, Rest rest) {
  if (d_temp != nullptr) return one(d_temp, temp_bytes);
  std::size_t one_bytes = 0, rest_bytes = 0;
  cudaError_t e = one(nullptr, one_bytes);
  if (e == cudaSuccess) e = rest(nullptr, rest_bytes);
  temp_bytes = one_bytes > rest_bytes ? one_bytes : rest_bytes;
  return e;
}

inline segmented_sort_options as_segmented(const sort_options& o) {
  segmented_sort_options s;
  s.begin_bit = o.begin_bit;
  s.end_bit = o.end_bit;
  s.descending = o.descending;
  s.debug_synchronous = o.debug_synchronous;
  return s;
}

}  // namespace parascan::device::sort_detail

namespace parascan {

template <class Bits>
cudaError_t radix_sort_bits(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                            std::int64_t n, key_kind kind, sort_options options, cudaStream_t stream) {
  using device::sort_detail::no_values;
  const auto rest = [&](void* t, std::size_t& b) {
    return device::sort_detail::sort<Bits, no_values>(t, b, d_keys_in, d_keys_out, nullptr, nullptr, n, kind, options,
                                                      stream);
  };
  const device::sort_detail::one_row_plan<Bits> row(n, options);
  if (row.taken(options)) {
    const auto one = [&](void* t, std::size_t& b) {
      return device::sort_detail::sort_one_row<Bits>(t, b, d_keys_in, d_keys_out, row, kind, options, stream);
    };
    return device::sort_detail::one_block_or(d_temp, temp_bytes, one, rest);
  }
  if (device::sort_detail::sorted_by_one_block<Bits, no_values>(n, options)) {
    const auto one = [&](void* t, std::size_t& b) {
      return segmented_sort_bits<Bits>(t, b, d_keys_in, d_keys_out, n, segment_layout::rows(1, n), kind,
                                       device::sort_detail::as_segmented(options), stream);
    };
    return device::sort_detail::one_block_or(d_temp, temp_bytes, one, rest);
  }
  return rest(d_temp, temp_bytes);
}

template <class Bits, class Value>
cudaError_t radix_sort_bits_pairs(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys_in, Bits* d_keys_out,
                                  const Value* d_values_in, Value* d_values_out, std::int64_t n, key_kind kind,
                                  sort_options options, cudaStream_t stream) {
  if (d_values_in == nullptr && sizeof(Value) < 8 && n > static_cast<std::int64_t>(UINT32_MAX)) return cudaErrorInvalidValue;
  if (d_values_in == nullptr && sizeof(Value) < 4) return cudaErrorInvalidValue;
  const auto rest = [&](void* t, std::size_t& b) {
    if constexpr (sizeof(Value) == 8) {
      if (d_values_in == nullptr && n <= static_cast<std::int64_t>(UINT32_MAX) && options.algorithm == sort_algorithm::onesweep)
        return device::sort_detail::argsort_through_4_bytes<Bits, Value>(t, b, d_keys_in, d_keys_out, d_values_out, n,
                                                                        kind, options, stream);
    }
    return device::sort_detail::sort<Bits, Value>(t, b, d_keys_in, d_keys_out, d_values_in, d_values_out, n, kind,
                                                  options, stream);
  };
  if (device::sort_detail::sorted_by_one_block<Bits, Value>(n, options)) {
    if constexpr (sizeof(Value) == 4 || sizeof(Value) == 8) {
      using V = std::conditional_t<sizeof(Value) == 4, std::uint32_t, std::uint64_t>;
      const auto one = [&](void* t, std::size_t& b) {
        return segmented_sort_bits_pairs<Bits, V>(t, b, d_keys_in, d_keys_out, reinterpret_cast<const V*>(d_values_in),
                                                  reinterpret_cast<V*>(d_values_out), n, segment_layout::rows(1, n), kind,
                                                  device::sort_detail::as_segmented(options), stream);
      };
      return device::sort_detail::one_block_or(d_temp, temp_bytes, one, rest);
    }
  }
  return rest(d_temp, temp_bytes);
}

}  // namespace parascan
