// Top-k of long rows with k small beside them: a threshold from a sample of each row, then one read of
// the row (device_topk.cuh runs it ahead of filter.cuh's rounds, which it replaces for most rows).
//
//   1. sample_kernel, a block a row: the images of sample_size(length) keys, in runs of sample_run
//      consecutive keys spread evenly over the row (one coalesced warp load a run), and their r-th
//      smallest t by block::radix_select in shared memory; r = sample_rank(k, ...), the sample's expected
//      count below the row's k-th smallest image, plus 4 standard deviations and 4, so that t lies at or
//      above that image unless the sample misrepresents the row.
//      Traffic: sample_size keys a row (8 KB of a bf16 row of 128256).
//   2. append_kernel, blocks of (row, chunk): every key whose image is ≤ t has its position appended to
//      the row's list (block::appender: gathered a block at a time, one global atomic a block) and
//      counted. Traffic: one read of the row, ~r · length / sample_size positions written.
// A row with k ≤ count ≤ capacity has its k smallest images in its list (every key at or below the k-th
// is ≤ t): filter.cuh's rounds skip it and finish_kernel selects exactly among the listed (`sampled`).
// Any other row — fewer than k listed (an unlucky or adversarial sample: periodic rows whose period
// matches the runs' spacing) or more than the list holds (few distinct keys) — is selected whole by
// finish_kernel's block (rows of at most finish_fallback_max, where the rounds are then not launched)
// or runs the rounds as if no sample had been taken: the result is exact either way, and only the time
// differs.
//
// Why: the rounds read a row twice (round 0's histogram, then its filter) and their histograms of
// logits crowd a few shared counters: bf16 (256, 128256) k = 1024 spent 158 µs in round 0 under ncu,
// where the sample and the appends took 25 + 47 µs in experiments/topk_sampled.cu (performance.md
// entries 40–41).
#pragma once
#include <cmath>
#include <cstdint>
#include "parascan/block/block_append.cuh"
#include "parascan/block/block_radix_select.cuh"
#include "parascan/device/topk/filter.cuh"

namespace parascan::device::topk_detail {

constexpr int sample_run = 32;      // consecutive keys a run: one warp's load
constexpr int sample_most = 4096;   // keys sampled a row at most
constexpr int append_slots = 2048;  // positions append_kernel stages a block
/// Rows up to this long that the sample did not serve are selected whole by finish_kernel's block (a row
/// of 2^18 f32: five reads of 1 MB by one block), so the rounds' three or four launches are not made;
/// longer rows keep the rounds as their fallback.
constexpr std::int64_t finish_fallback_max = std::int64_t{1} << 18;

/// Keys sampled from a row of `length` (a multiple of sample_run, at most an eighth of the row).
inline int sample_size(std::int64_t length) {
  const std::int64_t s = length / 8 < sample_most ? length / 8 : sample_most;
  return static_cast<int>(s / sample_run * sample_run);
}

/// The first position of run g of `runs` spread evenly over a row of `length` (runs ≤ length / 32).
__host__ __device__ inline std::int64_t sample_run_start(std::int64_t g, std::int64_t runs, std::int64_t length) {
  return g * length / runs;
}

/// The rank (1-based) of the sample's threshold for k of a row of `length`, or 0 where the sampled path
/// does not pay: where its expected list (r · length / size keys) passes half of what finish_kernel
/// caches, one block a row selecting among it takes longer than the rounds, which share that work among
/// several blocks a row (a row of 2^24 with k = 1024 lists ~28000: its finish took 200 µs against the
/// rounds' whole call of 130 µs, performance.md entry 41).
inline unsigned sample_rank(std::int64_t k, std::int64_t length, int size) {
  if (size < 1024) return 0;
  const double mean = static_cast<double>(k) * size / static_cast<double>(length);
  const double r = std::ceil(mean + 4.0 * std::sqrt(mean) + 4.0);
  return r * static_cast<double>(length) / size <= cache_items / 2 ? static_cast<unsigned>(r) : 0u;
}

template <class U>
__device__ __forceinline__ void store_threshold(unsigned* w, U t) {
  const auto v = static_cast<std::uint64_t>(t);
  w[0] = static_cast<unsigned>(v);
  w[1] = static_cast<unsigned>(v >> 32);
}

template <class U>
__device__ __forceinline__ U load_threshold(const unsigned* w) {
  return static_cast<U>(static_cast<std::uint64_t>(w[1]) << 32 | w[0]);
}

/// The test image(raw) ≤ t for raw keys: one xor and one unsigned compare, where ordered_key's image
/// takes a select, a compare and up to three logic operations a key. Images are raw ^ c for integers
/// (c: the sign bit for signed, complemented for the largest); for floats raw ^ c within each sign, so
/// the keys at or below t are those of one sign range, or all of one sign and part of the other, and
/// one mask chosen by t's sign half covers both cases. −0.0 (ordered as +0.0): with the largest wanted
/// and t the image of +0.0, it would be left out, so t moves to the next image, which no key has.
template <class U>
struct at_or_below {
  U mask, bound;
  __host__ __device__ __forceinline__ bool operator()(U raw) const { return static_cast<U>(raw ^ mask) <= bound; }
};

template <class U>
__host__ __device__ inline at_or_below<U> at_or_below_of(U t, key_kind kind, bool largest) {
  constexpr U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1)), ones = static_cast<U>(~U(0));
  if (kind != key_kind::floating) {
    const U c = kind == key_kind::signed_int ? sign : U(0);
    return {largest ? static_cast<U>(~c) : c, t};
  }
  if (!largest) return {(t & sign) ? sign : ones, t};
  if (t == static_cast<U>(~sign)) t = sign;  // the image of +0.0: −0.0 (raw: the sign alone) must pass
  return {(t & sign) ? U(0) : static_cast<U>(~sign), t};
}

