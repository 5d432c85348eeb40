// Scans along an axis on the GPU against a CPU scan of each line: rows (many short, few long, one),
// columns (narrow, wide, ragged tiles, a chunk count that recurses twice), outer × extent × inner,
// inclusive / with init / exclusive, every operator kind and widening sums, in place, empty shapes,
// a non-commutative operator (the order along the axis), and CUDA-graph capture replayed on new data.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/axis_scan.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "scan_affine.hpp"  // affine maps: a non-commutative operator (gpu_scan_affine.cu instantiates its scans)

namespace {
using namespace parascan;
using parascan::test::affine;
using parascan::test::compose;
using parascan::test::gpu_test;

enum class kind { inclusive, inclusive_init, exclusive };
const char* name_of(kind k) {
  return k == kind::inclusive ? "inclusive" : k == kind::inclusive_init ? "inclusive+init" : "exclusive";
}

template <class In, class Out, class Op>
std::vector<Out> cpu_axis_scan(const std::vector<In>& in, axis_shape s, Op op, kind k, Out init) {
  std::vector<Out> out(in.size());
  for (std::int64_t o = 0; o < s.outer; ++o) {
    for (std::int64_t c = 0; c < s.inner; ++c) {
      Out acc = init;
      for (std::int64_t r = 0; r < s.extent; ++r) {
        const std::size_t i = static_cast<std::size_t>((o * s.extent + r) * s.inner + c);
        const Out x = static_cast<Out>(in[i]);
        if (k == kind::exclusive) {
          out[i] = acc;
          acc = op(acc, x);
        } else {
          acc = (r == 0 && k == kind::inclusive) ? x : op(acc, x);
          out[i] = acc;
        }
      }
    }
  }
  return out;
}

/// Random items, never all equal: integers of every bit for the integer types (sums and products
/// wrap, exactly as on the GPU); small integers for floats, so that every sum is exact in any order.
template <class T>
std::vector<T> random_items(std::int64_t n, std::uint64_t seed, bool odd = false) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const std::uint64_t r = rng();
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(static_cast<int>(r % 17) - 8);
    } else {
      std::memcpy(&x, &r, sizeof(T));
      if (odd) x |= T(1);  // products of odd numbers never wrap to 0
    }
  }
  return v;
}

template <class In, class Out, class Op>
cudaError_t run_axis(void* temp, std::size_t& bytes, const In* in, Out* out, axis_shape s, Op op, kind k, Out init,
                     cudaStream_t stream = 0, device_strategy strategy = device_strategy::single_pass) {
  scan_options o;
  o.debug_synchronous = stream == 0;
  o.strategy = strategy;
  if (k == kind::inclusive) return inclusive_scan_axis(temp, bytes, in, out, s, op, stream, o);
  if (k == kind::inclusive_init) return inclusive_scan_axis_init(temp, bytes, in, out, s, op, init, stream, o);
  return exclusive_scan_axis(temp, bytes, in, out, s, op, init, stream, o);
}

/// One scan of `s` on the GPU (outputs poisoned first; in place when asked) against the CPU.
template <class In, class Out, class Op>
void check_axis(axis_shape s, Op op, kind k, Out init, std::uint64_t seed, bool in_place = false,
                device_strategy strategy = device_strategy::single_pass) {
  const std::int64_t n = s.size();
  const auto h = random_items<In>(n, seed, std::is_same_v<Op, product>);
  const auto want = cpu_axis_scan(h, s, op, k, init);
  device_buffer<In> in(n);
  device_buffer<Out> out(n);
  in.copy_from_host(h.data(), n);
  PARASCAN_CUDA_CHECK(cudaMemset(out.data(), 0xAB, static_cast<std::size_t>(n) * sizeof(Out)));
  Out* target = out.data();
  if constexpr (std::is_same_v<In, Out>) {
    if (in_place) target = in.data();
  }
  std::size_t bytes = 0;
  ASSERT_EQ(run_axis(nullptr, bytes, in.data(), target, s, op, k, init, 0, strategy), cudaSuccess);
  device_buffer<char> temp(bytes);
  ASSERT_EQ(run_axis(temp.data(), bytes, in.data(), target, s, op, k, init, 0, strategy), cudaSuccess);
  std::vector<Out> got(static_cast<std::size_t>(n));
  PARASCAN_CUDA_CHECK(cudaMemcpy(got.data(), target, static_cast<std::size_t>(n) * sizeof(Out), cudaMemcpyDeviceToHost));
  std::int64_t bad = 0, first = -1;
  for (std::int64_t i = 0; i < n; ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(Out)) != 0) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  EXPECT_EQ(bad, 0) << name_of(k) << " of " << s.outer << " x " << s.extent << " x " << s.inner
                    << (in_place ? " in place" : "") << (strategy == device_strategy::single_pass ? "" : " (reduce-then-scan)")
                    << ": first wrong at " << first;
}

