// validate: the validation matrix — every algorithm × strategy × type × operator × mode × edge size ×
// input distribution — against CUB and the CPU reference. Prints a pass/fail table; exit 1 on any
// mismatch.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>
#include "../common/cli.hpp"
#include "../common/exit_codes.hpp"
#include "../common/json.hpp"
#include "cases.hpp"
#include "parascan/device_info.hpp"
#include "parascan/scan.hpp"
#include "parascan/validation/device_check.hpp"
#include "parascan/validation/inputs.hpp"
#include "parascan/sat.hpp"
#include "parascan/buffer.hpp"
#include "parascan/validation/sat_check.hpp"
#include "parascan/validation/select_check.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/validation/mc_reference.hpp"
#include "parascan/validation/sort_check.hpp"

namespace {
using namespace parascan;
using namespace parascan::app;

struct matrix_options {
  bool quick = false;
  std::string filter;
  std::uint64_t seed = 20261122;
  int shard = 0, shards = 1;     // --shard I/K: the cases i with i % K == I, counted after the filter
  mutable std::int64_t seen = 0;  // cases the filter let through so far

  /// Whether this process runs the case `name` (the filter, then the shard).
  bool runs(const std::string& name) const {
    if (!filter.empty() && name.find(filter) == std::string::npos) return false;
    return seen++ % shards == shard;
  }
};

/// "I/K" with 0 <= I < K: the shard's index and count.
bool parse_shard(const std::string& v, int& i, int& k) {
  char end = 0;
  return std::sscanf(v.c_str(), "%d/%d%c", &i, &k, &end) == 2 && k >= 1 && i >= 0 && i < k;
}

struct tally {
  std::int64_t runs = 0, passed = 0, failed = 0, rows = 0, failed_rows = 0;
  std::vector<std::string> failures;

