// bench --primitive axis: inclusive sums of f32 along an axis of a matrix.
//   rows R x L   each row on its own (numpy.cumsum(x, axis=1)), beside CUB's InclusiveScanByKey with the
//                row index as key (computed, no key array: the way a CUB user scans rows)
//   cols R x C   down each column (numpy.cumsum(x, axis=0)); CUB has no such call, so the yardstick is
//                CUB's 1-D InclusiveSum of the same bytes, and our own 1-D scan is shown beside it
// Inputs are 0/1 floats (fill_sparse_ones), so every sum is exact in any order: rows are compared word
// for word with CUB's, columns with a CPU scan of each column. Traffic counted: read n, write n.
#include <cstdint>
#include <string>
#include <vector>
#include "parascan/axis_scan.hpp"
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/scan.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "runner.hpp"

namespace parascan::app {
namespace {

/// Our axis scan of `shape`, timed; its output left in `out`.
double time_axis(runner& r, const float* in, float* out, axis_shape shape) {
  std::size_t b = 0;
  PARASCAN_CUDA_CHECK(inclusive_scan_axis(nullptr, b, in, out, shape, sum{}));
  device_buffer<char> temp(b);
  const double ms = r.time([&] { PARASCAN_CUDA_CHECK(inclusive_scan_axis(temp.data(), b, in, out, shape, sum{})); });
  PARASCAN_CUDA_CHECK(cudaMemset(out, 0xFF, static_cast<std::size_t>(shape.size()) * sizeof(float)));
  PARASCAN_CUDA_CHECK(inclusive_scan_axis(temp.data(), b, in, out, shape, sum{}));
  return ms;
}

void rows_case(runner& r, std::int64_t rows, std::int64_t length) {
  const std::string variant = "rows " + bench_shape(rows, length);
  if (!r.wanted(variant)) return;
  const std::int64_t n = rows * length;
  device_buffer<float> in(n), out(n), ref(n);
  PARASCAN_CUDA_CHECK(validation::fill_sparse_ones(in.data(), n, 5 + n));
  const double copy = r.copy_gbs(in.data(), out.data(), n * sizeof(float));
  const double bytes = 8.0 * n;
  const auto cub = [&](void* t, std::size_t& b, validation::cub_count c) {
    return validation::cub_rows_scan(t, b, in.data(), ref.data(), rows, length, sum{}, false, 0.0f, 0, c);
  };
  std::size_t cub_bytes = cub_temp_bytes(cub);
  device_buffer<char> cub_temp(cub_bytes);
  const cub_times t = r.time_cub([&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); });
  r.add(with_cub({"axis", "f32", "CUB ScanByKey", variant, n, bytes, t.best_ms(), t.best_ms(), copy, true}, t));
  const double ms = time_axis(r, in.data(), out.data(), axis_shape::rows(rows, length));
  std::int64_t diff = 0;
  PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<const std::uint32_t*>(out.data()),
                                                         reinterpret_cast<const std::uint32_t*>(ref.data()), n, diff));
  r.add(with_cub({"axis", "f32", "parascan", variant, n, bytes, ms, t.best_ms(), copy, diff == 0}, t));
}

void columns_case(runner& r, std::int64_t rows, std::int64_t columns) {
  const std::string variant = "cols " + bench_shape(rows, columns);
  if (!r.wanted(variant)) return;
  const std::int64_t n = rows * columns;
  device_buffer<float> in(n), out(n), flat(n);
  PARASCAN_CUDA_CHECK(validation::fill_sparse_ones(in.data(), n, 7 + n));
  const double copy = r.copy_gbs(in.data(), out.data(), n * sizeof(float));
  const double bytes = 8.0 * n;
  const auto cub = [&](void* t, std::size_t& b, validation::cub_count c) {
    return validation::cub_inclusive_scan(t, b, in.data(), flat.data(), n, sum{}, 0, c);
  };
  std::size_t cub_bytes = cub_temp_bytes(cub);
  device_buffer<char> cub_temp(cub_bytes);
  const cub_times t = r.time_cub([&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); });
  r.add(with_cub({"axis", "f32", "CUB 1-D scan", variant, n, bytes, t.best_ms(), t.best_ms(), copy, true}, t));
  std::size_t b = 0;
  PARASCAN_CUDA_CHECK(inclusive_scan(nullptr, b, in.data(), flat.data(), n, sum{}));
  device_buffer<char> temp(b);
  const double flat_ms = r.time([&] { PARASCAN_CUDA_CHECK(inclusive_scan(temp.data(), b, in.data(), flat.data(), n, sum{})); });
  r.add(with_cub({"axis", "f32", "parascan 1-D", variant, n, bytes, flat_ms, t.best_ms(), copy, true}, t));
  const double ms = time_axis(r, in.data(), out.data(), axis_shape::columns(rows, columns));
  std::vector<float> h(static_cast<std::size_t>(n)), got(static_cast<std::size_t>(n));
  in.copy_to_host(h.data(), n);
  out.copy_to_host(got.data(), n);
  std::vector<float> run(static_cast<std::size_t>(columns), 0.0f);
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += got[i] != (run[i % columns] += h[i]);
  r.add(with_cub({"axis", "f32", "parascan", variant, n, bytes, ms, t.best_ms(), copy, bad == 0}, t));
}

}  // namespace

void bench_axis_scan(runner& r) {
  for (auto [rows, length] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1 << 20, 32}, {1 << 16, 256}, {256, 4096}, {64, 50257}, {8, 1 << 20}, {1, 1 << 24}})
    rows_case(r, rows, length);
  for (auto [rows, columns] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {1 << 20, 32}, {1 << 16, 256}, {4096, 4096}, {256, 128256}, {1 << 22, 4}})
    columns_case(r, rows, columns);
}

}  // namespace parascan::app