/// The shapes every combination runs: rows, one row, columns of every tiling, outer > 1.
std::vector<axis_shape> shapes(bool large = false) {
  std::vector<axis_shape> v = {
      axis_shape::rows(10007, 7),        // many short rows
      axis_shape::rows(3, 70001),        // few long rows: 18 tiles each, the totals scanned by lanes a row
      axis_shape::rows(1, 100003),       // one row: the plain scan
      axis_shape::rows(777, 1),          // rows of one
      axis_shape::rows(2048, 2048),      // a warp a row: the longest rows it takes, 16 steps each
      axis_shape::rows(5000, 33),        // a warp a row: one step, lanes past the row
      axis_shape::rows(4099, 1),         // a lane a row (32 rows a warp), the last warp partly past the rows
      axis_shape::rows(3001, 5),         // 2 lanes a row, lanes past the row
      axis_shape::rows(2050, 16),        // 4 lanes a row, exactly full
      axis_shape::rows(4097, 32),        // 8 lanes a row, one live group in the last warp
      axis_shape::rows(2049, 61),        // 16 lanes a row
      axis_shape::rows(3000, 129),       // a warp a row, two steps (the carry between them)
      axis_shape::rows(3000, 2049),      // one past: tiles inside rows, the last tile of one item
      axis_shape::rows(5, 4096),         // rows of exactly one tile (no totals to scan)
      axis_shape::rows(2, 4097),         // two tiles a row, the second of one item
      axis_shape::rows(100, 2000),       // fewer, short rows: the head-flag segmented scan
      axis_shape::columns(1, 4099),      // one row down the columns: every item its own line
      axis_shape::columns(129, 33),      // two chunks, a partial column tile
      axis_shape::columns(5, 4096),      // short axis: fewer rows per warp
      axis_shape::columns(40000, 3),     // narrow: lanes idle, many chunks (two levels of sums)
      axis_shape{5, 777, 13},            // outer > 1
      axis_shape{3, 1, 50},              // extent 1
  };
  if (large && !parascan::test::small_sizes_only()) {
    v.push_back(axis_shape::columns(1 << 20, 32));  // numpy.cumsum(x, axis=0) of (1M, 32): three levels
    v.push_back(axis_shape::rows(1 << 16, 256));
    v.push_back(axis_shape::rows(1 << 20, 32));
    v.push_back(axis_shape::rows(8, 1 << 20));  // 256 tiles a row
    v.push_back(axis_shape::rows(64, 50257));
    v.push_back(axis_shape{2, 300001, 40});
  }
  return v;
}

template <class In, class Out, class Op>
void check_every_shape(Op op, Out init, std::uint64_t seed, bool large = false) {
  for (const axis_shape& s : shapes(large)) {
    for (kind k : {kind::inclusive, kind::inclusive_init, kind::exclusive}) check_axis<In, Out>(s, op, k, init, seed++);
  }
}

class axis_scan_test : public gpu_test {};

TEST_F(axis_scan_test, sums_of_every_width) {
  check_every_shape<float, float>(sum{}, 3.0f, 1, true);
  check_every_shape<double, double>(sum{}, -2.0, 2);
  check_every_shape<std::int32_t, std::int32_t>(sum{}, 11, 3);
  check_every_shape<std::uint64_t, std::uint64_t>(sum{}, 5ull, 4);
  check_every_shape<std::int16_t, std::int16_t>(sum{}, std::int16_t(9), 5);
}

TEST_F(axis_scan_test, widening_sums) {
  check_every_shape<std::uint8_t, std::uint32_t>(sum{}, 7u, 6);
  check_every_shape<float, double>(sum{}, 0.5, 7);
  check_every_shape<std::int32_t, std::int64_t>(sum{}, -1ll, 8);
}