/// Step 1 (a block of `threads` a row): the row's counters cleared (the rounds and the appends count
/// into them; this launch replaces a cudaMemsetAsync, one runtime call fewer a top-k: each costs ~5 µs
/// of host time, experiments/memset_host.cu), then, where rank > 0, the row's threshold into them.
template <class U>
__global__ void __launch_bounds__(threads)
    sample_kernel(const U* keys, std::int64_t length, int size, unsigned rank, ordered_key<U> ordered, unsigned* words) {
  using select = block::radix_select<threads, U>;
  __shared__ typename select::storage s;
  __shared__ U images[sample_most];
  const std::int64_t row = blockIdx.x;
  unsigned* w = words + row * row_words;
  for (int i = threadIdx.x; i < row_words; i += threads) w[i] = 0;
  if (rank == 0) return;
  const U* src = keys + row * length;
  const int runs = size / sample_run;
  for (int i = threadIdx.x; i < size; i += threads)
    images[i] = ordered(src[sample_run_start(i / sample_run, runs, length) + i % sample_run]);
  __syncthreads();
  const auto r = select::select(s, static_cast<const U*>(images), static_cast<unsigned>(size), rank, identity{});
  if (threadIdx.x == 0) store_threshold(sampled_threshold(w), r.threshold);
}

/// Step 2: blocks of (row, chunk) append the positions of their keys at or below the row's threshold to
/// its list (lists + row · capacity) and count them.
template <class U>
__global__ void __launch_bounds__(filter_threads)
    append_kernel(const U* keys, std::int64_t length, chunking c, ordered_key<U> ordered, unsigned* words,
                  unsigned* lists, std::int64_t capacity) {
  using appender = block::appender<append_slots>;
  __shared__ typename appender::storage s;
  const std::int64_t row = blockIdx.x / c.per_row;
  unsigned* w = words + row * row_words;
  const at_or_below<U> listed = at_or_below_of(load_threshold<U>(sampled_threshold(w)), ordered.kind, ordered.largest);
  appender::init(s);
  __syncthreads();
  const appender to_list{s, sampled_count(w), lists + row * capacity, capacity};
  for_each_in_round<filter_threads>(keys + row * length, length, c, 0, w, nullptr, 0,  // this block's chunk of the row
                                    [&](std::int64_t first, const U(&items)[group_of<U>], int count) {
                                      unsigned bits = 0;
#pragma unroll
                                      for (int j = 0; j < group_of<U>; ++j)
                                        bits |= static_cast<unsigned>(j < count && listed(items[j])) << j;
                                      if (__any_sync(0xffffffffu, bits != 0)) to_list.append(bits, first);
                                    });
  __syncthreads();
  to_list.flush();
}

}  // namespace parascan::device::topk_detail
