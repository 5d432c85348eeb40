// bench's shared runner (runner.hpp).
#include "runner.hpp"
#include <cstdio>
#include "../common/timing.hpp"
#include "parascan/validation/cub_scan.hpp"

namespace parascan::app {

int runner::rotations(double bytes) const {
  const int k = static_cast<int>(4.0 * d_.l2_bytes / bytes) + 1;
  return k > 16 ? 16 : k;
}

double runner::time(const std::function<void()>& f) { return median_ms(repeat_, f); }

cub_times runner::time_cub(const std::function<void(validation::cub_count)>& run) { return time_cub_both(repeat_, run); }

double runner::copy_gbs(const void* src, void* dst, std::size_t bytes) {
  const double ms = time([&] { PARASCAN_CUDA_CHECK(validation::device_copy(dst, src, bytes)); });
  return 2.0 * bytes / (ms * 1e-3) / 1e9;
}

void runner::add(const row& r) {
  rows_.push_back(r);
  char versus[40] = "     -";
  if (r.has_cub) std::snprintf(versus, sizeof versus, "%6.2fx", r.cub_ms / r.ms);
  // CUB's own row names the faster count form and the other's time.
  char forms[64] = "";
  if (r.algorithm.rfind("CUB", 0) == 0 && r.cub_int32_ms > 0 && r.cub_int64_ms > 0)
    std::snprintf(forms, sizeof forms, "  [int %.4f, int64 %.4f ms]", r.cub_int32_ms, r.cub_int64_ms);
  std::printf("%-7s %-4s 2^%-3d %-16s %-17s %10.4f %9.2f %8.1f %6.0f%% %s %s%s\n", r.primitive.c_str(), r.type.c_str(),
              bench_log2(r.n), r.algorithm.c_str(), r.strategy.c_str(), r.ms, r.items_per_s() / 1e9, r.gbs(),
              100.0 * r.gbs() / r.copy_gbs, versus, r.ok ? "ok" : "MISMATCH", forms);
  std::fflush(stdout);
}

}  // namespace parascan::app
