// Marching cubes timed as a user pays it (the mesh's device allocation included): one warm-up, then
// `repeat` calls, the median of the totals and of each stage. The marching_cubes tool and
// `bench --primitive mc` share it.
#pragma once
#include <algorithm>
#include <vector>
#include "parascan/marching_cubes.hpp"

namespace parascan::app {

struct mc_timed {
  mc_mesh mesh;          ///< the last run's mesh
  float total_ms = 0;    ///< median of the whole call
  mc_stage_ms stage;     ///< median of each stage
};

inline float median_of(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0f : v[v.size() / 2];
}

template <class T>
mc_timed time_marching_cubes(const T* d_volume, volume_shape shape, float iso, const mc_options& o, int repeat) {
  std::vector<float> total, classify, compact, offsets, allocate, emit, weld;
  mc_timed out;
  for (int r = -1; r < repeat; ++r) {
    mc_stage_ms t;
    out.mesh = marching_cubes(d_volume, shape, iso, o, 0, &t);
    if (r < 0) continue;  // warm-up
    total.push_back(t.total());
    classify.push_back(t.classify), compact.push_back(t.compact), offsets.push_back(t.offsets);
    allocate.push_back(t.allocate), emit.push_back(t.emit), weld.push_back(t.weld);
  }
  out.total_ms = median_of(total);
  out.stage = {median_of(classify), median_of(compact), median_of(offsets), median_of(allocate), median_of(emit),
               median_of(weld)};
  return out;
}

}  // namespace parascan::app
