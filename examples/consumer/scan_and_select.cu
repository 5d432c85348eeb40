// Consumer, file 1 of 2: every public header, and a scan and a compaction checked against the CPU.
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
#include "parascan/volume_fields.hpp"
#include "parascan/warp/warp_claim.cuh"
#include "parascan/warp/warp_match.cuh"
#include "parascan/warp/warp_shuffle.cuh"
#include "parascan/warp/warp_sort.cuh"
#include "parascan/warp/warp_topk.cuh"
#include <cstdio>
#include <vector>

/// Returns the number of wrong results.
int check_scan_and_select() {
  using namespace parascan;
  const std::int64_t n = 1000003;
  std::vector<std::uint32_t> h(n);
  for (std::int64_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7);
  device_buffer<std::uint32_t> in(n), out(n);
  device_buffer<std::int64_t> kept(1);
  in.copy_from_host(h.data(), n);
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(exclusive_scan(nullptr, bytes, in.data(), out.data(), n, sum{}, 0u));
  device_buffer<char> temp(bytes);
  PARASCAN_CUDA_CHECK(exclusive_scan(temp.data(), bytes, in.data(), out.data(), n, sum{}, 0u));
  std::vector<std::uint32_t> got(n);
  out.copy_to_host(got.data(), n);
  int bad = 0;
  std::uint32_t run = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    bad += got[i] != run;
    run += h[i];
  }
  const keep_rule<std::uint32_t> odd{keep_kind::odd, 0};
  bytes = 0;
  PARASCAN_CUDA_CHECK(select_if(nullptr, bytes, in.data(), out.data(), kept.data(), n, odd));
  device_buffer<char> temp2(bytes);
  PARASCAN_CUDA_CHECK(select_if(temp2.data(), bytes, in.data(), out.data(), kept.data(), n, odd));
  std::int64_t count = 0;
  kept.copy_to_host(&count, 1);
  out.copy_to_host(got.data(), count);
  std::int64_t j = 0;
  for (std::int64_t i = 0; i < n; ++i)
    if (h[i] % 2) bad += j >= count || got[j++] != h[i];
  bad += j != count;
  // The first 999999 items as 1001 rows of 999: each column summed down the rows.
  const auto columns = axis_shape::columns(1001, 999);
  bytes = 0;
  PARASCAN_CUDA_CHECK(inclusive_scan_axis(nullptr, bytes, in.data(), out.data(), columns, sum{}));
  device_buffer<char> temp3(bytes);
  PARASCAN_CUDA_CHECK(inclusive_scan_axis(temp3.data(), bytes, in.data(), out.data(), columns, sum{}));
  out.copy_to_host(got.data(), n);
  std::vector<std::uint32_t> column_run(999, 0);
  for (std::int64_t i = 0; i < columns.size(); ++i) bad += got[i] != (column_run[i % 999] += h[i]);
  std::printf("scan of %lld u32, select of the odd ones (%lld kept), column sums of 1001 x 999: %s\n",
              static_cast<long long>(n), static_cast<long long>(count), bad ? "WRONG" : "ok");
  return bad;
}