TEST_F(axis_scan_test, min_max_and_product) {
  check_every_shape<std::int32_t, std::int32_t>(max_op{}, identity_of<max_op, std::int32_t>(), 9, true);
  check_every_shape<float, float>(min_op{}, identity_of<min_op, float>(), 10);
  check_every_shape<std::uint32_t, std::uint32_t>(product{}, 3u, 11);  // wraps modulo 2^32
  check_every_shape<std::int64_t, std::int64_t>(max_op{}, std::int64_t(-5), 12);
}

/// Long rows under both strategies: single pass by lines (line_scan.cuh: a row's tiles padded to a power
/// of two, the look-back stopping at the row's first tile) and reduce-then-scan over row tiles
/// (row_tile_scan.cuh; rows of one scan tile or less take it under both); row lengths at the tile edges,
/// rows of one tile, rows of 2^k tiles and 2^k + 1.
TEST_F(axis_scan_test, long_rows_by_lines_and_by_row_tiles) {
  std::vector<axis_shape> rows = {axis_shape::rows(3, 70001), axis_shape::rows(3000, 2049), axis_shape::rows(5, 8192),
                                  axis_shape::rows(7, 8193), axis_shape::rows(4, 4 * 8192), axis_shape::rows(3, 4 * 8192 + 1),
                                  axis_shape::rows(64, 50257)};
  if (!test::small_sizes_only()) rows.push_back(axis_shape::rows(8, 1 << 20));
  std::uint64_t seed = 500;
  for (device_strategy strategy : {device_strategy::single_pass, device_strategy::reduce_then_scan}) {
    for (const axis_shape& s : rows) {
      for (kind k : {kind::inclusive, kind::inclusive_init, kind::exclusive}) {
        check_axis<float, float>(s, sum{}, k, 3.0f, seed++, false, strategy);
        check_axis<std::int32_t, std::int32_t>(s, max_op{}, k, std::int32_t(-7), seed++, false, strategy);
        check_axis<std::uint8_t, std::uint32_t>(s, sum{}, k, 5u, seed++, false, strategy);
        check_axis<double, double>(s, min_op{}, k, 1e300, seed++, false, strategy);
      }
      check_axis<std::int64_t, std::int64_t>(s, sum{}, kind::inclusive, std::int64_t(0), seed++, true, strategy);
    }
  }
}

TEST_F(axis_scan_test, in_place) {
  for (const axis_shape& s : {axis_shape::rows(1001, 999), axis_shape::rows(4000, 300), axis_shape::columns(999, 1001),
                              axis_shape{3, 500, 70}}) {
    check_axis<std::int32_t, std::int32_t>(s, sum{}, kind::inclusive, 0, 21, true);
    check_axis<std::int32_t, std::int32_t>(s, sum{}, kind::exclusive, 4, 22, true);
  }
}

TEST_F(axis_scan_test, operands_are_combined_in_the_axis_order) {
  for (const axis_shape& s : shapes()) {
    const std::int64_t n = s.size();
    std::mt19937 rng(static_cast<unsigned>(n));
    std::vector<affine> h(static_cast<std::size_t>(n));
    for (auto& f : h) f = {static_cast<std::uint32_t>(rng() | 1u), static_cast<std::uint32_t>(rng())};
    for (kind k : {kind::inclusive, kind::inclusive_init, kind::exclusive}) {
      const affine init{3u, 7u};
      const auto want = cpu_axis_scan(h, s, compose{}, k, init);
      device_buffer<affine> in(n), out(n);
      in.copy_from_host(h.data(), n);
      PARASCAN_CUDA_CHECK(cudaMemset(out.data(), 0xAB, static_cast<std::size_t>(n) * sizeof(affine)));
      std::size_t bytes = 0;
      ASSERT_EQ(run_axis(nullptr, bytes, in.data(), out.data(), s, compose{}, k, init), cudaSuccess);
      device_buffer<char> temp(bytes);
      ASSERT_EQ(run_axis(temp.data(), bytes, in.data(), out.data(), s, compose{}, k, init), cudaSuccess);
      std::vector<affine> got(static_cast<std::size_t>(n));
      out.copy_to_host(got.data(), n);
      std::int64_t bad = 0;
      for (std::int64_t i = 0; i < n; ++i) bad += got[i].a != want[i].a || got[i].b != want[i].b;
      EXPECT_EQ(bad, 0) << name_of(k) << " of " << s.outer << " x " << s.extent << " x " << s.inner;
    }
  }
}

