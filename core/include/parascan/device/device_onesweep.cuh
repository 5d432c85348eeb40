// Onesweep LSD radix sort (Adinets & Merrill 2022): 8-bit digits, one pass over the keys per digit.
// Tuning, temporary storage and the launches; the kernels are in onesweep/. Include from a .cu file
// (device_radix_sort.cuh dispatches to it).
//
//   1. histogram (onesweep/histogram.cuh): one read of the keys counts the digits of every pass; the
//      last block scans them into each digit's first output position and plans the passes: one whose
//      keys all share a digit is skipped (sorted high bits, narrow ranges, equal keys cost less).
//   2. per pass that runs, a block per tile (onesweep/pass.cuh): early counts published, ranks by
//      ballots and one leader atomic per digit group, keys staged in sorted order, decoupled
//      look-back per digit, scatter. The pass picks its source and target from the plan, so the last
//      pass that runs writes the caller's output; when none runs the input is copied. Keys alone on
//      all their bits rank by the early counts' atomics wherever a warp's keys allow (pass.cuh).
//   Inputs of more than policy::portion_keys keys (2^28 rounded up to whole tiles) run in portions whose
//   last tile hands the digit offsets to the next.
#pragma once
#include <cstdint>
#include <type_traits>
#include "parascan/device/launch.cuh"
#include "parascan/device/onesweep/histogram.cuh"
#include "parascan/device/onesweep/pass.cuh"