  /// Count one run; a failure marks the row (and its table cell, if any) and keeps describe()'s text.
  template <class Describe>
  bool record(bool ok, bool& row_ok, std::string* cell, Describe describe) {
    ++runs;
    if (ok) {
      ++passed;
      return true;
    }
    ++failed;
    row_ok = false;
    if (cell) *cell = "FAIL";
    failures.push_back(describe());
    return false;
  }
  void end_row(bool row_ok) {
    ++rows;
    if (!row_ok) ++failed_rows;
  }
};

std::vector<std::int64_t> edge_sizes(int tile, bool quick, bool deep, std::mt19937_64& rng) {
  std::vector<std::int64_t> s = {0, 1, 31, 32, 33, tile - 1, tile, tile + 1, 1337, 2 * tile + 5};
  s.push_back(std::uniform_int_distribution<std::int64_t>(2, 3 * tile)(rng));
  if (!quick) s.push_back((std::int64_t(1) << 20) + 7);
  if (!quick && deep) {  // the tile sums need a second level of recursion past tile²
    s.push_back(std::int64_t(tile) * tile - 1);
    s.push_back(std::int64_t(tile) * tile + 1);
  }
  return s;
}

template <class In, class Out, class Op>
void run_case(Op op, bool segmented, const matrix_options& m, tally& t, bool quiet) {
  const std::string name = std::string(to_string(dtype_of<In>())) +
                           (std::is_same_v<In, Out> ? "" : "->" + std::string(to_string(dtype_of<Out>()))) + " " +
                           op_name<Op>() + (segmented ? " segmented" : "");
  if (!m.runs(name)) return;
  std::mt19937_64 rng(m.seed ^ std::hash<std::string>{}(name));
  const int tile = scan_tile_items(sizeof(Out), segmented);
  const auto sizes = edge_sizes(tile, m.quick, std::is_same_v<Op, parascan::sum>, rng);
  const char* modes[] = {"exclusive", "inclusive", "inclusive+init"};
  for (int mode = 0; mode < (segmented ? 2 : 3); ++mode) {
    validation::scan_spec<Out> spec;
    spec.exclusive = mode == 0;
    spec.has_init = mode != 1;
    spec.init = validation::make_input<Out, Op>(1, validation::distribution::random, rng())[0];
    std::vector<std::string> cells;
    bool row_ok = true;
    for (std::size_t a = 0; a < all_block_algorithms.size(); ++a)
      for (auto strat : all_device_strategies)
        cells.push_back(segmented && strat == device_strategy::recursive ? "n/a" : "ok");
    for (std::int64_t n : sizes) {
      for (auto dist : {validation::distribution::random,
                        std::is_same_v<Op, parascan::min_op> || std::is_same_v<Op, parascan::max_op>
                            ? validation::distribution::small_range
                            : validation::distribution::constant}) {
        // tile² ± 1 only on random data: the constant input adds nothing there but time.
        if (n >= std::int64_t(tile) * tile - 1 && dist != validation::distribution::random) continue;
        const auto seed = rng();
        const auto input = validation::make_input<In, Op>(n, dist, seed);
        const auto heads = validation::make_heads(n, 37, seed);
        // In place (d_in == d_out) on one size per row, where the types allow it.
        const bool in_place = std::is_same_v<In, Out> && n == tile + 1 && dist == validation::distribution::random;
        validation::device_scan_checker<In, Out, Op> checker(input, segmented ? &heads : nullptr, op, spec, in_place);
        std::size_t cell = 0;
        for (auto alg : all_block_algorithms) {
          for (auto strat : all_device_strategies) {
            const std::size_t c = cell++;
            if (segmented && strat == device_strategy::recursive) continue;
            scan_options o;
            o.algorithm = alg;
            o.strategy = strat;
            o.debug_synchronous = true;
            const auto r = checker.check(o);
            t.record(r.ok(), row_ok, &cells[c], [&] {
              return name + " " + modes[mode] + " " + std::string(to_string(alg)) + "/" + std::string(to_string(strat)) +
                     " n=" + std::to_string(n) + " " + std::string(validation::to_string(dist)) +
                     (in_place ? " in-place" : "") + " seed=" + std::to_string(seed) + ": " + r.describe();
            });
          }
        }
      }
    }
    t.end_row(row_ok);
    if (!quiet || !row_ok) {
      std::printf("%-24s %-15s", name.c_str(), modes[mode]);
      for (const auto& c : cells) std::printf(" %-6s", c.c_str());
      std::printf("\n");
      std::fflush(stdout);
    }
  }
}

/// Compaction, split and positions: every mode × size × flag pattern × strategy for one type.
template <class T>
void run_select_case(const matrix_options& m, tally& t, bool quiet) {
  using validation::select_mode;
  const std::string type = std::string(to_string(dtype_of<T>()));
  std::vector<std::int64_t> sizes = {0, 1, 31, 32, 33, 1023, 1024, 1025, 2047, 2048, 2049, 4097, 8191, 8193, 1337};
  if (!m.quick) sizes.push_back((std::int64_t(1) << 20) + 7);
  std::mt19937_64 rng(m.seed ^ std::hash<std::string>{}(type + " select"));
  for (auto mode : {select_mode::select_flagged, select_mode::select_if, select_mode::select_in_place, select_mode::split_flagged,
                    select_mode::split_if, select_mode::indices_flagged, select_mode::indices_if, select_mode::padded_flagged,
                    select_mode::padded_if}) {
    const std::string name = type + " " + validation::to_string(mode);
    if (!m.runs(name)) continue;
    std::string cells[2] = {"ok", "ok"};
    bool row_ok = true;
    for (std::int64_t n : sizes) {
      for (auto p : validation::all_flag_patterns) {
        const auto seed = rng();
        std::vector<std::uint8_t> flags;
        std::vector<T> values;
        validation::make_select_case(n, p, seed, flags, values);
        int cell = 0;
        for (auto strat : {device_strategy::single_pass, device_strategy::reduce_then_scan}) {
          scan_options o;
          o.strategy = strat;
          const auto c = validation::check_select(values, flags, mode, o);
          t.record(c.ok(), row_ok, &cells[cell], [&] {
            return name + " " + std::string(to_string(strat)) + " n=" + std::to_string(n) + " " +
                   validation::to_string(p) + " seed=" + std::to_string(seed) + ": " + c.detail;
          });
          ++cell;
        }
      }
    }
    t.end_row(row_ok);
    if (!quiet || !row_ok) std::printf("%-24s %-15s %-6s %-6s\n", name.c_str(), "", cells[0].c_str(), cells[1].c_str());
  }
}

/// Summed-area tables of In → Acc: shapes at the tile edges (tiles of 128 × 64) and odd sizes, both
/// layouts, values and squares; ours and the CUB-based table against the CPU.
template <class In, class Acc>
void run_sat_case(const matrix_options& m, tally& t, bool quiet, double maxval) {
  const std::string name = std::string(to_string(dtype_of<In>())) + "→" + std::string(to_string(dtype_of<Acc>())) + " sat";
  if (!m.runs(name)) return;
  std::vector<std::pair<std::int64_t, std::int64_t>> shapes = {{1, 1}, {1, 777}, {777, 1}, {127, 63}, {128, 64}, {129, 65},
                                                               {383, 191}, {4097, 3}, {3, 4097}, {257, 129}};
  if (!m.quick) shapes.push_back({1031, 1021});
  std::mt19937_64 rng(m.seed ^ std::hash<std::string>{}(name));
  std::string cells[2] = {"ok", "ok"};
  bool row_ok = true;
  for (auto [w, h] : shapes) {
    std::vector<In> img(static_cast<std::size_t>(w * h));
    for (auto& x : img) {
      if constexpr (std::is_floating_point_v<In>) x = static_cast<In>(std::uniform_real_distribution<double>(-maxval, maxval)(rng));
      else x = static_cast<In>(rng() % (static_cast<std::uint64_t>(maxval) + 1));
    }
    device_buffer<In> d_img(w * h);
    d_img.copy_from_host(img.data(), w * h);
    int cell = 0;
    for (auto layout : {sat_layout::inclusive, sat_layout::padded}) {
      const std::int64_t sh = layout == sat_layout::padded ? 1 : 0;
      const std::size_t pitch = (w + sh) * sizeof(Acc);
      for (bool squared : {false, true}) {
        for (int who = 0; who < 3; ++who) {  // 0: parascan single-pass, 1: the CUB-based table, 2: three-pass
          device_buffer<Acc> table((w + sh) * (h + sh));
          table.poison();
          std::size_t bytes = 0;
          auto call = [&](void* temp) {
            if (who != 1)
              return summed_area_table(temp, bytes, d_img.data(), w * sizeof(In), table.data(), pitch, {w, h}, layout, squared,
                                       0, who == 0 ? sat_algorithm::single_pass : sat_algorithm::three_pass);
            return validation::cub_summed_area_table(temp, bytes, d_img.data(), w * sizeof(In), table.data(), pitch,
                                                                {w, h}, layout, squared);
          };
          PARASCAN_CUDA_CHECK(call(nullptr));
          device_buffer<char> temp(bytes);
          PARASCAN_CUDA_CHECK(call(temp.data()));
          std::vector<Acc> got((w + sh) * (h + sh));
          table.copy_to_host(got.data(), got.size());
          const auto c = validation::compare_sat(got, img.data(), w, h, layout, squared);
          t.record(c.ok(), row_ok, &cells[cell], [&] {
            return name + (who == 1 ? " (CUB-based)" : who == 2 ? " (three-pass)" : "") + " " + std::to_string(w) + "x" + std::to_string(h) +
                   (squared ? " squared" : "") + ": " + c.detail;
          });
        }
      }
      ++cell;
    }
  }
  t.end_row(row_ok);
  if (!quiet || !row_ok) std::printf("%-24s %-15s %-6s %-6s\n", name.c_str(), "", cells[0].c_str(), cells[1].c_str());
}

/// Radix sort of Key: sizes at the round and chunk edges, uniform / few distinct / all equal keys,
/// full and partial bit ranges, both directions, keys and pairs (u32 values); each algorithm's keys
/// and values bitwise against the CPU stable sort, which cub::DeviceRadixSort must match too.
template <class Key>
void run_sort_case(const matrix_options& m, tally& t, bool quiet) {
  const std::string name = std::string(to_string(dtype_of<Key>())) + " radix_sort";
  if (!m.runs(name)) return;
  constexpr int key_bits = static_cast<int>(8 * sizeof(Key));
  std::vector<std::int64_t> sizes = {0, 1, 2, 255, 256, 257, 1337, 4096, 4096 + 5};
  // Onesweep tiles: 5888 (keys of ≤ 4 bytes), 4608 (8-byte keys), 7680 (pairs), 5376 (8-byte pairs).
  if (!m.quick) sizes.insert(sizes.end(), {3 * 4096 - 1, 4608 + 1, 5888 + 1, 7680 + 1, 3 * 5376 - 1, 3 * 5888 - 1, (std::int64_t(1) << 20) + 7});
  std::mt19937_64 rng(m.seed ^ std::hash<std::string>{}(name));
  std::string cells[4] = {"ok", "ok", "ok", "ok"};
  bool row_ok = true;
  const std::pair<int, int> ranges[] = {{0, key_bits}, {key_bits / 4, key_bits - 3}};
  for (std::int64_t n : sizes) {
    for (int pattern = 0; pattern < 3; ++pattern) {  // uniform, 5 distinct, all equal
      std::vector<Key> keys(static_cast<std::size_t>(n));
      for (auto& k : keys) {
        std::uint64_t r = pattern == 0 ? rng() : pattern == 1 ? (rng() % 5) * 0x9E3779B97F4A7C15ull : 0x0123456789ABCDEFull;
        if constexpr (std::is_floating_point_v<Key>) k = static_cast<Key>(static_cast<double>(static_cast<std::int64_t>(r)) * 1e-9);
        else std::memcpy(&k, &r, sizeof(k));
      }
      std::vector<std::uint32_t> values(keys.size());
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint32_t>(rng());
      device_buffer<Key> d_keys(n), d_out(n), d_cub(n);
      device_buffer<std::uint32_t> d_vals(n), d_vout(n), d_vcub(n);
      d_keys.copy_from_host(keys.data(), n);
      d_vals.copy_from_host(values.data(), n);
      for (auto [begin, end] : ranges) {
        for (bool desc : {false, true}) {
          // The reference: the CPU stable sort, which CUB must match (but in the ±0.0 corner CUB is
          // not consistent in; see radix_sort.hpp).
          const auto order = validation::cpu_sort_order(keys, begin, end, desc);
          const auto ref_keys = validation::permuted(keys, order);
          const auto ref_vals = validation::permuted(values, order);
          const std::string where = " n=" + std::to_string(n) + " pattern " + std::to_string(pattern) + " bits [" +
                                    std::to_string(begin) + "," + std::to_string(end) + ")" + (desc ? " desc" : "");
          if (!validation::cub_zero_ambiguity<Key>(begin, end, desc)) {
            std::size_t bytes = 0;
            PARASCAN_CUDA_CHECK(validation::cub_sort_pairs(nullptr, bytes, d_keys.data(), d_cub.data(), d_vals.data(),
                                                           d_vcub.data(), n, begin, end, desc));
            device_buffer<char> cub_temp(bytes);
            PARASCAN_CUDA_CHECK(validation::cub_sort_pairs(cub_temp.data(), bytes, d_keys.data(), d_cub.data(), d_vals.data(),
                                                           d_vcub.data(), n, begin, end, desc));
            std::vector<Key> cub_keys(keys.size());
            std::vector<std::uint32_t> cub_vals(keys.size());
            d_cub.copy_to_host(cub_keys.data(), n);
            d_vcub.copy_to_host(cub_vals.data(), n);
            const bool cub_ok = !validation::bit_mismatches(cub_keys, ref_keys) && !validation::bit_mismatches(cub_vals, ref_vals);
            if (!t.record(cub_ok, row_ok, nullptr, [&] { return name + where + ": CUB disagrees with the CPU stable sort"; }))
              continue;
          }
          int cell = 0;
          for (auto alg : {sort_algorithm::split1, sort_algorithm::split4, sort_algorithm::split8, sort_algorithm::onesweep}) {
            sort_options o;
            o.algorithm = alg;
            o.begin_bit = begin;
            o.end_bit = end;
            o.descending = desc;
            for (bool pairs : {false, true}) {
              d_out.poison();
              d_vout.poison();
              std::size_t b = 0;
              auto call = [&](void* temp) {
                return pairs ? radix_sort_pairs(temp, b, d_keys.data(), d_out.data(), d_vals.data(), d_vout.data(), n, o)
                             : radix_sort_keys(temp, b, d_keys.data(), d_out.data(), n, o);
              };
              PARASCAN_CUDA_CHECK(call(nullptr));
              device_buffer<char> temp(b);
              PARASCAN_CUDA_CHECK(call(temp.data()));
              std::vector<Key> got(keys.size());
              d_out.copy_to_host(got.data(), n);
              std::int64_t bad = validation::bit_mismatches(got, ref_keys);
              if (pairs) {
                std::vector<std::uint32_t> gv(keys.size());
                d_vout.copy_to_host(gv.data(), n);
                bad += validation::bit_mismatches(gv, ref_vals);
              }
              t.record(bad == 0, row_ok, &cells[cell], [&] {
                return name + " " + std::string(to_string(alg)) + (pairs ? " pairs" : " keys") + where + ": " +
                       std::to_string(bad) + " differ from CUB and the CPU";
              });
            }
            ++cell;
          }
        }
      }
    }
  }
  t.end_row(row_ok);
  if (!quiet || !row_ok)
    std::printf("%-24s %-15s %-6s %-6s %-6s %-6s\n", name.c_str(), "", cells[0].c_str(), cells[1].c_str(), cells[2].c_str(),
                cells[3].c_str());
}

}  // namespace

