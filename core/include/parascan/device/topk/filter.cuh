// Top-k of long rows (device_topk.cuh's filter path): several blocks a row, the row read twice from
// memory, whatever the number of rows. Round 0 reads the row; rounds 1 and 2 read the candidates.
//
//   round 0 begins with histogram_kernel, blocks of (row, chunk): counts the top 11-bit digit of the
//     images of its chunk in shared memory and adds the non-zero counts to the row's counters
//   round r (one launch, blocks of (row, chunk)):
//     filter_kernel: finds from the row's counters of rounds 0..r the digit where the count reaches the
//       k still wanted; keys of smaller digits are chosen (positions appended to the row's k slots),
//       keys of that digit are the next round's candidates (positions appended to a list of `capacity`),
//       and their next digits counted into the next round's counters
//     rounds 1 and 2 run for a row only while its candidates number more than `finish_below`
//   finish_kernel, a block a row: the rest of the k among the last round's candidates by
//     block::radix_select over their images (cached in shared memory when they fit), the ties at the
//     threshold by a second select over their positions (the earliest win). A row whose first
//     candidates overflowed the list (few distinct keys) is selected whole instead: the block-per-row
//     select and list.
// Rows the sampled path served (topk/sampled.cuh, `sampled` below) skip every round, and finish_kernel
// selects among that path's list instead. Appends are warp-aggregated atomics: one a warp. The k of a
// row come out in no particular order. With k ≤ fused_k_max finish_kernel then orders them itself
// (block::bitonic_sort in shared memory: by (image, position) for sorted output, by position for row
// order) and writes keys and positions; larger k are ordered by device_topk.cuh (a segmented sort of
// rows of k, then a gather).
// Images are ordered_key's: the k smallest images are the k wanted keys.
#pragma once
#include <climits>
#include <cstdint>
#include <cstring>
#include "parascan/block/block_bitonic_sort.cuh"
#include "parascan/block/block_radix_select.cuh"
#include "parascan/device/radix_digits.cuh"
#include "parascan/warp/warp_claim.cuh"

