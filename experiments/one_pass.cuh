// For the experiments that time one Onesweep pass alone (onesweep_oracle, onesweep_cluster):
//   one_pass_plan()                   the plan of a sort whose only pass is pass 0 (it runs, and writes
//                                     the output), in device memory the caller frees
//   one_pass_scale(in, scratch, cub_out, n)
//                                     what a pass over n u32 keys is read against: cudaMemcpy of its
//                                     bytes, and CUB's SortKeys at its faster count form over 4
//   scale_rows(scale)                 the results table's first two rows (pass_row: name, ms, check)
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>
#include "parascan/device/onesweep/histogram.cuh"
#include "cub_sort_timing.cuh"

inline parascan::device::onesweep::pass_plan* one_pass_plan() {
  using parascan::device::onesweep::max_passes;
  using parascan::device::onesweep::pass_plan;
  pass_plan h{};
  h.performed = 1;
  h.order[0] = 0;
  for (int q = 1; q < max_passes; ++q) h.order[q] = -1;
  pass_plan* d = nullptr;
  CK(cudaMalloc(&d, sizeof(pass_plan)));
  CK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
  return d;
}

struct pass_scale {
  float copy_ms, cub_pass_ms;
};

inline pass_scale one_pass_scale(const std::uint32_t* in, std::uint32_t* scratch, std::uint32_t* cub_out, std::int64_t n) {
  const float copy = median_ms({20, 2, 0}, [&] { CK(cudaMemcpyAsync(scratch, in, n * 4, cudaMemcpyDeviceToDevice)); });
  const auto both = cub_sort_keys_both_ms(in, cub_out, n, {20, 2, 0});
  return {copy, std::min(both.first, both.second) / 4};
}

struct pass_row {
  std::string name;
  float ms;
  bool ok;
};

inline std::vector<pass_row> scale_rows(const pass_scale& s) {
  return {{"cudaMemcpy D2D (one pass's bytes)", s.copy_ms, true}, {"CUB SortKeys (faster count form) / 4", s.cub_pass_ms, true}};
}