/// Marching cubes of T volumes: an integer sphere, a gyroid, noise, a checkerboard, one voxel and an
/// empty volume at awkward sizes; every mesh unwelded and welded against the CPU reference, and both
/// scans against CUB.
template <class T>
void run_mc_case(const matrix_options& m, tally& t, bool quiet) {
  const std::string name = std::string(to_string(dtype_of<T>())) + " marching_cubes";
  if (!m.runs(name)) return;
  std::mt19937_64 rng(m.seed ^ std::hash<std::string>{}(name));
  const double top = std::is_same_v<T, std::uint8_t> ? 250 : 60000;  // sample range of the integer types
  struct volume_case {
    std::string what;
    volume_shape shape;
    std::vector<T> v;
    float iso;
  };
  std::vector<volume_case> cases;
  auto add = [&](const std::string& what, volume_shape s, auto f, float iso) {
    volume_case c{what, s, std::vector<T>(static_cast<std::size_t>(s.samples())), iso};
    for (std::int64_t z = 0; z < s.nz; ++z)
      for (std::int64_t y = 0; y < s.ny; ++y)
        for (std::int64_t x = 0; x < s.nx; ++x) c.v[x + s.nx * (y + s.ny * z)] = static_cast<T>(f(x, y, z));
    cases.push_back(std::move(c));
  };
  for (volume_shape s : {volume_shape{17, 13, 11}, volume_shape{33, 29, 31}, volume_shape{m.quick ? 40 : 97, 61, 45}}) {
    const double cx = (s.nx - 1) / 2.0, cy = (s.ny - 1) / 2.0, cz = (s.nz - 1) / 2.0, r = std::min({cx, cy, cz});
    const double scale = top / (cx * cx + cy * cy + cz * cz);
    add("sphere", s, [&](auto x, auto y, auto z) {
      return std::round(((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz)) * scale);
    }, static_cast<float>(std::round(0.6 * r * r * scale) + 0.5));
    add("gyroid", s, [&](auto x, auto y, auto z) {
      const double k = 0.35, g = std::sin(k * x) * std::cos(k * y) + std::sin(k * y) * std::cos(k * z) + std::sin(k * z) * std::cos(k * x);
      return std::round((g + 1.5) / 3.0 * top);
    }, static_cast<float>(top / 2 + 0.25));
    add("noise", s, [&](auto, auto, auto) { return static_cast<double>(rng() % static_cast<std::uint64_t>(top)); },
        static_cast<float>(std::round(top / 2)));  // samples equal to the iso value too: outside
    add("checkerboard", s, [&](auto x, auto y, auto z) { return (x + y + z) % 2 ? top : 0.0; }, static_cast<float>(top / 2));
  }
  add("one voxel", {5, 6, 7}, [&](auto x, auto y, auto z) { return x == 2 && y == 3 && z == 3 ? 0.0 : top; }, 1.0f);
  add("empty", {8, 9, 10}, [&](auto, auto, auto) { return top; }, 1.0f);
  add("flat", {64, 1, 64}, [&](auto, auto, auto) { return 0.0; }, 1.0f);
  std::string cells[2] = {"ok", "ok"};
  bool row_ok = true;
  for (const auto& c : cases) {
    device_buffer<T> d(c.shape.samples());
    if (c.shape.samples()) d.copy_from_host(c.v.data(), c.v.size());
    const auto ref = validation::cpu_marching_cubes(c.v.data(), c.shape, c.iso);
    for (int weld = 0; weld < 2; ++weld) {
      mc_options o;
      o.weld = weld != 0;
      o.keep_cells = true;
      o.scan.debug_synchronous = true;
      const mc_mesh mesh = marching_cubes(d.data(), c.shape, c.iso, o);
      std::string diff = validation::compare_meshes(mesh, ref);
      if (diff.empty()) diff = validation::check_scans_with_cub(mesh);
      t.record(diff.empty(), row_ok, &cells[weld], [&] {
        return name + " " + c.what + " " + std::to_string(c.shape.nx) + "x" + std::to_string(c.shape.ny) + "x" +
               std::to_string(c.shape.nz) + (weld ? " welded" : "") + ": " + diff;
      });
    }
  }
  t.end_row(row_ok);
  if (!quiet || !row_ok) std::printf("%-24s %-15s %-6s %-6s\n", name.c_str(), "", cells[0].c_str(), cells[1].c_str());
}