namespace parascan::device::topk_detail {

constexpr int threads = 512;           // the block-per-row kernels' block
constexpr int filter_threads = 256;    // the (row, chunk) kernels' block
constexpr int top_bits = 11, bins = 1 << top_bits;
constexpr std::int64_t wide_from = 8192;    // rows at least this long take the filter path
constexpr unsigned cache_items = 8192;      // candidates finish_kernel keeps in shared memory
constexpr unsigned finish_below = 4096;     // fewer candidates than this skip the later rounds
constexpr std::int64_t fused_k_max = 2048;  // k up to this: finish_kernel orders and writes the row's k itself
constexpr int max_rounds = 3;

/// Rounds of 11-bit digits for keys of U: 1 (8-bit), 2 (16-bit), 3 (32- and 64-bit).
template <class U>
constexpr int rounds_for() {
  constexpr int width = static_cast<int>(sizeof(U) * 8), r = (width + top_bits - 1) / top_bits;
  return r < max_rounds ? r : max_rounds;
}

/// Each row's counters: max_rounds × bins digit counts, then the chosen so far and the candidates of
/// each round (a count may pass the list's capacity: the reader sees the overflow), then the sampled
/// path's (topk/sampled.cuh): its candidates and its threshold (two words: images of up to 8 bytes).
constexpr std::int64_t row_words = max_rounds * bins + 1 + max_rounds + 3;
__device__ __forceinline__ unsigned* chosen_count(unsigned* w) { return w + max_rounds * bins; }
__device__ __forceinline__ unsigned* candidate_count(unsigned* w, int round) { return w + max_rounds * bins + 1 + round; }
__device__ __forceinline__ unsigned* sampled_count(unsigned* w) { return w + max_rounds * bins + 1 + max_rounds; }
__device__ __forceinline__ unsigned* sampled_threshold(unsigned* w) { return sampled_count(w) + 1; }

/// Whether the sampled path chose the row's candidates: at least k keys lie at or below its threshold
/// and their list held them all. Such a row's rounds do not run; finish_kernel selects among the list.
__device__ __forceinline__ bool sampled(unsigned* w, std::int64_t k, std::int64_t capacity) {
  const unsigned m = *sampled_count(w);
  return m >= k && m <= capacity;
}

/// The image the selects compare: CUB's key order, complemented when the largest are wanted.
template <class U>
struct ordered_key {
  key_kind kind;
  bool largest;
  __device__ __forceinline__ U operator()(U raw) const { return sort_detail::ordered_bits(raw, kind, largest); }
};

struct identity {
  template <class T>
  __device__ __forceinline__ T operator()(T v) const { return v; }
};

/// The round-th 11-bit digit of an image, most significant first (the last may be narrower).
template <class U>
__device__ __forceinline__ unsigned digit_of(U image, int round) {
  constexpr int width = static_cast<int>(sizeof(U) * 8);
  const int shift = width - top_bits * (round + 1);
  if (shift >= 0) return static_cast<unsigned>(image >> shift) & (bins - 1u);
  return static_cast<unsigned>(image) & ((1u << (width - top_bits * round)) - 1u);
}

/// The candidate list's length a row: room for a quarter of the row (at least 8192), so that only rows
/// whose top digit is shared by more keys than that (few distinct keys) are selected whole.
inline std::int64_t candidate_capacity(std::int64_t length) {
  const std::int64_t quarter = length / 4 > 8192 ? length / 4 : 8192;
  return quarter < length ? quarter : length;
}

/// Keys a thread takes at once: one 16-byte load.
template <class U>
constexpr int group_of = 16 / static_cast<int>(sizeof(U));

/// Calls f(first, items, count) for the keys [begin, end) of src in groups: items[0, count) are the
/// keys at positions first, first + 1, … (a 16-byte load between the unaligned ends, single keys at
/// them). Every thread of the block calls f the same number of times (count 0 for the padding).
template <int Threads, class U, class F>
__device__ __forceinline__ void for_each_key(const U* src, std::int64_t begin, std::int64_t end, F&& f) {
  constexpr int per = group_of<U>;
  U items[per] = {};
  const auto addr = reinterpret_cast<std::uintptr_t>(src + begin);
  std::int64_t head = static_cast<std::int64_t>((16 - addr % 16) % 16 / sizeof(U));
  if (head > end - begin) head = end - begin;
  {
    const bool ok = threadIdx.x < head;
    const std::int64_t i = begin + threadIdx.x;
    items[0] = ok ? src[i] : U(0);
    f(i, items, ok ? 1 : 0);
  }
  const std::int64_t start = begin + head, vectors = (end - start) / per;
  const uint4* vec = reinterpret_cast<const uint4*>(src + start);
  for (std::int64_t v0 = 0; v0 < vectors; v0 += Threads) {
    const std::int64_t v = v0 + threadIdx.x;
    const bool ok = v < vectors;
    uint4 w = ok ? vec[v] : make_uint4(0, 0, 0, 0);
    std::memcpy(items, &w, 16);
    f(start + v * per, items, ok ? per : 0);
  }
  const std::int64_t tail = start + vectors * per;
  const bool ok = tail + threadIdx.x < end;
  items[0] = ok ? src[tail + threadIdx.x] : U(0);
  f(tail + threadIdx.x, items, ok ? 1 : 0);
}

/// Appends first + j for every set bit j of `bits` to list[atomicAdd(count)] (slots ≥ cap dropped: the
/// count still grows, so the reader sees the overflow). One atomic a warp; every lane calls it.
__device__ __forceinline__ void append_bits(unsigned bits, std::int64_t first, unsigned* count, unsigned* list,
                                            std::int64_t cap) {
  unsigned before = 0, total = 0;
  const unsigned base = warp::claim(__popc(bits), count, before, total);
  for (unsigned slot = base + before; bits != 0; bits &= bits - 1, ++slot)
    if (slot < cap) list[slot] = static_cast<unsigned>(first + __ffs(bits) - 1);
}

struct chunking {
  std::int64_t chunk;  // keys a block
  int per_row;         // blocks a row
};

/// About 2048 blocks in all, of at least 2048 keys each.
inline chunking chunks_for(std::int64_t rows, std::int64_t length) {
  std::int64_t per_row = (2048 + rows - 1) / rows, most = (length + 2047) / 2048;
  if (per_row > most) per_row = most;
  if (per_row < 1) per_row = 1;
  return {(length + per_row - 1) / per_row, static_cast<int>(per_row)};
}

/// From a row's digit counts: the digit where the running count reaches k, and the count before it.
__device__ __forceinline__ void threshold_digit(const unsigned* hist, unsigned k, unsigned& digit, unsigned& below) {
  constexpr int per = bins / filter_threads, warps = filter_threads / 32;
  __shared__ unsigned warp_sums[warps], s_digit, s_below;
  unsigned mine[per], sum = 0;
#pragma unroll
  for (int j = 0; j < per; ++j) sum += (mine[j] = hist[threadIdx.x * per + j]);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned before = sum;
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned v = __shfl_up_sync(0xffffffffu, before, o);
    if (lane >= static_cast<unsigned>(o)) before += v;
  }
  if (lane == 31) warp_sums[warp] = before;
  __syncthreads();
  before -= sum;
  for (unsigned w = 0; w < warp; ++w) before += warp_sums[w];
  if (before < k && k <= before + sum) {  // one thread holds the k-th key's digit
    for (int j = 0; j < per; ++j) {
      if (k <= before + mine[j]) {
        s_digit = threadIdx.x * per + j;
        s_below = before;
        break;
      }
      before += mine[j];
    }
  }
  __syncthreads();
  digit = s_digit;
  below = s_below;
}

