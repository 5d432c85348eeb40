// Experiment: the library's select_if (u32 and u64, 10%, 50% and 90% kept, 2^20 / 2^22 / 2^24 / 2^28) beside
// cub::DeviceSelect::If in the same process (int64 count), outputs and counts compared. An A/B harness
// like ab_scan.cu: built against an older tree's headers it times that tree's select, so that two
// builds run one after the other on one machine compare tile policies (performance.md entry 44).
//   ab_select [label] [log2 n ...]     exit 1 on a mismatch; REPS=1 times once (under a sanitizer);
//                                      ONE_LAUNCH=0 takes the look-back where one launch would fit;
//                                      HOLD_US=0 times back-to-back calls with their launches (default 50:
//                                      the stream held first, device time only)
#include <cub/device/device_select.cuh>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <vector>
#include "experiment_timing.cuh"
#include "parascan/device/device_select.cuh"

namespace {

template <class T>
struct below {
  T threshold;
  __host__ __device__ bool operator()(T x) const { return x < threshold; }
};

template <class T>
bool run(const char* label, const char* type, int lg, double keep) {
  const std::int64_t n = std::int64_t(1) << lg;
  const below<T> rule{static_cast<T>(keep * 2.0 * static_cast<double>(T(1) << (8 * sizeof(T) - 1)))};
  T *in, *out, *ref;
  std::int64_t *count, *ref_count;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMalloc(&out, n * sizeof(T)));
  CK(cudaMalloc(&ref, n * sizeof(T)));
  CK(cudaMalloc(&count, 8));
  CK(cudaMalloc(&ref_count, 8));
  fill_hashed<<<1024, 256>>>(in, n);
  std::size_t tb = 0, cb = 0;
  parascan::scan_options options;
  options.one_launch = !(std::getenv("ONE_LAUNCH") && std::atoi(std::getenv("ONE_LAUNCH")) == 0);
  CK(parascan::select_if(nullptr, tb, in, out, count, n, rule, 0, options));
  CK(cub::DeviceSelect::If(nullptr, cb, in, ref, ref_count, n, rule));
  void *t, *ct;
  CK(cudaMalloc(&t, tb));
  CK(cudaMalloc(&ct, cb));
  timing_options o;
  o.reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 30;  // REPS=1 under a sanitizer
  o.hold_us = std::getenv("HOLD_US") ? std::atoi(std::getenv("HOLD_US")) : 50;  // 0: launch costs timed too
  float ours = 0, cub = 0;
  for (int r = 0; r < 2; ++r) {
    ours = median_ms(o, [&] { CK(parascan::select_if(t, tb, in, out, count, n, rule, 0, options)); });
    cub = median_ms(o, [&] { CK(cub::DeviceSelect::If(ct, cb, in, ref, ref_count, n, rule)); });
  }
  CK(cudaMemset(out, 0xab, n * sizeof(T)));
  CK(parascan::select_if(t, tb, in, out, count, n, rule, 0, options));
  CK(cudaDeviceSynchronize());
  std::int64_t c = -1, rc = -2;
  CK(cudaMemcpy(&c, count, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&rc, ref_count, 8, cudaMemcpyDeviceToHost));
  bool ok = c == rc;
  if (ok) {
    std::vector<T> a(c), b(c);
    CK(cudaMemcpy(a.data(), out, c * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), ref, c * sizeof(T), cudaMemcpyDeviceToHost));
    ok = a == b;
  }
  std::printf("%s select %s 2^%d keep %2.0f%% ours %.4f ms CUB %.4f ms ratio %.3f %s\n", label, type, lg, 100 * keep, ours, cub,
              cub / ours, ok ? "ok" : "MISMATCH");
  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(ref)); CK(cudaFree(count)); CK(cudaFree(ref_count));
  CK(cudaFree(t)); CK(cudaFree(ct));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const char* label = argc > 1 ? argv[1] : "this tree";
  const std::vector<int> sizes = log_sizes(argc, argv, 2, {20, 22, 24, 28});  // after the label
  int wrong = 0;
  for (int lg : sizes)
    for (double keep : {0.1, 0.5, 0.9}) {
      wrong += !run<std::uint32_t>(label, "u32", lg, keep);
      wrong += !run<std::uint64_t>(label, "u64", lg, keep);
    }
  return wrong ? 1 : 0;
}
