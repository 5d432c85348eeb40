// bench --primitive topk: the k largest of every row of an f32 or bf16 matrix (with int64 positions) by
// parascan::topk. Beside f32 rows stands what a user of CUB 3.0.1 (the toolkit's, which has no top-k)
// does: cub::DeviceSegmentedRadixSort / DeviceSegmentedSort of the whole rows (descending, each with
// `int` and int64 offsets, the fastest taken), whose first k per row are checked against ours. Where
// parascan::validation is built against a CUB with cub::DeviceBatchedTopK (3.6 and on:
// -DPARASCAN_CUB_INCLUDE), it runs too, f32 and bf16, under both of its contracts: sorted with ties to
// the earliest (parascan's default, which our sorted row is compared with) and unsorted with any of the
// tied (its fastest, beside our unsorted row, which lists the chosen in row order). Without it, bf16 rows
// have no CUB row and are checked against the f32 answer of the same values. Traffic counted: the keys
// read once, k keys and positions written per row.
#include <cuda_bf16.h>
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/topk.hpp"
#include "parascan/validation/cub_topk.hpp"
#include "parascan/validation/segmented_sort_check.hpp"
#include "runner.hpp"

namespace parascan::app {
namespace {

struct case_shape {
  std::int64_t rows, length, k;
};

std::string name_of(const case_shape& c, const char* type) {
  return std::string(type) + " " + bench_shape(c.rows, c.length) + " k" + std::to_string(c.k);
}

/// A two-phase call `call(temp, bytes)` timed: the size query, the median of runs, then one more run after
/// the m positions at `at` are poisoned, whose answer stays in the outputs for the checks.
template <class Call>
double time_two_phase(runner& r, std::int64_t* at, std::int64_t m, Call&& call) {
  std::size_t b = 0;
  PARASCAN_CUDA_CHECK(call(nullptr, b));
  device_buffer<char> temp(b);
  const double ms = r.time([&] { PARASCAN_CUDA_CHECK(call(temp.data(), b)); });
  PARASCAN_CUDA_CHECK(cudaMemset(at, 0xFF, static_cast<std::size_t>(m) * sizeof(std::int64_t)));
  PARASCAN_CUDA_CHECK(call(temp.data(), b));
  return ms;
}

template <class Key>
double time_topk(runner& r, const Key* in, Key* out, std::int64_t* at, const case_shape& c, topk_options o = {}) {
  return time_two_phase(r, at, c.rows * c.k, [&](void* t, std::size_t& b) {
    return topk(t, b, in, c.rows, c.length, c.k, out, at, o);
  });
}

/// Each row's chosen (key, position) pairs, sorted, from a device answer: keys as floats, positions
/// checked to hold their keys in `h` (a bad position makes the row's set differ from any right one).
template <class Key>
std::vector<std::pair<float, std::int64_t>> chosen_pairs(const std::vector<float>& h, const device_buffer<Key>& keys,
                                                         const device_buffer<std::int64_t>& at, const case_shape& c) {
  const std::int64_t m = c.rows * c.k;
  std::vector<Key> got(static_cast<std::size_t>(m));
  std::vector<std::int64_t> got_at(static_cast<std::size_t>(m));
  keys.copy_to_host(got.data(), m);
  at.copy_to_host(got_at.data(), m);
  std::vector<std::pair<float, std::int64_t>> pairs(static_cast<std::size_t>(m));
  for (std::int64_t s = 0; s < c.rows; ++s) {
    for (std::int64_t j = 0; j < c.k; ++j) {
      const std::int64_t i = s * c.k + j, pos = got_at[i];
      const auto key = static_cast<float>(got[i]);  // bf16 keys by cuda_bf16's host conversion
      const bool holds = pos >= 0 && pos < c.length && h[s * c.length + pos] == key;
      pairs[i] = {key, holds ? pos : -1 - pos};
    }
    std::sort(pairs.begin() + s * c.k, pairs.begin() + (s + 1) * c.k);
  }
  return pairs;
}

/// Whether two answers chose the same keys in every row (their multisets), positions holding them
/// (and distinct); `same_positions`: the same positions too.
bool same_choice(const std::vector<std::pair<float, std::int64_t>>& a, const std::vector<std::pair<float, std::int64_t>>& b,
                 const case_shape& c, bool same_positions) {
  for (std::int64_t s = 0; s < c.rows; ++s)
    for (std::int64_t j = 0; j < c.k; ++j) {
      const std::size_t i = static_cast<std::size_t>(s * c.k + j);
      if (a[i].first != b[i].first || a[i].second < 0 || b[i].second < 0) return false;
      if (same_positions && a[i].second != b[i].second) return false;
      if (j > 0 && (a[i] == a[i - 1] || b[i] == b[i - 1])) return false;  // a position listed twice
    }
  return true;
}

/// cub::DeviceBatchedTopK under `contract` (cub_topk.hpp), timed, its answer left in out / at.
template <class Key>
double time_cub_topk(runner& r, const Key* in, Key* out, std::int64_t* at, const case_shape& c,
                     validation::cub_topk_contract contract) {
  using bits = std::conditional_t<sizeof(Key) == 2, std::uint16_t, Key>;
  return time_two_phase(r, at, c.rows * c.k, [&](void* t, std::size_t& b) {
    return validation::cub_batched_topk(t, b, reinterpret_cast<const bits*>(in), reinterpret_cast<bits*>(out), at,
                                        c.rows, c.length, c.k, contract);
  });
}

void topk_case(runner& r, const case_shape& c) {
  const std::string f32_name = name_of(c, "f32"), bf16_name = name_of(c, "bf16");
  if (!r.wanted(f32_name) && !r.wanted(bf16_name)) return;
  const std::int64_t n = c.rows * c.length, m = c.rows * c.k;
  // Integers in [-128, 128): exact in bf16 (8 significant bits), so the f32 and bf16 answers are the
  // same positions (many ties: the earliest win in both).
  std::vector<float> h(static_cast<std::size_t>(n));
  std::vector<__nv_bfloat16> hb(static_cast<std::size_t>(n));
  std::mt19937 rng(static_cast<unsigned>(n + c.k));
  for (std::int64_t i = 0; i < n; ++i) {
    h[i] = static_cast<float>(static_cast<int>(rng() % 256) - 128);
    hb[i] = __float2bfloat16(h[i]);
  }
  device_buffer<float> in(n), out(m), sorted(n);
  device_buffer<__nv_bfloat16> in_b(n), out_b(m);
  device_buffer<std::int64_t> at(m), at_b(m);
  in.copy_from_host(h.data(), n);
  in_b.copy_from_host(hb.data(), n);
  std::vector<std::int64_t> begin(static_cast<std::size_t>(c.rows)), end(static_cast<std::size_t>(c.rows));
  for (std::int64_t s = 0; s < c.rows; ++s) {
    begin[s] = s * c.length;
    end[s] = (s + 1) * c.length;
  }
  const validation::cub_segment_bounds bounds(begin, end);
  const double copy = r.copy_gbs(in.data(), sorted.data(), n * sizeof(float));
  const double bytes = 4.0 * n + 12.0 * m;

  cub_times best{1e30, 1e30};
  for (const auto which : {validation::cub_segmented::radix_sort, validation::cub_segmented::stable_sort}) {
    const auto cub = [&](void* t, std::size_t& b, validation::cub_count form) {
      const auto* none = static_cast<const std::uint32_t*>(nullptr);
      auto* no_out = static_cast<std::uint32_t*>(nullptr);
      return bounds.sort(t, b, in.data(), sorted.data(), none, no_out, n, true, which, form);
    };
    std::size_t cub_bytes = cub_temp_bytes(cub);
    device_buffer<char> temp(cub_bytes);
    const cub_times t = r.time_cub([&](validation::cub_count form) { PARASCAN_CUDA_CHECK(cub(temp.data(), cub_bytes, form)); });
    r.add(with_cub({"topk", "f32", std::string("CUB ") + to_string(which), f32_name + " (whole rows)", n, 8.0 * n,
                    t.best_ms(), t.best_ms(), copy, true},
                   t));
    if (t.best_ms() < best.best_ms()) best = t;
  }
  const double ms = time_topk(r, in.data(), out.data(), at.data(), c);
  const double ms_b = time_topk(r, in_b.data(), out_b.data(), at_b.data(), c);
  // Check: our f32 values are the first k of CUB's sorted rows, our positions hold them, and the bf16
  // positions equal the f32 ones (the same values, ties to the earliest in both).
  std::vector<float> got(static_cast<std::size_t>(m)), cub_rows(static_cast<std::size_t>(n));
  std::vector<std::int64_t> got_at(static_cast<std::size_t>(m)), got_at_b(static_cast<std::size_t>(m));
  out.copy_to_host(got.data(), m);
  at.copy_to_host(got_at.data(), m);
  at_b.copy_to_host(got_at_b.data(), m);
  sorted.copy_to_host(cub_rows.data(), n);
  std::int64_t bad = 0, bad_b = 0;
  for (std::int64_t s = 0; s < c.rows; ++s)
    for (std::int64_t j = 0; j < c.k; ++j) {
      const std::int64_t i = s * c.k + j, pos = got_at[i];
      bad += got[i] != cub_rows[s * c.length + j] || pos < 0 || pos >= c.length || h[s * c.length + pos] != got[i];
      bad_b += got_at_b[i] != pos;
    }
  if (!validation::cub_has_batched_topk()) {
    r.add(with_cub({"topk", "f32", "parascan", f32_name, n, bytes, ms, best.best_ms(), copy, bad == 0}, best));
    row rb{"topk", "bf16", "parascan", bf16_name, n, 2.0 * n + 10.0 * m, ms_b, 0, copy, bad_b == 0};
    rb.has_cub = false;
    r.add(rb);
    return;
  }
  // CUB's batched top-k: each contract and key type beside ours, answers compared as sets of (key,
  // position) per row: the same positions under the same contract (sorted, earliest ties), the same keys
  // under "unsorted, any ties".
  const auto ours = chosen_pairs(h, out, at, c), ours_b = chosen_pairs(h, out_b, at_b, c);
  device_buffer<float> cub_out(m);
  device_buffer<__nv_bfloat16> cub_out_b(m);
  device_buffer<std::int64_t> cub_at(m);
  for (const auto contract : {validation::cub_topk_contract::sorted_earliest, validation::cub_topk_contract::unsorted_any}) {
    const bool earliest = contract == validation::cub_topk_contract::sorted_earliest;
    const std::string cub_name = std::string("CUB DeviceBatchedTopK (") + validation::to_string(contract) + ")";
    const double cub_ms = time_cub_topk(r, in.data(), cub_out.data(), cub_at.data(), c, contract);
    const bool cub_ok = same_choice(chosen_pairs(h, cub_out, cub_at, c), ours, c, earliest);
    const double cub_ms_b = time_cub_topk(r, in_b.data(), cub_out_b.data(), cub_at.data(), c, contract);
    const bool cub_ok_b = same_choice(chosen_pairs(h, cub_out_b, cub_at, c), ours_b, c, earliest);
    r.add({"topk", "f32", cub_name, f32_name, n, bytes, cub_ms, cub_ms, copy, cub_ok});
    r.add({"topk", "bf16", cub_name, bf16_name, n, 2.0 * n + 10.0 * m, cub_ms_b, cub_ms_b, copy, cub_ok_b});
    if (earliest) {
      // Our default (sorted, earliest ties) beside the fastest CUB call that gives the same answer.
      const double f32_best = std::min(best.best_ms(), cub_ms);
      r.add({"topk", "f32", "parascan", f32_name, n, bytes, ms, f32_best, copy, bad == 0});
      r.add({"topk", "bf16", "parascan", bf16_name, n, 2.0 * n + 10.0 * m, ms_b, cub_ms_b, copy, bad_b == 0});
    } else {
      // Ours unsorted (the chosen in row order, still ties to the earliest) beside CUB's fastest contract.
      topk_options o;
      o.sorted = false;
      device_buffer<float> u_out(m);
      device_buffer<__nv_bfloat16> u_out_b(m);
      device_buffer<std::int64_t> u_at(m), u_at_b(m);
      const double u_ms = time_topk(r, in.data(), u_out.data(), u_at.data(), c, o);
      const double u_ms_b = time_topk(r, in_b.data(), u_out_b.data(), u_at_b.data(), c, o);
      const bool u_ok = same_choice(chosen_pairs(h, u_out, u_at, c), ours, c, true);
      const bool u_ok_b = same_choice(chosen_pairs(h, u_out_b, u_at_b, c), ours_b, c, true);
      r.add({"topk", "f32", "parascan unsorted", f32_name, n, bytes, u_ms, cub_ms, copy, u_ok});
      r.add({"topk", "bf16", "parascan unsorted", bf16_name, n, 2.0 * n + 10.0 * m, u_ms_b, cub_ms_b, copy, u_ok_b});
    }
  }
}

}  // namespace

void bench_topk(runner& r) {
  for (const case_shape& c : std::vector<case_shape>{{64, 50257, 50},
                                                     {64, 50257, 1024},
                                                     {256, 128256, 50},
                                                     {256, 128256, 1024},
                                                     {1 << 16, 256, 8},
                                                     {8, 1 << 20, 1024}})
    topk_case(r, c);
}

}  // namespace parascan::app