int main(int argc, char** argv) {
  CLI::App app{"validate: parascan's scans against CUB and a CPU reference, over the whole matrix", "validate"};
  matrix_options m;
  common_options c;
  app.add_flag("--quick", m.quick, "Skip the large sizes (2^20+7, tile^2 +- 1)");
  app.add_option("--filter", m.filter, "Only cases whose name contains this text (e.g. 'u32 sum', 'segmented')");
  std::string shard;
  app.add_option("--shard", shard,
                 "I/K: only every K-th case from case I (0 <= I < K), so that K processes share the matrix "
                 "(e.g. 0/4 .. 3/4); each prints its own tally")
      ->check([](const std::string& v) {
        int i = 0, k = 0;
        return parse_shard(v, i, k) ? std::string() : "expected I/K with 0 <= I < K, e.g. 0/4";
      });
  app.add_option("--seed", m.seed, "Seed of the inputs (printed with any failure)")->capture_default_str();
  add_common_options(app, c, "validate --quick --filter 'u32 sum'", 0);
  return run_tool(app, argc, argv, [&]() -> int {
    if (!shard.empty()) parse_shard(shard, m.shard, m.shards);
    const auto d = select_device(c.device);
    std::printf("validate: device %d: %s; sizes 0, 1, 31..33, tile-1..tile+1, 1337, 2 tiles+5, random%s\n", d.id,
                d.name.c_str(), m.quick ? " (quick)" : ", 2^20+7, tile^2+-1 for sums");
    std::printf("%-24s %-15s", "case", "mode");
    for (auto alg : all_block_algorithms) {
      const char* a = alg == block_algorithm::hillis_steele ? "HS" : alg == block_algorithm::blelloch_padded ? "BL"
                    : alg == block_algorithm::brent_kung ? "BK" : "WS";
      for (auto s : all_device_strategies)
        std::printf(" %s/%-3s", a, s == device_strategy::recursive ? "rec" : s == device_strategy::reduce_then_scan ? "rts" : "sp");
    }
    std::printf("\n");
    tally t;
    for_each_scan_case([&](auto in_tag, auto out_tag, auto op, bool segmented) {
      using In = typename decltype(in_tag)::type;
      using Out = typename decltype(out_tag)::type;
      run_case<In, Out>(op, segmented, m, t, c.quiet);
    });
    std::printf("\n%-24s %-15s %-6s %-6s\n", "compaction case", "", "sp", "rts");
    visit_all_types([&](auto tag) { run_select_case<typename decltype(tag)::type>(m, t, c.quiet); });
    std::printf("\n%-24s %-15s %-6s %-6s\n", "summed-area table", "", "incl", "padded");
    run_sat_case<std::uint8_t, std::uint32_t>(m, t, c.quiet, 255);
    run_sat_case<std::uint8_t, std::uint64_t>(m, t, c.quiet, 255);
    run_sat_case<std::uint8_t, double>(m, t, c.quiet, 255);
    run_sat_case<std::uint16_t, std::uint64_t>(m, t, c.quiet, 65535);
    run_sat_case<std::uint16_t, float>(m, t, c.quiet, 65535);
    run_sat_case<std::uint32_t, std::uint64_t>(m, t, c.quiet, 100000);
    run_sat_case<float, float>(m, t, c.quiet, 100);
    run_sat_case<float, double>(m, t, c.quiet, 100);
    std::printf("\n%-24s %-15s %-6s %-6s %-6s %-6s\n", "radix sort", "", "split1", "split4", "split8", "1sweep");
    visit_all_types([&](auto tag) { run_sort_case<typename decltype(tag)::type>(m, t, c.quiet); });
    std::printf("\n%-24s %-15s %-6s %-6s\n", "marching cubes", "", "plain", "welded");
    run_mc_case<std::uint8_t>(m, t, c.quiet);
    run_mc_case<std::uint16_t>(m, t, c.quiet);
    run_mc_case<float>(m, t, c.quiet);
    for (std::size_t i = 0; i < t.failures.size() && i < 20; ++i) std::printf("FAIL %s\n", t.failures[i].c_str());
    if (m.shards > 1) std::printf("validate: shard %d/%d of the matrix\n", m.shard, m.shards);
    std::printf("validate: %lld runs in %lld rows: %lld passed, %lld failed\n", static_cast<long long>(t.runs),
                static_cast<long long>(t.rows), static_cast<long long>(t.passed), static_cast<long long>(t.failed));
    if (!c.json.empty()) {
      json_object j;
      j.add("tool", "validate").add("device", d.name).add("runs", t.runs).add("passed", t.passed)
          .add("failed", t.failed).add("quick", m.quick).add("filter", m.filter).add("shard", shard);
      write_json(c.json, j.str());
    }
    if (t.runs == 0) throw input_error("--filter '" + m.filter + "'" + (shard.empty() ? "" : " --shard " + shard) + " matches no case");
    if (t.failed) throw mismatch_error(std::to_string(t.failed) + " of " + std::to_string(t.runs) + " runs FAILED");
    return exit_ok;
  });
}
