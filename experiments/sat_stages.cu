// Experiment (not part of the build): the summed-area table's four kernels timed one by one, 8192²
// u8 → u32, inclusive and padded (dense pitch), beside a device copy of the table's bytes.
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/sat_stages.cu -o sat_stages
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "parascan/device/device_sat.cuh"

using namespace parascan;
using namespace parascan::device::sat_detail;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1);} } while (0)

int g_reps = 20;

template <class F>
float median_ms(F f) {
  const int reps = g_reps;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  if (t.empty()) return 0;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const std::int64_t side = argc > 1 ? std::atoll(argv[1]) : 8192;
  if (argc > 2) g_reps = std::atoi(argv[2]);  // 0 under ncu: each kernel once
  using Acc = std::uint32_t;
  const image_shape shape{side, side};
  const grid_shape g = grid_of(shape);
  std::uint8_t* img;
  Acc *table, *scratch;
  const std::size_t cells = (side + 1) * (side + 1);
  CK(cudaMalloc(&img, side * side));
  CK(cudaMalloc(&table, cells * sizeof(Acc)));
  CK(cudaMalloc(&scratch, cells * sizeof(Acc)));
  CK(cudaMemset(img, 7, side * side));
  const float copy = median_ms([&] { CK(cudaMemcpyAsync(scratch, table, side * side * sizeof(Acc), cudaMemcpyDeviceToDevice)); });
  std::printf("copy of the table bytes: %.4f ms = %.0f GB/s\n", copy, 2.0 * side * side * sizeof(Acc) / copy / 1e6);
  std::size_t bytes = 0;
  summed_area_table(nullptr, bytes, img, side, table, side * sizeof(Acc), shape, sat_layout::inclusive);
  char* temp;
  CK(cudaMalloc(&temp, bytes));
  const std::size_t row_bytes = device::align_up(static_cast<std::size_t>(g.tiles_x * g.height) * sizeof(Acc));
  const std::size_t col_bytes = device::align_up(static_cast<std::size_t>(g.tiles_y * g.width) * sizeof(Acc));
  Acc* row_sums = reinterpret_cast<Acc*>(temp);
  Acc* col_sums = reinterpret_cast<Acc*>(temp + row_bytes);
  Acc* totals = reinterpret_cast<Acc*>(temp + row_bytes + col_bytes);
  line_scan<Acc> rows_job{row_sums, g.height, g.tiles_x, 1, g.height, line_group(g.height, g.tiles_x, g.height)};
  line_scan<Acc> cols_job{col_sums, g.width, g.tiles_y, 1, g.width, line_group(g.width, g.tiles_y, g.width)};
  line_scan<Acc> across{totals, g.tiles_y, g.tiles_x, 1, g.tiles_y, line_group(g.tiles_y, g.tiles_x, g.tiles_y)};
  line_scan<Acc> down{totals, g.tiles_x, g.tiles_y, g.tiles_y, 1, line_group(g.tiles_x, g.tiles_y, 1)};
  const unsigned blocks = static_cast<unsigned>((g.tiles() + warps_per_block - 1) / warps_per_block);
  const unsigned carry_blocks = static_cast<unsigned>(rows_job.blocks() + cols_job.blocks() + across.blocks());
  const float t0 = median_ms([&] { tile_sums_kernel<<<blocks, 256>>>(img, side, g, false, true, row_sums, col_sums, totals); });
  const unsigned byte_blocks = static_cast<unsigned>((byte_warps(g) + warps_per_block - 1) / warps_per_block);
  const float t1 = median_ms([&] { byte_tile_sums_kernel<<<byte_blocks, 256>>>(img, side, g, row_sums, col_sums, totals); });
  const float t4 = median_ms([&] { byte_tile_sums_kernel<Acc, 4><<<byte_blocks, 256>>>(img, side, g, row_sums, col_sums, totals); });
  std::printf("byte tile sums, 4 rows in flight: %.4f ms\n", t4);
  std::printf("generic tile sums %.4f ms (%.0f GB/s of image)\n", t0, side * side / t0 / 1e6);
  const float t2 = median_ms([&] { line_scans_kernel<<<carry_blocks, line_threads>>>(rows_job, cols_job, across); });
  const float t3 = median_ms([&] { line_scans_kernel<<<static_cast<unsigned>(down.blocks()), line_threads>>>(down, line_scan<Acc>{}, line_scan<Acc>{}); });
  std::printf("byte tile sums %.4f ms (%.0f GB/s of image), carries %.4f ms (groups %d %d %d), corners %.4f ms\n", t1,
              side * side / t1 / 1e6, t2, rows_job.group, cols_job.group, across.group, t3);
  for (int shift : {0, 1}) {
    const std::size_t pitch = (side + shift) * sizeof(Acc);
    const float t4 = median_ms([&] {
      table_kernel<<<blocks, 256>>>(img, side, g, false, true, row_sums, col_sums, totals, false, table, pitch, shift);
    });
    const float t3b = median_ms([&] {
      table_kernel<std::uint8_t, Acc, 3><<<blocks, 256>>>(img, side, g, false, true, row_sums, col_sums, totals, false, table, pitch, shift);
    });
    const float t2b = median_ms([&] {
      table_kernel<std::uint8_t, Acc, 2><<<blocks, 256>>>(img, side, g, false, true, row_sums, col_sums, totals, false, table, pitch, shift);
    });
    std::printf("table with 3 / 2 blocks per SM: %.4f / %.4f ms\n", t3b, t2b);
    const float all = median_ms([&] {
      summed_area_table(temp, bytes, img, side, table, pitch, shape, shift ? sat_layout::padded : sat_layout::inclusive);
    });
    std::printf("%s: table %.4f ms (%.0f GB/s of image + table), whole %.4f ms = %.0f%% of copy\n", shift ? "padded" : "inclusive",
                t4, side * side * (1.0 + sizeof(Acc)) / t4 / 1e6, all, 100.0 * (side * side * (1.0 + sizeof(Acc)) / all) / (2.0 * side * side * sizeof(Acc) / copy));
  }
  return 0;
}