/// Whether round `round` runs for a row: round 0 always; a later one while the previous round's
/// candidates fit their list and number at least finish_below.
__device__ __forceinline__ bool round_runs(unsigned* w, int round, std::int64_t capacity) {
  if (round == 0) return true;
  const unsigned m = *candidate_count(w, round - 1);
  return m >= finish_below && m <= capacity;
}

/// Calls f(first, items, count) (for_each_key's) for this block's chunk of the round's keys: the row
/// itself in round 0, the previous round's candidates after (one a call); every thread the same
/// number of times. Returns false
/// (calling nothing) where the round does not run for the row or the chunk is past its candidates.
template <int Threads, class U, class F>
__device__ __forceinline__ bool for_each_in_round(const U* src, std::int64_t length, chunking c, int round, unsigned* w,
                                                  const unsigned* list, std::int64_t capacity, F&& f) {
  const std::int64_t begin = (blockIdx.x % c.per_row) * c.chunk;
  if (round == 0) {
    const std::int64_t end = begin + c.chunk < length ? begin + c.chunk : length;
    for_each_key<Threads>(src, begin, end, f);
    return true;
  }
  if (!round_runs(w, round, capacity)) return false;
  const std::int64_t m = *candidate_count(w, round - 1), end = begin + c.chunk < m ? begin + c.chunk : m;
  if (begin >= end) return false;
  U items[group_of<U>] = {};
  for (std::int64_t i0 = begin; i0 < end; i0 += Threads) {
    const std::int64_t i = i0 + threadIdx.x;
    const bool ok = i < end;
    const unsigned p = ok ? list[i] : 0u;
    items[0] = ok ? src[p] : U(0);
    f(static_cast<std::int64_t>(p), items, ok ? 1 : 0);
  }
  return true;
}