TEST_F(axis_scan_test, empty_shapes_touch_nothing_and_bad_shapes_are_refused) {
  device_buffer<float> in(16), out(16);
  PARASCAN_CUDA_CHECK(cudaMemset(out.data(), 0x7F, 16 * sizeof(float)));
  for (const axis_shape& s : {axis_shape{0, 5, 5}, axis_shape{5, 0, 5}, axis_shape{5, 5, 0}}) {
    std::size_t bytes = 0;
    ASSERT_EQ(inclusive_scan_axis(nullptr, bytes, in.data(), out.data(), s, sum{}), cudaSuccess);
    EXPECT_GE(bytes, 1u);
    device_buffer<char> temp(bytes);
    ASSERT_EQ(inclusive_scan_axis(temp.data(), bytes, in.data(), out.data(), s, sum{}), cudaSuccess);
  }
  PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::uint32_t> got(16);
  PARASCAN_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), 16 * sizeof(float), cudaMemcpyDeviceToHost));
  for (std::uint32_t w : got) EXPECT_EQ(w, 0x7F7F7F7Fu);
  std::size_t bytes = 0;
  EXPECT_EQ(inclusive_scan_axis(nullptr, bytes, in.data(), out.data(), axis_shape{-1, 4, 4}, sum{}), cudaErrorInvalidValue);
  EXPECT_EQ(inclusive_scan_axis(nullptr, bytes, in.data(), out.data(), axis_shape{1ll << 40, 1ll << 20, 1ll << 10}, sum{}),
            cudaErrorInvalidValue);
  // Long rows take tiles inside rows under the default strategy; the recursive strategy has no row form.
  scan_options recursive;
  recursive.strategy = device_strategy::recursive;
  const auto rows = axis_shape::rows(4, 40000);
  device_buffer<float> big(rows.size());
  bytes = 0;
  ASSERT_EQ(inclusive_scan_axis(nullptr, bytes, big.data(), big.data(), rows, sum{}, 0, recursive), cudaSuccess);
  device_buffer<char> temp(bytes);
  EXPECT_EQ(inclusive_scan_axis(temp.data(), bytes, big.data(), big.data(), rows, sum{}, 0, recursive),
            cudaErrorNotSupported);
}

/// Both mechanisms captured in a CUDA graph, then replayed on new items in the same buffers.
TEST_F(axis_scan_test, captured_in_a_graph_and_replayed_on_new_data) {
  for (const axis_shape& s : {axis_shape::rows(4000, 300), axis_shape::columns(3000, 200)}) {
    const std::int64_t n = s.size();
    device_buffer<std::int32_t> in(n), out(n);
    cudaStream_t stream;
    PARASCAN_CUDA_CHECK(cudaStreamCreate(&stream));
    std::size_t bytes = 0;
    using I = std::int32_t;
    ASSERT_EQ((run_axis<I, I>(nullptr, bytes, in.data(), out.data(), s, sum{}, kind::exclusive, 2, stream)), cudaSuccess);
    device_buffer<char> temp(bytes);
    cudaGraph_t graph;
    PARASCAN_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    ASSERT_EQ((run_axis<I, I>(temp.data(), bytes, in.data(), out.data(), s, sum{}, kind::exclusive, 2, stream)), cudaSuccess);
    PARASCAN_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    PARASCAN_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (std::uint64_t round = 0; round < 3; ++round) {
      const auto h = random_items<std::int32_t>(n, 100 + round);
      in.copy_from_host(h.data(), n);
      PARASCAN_CUDA_CHECK(cudaMemset(out.data(), 0xAB, static_cast<std::size_t>(n) * sizeof(std::int32_t)));
      PARASCAN_CUDA_CHECK(cudaGraphLaunch(exec, stream));
      PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
      std::vector<std::int32_t> got(static_cast<std::size_t>(n));
      out.copy_to_host(got.data(), n);
      EXPECT_EQ(got, cpu_axis_scan(h, s, sum{}, kind::exclusive, 2)) << "replay " << round;
    }
    PARASCAN_CUDA_CHECK(cudaGraphExecDestroy(exec));
    PARASCAN_CUDA_CHECK(cudaGraphDestroy(graph));
    PARASCAN_CUDA_CHECK(cudaStreamDestroy(stream));
  }
}

}  // namespace
