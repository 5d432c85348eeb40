// Experiment (not part of the build): the single-pass summed-area table kernel with blocks of 1, 2, 4
// and 8 tiles (one warp each) at several blocks per SM, u8 → u32 inclusive, beside a device copy of
// the table's bytes. Smaller blocks stagger their read / look-back / write phases across the SM and
// shorten the last wave (performance.md entry 17).
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/sat_block_shapes.cu -o sat_block_shapes
// ./sat_block_shapes [side ...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "parascan/device/device_sat.cuh"
#include "experiment_timing.cuh"

using namespace parascan;
using namespace parascan::device::sat_detail;


int main(int argc, char** argv) {
  int wrong = 0;  // tables that differed from the reference: the exit status is 1 if any did
  std::vector<std::int64_t> sides;
  for (int i = 1; i < argc; ++i) sides.push_back(std::atoll(argv[i]));
  if (sides.empty()) sides = {4096, 8192, 16384};
  using Acc = std::uint32_t;
  for (const std::int64_t side : sides) {
    const image_shape shape{side, side};
    const grid_shape g = grid_of(shape);
    std::uint8_t* img;
    Acc *table, *scratch, *reference;
    const std::size_t cells = side * side;
    CK(cudaMalloc(&img, cells));
    CK(cudaMalloc(&table, cells * sizeof(Acc)));
    CK(cudaMalloc(&reference, cells * sizeof(Acc)));
    CK(cudaMalloc(&scratch, cells * sizeof(Acc)));
    {
      std::vector<std::uint8_t> h(cells);
      unsigned x = 12345;
      for (auto& v : h) v = static_cast<std::uint8_t>((x = x * 1664525u + 1013904223u) >> 24);
      CK(cudaMemcpy(img, h.data(), h.size(), cudaMemcpyHostToDevice));
    }
    const float copy = median_ms({31, 1, 50}, [&] { CK(cudaMemcpyAsync(scratch, table, cells * sizeof(Acc), cudaMemcpyDeviceToDevice)); });
    const double floor_ms = cells * (1.0 + sizeof(Acc)) / (2.0 * cells * sizeof(Acc) / copy);
    std::printf("%lld² (%lld tiles): copy %.0f GB/s, floor %.4f ms\n", static_cast<long long>(side),
                static_cast<long long>(g.tiles()), 2.0 * cells * sizeof(Acc) / copy / 1e6, floor_ms);
    std::size_t bytes = 0;
    CK(summed_area_table(nullptr, bytes, img, side, reference, side * sizeof(Acc), shape, sat_layout::inclusive, false, 0,
                         sat_algorithm::three_pass));
    std::size_t single_bytes = 0;
    CK(summed_area_table(nullptr, single_bytes, img, side, reference, side * sizeof(Acc), shape, sat_layout::inclusive,
                         false, 0, sat_algorithm::single_pass));
    bytes = std::max(bytes, single_bytes);
    char* temp;
    CK(cudaMalloc(&temp, bytes));
    CK(summed_area_table(temp, bytes, img, side, reference, side * sizeof(Acc), shape, sat_layout::inclusive, false, 0,
                         sat_algorithm::three_pass));
    const float three = median_ms({31, 1, 50}, [&] {
      CK(summed_area_table(temp, bytes, img, side, table, side * sizeof(Acc), shape, sat_layout::inclusive, false, 0,
                           sat_algorithm::three_pass));
    });
    const float library = median_ms({31, 1, 50}, [&] {
      CK(summed_area_table(temp, bytes, img, side, table, side * sizeof(Acc), shape, sat_layout::inclusive, false, 0,
                           sat_algorithm::single_pass));
    });
    std::printf("  three-pass %.4f ms (%.1f%%), library single pass %.4f ms (%.1f%%)\n", three, 100 * floor_ms / three,
                library, 100 * floor_ms / library);
    CK(cudaFree(temp));
    const std::size_t sp_bytes = single_pass_status<Acc>::bytes(g.tiles());
    char* sp_temp;
    CK(cudaMalloc(&sp_temp, sp_bytes));
    const auto status = single_pass_status<Acc>::carve(sp_temp, g.tiles());
    const std::size_t zero = single_pass_status<Acc>::zeroed_bytes(g.tiles());
    const auto single = [&](auto kernel, int warps, int min_blocks, const char* name) {
      const int smem = warps * tile_rows * tile_cols;
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      const unsigned blocks = static_cast<unsigned>(single_pass_blocks_x(g, warps) * g.tiles_y);
      const auto run = [&] {
        CK(cudaMemsetAsync(sp_temp, 0, zero));
        kernel<<<blocks, warps * 32, smem>>>(img, side, g, false, true, status, table, side * sizeof(Acc), 0);
      };
      CK(cudaMemset(table, 0xff, cells * sizeof(Acc)));
      run();
      CK(cudaDeviceSynchronize());
      std::vector<Acc> got(cells), want(cells);
      CK(cudaMemcpy(got.data(), table, cells * sizeof(Acc), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(want.data(), reference, cells * sizeof(Acc), cudaMemcpyDeviceToHost));
      const bool same = got == want;
      wrong += !same;
      int per_sm = 0;
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, warps * 32, smem));
      const float ms = median_ms({31, 1, 50}, run);
      std::printf("  %-22s %d blocks/SM of %d warps: %.4f ms = %.1f%% of copy%s\n", name, per_sm, warps, ms,
                  100 * floor_ms / ms, same ? "" : "  WRONG TABLE");
    };
    single(single_pass_table_kernel<std::uint8_t, Acc, 1, 16, 4, 16>, 16, 1, "16 warps, 1/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 1, 32, 4, 16>, 16, 1, "16 warps, 1/SM, read 32");
    single(single_pass_table_kernel<std::uint8_t, Acc, 1, 16, 4, 24>, 24, 1, "24 warps, 1/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 2, 16, 4, 8>, 8, 2, "8 warps, 2/SM (now)");
    single(single_pass_table_kernel<std::uint8_t, Acc, 3, 16, 4, 8>, 8, 3, "8 warps, 3/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 4, 16, 4, 4>, 4, 4, "4 warps, 4/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 5, 16, 4, 4>, 4, 5, "4 warps, 5/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 6, 16, 4, 4>, 4, 6, "4 warps, 6/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 4, 32, 4, 4>, 4, 4, "4 warps, 4/SM, read 32");
    single(single_pass_table_kernel<std::uint8_t, Acc, 8, 16, 4, 2>, 2, 8, "2 warps, 8/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 12, 16, 4, 2>, 2, 12, "2 warps, 12/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 16, 16, 4, 1>, 1, 16, "1 warp, 16/SM");
    single(single_pass_table_kernel<std::uint8_t, Acc, 24, 16, 4, 1>, 1, 24, "1 warp, 24/SM");
    CK(cudaFree(sp_temp));
    CK(cudaFree(img));
    CK(cudaFree(table));
    CK(cudaFree(reference));
    CK(cudaFree(scratch));
  }
  return wrong ? 1 : 0;
}