/// Round 0's counts: the top digit of the images of this block's chunk of its row, added to the row's
/// counters in `words` (rows × row_words). Later rounds' counts come from the filter before them.
template <class U>
__global__ void __launch_bounds__(filter_threads)
    histogram_kernel(const U* keys, std::int64_t length, chunking c, std::int64_t k, ordered_key<U> ordered,
                     unsigned* words, std::int64_t capacity) {
  __shared__ unsigned h[bins];
  const std::int64_t row = blockIdx.x / c.per_row;
  unsigned* w = words + row * row_words;
  if (sampled(w, k, capacity)) return;
  for (int d = threadIdx.x; d < bins; d += filter_threads) h[d] = 0;
  __syncthreads();
  for_each_in_round<filter_threads>(keys + row * length, length, c, 0, w, nullptr, 0,
                                    [&](std::int64_t, const U(&items)[group_of<U>], int count) {
#pragma unroll
                                      for (int j = 0; j < group_of<U>; ++j)
                                        if (j < count) atomicAdd(&h[digit_of(ordered(items[j]), 0)], 1u);
                                    });
  __syncthreads();
  for (int d = threadIdx.x; d < bins; d += filter_threads)
    if (h[d] != 0) atomicAdd(&w[d], h[d]);
}

template <class U>
__global__ void __launch_bounds__(filter_threads)
    filter_kernel(const U* keys, std::int64_t length, chunking c, std::int64_t k, ordered_key<U> ordered, int round,
                  unsigned* words, unsigned* chosen, const unsigned* list_in, unsigned* list_out, std::int64_t capacity) {
  const std::int64_t row = blockIdx.x / c.per_row;
  unsigned* w = words + row * row_words;
  if (sampled(w, k, capacity) || !round_runs(w, round, capacity)) return;
  // The next round's digit counts of this block's candidates (the next round then needs no histogram
  // launch of its own, nor a read of the candidates for it).
  __shared__ unsigned next_counts[bins];
  const bool count_next = round + 1 < rounds_for<U>();
  for (int d = threadIdx.x; d < bins; d += filter_threads) next_counts[d] = 0;
  __syncthreads();
  // The digit of this round's threshold: the rounds' counts followed from the first, k less the keys
  // below each earlier digit.
  unsigned need = static_cast<unsigned>(k), digit = 0, below = 0;
  for (int r = 0; r <= round; ++r) {
    threshold_digit(w + r * bins, need, digit, below);
    need -= below;
  }
  unsigned* row_chosen = chosen + row * k;
  unsigned* next = list_out + row * capacity;
  for_each_in_round<filter_threads>(keys + row * length, length, c, round, w, list_in + row * capacity, capacity,
                                    [&](std::int64_t first, const U(&items)[group_of<U>], int count) {
                                      unsigned below_bits = 0, equal_bits = 0;
#pragma unroll
                                      for (int j = 0; j < group_of<U>; ++j) {
                                        const unsigned d = digit_of(ordered(items[j]), round);
                                        below_bits |= static_cast<unsigned>(j < count && d < digit) << j;
                                        equal_bits |= static_cast<unsigned>(j < count && d == digit) << j;
                                      }
                                      // Most keys are neither (k small beside the row): one vote a warp.
                                      if (!__any_sync(0xffffffffu, (below_bits | equal_bits) != 0)) return;
                                      append_bits(below_bits, first, chosen_count(w), row_chosen, k);
                                      append_bits(equal_bits, first, candidate_count(w, round), next, capacity);
                                      if (count_next)
#pragma unroll
                                        for (int j = 0; j < group_of<U>; ++j)
                                          if (equal_bits >> j & 1u)
                                            atomicAdd(&next_counts[digit_of(ordered(items[j]), round + 1)], 1u);
                                    });
  if (!count_next) return;
  __syncthreads();
  unsigned* g = w + (round + 1) * bins;
  for (int d = threadIdx.x; d < bins; d += filter_threads)
    if (next_counts[d] != 0) atomicAdd(&g[d], next_counts[d]);
}

/// The images of the candidates read through their positions (not cached).
template <class U>
struct gathered {
  const U* src;
  const unsigned* at;
  ordered_key<U> ordered;
  __device__ __forceinline__ U operator[](unsigned i) const { return ordered(src[at[i]]); }
};

