// Experiment (issue 34): how much of an Onesweep pass is its look-back. The library's pass kernel
// (onesweep/pass.cuh, the default u32 keys policy) sorts n u32 keys by their low byte twice:
//   look-back  as the sort runs it: flat tiles, each tile's digit starts found by the decoupled
//              look-back over its predecessors' status words;
//   oracle     the same kernel with every tile its own chain (row_tiling with one tile a row), so it
//              looks back at nothing, handed each (tile, digit)'s true output start from a table
//              computed beforehand on the host: the same stores to the same places, with no wait on
//              another tile (the table costs 1 KB of reads a tile of 23 KB of keys);
// beside cudaMemcpy of the same bytes and CUB's whole SortKeys (its faster count form) over 4.
// Each pass is timed alone (status words and the tile counter cleared before the first event).
// Both outputs must equal a CPU counting sort by the low byte.
//   onesweep_oracle [log2 n ...]    (default 24 26 28; n is cut to whole tiles and at most one launch's
//                                   keys); exit 1 on a mismatch
// TILES=1: also two larger tiles (384 x 24, 512 x 20) with the same ranking.
// BITS="8 6 4 2": the look-back pass over digits of each width (the low `bits` bits; the ranking is the
// same 8 ballots whatever the width), so each tile writes 2^bits runs of 5888 / 2^bits keys: whether
// the pass's time follows the number of streams its scatter writes and their length.
// The difference between the two rows bounds what any look-back change can give a pass: if the oracle
// pass is not much faster, the pass is bound by what it does per key, not by waiting on predecessors.
// Measured (H100, stop 51, docs/onesweep-oracle-stop51-h100.txt, performance.md entry 57): the oracle is
// 2.4% faster at 2^24 and 11% / 17% *slower* at 2^26 / 2^28 (1.456 against 1.247 ms); under ncu at
// boost clocks it moves 7-10% more DRAM bytes (tiles scatter out of order, partial lines leave L2).
// BITS="8 6 4 2" at 2^28: oracle 1.335 / 0.973 / 0.948 / 0.924 ms, look-back 1.185 / 1.113 / 1.086 /
// 1.064: with longer runs the oracle pass wins by 13%, so both the runs and the chain limit the pass.
// TILES=1 (384 x 24 and 512 x 20, 2 blocks an SM): oracle 1.19-1.21 ms (8% under the default tile's),
// look-back 1.28-1.34 (8-13% over it): fewer resident tiles expose the chain.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "parascan/device/device_onesweep.cuh"
#include "one_pass.cuh"

using namespace parascan;
using namespace parascan::device::onesweep;
using u32 = std::uint32_t;

namespace {

using default_keys_policy = parascan::device::onesweep::default_policy_t<u32, no_values>;

}  // namespace

