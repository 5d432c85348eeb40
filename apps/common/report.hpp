// The one way the tools time their operation beside CUB's and report both: each the median of --repeat
// runs after a warm-up (timing.hpp), then one line
//   time: 0.8495 ms (median of 5)  316.000 G items/s  2528.0 GB/s  | CUB 0.8740 ms  ratio to CUB 1.03x
// CUB is timed with both forms of its count (timing.hpp's time_cub_both) and the faster is the ratio's
// denominator; the line names that form and the other's time:
//   ... | CUB 0.8740 ms (int64 count; int 0.9120 ms)  ratio to CUB 1.03x
// and the same numbers as JSON fields (time_ms, <unit>_per_s, gb_per_s, cub_time_ms, cub_int_time_ms,
// cub_int64_time_ms, cub_version, ratio_to_cub, repeat).
// Where CUB has no same operation, the line says so and the JSON has no CUB fields.
#pragma once
#include <cstdio>
#include <string>
#include "json.hpp"
#include "timing.hpp"

namespace parascan::app {

struct timed_beside_cub {
  double ours_ms = 0, cub_ms = 0;  ///< cub_ms: the faster of cub_forms
  cub_times cub_forms;
  int repeat = 0;
  std::string cub_what;     ///< how CUB ran it ("CUB", "CUB SortPairs", "CUB-based table")
  std::string no_cub_why;   ///< non-empty: CUB has no same operation, and why
  bool has_cub() const { return no_cub_why.empty(); }
  double ratio() const { return ours_ms > 0 && cub_ms > 0 ? cub_ms / ours_ms : 0; }
};

/// Times ours(), then cub(count) with each count form unless `no_cub_why` says CUB has no same operation.
template <class Ours, class Cub>
timed_beside_cub time_beside_cub(int repeat, Ours&& ours, Cub&& cub, std::string cub_what, std::string no_cub_why = {}) {
  timed_beside_cub t;
  t.repeat = repeat;
  t.cub_what = std::move(cub_what);
  t.no_cub_why = std::move(no_cub_why);
  t.ours_ms = median_ms(repeat, ours);
  if (t.has_cub()) {
    t.cub_forms = time_cub_both(repeat, cub);
    t.cub_ms = t.cub_forms.best_ms();
  }
  return t;
}

/// The time line: `items` of `unit` ("items", "keys", "pixels") and `bytes` of minimal traffic, with
/// `traffic` naming it (" of one read + one write"; may be empty).
inline std::string time_line(const timed_beside_cub& t, double items, const std::string& unit, double bytes,
                             const std::string& traffic = "") {
  const double s = t.ours_ms * 1e-3;
  char head[256], tail[256];
  std::snprintf(head, sizeof head, "time: %.4f ms (median of %d)  %.3f G %s/s  %.1f GB/s%s", t.ours_ms, t.repeat,
                s > 0 ? items / s / 1e9 : 0.0, unit.c_str(), s > 0 ? bytes / s / 1e9 : 0.0, traffic.c_str());
  if (t.has_cub()) {
    const bool int_best = t.cub_forms.best() == validation::cub_count::int32;
    std::snprintf(tail, sizeof tail, "  | %s %.4f ms (%s count; %s %.4f ms)  ratio to CUB %.2fx", t.cub_what.c_str(),
                  t.cub_ms, int_best ? "int" : "int64", int_best ? "int64" : "int",
                  int_best ? t.cub_forms.int64_ms : t.cub_forms.int32_ms, t.ratio());
  }
  else
    std::snprintf(tail, sizeof tail, "  | CUB: no same operation (%s)", t.no_cub_why.c_str());
  return std::string(head) + tail;
}

/// The same numbers as JSON fields.
inline void add_times(json_object& j, const timed_beside_cub& t, double items, const std::string& unit, double bytes) {
  const double s = t.ours_ms * 1e-3;
  j.add("time_ms", t.ours_ms).add(unit + "_per_s", s > 0 ? items / s : 0.0).add("gb_per_s", s > 0 ? bytes / s / 1e9 : 0.0);
  if (t.has_cub())
    j.add("cub_time_ms", t.cub_ms).add("cub_int_time_ms", t.cub_forms.int32_ms).add("cub_int64_time_ms", t.cub_forms.int64_ms)
        .add("cub_version", validation::cub_version()).add("cub_mode", t.cub_what).add("ratio_to_cub", t.ratio());
  j.add("repeat", t.repeat);
}

}  // namespace parascan::app