namespace parascan::device::onesweep {

/// Tiles per key and value width. 4-byte keys (H200 sweeps at 2^20–2^30, experiments/sort_tile_shapes.cu,
/// performance.md entry 65; × CUB's faster call at 2^24 / 2^28 / 2^30): alone 256 × 32 at 3 blocks an SM
/// (80 registers), reading two predecessors' status words at once in the look-back, 1.15 / 1.10 / 1.10×
/// where the H100's 256 × 23 at 4 read 1.14 / 1.06 / 1.06×; with 4-byte values 384 × 30 at 2 reading two,
/// pairs 1.08 / 1.06 / 1.07× and argsort 1.10 / 1.09 / 1.10× where 384 × 26 at 2 (H100, entry 25) read
/// 1.05 / 1.03 / 1.03× and 1.06 / 1.05 / 1.05× (past it, 384 × 32 and 512 × 24 read 1.00–1.03× at 2^28,
/// entry 67). 8-byte keys (the same sweeps): alone 256 × 20 at 3 reading two, 1.20 / 1.18 / 1.18× where
/// 384 × 12 at 3 read 1.06 / 1.04 / 1.04×; with 4-byte values (argsort too) 384 × 20 at 2 reading two since
/// stop 57 (entry 67, sort_tile_shapes `big`): pairs 1.08 / 1.07 / 1.07× and argsort 1.09 / 1.08 / 1.08×
/// where 384 × 15 at 2 reading two read 1.02 / 1.00 / 1.01× and 1.03 / 1.01 / 1.01×; with 8-byte values
/// 384 × 15 at 2 reading one (1.07 / 1.05 / 1.05× against 1.06 / 1.03 / 1.03×; 384 × 16 and 18 lose).
/// 4-byte keys with 8-byte values (stop 56): 384 × 20 at 2 reading one, 1.06 / 1.07 / 1.07× where 384 × 14
/// at 2 read 0.98 / 0.96 / 0.96×. 1- and 2-byte keys keep the H100's shapes (keys 256 × 23 at 4 reading
/// two; pairs of ≤ 4-byte items 384 × 26 at 2; with 8-byte values 384 × 14 at 2, not swept). The keys'
/// stage is static shared memory while it and the kernel's other arrays fit 48 KB, dynamic past that
/// (keys_stage_dynamic, pass.cuh: 384 × 20 of 8-byte keys); values wait in a stage of their own (dynamic
/// shared memory). Offset: the pass's output positions; with 64-bit ones (more than 2^32 keys) the
/// pass's static shared memory grows by 1 KB, so the tiles whose stages stay static take one item a thread
/// fewer (4-byte keys with 4-byte values 384 × 29, 8-byte keys with 8-byte values 384 × 14).
template <class U, class V, class Offset = std::uint32_t>
struct default_policy {
  static constexpr bool pairs = !std::is_same_v<V, no_values>;
  static constexpr std::size_t widest = pairs && sizeof(V) > sizeof(U) ? sizeof(V) : sizeof(U);
  static constexpr auto ballots = warp::match_method::ballots;
  using keys = std::conditional_t<(sizeof(U) == 8), policy<256, 20, 3, ballots, 2>,
                                  std::conditional_t<(sizeof(U) == 4), policy<256, 32, 3, ballots, 2>,
                                                     policy<256, 23, 4, ballots, 2>>>;
  static constexpr int fewer = sizeof(Offset) == 8 ? 1 : 0;  // 64-bit positions: 1 KB more static smem
  using wide_pairs = std::conditional_t<(sizeof(V) <= 4), policy<384, 20, 2, ballots, 2>, policy<384, 15 - fewer, 2>>;
  using narrow_pairs = std::conditional_t<(widest > 4), std::conditional_t<(sizeof(U) == 4), policy<384, 20, 2>, policy<384, 14, 2>>,
                                          std::conditional_t<(sizeof(U) == 4), policy<384, 30 - fewer, 2, ballots, 2>,
                                                             policy<384, 26, 2>>>;
  using type = std::conditional_t<!pairs, keys, std::conditional_t<(sizeof(U) == 8), wide_pairs, narrow_pairs>>;
};
template <class U, class V, class Offset = std::uint32_t>
using default_policy_t = typename default_policy<U, V, Offset>::type;

/// Pairs (argsort's positions too) of fewer than `small_pairs_below` keys take smaller tiles: there the
/// default tiles are fewer than an H100 or H200 has SMs (384 × 26 made 105 at 2^20 for 132).
/// - ≤ 4-byte keys and values: 384 × 16. H100, against CUB 3.5 (performance.md entries 43, 51): at 2^20
///   pairs 85.1 → 79.4 µs, argsort 83.8 → 76.3; at 2^21 the default tile (then 384 × 26) was the faster
///   (115.8 against 124.6 µs), so the line sits where the 4-byte keys' default tiles (384 × 30 since
///   entry 65) reach 132. 4-byte keys read two predecessors' status words at once in the look-back
///   since stop 59 (H200, sort_tile_shapes `small`, entry 69): at 2^20 pairs 0.0814 → 0.0759 ms and
///   argsort 0.0817 → 0.0751 (1- and 2-byte keys not swept: they keep one).
/// - 4-byte keys with 8-byte values: 384 × 16 reading two, 0.0763 ms at 2^20 on the H200 where the
///   default 384 × 20 read 0.0806–0.0825 (entry 67, sort_tile_shapes `u32v64`).
/// - 8-byte keys with 4-byte values: 384 × 15 reading two (their default before stop 57), 0.143–0.145 ms
///   at 2^20 where 384 × 20 read 0.157–0.158; at 2^21 the two are within 2% (entry 67).
/// 1- and 2-byte keys with 8-byte values, and 8-byte keys with 8-byte values, keep their default tiles.
constexpr std::int64_t small_pairs_below = std::int64_t(132) * 384 * 30;
template <class U, class V>
struct small_n_policy {
  static constexpr bool pairs = !std::is_same_v<V, no_values>;
  static constexpr bool short_keys = sizeof(U) < 4 && sizeof(V) <= 4;  // 1- and 2-byte keys
  static constexpr bool four_byte_keys = sizeof(U) == 4 && sizeof(V) <= 8;
  static constexpr bool wide_keys_narrow_values = sizeof(U) == 8 && sizeof(V) <= 4;
  static constexpr bool applies = pairs && (short_keys || four_byte_keys || wide_keys_narrow_values);
  static constexpr auto ballots = warp::match_method::ballots;
  using type = std::conditional_t<
      !applies, default_policy_t<U, V>,
      std::conditional_t<short_keys, policy<384, 16, 2>,
                         std::conditional_t<four_byte_keys, policy<384, 16, 2, ballots, 2>,
                                            policy<384, 15, 2, ballots, 2>>>>;
};

/// Status words of every launch at most this many bytes in all: they get a region each, cleared with
/// the rest by the sort's one clearing kernel, and the kernels follow each other by programmatic dependent
/// launch. Larger sorts clear one region (a memset) before each launch.
constexpr std::size_t prezeroed_status_bytes = std::size_t(64) << 20;

/// Where each piece of the temporary storage lies (one computation for sizing and carving). The
/// bytes [0, cleared) are cleared once per sort; with `prezeroed`, that includes a status region per
/// launch, else the one region is cleared before each launch.
template <class Policy, class Offset>
struct temp_layout {
  std::int64_t portions, tiles;  // tiles: of the largest portion
  bool prezeroed;
  std::size_t bins, plan, counters, status, status_words, cleared, total;
  temp_layout(std::int64_t n, int passes) {
    const std::int64_t portion = n < Policy::portion_keys ? n : Policy::portion_keys;
    tiles = (portion + Policy::tile_items - 1) / Policy::tile_items;
    portions = (n + Policy::portion_keys - 1) / Policy::portion_keys;
    bins = 0;  // passes × 256 scanned counts, then two × 256 handed between portions
    plan = align_up(static_cast<std::size_t>(passes + 2) * digits * sizeof(Offset));
    counters = plan + align_up(sizeof(pass_plan));  // a tile counter per launch, then the histogram's ticket
    status = counters + align_up(static_cast<std::size_t>(passes * portions + 1) * sizeof(unsigned));
    status_words = static_cast<std::size_t>(tiles) * digits;  // one launch's
    const std::size_t all = static_cast<std::size_t>(passes * portions) * status_words * sizeof(unsigned);
    prezeroed = all <= prezeroed_status_bytes;
    cleared = prezeroed ? status + all : status;
    total = status + align_up(prezeroed ? all : status_words * sizeof(unsigned));
  }
};

template <class Policy, class Offset>
inline std::size_t temp_bytes(std::int64_t n, int passes) {
  return temp_layout<Policy, Offset>(n, passes).total;
}

/// The passes of a sort; `temp` holds temp_bytes<Policy, Offset>(n, ps.passes), ps.passes ≥ 1.
/// `Io`: what the passes read and write, onesweep::buffers (onesweep/pass_io.cuh) or an
/// experiment's own.
template <class Policy, class Offset, class Io>
cudaError_t run(void* temp, const Io& io, std::int64_t n, const pass_set& ps, cudaStream_t stream, bool sync) {
  using K = typename Io::key_type;
  using V = typename Io::value_type;
  const temp_layout<Policy, Offset> layout(n, ps.passes);
  char* t = static_cast<char*>(temp);
  Offset* bins = reinterpret_cast<Offset*>(t + layout.bins);
  Offset* handoff = bins + static_cast<std::int64_t>(ps.passes) * digits;
  pass_plan* plan = reinterpret_cast<pass_plan*>(t + layout.plan);
  unsigned* counters = reinterpret_cast<unsigned*>(t + layout.counters);
  unsigned* hist_done = counters + ps.passes * layout.portions;
  unsigned* status = reinterpret_cast<unsigned*>(t + layout.status);

  cudaError_t e;
  // Every kernel may start while its predecessor finishes (sm_90+) where no memset stands between
  // them; each waits for its predecessor's results before reading them. The histogram counts its
  // keys while the clearing runs and waits for it before adding to the bins (entry 69); the passes
  // follow the same way where their status words are cleared up front with the rest (prezeroed).
  bool dependent = false;
  if ((e = dependent_launch_available(dependent)) != cudaSuccess) return e;
  const bool overlap = dependent && layout.prezeroed;
  // 16-byte stores: the status words reach 27 MB (u64 keys at 2^24), and with 4-byte ones the clearing
  // held the histogram back (entry 69). `cleared` ends where the status region starts (256-byte
  // aligned) or after whole 1 KB rows of status words, so 16-byte words cover it where the storage
  // starts 16-byte aligned.
  const bool vectors = layout.cleared % sizeof(uint4) == 0 && reinterpret_cast<std::uintptr_t>(t) % sizeof(uint4) == 0;
  e = vectors
          ? clear_words(reinterpret_cast<uint4*>(t), static_cast<std::int64_t>(layout.cleared / sizeof(uint4)), stream)
          : clear_words(reinterpret_cast<unsigned*>(t), static_cast<std::int64_t>(layout.cleared / sizeof(unsigned)), stream);
  if (e != cudaSuccess || (e = check_launch(stream, sync)) != cudaSuccess) return e;
  const auto histogram = [&](auto float_keys) {
    constexpr bool is_float = decltype(float_keys)::value;
    unsigned blocks = 0;
    const cudaError_t g = hist_grid<K, Offset, is_float>(n, blocks);
    if (g != cudaSuccess) return g;
    return launch_after_previous(dependent, histogram_kernel<K, Offset, is_float>, blocks, hist_threads,
                                 hist_smem_bytes<K>(), stream, io.keys_in, n, ps, bins, plan, hist_done);
  };
  if constexpr (sizeof(K) >= 2) {  // floats are 2, 4 or 8 bytes
    e = ps.kind == key_kind::floating ? histogram(std::true_type{}) : histogram(std::false_type{});
  } else {
    e = histogram(std::false_type{});
  }
  if (e != cudaSuccess) return e;
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;
  std::int64_t launch_index = 0;
  for (int p = 0; p < ps.passes; ++p) {
    for (std::int64_t q = 0; q < layout.portions; ++q) {
      const std::int64_t begin = q * Policy::portion_keys;
      const std::int64_t count = n - begin < Policy::portion_keys ? n - begin : Policy::portion_keys;
      const std::int64_t blocks = (count + Policy::tile_items - 1) / Policy::tile_items;
      unsigned* launch_status = status;
      if (layout.prezeroed) {
        launch_status = status + static_cast<std::size_t>(launch_index) * layout.status_words;
      } else if ((e = cudaMemsetAsync(status, 0, static_cast<std::size_t>(blocks) * digits * sizeof(unsigned), stream)) !=
                 cudaSuccess) {
        return e;
      }
      ++launch_index;
      const Offset* bins_in = q == 0 ? bins + static_cast<std::int64_t>(p) * digits : handoff + ((q - 1) % 2) * digits;
      Offset* bins_out = q + 1 < layout.portions ? handoff + (q % 2) * digits : nullptr;
      const auto launch_as = [&](auto float_keys, auto unstable) {
        constexpr bool is_float = decltype(float_keys)::value;
        constexpr std::size_t smem = pass_dynamic_smem<Policy, typename Io::item_type, V, Offset>();
        using digit_type = typename Io::template digit_type<is_float>;
        const auto kernel = pass_kernel<Policy, Io, digit_type, Offset, flat_tiling<Policy::tile_items>, decltype(unstable)::value>;
        if constexpr (smem > 0) {  // the values' own stage: static + dynamic may pass the 48 KB default
          const cudaError_t a = allow_dynamic_smem(kernel, static_cast<int>(smem));
          if (a != cudaSuccess) return a;
        }
        return launch_after_previous(overlap, kernel, static_cast<unsigned>(blocks),
                                     Policy::threads, smem, stream, io, static_cast<const pass_plan*>(plan), p,
                                     flat_tiling<Policy::tile_items>{begin, count}, digit_type(ps.place(p)), bins_in,
                                     bins_out, launch_status,
                                     counters + p * layout.portions + q);
      };
      const auto launch = [&](auto float_keys) {
        return launch_by_stability<Io>(ps, p, n, [&](auto unstable) { return launch_as(float_keys, unstable); });
      };
      if constexpr (sizeof(K) >= 2) {  // floats are 2 (__half, __nv_bfloat16), 4 or 8 bytes
        e = ps.kind == key_kind::floating ? launch(std::true_type{}) : launch(std::false_type{});
      } else {
        e = launch(std::false_type{});
      }
      if (e != cudaSuccess || (e = check_launch(stream, sync)) != cudaSuccess) return e;
    }
  }
  const std::int64_t copy_blocks = (n + 255) / 256;
  e = launch_after_previous(overlap, copy_when_no_pass_kernel<Io>, static_cast<unsigned>(copy_blocks < 1024 ? copy_blocks : 1024),
                            256, 0, stream, io, static_cast<const pass_plan*>(plan), n);
  if (e != cudaSuccess) return e;
  return check_launch(stream, sync);
}

}  // namespace parascan::device::onesweep
