// The scan tests' non-commutative operator: affine maps x -> a·x + b (mod 2^32) composed in order,
// (f then g)(x) = g.a·(f.a·x + f.b) + g.b. Shared by gpu_scan_test.cu, gpu_axis_scan_test.cu and
// gpu_scan_affine.cu, which instantiates their scans for it.
#pragma once
#include <cstdint>

namespace parascan::test {

struct affine {
  std::uint32_t a, b;
};
struct compose {
  __host__ __device__ affine operator()(const affine& f, const affine& g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

}  // namespace parascan::test
