// Consumer, file 2 of 2: every public header again, a radix sort and a summed-area table, and main.
#include "parascan/axis_scan.hpp"
#include "parascan/block/block_append.cuh"
#include "parascan/block/block_bitonic_sort.cuh"
#include "parascan/block/block_exchange.cuh"
#include "parascan/block/block_exclusive_sum.cuh"
#include "parascan/block/block_radix_select.cuh"
#include "parascan/block/block_radix_sort.cuh"
#include "parascan/block/block_scan.cuh"
#include "parascan/block/block_short_rows.cuh"
#include "parascan/block/smem_padding.cuh"
#include "parascan/buffer.hpp"
#include "parascan/config.hpp"
#include "parascan/device/device_attribute.cuh"
#include "parascan/device/device_axis_scan.cuh"
#include "parascan/device/device_marching_cubes.cuh"
#include "parascan/device/device_onesweep.cuh"
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_sat.cuh"
#include "parascan/device/device_scan.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/device/device_select.cuh"
#include "parascan/device/device_topk.cuh"
#include "parascan/device/launch.cuh"
#include "parascan/device/line_scan.cuh"
#include "parascan/device/look_back.cuh"
#include "parascan/device/onesweep/histogram.cuh"
#include "parascan/device/onesweep/pass.cuh"
#include "parascan/device/onesweep/pass_io.cuh"
#include "parascan/device/onesweep/rows.cuh"
#include "parascan/device/radix_digits.cuh"
#include "parascan/device/row_tile_scan.cuh"
#include "parascan/device/sat/readers.cuh"
#include "parascan/device/sat/single_pass.cuh"
#include "parascan/device/sat/three_pass.cuh"
#include "parascan/device/sat/tile.cuh"
#include "parascan/device/sat/tuning.cuh"
#include "parascan/device/scan_kernels.cuh"
#include "parascan/device/scan_policy.cuh"
#include "parascan/device/segmented_scan.cuh"
#include "parascan/device/segmented_sort/merge.cuh"
#include "parascan/device/segmented_sort/segments.cuh"
#include "parascan/device/segmented_sort/small.cuh"
#include "parascan/device/segmented_sort/thread_rows.cuh"
#include "parascan/device/select_tiles.cuh"
#include "parascan/device/tile_status.cuh"
#include "parascan/device/topk/filter.cuh"
#include "parascan/device/topk/sampled.cuh"
#include "parascan/device/topk/thread_rows.cuh"
#include "parascan/device/widen.cuh"
#include "parascan/device_info.hpp"
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"
#include "parascan/instantiated.hpp"
#include "parascan/marching_cubes.hpp"
#include "parascan/mc_tables.hpp"
#include "parascan/ops.hpp"
#include "parascan/options.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/sat.hpp"
#include "parascan/scan.hpp"
#include "parascan/scan_algorithms.hpp"
#include "parascan/scan_combinations.hpp"
#include "parascan/segmented_sort.hpp"
#include "parascan/select.hpp"
#include "parascan/sort_pipeline.hpp"
#include "parascan/thread/thread_scan.cuh"
#include "parascan/thread/thread_sort.cuh"
#include "parascan/topk.hpp"
#include "parascan/version.hpp"  // generated at build time, installed with the headers
#include "parascan/volume_fields.hpp"
#include "parascan/warp/warp_claim.cuh"
#include "parascan/warp/warp_match.cuh"
#include "parascan/warp/warp_shuffle.cuh"
#include "parascan/warp/warp_sort.cuh"
#include "parascan/warp/warp_topk.cuh"
#include <algorithm>
#include <cstdio>
#include <vector>

int check_scan_and_select();

namespace {
int check_sort_and_sat() {
  using namespace parascan;
  const std::int64_t n = 777777;
  std::vector<float> keys(n);
  for (std::int64_t i = 0; i < n; ++i) keys[i] = static_cast<float>(((i * 40503u) % 100003u)) - 50000.5f;
  device_buffer<float> in(n), out(n);
  in.copy_from_host(keys.data(), n);
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(radix_sort_keys(nullptr, bytes, in.data(), out.data(), n));
  device_buffer<char> temp(bytes);
  PARASCAN_CUDA_CHECK(radix_sort_keys(temp.data(), bytes, in.data(), out.data(), n));
  std::vector<float> got(n), want = keys;
  out.copy_to_host(got.data(), n);
  std::sort(want.begin(), want.end());
  int bad = got != want;
  // The same keys as 777 rows of 1001, each sorted on its own.
  PARASCAN_CUDA_CHECK(segmented_sort_keys(nullptr, bytes, in.data(), out.data(), n, segment_layout::rows(777, 1001)));
  device_buffer<char> row_temp(bytes);
  PARASCAN_CUDA_CHECK(segmented_sort_keys(row_temp.data(), bytes, in.data(), out.data(), n, segment_layout::rows(777, 1001)));
  out.copy_to_host(got.data(), n);
  want = keys;
  for (std::int64_t r = 0; r < 777; ++r) std::sort(want.begin() + r * 1001, want.begin() + (r + 1) * 1001);
  bad += got != want;
  // The 10 largest of each row: the last 10 of each sorted row, largest first.
  device_buffer<float> top(777 * 10);
  device_buffer<std::int64_t> top_at(777 * 10);
  bytes = 0;
  PARASCAN_CUDA_CHECK(topk(nullptr, bytes, in.data(), 777, 1001, 10, top.data(), top_at.data()));
  device_buffer<char> top_temp(bytes);
  PARASCAN_CUDA_CHECK(topk(top_temp.data(), bytes, in.data(), 777, 1001, 10, top.data(), top_at.data()));
  std::vector<float> got_top(777 * 10);
  top.copy_to_host(got_top.data(), got_top.size());
  for (std::int64_t r = 0; r < 777; ++r)
    for (std::int64_t j = 0; j < 10; ++j) bad += got_top[r * 10 + j] != want[r * 1001 + 1000 - j];

  const image_shape shape{640, 480};
  std::vector<std::uint8_t> img(shape.width * shape.height);
  for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<std::uint8_t>(i * 7 + i / 640);
  device_buffer<std::uint8_t> d_img(img.size());
  device_buffer<std::uint32_t> table(img.size());
  d_img.copy_from_host(img.data(), img.size());
  bytes = 0;
  PARASCAN_CUDA_CHECK(summed_area_table(nullptr, bytes, d_img.data(), shape.width, table.data(), shape.width * 4, shape,
                                        sat_layout::inclusive));
  device_buffer<char> temp2(bytes);
  PARASCAN_CUDA_CHECK(summed_area_table(temp2.data(), bytes, d_img.data(), shape.width, table.data(), shape.width * 4,
                                        shape, sat_layout::inclusive));
  std::vector<std::uint32_t> t(img.size());
  table.copy_to_host(t.data(), t.size());
  std::uint64_t total = 0;
  for (auto p : img) total += p;
  bad += t.back() != total;
  std::printf("sort of %lld f32 keys (whole, in rows, top 10 of each row) and a %lldx%lld summed-area table (total %llu): %s\n", static_cast<long long>(n),
              static_cast<long long>(shape.width), static_cast<long long>(shape.height),
              static_cast<unsigned long long>(t.back()), bad ? "WRONG" : "ok");
  return bad;
}
}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "parascan_consumer: no CUDA device\n");
    return 4;
  }
  std::printf("parascan %s\n", PARASCAN_VERSION_STRING);
  try {
    const int bad = check_scan_and_select() + check_sort_and_sat();
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parascan_consumer: %s\n", e.what());
    return 3;
  }
}