/// A candidate's position where its image equals the threshold, else past every position.
template <class Images, class Positions, class U>
struct tie_positions {
  Images images;
  Positions at;
  U threshold;
  __device__ __forceinline__ unsigned operator[](unsigned i) const { return images[i] == threshold ? at[i] : UINT_MAX; }
};

template <class U>
struct finish_storage {
  typename block::radix_select<threads, U>::storage keys;
  typename block::radix_select<threads, unsigned>::storage positions;
  unsigned slot;
};

/// Appends to out the `need` smallest of m candidates (images[i], at[i]), ties by position.
template <class U, class Images, class Positions>
__device__ void finish_candidates(finish_storage<U>& s, const Images& images, const Positions& at, unsigned m,
                                  unsigned need, unsigned* out) {
  const auto r = block::radix_select<threads, U>::select(s.keys, images, m, need, identity{});
  unsigned last = UINT_MAX;  // every key equal to the threshold is chosen, unless fewer are wanted
  if (r.ties < r.equal) {
    const tie_positions<Images, Positions, U> ties{images, at, r.threshold};
    last = block::radix_select<threads, unsigned>::select(s.positions, ties, m, r.ties, identity{}).threshold;
  }
  if (threadIdx.x == 0) s.slot = 0;
  __syncthreads();
  for (unsigned i = threadIdx.x; i < m; i += threads) {
    const U b = images[i];
    const unsigned p = at[i];
    if (b < r.threshold || (b == r.threshold && p <= last)) out[atomicAdd(&s.slot, 1u)] = p;
  }
}

/// The row's k chosen positions as (image << bits | position), for the one sort that orders them.
template <class U>
__device__ void composite_row(const U* src, const unsigned* at, std::int64_t k, ordered_key<U> ordered, int bits,
                              std::uint64_t* out) {
  __syncthreads();  // the block's own appends are written
  for (std::int64_t j = threadIdx.x; j < k; j += threads) {
    const unsigned p = at[j];
    out[j] = static_cast<std::uint64_t>(ordered(src[p])) << bits | p;
  }
}

/// How finish_kernel hands on a row's k: unordered in `chosen` (and as composite keys when asked), or
/// ordered and written out by the kernel itself (k ≤ fused_k_max).
enum class finish_output : int { chosen, sorted, row_order };

/// The row's k (positions at[0, k)) ordered in shared memory and written: by (image << bits | position)
/// ascending (sorted: the wanted order, ties by position; keys of up to 4 bytes), or by position.
template <class U>
__device__ void write_ordered_row(const U* src, const unsigned* at, std::int64_t k, ordered_key<U> ordered, int bits,
                                  bool by_image, std::uint64_t* buf, U* out_keys, std::int64_t* out_at) {
  __syncthreads();  // the block's own appends to `at` are written
  unsigned n = 1;
  while (n < k) n <<= 1;
  for (unsigned j = threadIdx.x; j < n; j += threads) {
    std::uint64_t v = ~std::uint64_t{0};  // padding, sorted past the k
    if (j < k) {
      const unsigned p = at[j];
      v = by_image ? static_cast<std::uint64_t>(ordered(src[p])) << bits | p : p;
    }
    buf[j] = v;
  }
  block::bitonic_sort<threads>(buf, n);
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1u;
  for (unsigned j = threadIdx.x; j < k; j += threads) {
    const auto p = static_cast<unsigned>(buf[j] & mask);
    out_keys[j] = src[p];
    out_at[j] = p;
  }
}

/// Dynamic shared memory of finish_kernel: the candidates' cache (when `cache`), then the ordering
/// buffer (when the kernel writes the output).
template <class U>
constexpr int finish_cache_bytes = static_cast<int>(cache_items * (sizeof(U) + sizeof(unsigned)));
constexpr int finish_order_bytes = static_cast<int>(fused_k_max * sizeof(std::uint64_t));

