// Onesweep over rows: every row of `length` keys sorted on its own, all rows in the same launches
// (issue 33's long rows; the segment-aware pass of docs/performance.md entry 36). A row is a segment:
//   1. rows_histogram_kernel: a block per chunk of 4096 keys of a row (chunks never cross rows) counts
//      the digits of every pass in shared memory and adds them to the row's counts.
//   2. rows_offsets_kernel: a block per (pass, row) scans the row's 256 counts into each digit's first
//      output position (row · length + the keys of smaller digits); every pass runs (the plan is full).
//   3. per pass, pass_kernel with row_tiling: tiles never cross a row, the first tile of a row starts
//      its chains (published as a prefix), and digit offsets are the row's.
// Traffic: as the plain sort's (each pass reads and writes the keys once), against the merge levels'
// log2(length / tile) extra passes. Every pass ranks stably: the flat sort's unstable first pass
// (pass.cuh) rests on its histogram's sample of how often a warp's keys share their first digit, which
// rows_histogram_kernel does not take. One launch covers at most 2^28 keys (30-bit status counts).
#pragma once
#include <cstdint>
#include "parascan/device/device_onesweep.cuh"

namespace parascan::device::onesweep {

/// `counts[(row · passes + p) · 256 + d]` must start at zero.
template <class U>
__global__ void __launch_bounds__(hist_threads)
    rows_histogram_kernel(const U* keys, std::int64_t length, std::int64_t chunks_a_row, pass_set ps, unsigned* counts) {
  constexpr int passes_max = sizeof(U);
  __shared__ unsigned hist[passes_max][digits];
  for (int i = threadIdx.x; i < passes_max * digits; i += hist_threads) (&hist[0][0])[i] = 0;
  __syncthreads();
  const std::int64_t row = blockIdx.x / chunks_a_row, chunk = blockIdx.x % chunks_a_row;
  const std::int64_t begin = chunk * hist_tile;
  const std::int64_t left = length - begin;
  const int n = static_cast<int>(left < hist_tile ? left : hist_tile);
  const U* src = keys + row * length + begin;
  const key_codec<U> codec(ps.kind, ps.descending);
  const U range = ps.end_bit >= static_cast<int>(8 * sizeof(U)) ? static_cast<U>(~U(0))
                                                                : static_cast<U>((U(1) << ps.end_bit) - 1u);
  for (int i = threadIdx.x; i < n; i += hist_threads) {
    const U b = static_cast<U>(codec.ordered(codec.encode(src[i])) & range);
    for (int p = 0; p < ps.passes; ++p) atomicAdd(&hist[p][static_cast<unsigned>(b >> ps.place(p).shift) & 0xffu], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < ps.passes * digits; i += hist_threads) {
    const unsigned c = hist[i / digits][i % digits];
    if (c != 0) atomicAdd(counts + (row * ps.passes + i / digits) * digits + i % digits, c);
  }
}

/// bins[(p · rows + row) · 256 + d] = row · length + the row's keys whose pass-p digit is below d; the
/// plan runs every pass.
template <class Offset>
__global__ void __launch_bounds__(digits)
    rows_offsets_kernel(const unsigned* counts, std::int64_t rows, std::int64_t length, int passes, Offset* bins,
                        pass_plan* plan) {
  __shared__ Offset warp_totals[digits / 32];
  const std::int64_t p = blockIdx.x / rows, row = blockIdx.x % rows;
  const Offset c = static_cast<Offset>(counts[(row * passes + p) * digits + threadIdx.x]);
  Offset total;
  const Offset before = block::exclusive_sum<digits>(c, warp_totals, total);
  bins[(p * rows + row) * digits + threadIdx.x] = static_cast<Offset>(row * length) + before;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    plan->performed = passes;
    for (int q = 0; q < passes; ++q) plan->order[q] = q;
  }
}

/// Where each piece of the rows sort's temporary storage lies; [0, cleared) is cleared once.
template <class Policy, class Offset>
struct rows_layout {
  std::int64_t tiles_a_row, tiles, chunks_a_row;
  std::size_t counts, counters, status, status_words, plan, bins, cleared, total;
  rows_layout(std::int64_t rows, std::int64_t length, int passes) {
    tiles_a_row = (length + Policy::tile_items - 1) / Policy::tile_items;
    tiles = rows * tiles_a_row;
    chunks_a_row = (length + hist_tile - 1) / hist_tile;
    counts = 0;
    counters = align_up(static_cast<std::size_t>(rows * passes) * digits * sizeof(unsigned));
    status = counters + align_up(static_cast<std::size_t>(passes) * sizeof(unsigned));
    status_words = static_cast<std::size_t>(tiles) * digits;
    cleared = status + align_up(static_cast<std::size_t>(passes) * status_words * sizeof(unsigned));
    plan = cleared;
    bins = plan + align_up(sizeof(pass_plan));
    total = bins + align_up(static_cast<std::size_t>(passes) * rows * digits * sizeof(Offset));
  }
};

/// The rows sort's tiles: the shapes its measurements were made with (performance.md entries 36–40), the
/// 1-D sort's defaults until entry 65 enlarged those (u32 keys 256 × 23 → 256 × 32). Kept for rows
/// because a row's last tile is partial, so larger tiles waste more of a row (a 50,257-key row fills
/// its last 8,192-key tile to 13%, its last 5,888-key tile to 53%), and because rows_take_onesweep
/// counts tiles: with the larger tiles (rows, 32000) would have left this path. Not swept for rows.
template <class U, class V>
struct rows_policy {
  static constexpr bool pairs = !std::is_same_v<V, no_values>;
  static constexpr std::size_t widest = pairs && sizeof(V) > sizeof(U) ? sizeof(V) : sizeof(U);
  using type = std::conditional_t<!pairs,
                                  std::conditional_t<(sizeof(U) <= 4), policy<256, 23, 4, warp::match_method::ballots, 2>,
                                                     policy<384, 12, 3>>,
                                  std::conditional_t<(widest <= 4), policy<384, 26, 2>, policy<384, 14, 2>>>;
};
template <class U, class V>
using rows_policy_t = typename rows_policy<U, V>::type;

/// Whether rows take this path: long enough that merging a row's tiles would take several levels,
/// a launch's worth of keys at most, and status words for every pass within 256 MB.
template <class Policy>
inline bool rows_take_onesweep(std::int64_t rows, std::int64_t length, int passes) {
  const std::int64_t n = rows * length;
  const std::int64_t tiles = rows * ((length + Policy::tile_items - 1) / Policy::tile_items);
  return length >= 4 * Policy::tile_items && n <= Policy::portion_keys &&
         static_cast<std::int64_t>(passes) * tiles * digits * 4 <= (std::int64_t(256) << 20);
}

template <class Policy, class Offset>
inline std::size_t rows_temp_bytes(std::int64_t rows, std::int64_t length, int passes) {
  return rows_layout<Policy, Offset>(rows, length, passes).total;
}

/// The passes over `rows` rows of `length` keys; `temp` holds rows_temp_bytes, ps.passes ≥ 1.
template <class Policy, class Offset, class Io>
cudaError_t run_rows(void* temp, const Io& io, std::int64_t rows, std::int64_t length, const pass_set& ps,
                     cudaStream_t stream, bool sync) {
  using K = typename Io::key_type;
  using V = typename Io::value_type;
  const rows_layout<Policy, Offset> layout(rows, length, ps.passes);
  char* t = static_cast<char*>(temp);
  auto* counts = reinterpret_cast<unsigned*>(t + layout.counts);
  auto* counters = reinterpret_cast<unsigned*>(t + layout.counters);
  auto* status = reinterpret_cast<unsigned*>(t + layout.status);
  auto* plan = reinterpret_cast<pass_plan*>(t + layout.plan);
  auto* bins = reinterpret_cast<Offset*>(t + layout.bins);
  cudaError_t e;
  if ((e = cudaMemsetAsync(t, 0, layout.cleared, stream)) != cudaSuccess) return e;
  const auto hist_blocks = static_cast<unsigned>(rows * layout.chunks_a_row);
  rows_histogram_kernel<K><<<hist_blocks, hist_threads, 0, stream>>>(io.keys_in, length, layout.chunks_a_row, ps, counts);
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  rows_offsets_kernel<Offset><<<static_cast<unsigned>(rows * ps.passes), digits, 0, stream>>>(counts, rows, length,
                                                                                               ps.passes, bins, plan);
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  const row_tiling<Policy::tile_items> tiling{length, layout.tiles_a_row};
  for (int p = 0; p < ps.passes; ++p) {
    const auto launch = [&](auto float_keys) {
      constexpr bool is_float = decltype(float_keys)::value;
      constexpr std::size_t smem = pass_dynamic_smem<Policy, typename Io::item_type, V, Offset>();
      using digit_type = typename Io::template digit_type<is_float>;
      const auto kernel = pass_kernel<Policy, Io, digit_type, Offset, row_tiling<Policy::tile_items>>;
      if constexpr (smem > 0) {
        const cudaError_t a = allow_dynamic_smem(kernel, static_cast<int>(smem));
        if (a != cudaSuccess) return a;
      }
      kernel<<<static_cast<unsigned>(layout.tiles), Policy::threads, smem, stream>>>(
          io, static_cast<const pass_plan*>(plan), p, tiling, digit_type(ps.place(p)),
          bins + static_cast<std::int64_t>(p) * rows * digits, static_cast<Offset*>(nullptr),
          status + static_cast<std::size_t>(p) * layout.status_words, counters + p);
      return cudaSuccess;
    };
    if constexpr (sizeof(K) >= 2) {
      e = ps.kind == key_kind::floating ? launch(std::true_type{}) : launch(std::false_type{});
    } else {
      e = launch(std::false_type{});
    }
    if (e != cudaSuccess || (e = check_launch(stream, sync)) != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace parascan::device::onesweep
