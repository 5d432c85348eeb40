// The block-size study of `bench --primitive sweep`: the single-pass u32 exclusive sum (warp_shuffle
// block scan, the library's look-back delays) launched with tile shapes other than the library's
// (threads per block × items per thread), each checked against a reference output.
#include <algorithm>
#include <vector>
#include "parascan/device/device_scan.cuh"
#include "parascan/error.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "shape_sweep.hpp"

namespace parascan::app {
namespace {

template <int Threads, int Items>
shape_result run_shape(const std::uint32_t* d_in, std::uint32_t* d_out, const std::uint32_t* d_ref, std::int64_t n,
                       int repeat) {
  using namespace parascan::device;
  using policy = scan_policy_t<Threads, Items, 2000, 100>;
  const std::int64_t tiles = (n + policy::tile_items - 1) / policy::tile_items;
  void* temp = nullptr;
  PARASCAN_CUDA_CHECK(cudaMalloc(&temp, look_back_storage<std::uint32_t>::bytes(tiles)));
  const auto storage = look_back_storage<std::uint32_t>::carve(temp, tiles);
  const auto launch = [&] {
    PARASCAN_CUDA_CHECK(storage.init(tiles, 0, false));
    scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back, std::uint32_t>
        <<<static_cast<unsigned>(tiles), Threads>>>(pointer_loader<std::uint32_t, std::uint32_t>{d_in},
                                                    pointer_storer<std::uint32_t>{d_out}, n, sum{},
                                                    scan_mode<std::uint32_t>{true, true, 0u}, nullptr, nullptr,
                                                    storage.status, storage.counter);
    PARASCAN_CUDA_CHECK(cudaGetLastError());
  };
  cudaEvent_t a, b;
  PARASCAN_CUDA_CHECK(cudaEventCreate(&a));
  PARASCAN_CUDA_CHECK(cudaEventCreate(&b));
  launch();
  std::vector<float> t;
  for (int r = 0; r < repeat; ++r) {
    PARASCAN_CUDA_CHECK(cudaEventRecord(a));
    launch();
    PARASCAN_CUDA_CHECK(cudaEventRecord(b));
    PARASCAN_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    PARASCAN_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  PARASCAN_CUDA_CHECK(cudaMemset(d_out, 0x5a, static_cast<std::size_t>(n) * 4));
  launch();
  std::int64_t diff = 0;
  PARASCAN_CUDA_CHECK(validation::count_word_differences(d_out, d_ref, static_cast<std::size_t>(n), diff));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaFree(temp);
  return {Threads, Items, t[t.size() / 2], diff == 0};
}

}  // namespace

std::vector<shape_result> scan_shape_sweep(const std::uint32_t* d_in, std::uint32_t* d_out, const std::uint32_t* d_ref,
                                           std::int64_t n, int repeat) {
  std::vector<shape_result> r;
  r.push_back(run_shape<128, 8>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<128, 16>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<128, 32>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<256, 4>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<256, 8>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<256, 16>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<256, 24>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<256, 32>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<512, 4>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<512, 8>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<512, 16>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<1024, 4>(d_in, d_out, d_ref, n, repeat));
  r.push_back(run_shape<1024, 8>(d_in, d_out, d_ref, n, repeat));
  return r;
}

}  // namespace parascan::app