/// One policy's passes at 2^k keys (cut to whole tiles), for each digit width; false on a mismatch.
/// The copy and CUB's sort, the width's scale, are timed once a policy.
template <class keys_policy>
bool measure(int k, const std::vector<int>& widths) {
  constexpr int tile = keys_policy::tile_items;
  std::printf("policy: %d x %d (%d keys a tile), %d blocks an SM asked\n", keys_policy::threads, keys_policy::items, tile,
              keys_policy::min_blocks);
  const std::int64_t tiles = std::min(std::int64_t(1) << k, keys_policy::portion_keys) / tile;
  const std::int64_t n = tiles * tile;
  u32 *in, *out, *temp, *status, *counter, *cub_out, *bins, *d_table;
  pass_plan* plan;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&temp, n * 4));
  CK(cudaMalloc(&cub_out, n * 4));
  CK(cudaMalloc(&status, tiles * digits * 4));
  CK(cudaMalloc(&counter, 4));
  CK(cudaMalloc(&bins, digits * 4));
  CK(cudaMalloc(&d_table, tiles * digits * 4));
  plan = one_pass_plan();
  fill_hashed<<<1024, 256>>>(in, n);
  CK(cudaGetLastError());
  std::vector<u32> h(n);
  CK(cudaMemcpy(h.data(), in, n * 4, cudaMemcpyDeviceToHost));

  const pass_scale scale = one_pass_scale(in, temp, cub_out, n);
  const float copy_ms = scale.copy_ms;
  std::vector<pass_row> rows = scale_rows(scale);

  using io_t = buffers<u32, no_values>;
  using digit_t = io_t::digit_type<false>;
  const io_t io{in, out, temp, nullptr, nullptr, nullptr};
  const auto clear = [&] {
    CK(cudaMemsetAsync(status, 0, tiles * digits * 4));
    CK(cudaMemsetAsync(counter, 0, 4));
  };
  for (const int bits : widths) {
    const u32 mask = (1u << bits) - 1u;
    // The CPU's counting sort by the low `bits` bits, and each (tile, digit)'s output start.
    std::vector<std::int64_t> total(digits, 0);
    std::vector<u32> per_tile(static_cast<std::size_t>(tiles) * digits, 0);
    for (std::int64_t i = 0; i < n; ++i) {
      ++total[h[i] & mask];
      ++per_tile[static_cast<std::size_t>(i / tile) * digits + (h[i] & mask)];
    }
    std::vector<u32> digit_start(digits), run(digits);
    std::int64_t acc = 0;
    for (int d = 0; d < digits; ++d) digit_start[d] = static_cast<u32>(acc), acc += total[d];
    std::vector<u32> want(n), table(static_cast<std::size_t>(tiles) * digits);
    run = digit_start;
    for (std::int64_t t = 0; t < tiles; ++t)
      for (int d = 0; d < digits; ++d) {
        table[t * digits + d] = run[d];
        run[d] += per_tile[t * digits + d];
      }
    run = digit_start;
    for (std::int64_t i = 0; i < n; ++i) want[run[h[i] & mask]++] = h[i];
    CK(cudaMemcpy(bins, digit_start.data(), digits * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_table, table.data(), table.size() * 4, cudaMemcpyHostToDevice));

    const pass_set ps{0, bits, 1, key_kind::unsigned_int, false};
    const auto look_back = [&] {
      pass_kernel<keys_policy, io_t, digit_t, u32><<<static_cast<unsigned>(tiles), keys_policy::threads>>>(
          io, plan, 0, flat_tiling<tile>{0, n}, digit_t(ps.place(0)), bins, static_cast<u32*>(nullptr), status, counter);
      CK(cudaGetLastError());
    };
    const auto oracle = [&] {
      pass_kernel<keys_policy, io_t, digit_t, u32, row_tiling<tile>><<<static_cast<unsigned>(tiles), keys_policy::threads>>>(
          io, plan, 0, row_tiling<tile>{tile, 1}, digit_t(ps.place(0)), d_table, static_cast<u32*>(nullptr), status,
          counter);
      CK(cudaGetLastError());
    };
    const auto check = [&] {
      std::vector<u32> got(n);
      CK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
      return got == want;
    };
    const std::string digits_of = " (" + std::to_string(bits) + "-bit digits)";
    for (int round = 0; round < 2; ++round) {  // each twice, alternated
      CK(cudaMemset(out, 0x5a, n * 4));
      const float lb = median_ms_cleared(clear, look_back);
      rows.push_back({"pass, look-back" + digits_of, lb, check()});
      CK(cudaMemset(out, 0x5a, n * 4));
      const float or_ms = median_ms_cleared(clear, oracle);
      rows.push_back({"pass, oracle starts" + digits_of, or_ms, check()});
    }
  }
  bool all_ok = true;
  for (const auto& r : rows) {
    std::printf("2^%-4d %-44s %10.4f %8.3f %s\n", k, r.name.c_str(), r.ms, copy_ms / r.ms, r.ok ? "ok" : "MISMATCH");
    all_ok = all_ok && r.ok;
  }
  std::printf("2^%-4d (n = %lld keys, %lld tiles)\n", k, static_cast<long long>(n), static_cast<long long>(tiles));
  std::fflush(stdout);
  for (void* p : {static_cast<void*>(in), static_cast<void*>(out), static_cast<void*>(temp), static_cast<void*>(cub_out),
                  static_cast<void*>(status), static_cast<void*>(counter), static_cast<void*>(bins),
                  static_cast<void*>(d_table), static_cast<void*>(plan)})
    CK(cudaFree(p));
  return all_ok;
}

int main(int argc, char** argv) {
  bool all_ok = true;
  std::vector<int> widths = {8};
  if (const char* w = std::getenv("BITS")) {
    widths.clear();
    for (const char* c = w; *c != 0;) {
      char* end = nullptr;
      const long b = std::strtol(c, &end, 10);
      if (end == c) break;
      if (b >= 1 && b <= 8) widths.push_back(static_cast<int>(b));
      c = end;
    }
    if (widths.empty()) widths = {8};
  }
  std::printf("%-6s %-44s %10s %8s %s\n", "n", "variant", "ms", "of_copy", "check");
  const bool tiles_too = std::getenv("TILES") != nullptr;
  for (int k : log_sizes(argc, argv, 1, {24, 26, 28})) {
    all_ok = measure<default_keys_policy>(k, widths) && all_ok;
    if (tiles_too) {  // larger tiles, the same 8-bit ranking: a digit's run in a tile 1.6x / 1.7x longer
      all_ok = measure<policy<384, 24, 2>>(k, widths) && all_ok;
      all_ok = measure<policy<512, 20, 2>>(k, widths) && all_ok;
    }
  }
  return all_ok ? 0 : 1;
}
