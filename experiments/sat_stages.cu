// Experiment (not part of the build): the three-pass summed-area table's kernels timed one by one, and
// the single-pass kernel at 4/3/2 blocks per SM, 8192² u8 → u32, inclusive and padded (dense pitch),
// beside a device copy of the table's bytes.
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/sat_stages.cu -o sat_stages
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define PARASCAN_SAT_LOOK_BACK_COUNTERS
#include "parascan/device/device_sat.cuh"
#include "experiment_timing.cuh"

using namespace parascan;
using namespace parascan::device::sat_detail;

int g_reps = 20;

// Cells of the device table (`shift` 1: padded, a zero first row and column) that differ from the
// CPU's summed-area table of the image (u32 sums, wrapping as the device's do).
long long table_mismatches(const std::vector<std::uint8_t>& img, const std::uint32_t* d_table, std::int64_t side, int shift) {
  const std::int64_t w = side + shift;
  std::vector<std::uint32_t> got(w * w), above(side, 0);
  CK(cudaMemcpy(got.data(), d_table, got.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  long long bad = 0;
  for (std::int64_t x = 0; x < w && shift; ++x) bad += got[x] != 0 || got[x * w] != 0;
  for (std::int64_t y = 0; y < side; ++y) {
    std::uint32_t run = 0;
    for (std::int64_t x = 0; x < side; ++x) {
      run += img[y * side + x];
      above[x] += run;
      bad += got[(y + shift) * w + x + shift] != above[x];
    }
  }
  return bad;
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
  std::vector<std::uint8_t> h(side * side);
  {
    unsigned x = 12345;
    for (auto& v : h) v = static_cast<std::uint8_t>((x = x * 1664525u + 1013904223u) >> 24);
    CK(cudaMemcpy(img, h.data(), h.size(), cudaMemcpyHostToDevice));
  }
  int wrong = 0;  // tables that differed from the CPU's: the exit status is 1 if any did
  const float copy = median_ms({g_reps}, [&] { CK(cudaMemcpyAsync(scratch, table, side * side * sizeof(Acc), cudaMemcpyDeviceToDevice)); });
  std::printf("copy of the table bytes: %.4f ms = %.0f GB/s\n", copy, 2.0 * side * side * sizeof(Acc) / copy / 1e6);
  std::size_t bytes = 0;
  summed_area_table(nullptr, bytes, img, side, table, side * sizeof(Acc), shape, sat_layout::inclusive, false, 0,
                    sat_algorithm::three_pass);
  char* temp;
  CK(cudaMalloc(&temp, bytes));
  const three_pass_plan<Acc> plan(g, temp);  // the library's own carve of the temporary storage
  Acc *row_sums = plan.row_sums, *col_sums = plan.col_sums, *totals = plan.totals;
  const line_scan<Acc>&rows_job = plan.rows_job, &cols_job = plan.cols_job, &across = plan.across, &down = plan.down;
  const unsigned blocks = static_cast<unsigned>((g.tiles() + warps_per_block - 1) / warps_per_block);
  const unsigned carry_blocks = static_cast<unsigned>(rows_job.blocks() + cols_job.blocks() + across.blocks());
  const float t0 = median_ms({g_reps}, [&] { tile_sums_kernel<<<blocks, 256>>>(img, side, g, false, true, row_sums, col_sums, totals); });
  const unsigned byte_blocks = static_cast<unsigned>((byte_warps(g) + warps_per_block - 1) / warps_per_block);
  const float t1 = median_ms({g_reps}, [&] { byte_tile_sums_kernel<<<byte_blocks, 256>>>(img, side, g, row_sums, col_sums, totals); });
  const float t4 = median_ms({g_reps}, [&] { byte_tile_sums_kernel<Acc, 4><<<byte_blocks, 256>>>(img, side, g, row_sums, col_sums, totals); });
  const float t8 = median_ms({g_reps}, [&] { byte_tile_sums_kernel<Acc, 8><<<byte_blocks, 256>>>(img, side, g, row_sums, col_sums, totals); });
  const float t16 = median_ms({g_reps}, [&] { byte_tile_sums_kernel<Acc, 16><<<byte_blocks, 256>>>(img, side, g, row_sums, col_sums, totals); });
  std::printf("byte tile sums, 4 / 8 / 16 rows in flight: %.4f / %.4f / %.4f ms\n", t4, t8, t16);
  std::printf("generic tile sums %.4f ms (%.0f GB/s of image)\n", t0, side * side / t0 / 1e6);
  const float t2 = median_ms({g_reps}, [&] { line_scans_kernel<<<carry_blocks, line_threads>>>(rows_job, cols_job, across); });
  const float t3 = median_ms({g_reps}, [&] { line_scans_kernel<<<static_cast<unsigned>(down.blocks()), line_threads>>>(down, line_scan<Acc>{}, line_scan<Acc>{}); });
  std::printf("byte tile sums %.4f ms (%.0f GB/s of image), carries %.4f ms (groups %d %d %d), corners %.4f ms\n", t1,
              side * side / t1 / 1e6, t2, rows_job.group, cols_job.group, across.group, t3);
  for (int shift : {0, 1}) {
    const std::size_t pitch = (side + shift) * sizeof(Acc);
    const sat_layout layout = shift ? sat_layout::padded : sat_layout::inclusive;
    const double floor_copy = (side * side * (1.0 + sizeof(Acc))) / (2.0 * side * side * sizeof(Acc) / copy);
    const float t4 = median_ms({g_reps}, [&] {
      table_kernel<<<blocks, 256>>>(img, side, g, false, true, row_sums, col_sums, totals, false, table, pitch, shift);
    });
    const float three = median_ms({g_reps}, [&] {
      summed_area_table(temp, bytes, img, side, table, pitch, shape, layout, false, 0, sat_algorithm::three_pass);
    });
    std::printf("%s three-pass: table kernel %.4f ms, whole %.4f ms = %.1f%% of copy\n", shift ? "padded" : "inclusive", t4,
                three, 100.0 * floor_copy / three);
    // The single-pass kernel alone (status zeroed first, inside the timing) at 4, 3 and 2 blocks per SM.
    std::size_t sp_bytes = 0;
    summed_area_table(nullptr, sp_bytes, img, side, table, pitch, shape, layout);
    char* sp_temp;
    CK(cudaMalloc(&sp_temp, sp_bytes));
    const auto status = single_pass_status<Acc>::carve(sp_temp, g.tiles());
    const std::size_t zero = single_pass_status<Acc>::zeroed_bytes(g.tiles());
    const unsigned sp_blocks = static_cast<unsigned>(single_pass_blocks_x(g) * g.tiles_y);
    const auto single = [&](auto kernel) {
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
      return median_ms({g_reps}, [&] {
        CK(cudaMemsetAsync(sp_temp, 0, zero));
        kernel<<<sp_blocks, 256, 65536>>>(img, side, g, false, true, status, table, pitch, shift);
      });
    };
    std::printf("%s single-pass kernel (blocks per SM, rows ahead on the read, on the write):", shift ? "padded" : "inclusive");
    std::printf(" 3,16,4 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 3, 16, 4>));
    std::printf(" 3,8,4 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 3, 8, 4>));
    std::printf(" 3,4,4 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 3, 4, 4>));
    std::printf(" 4,4,4 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 4, 4, 4>));
    std::printf(" 4,8,4 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 4, 8, 4>));
    std::printf(" 2,16,4 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 2, 16, 4>));
    std::printf(" 2,16,8 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 2, 16, 8>));
    std::printf(" 2,16,16 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 2, 16, 16>));
    std::printf(" 2,32,4 %.4f", single(single_pass_table_kernel<std::uint8_t, Acc, 2, 32, 4>));
    std::printf(" 2,32,8 %.4f ms\n", single(single_pass_table_kernel<std::uint8_t, Acc, 2, 32, 8>));
    {  // the status memset outside the timing: what clearing it costs
      auto kernel = single_pass_table_kernel<std::uint8_t, Acc, 2, 16, 4>;
      cudaEvent_t a, b;
      CK(cudaEventCreate(&a));
      CK(cudaEventCreate(&b));
      std::vector<float> t;
      for (int i = 0; i < 21; ++i) {
        CK(cudaMemsetAsync(sp_temp, 0, zero));
        CK(cudaEventRecord(a));
        kernel<<<sp_blocks, 256, 65536>>>(img, side, g, false, true, status, table, pitch, shift);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      std::printf("  2,16,4 without the memset in the timing: %.4f ms\n", t[t.size() / 2]);
    }
    {
      unsigned long long zero_counts[2][3] = {}, counts[2][3];
      CK(cudaMemcpyToSymbol(look_back_counters, zero_counts, sizeof(zero_counts)));
      CK(cudaMemsetAsync(sp_temp, 0, zero));
      CK(cudaFuncSetAttribute(single_pass_table_kernel<std::uint8_t, Acc>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
      single_pass_table_kernel<std::uint8_t, Acc><<<sp_blocks, 256, 65536>>>(img, side, g, false, true, status, table, pitch, shift);
      CK(cudaMemcpyFromSymbol(counts, look_back_counters, sizeof(counts)));
      for (int d = 0; d < 2; ++d)
        std::printf("  look-back %s: %llu polls not ready, %llu windows, %llu tiles summed (%lld tiles)\n", d ? "columns" : "rows",
                    counts[d][0], counts[d][1], counts[d][2], static_cast<long long>(g.tiles()));
    }
    const float whole = median_ms({g_reps}, [&] { summed_area_table(sp_temp, sp_bytes, img, side, table, pitch, shape, layout); });
    const float back_to_back = median_ms({g_reps}, [&] {
      for (int i = 0; i < 10; ++i) summed_area_table(sp_temp, sp_bytes, img, side, table, pitch, shape, layout);
    }) / 10;
    std::printf("%s: 10 tables back to back, each %.4f ms = %.1f%% of copy\n", shift ? "padded" : "inclusive", back_to_back,
                100.0 * floor_copy / back_to_back);
    std::printf("%s single-pass whole %.4f ms = %.1f%% of copy\n", shift ? "padded" : "inclusive", whole, 100.0 * floor_copy / whole);
    const long long bad = table_mismatches(h, table, side, shift);
    wrong += bad != 0;
    std::printf("%s table against the CPU's: %s (%lld cells differ)\n", shift ? "padded" : "inclusive", bad ? "WRONG" : "ok", bad);
    CK(cudaFree(sp_temp));
  }
  return wrong ? 1 : 0;
}