/// composite != nullptr: the row's k also written as composite_row's keys (position_bits wide positions).
/// output != chosen: the row's k ordered and written to out_keys / out_at (rows of k) instead.
/// rounds_ran: whether the rounds were launched (else a row the sample did not serve is selected whole).
template <class U>
__global__ void __launch_bounds__(threads)
    finish_kernel(const U* keys, std::int64_t length, std::int64_t k, ordered_key<U> ordered, unsigned* words,
                  const unsigned* lists0, const unsigned* lists1, std::int64_t capacity, bool cache, bool rounds_ran,
                  unsigned* chosen, std::uint64_t* composite, int position_bits, finish_output output, U* out_keys,
                  std::int64_t* out_at) {
  __shared__ finish_storage<U> s;
  extern __shared__ __align__(16) unsigned char cached[];
  const std::int64_t row = blockIdx.x;
  const U* src = keys + row * length;
  unsigned* out = chosen + row * k;
  unsigned* w = words + row * row_words;
  const bool by_sample = sampled(w, k, capacity);
  if (!by_sample && (!rounds_ran || *candidate_count(w, 0) > capacity)) {
    // Overflowed, or not served by the sample with no rounds run: the whole row, the block-per-row way.
    using select = block::radix_select<threads, U>;
    const auto r = select::select(s.keys, src, static_cast<unsigned>(length), static_cast<unsigned>(k), ordered);
    select::list(s.keys, src, static_cast<unsigned>(length), r, ordered, [&](unsigned rank, unsigned i) { out[rank] = i; });
  } else {
    int last = 0;  // the last round that ran for the row (each that ran found at least one candidate)
    while (!by_sample && last + 1 < max_rounds && *candidate_count(w, last + 1) > 0) ++last;
    // A sampled row's candidates are in lists1 (no round ran for it: none chosen yet).
    const unsigned below = by_sample ? 0u : *chosen_count(w);
    const unsigned m = by_sample ? *sampled_count(w) : *candidate_count(w, last);
    const unsigned need = static_cast<unsigned>(k) - below;
    const unsigned* at = (by_sample || last % 2 == 1 ? lists1 : lists0) + row * capacity;
    if (cache && m <= cache_items) {
      U* images = reinterpret_cast<U*>(cached);
      unsigned* positions = reinterpret_cast<unsigned*>(cached + cache_items * sizeof(U));
      for (unsigned i = threadIdx.x; i < m; i += threads) {
        const unsigned p = at[i];
        positions[i] = p;
        images[i] = ordered(src[p]);
      }
      __syncthreads();
      finish_candidates(s, static_cast<const U*>(images), static_cast<const unsigned*>(positions), m, need, out + below);
    } else {
      finish_candidates(s, gathered<U>{src, at, ordered}, at, m, need, out + below);
    }
  }
  if (output != finish_output::chosen) {
    auto* buf = reinterpret_cast<std::uint64_t*>(cached + (cache ? finish_cache_bytes<U> : 0));
    write_ordered_row(src, out, k, ordered, position_bits, output == finish_output::sorted, buf, out_keys + row * k,
                      out_at + row * k);
  } else if (composite != nullptr) {
    composite_row(src, out, k, ordered, position_bits, composite + row * k);
  }
}

/// Positions of the chosen as plain positions, or in the low `bits` of (image << bits | position).
struct plain_positions {
  const unsigned* at;
  __device__ __forceinline__ unsigned operator[](std::int64_t i) const { return at[i]; }
};
struct composite_positions {
  const std::uint64_t* at;
  int bits;
  __device__ __forceinline__ unsigned operator[](std::int64_t i) const {
    return static_cast<unsigned>(at[i] & ((std::uint64_t{1} << bits) - 1u));
  }
};

/// out_keys[i], out_at[i] = the key at position at[i] of its row (rows of k), and that position.
template <class U, class Positions>
__global__ void gather_kernel(const U* keys, std::int64_t length, std::int64_t k, std::int64_t total, Positions at,
                              U* out_keys, std::int64_t* out_at) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const unsigned p = at[i];
    out_keys[i] = keys[(i / k) * length + p];
    out_at[i] = p;
  }
}

}  // namespace parascan::device::topk_detail
