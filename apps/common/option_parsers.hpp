// Parsers of option values with structure (the --keep rule of compact, the --rect of sat): header
// only, so that the tools and the fuzz targets (fuzz/) share them. Each throws input_error naming
// the option and the problem.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "dtype.hpp"
#include "exit_codes.hpp"
#include "ops_cli.hpp"
#include "parascan/sat.hpp"
#include "parascan/select.hpp"

namespace parascan::app {

/// "nonzero", "gt:3.5", "odd", ... → keep_rule<T>; throws input_error naming --keep.
template <class T>
keep_rule<T> parse_keep(const std::string& text) {
  // The rule's name from core's table (parse_keep_kind); gt, ge, lt, le, eq, ne take a value after ':'.
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const auto kind = parse_keep_kind(name);
  const bool valued = kind && *kind >= keep_kind::gt && *kind <= keep_kind::ne;
  if (!kind || valued != (colon != std::string::npos))
    throw input_error("--keep: unknown rule '" + text + "' (nonzero, gt:X, ge:X, lt:X, le:X, eq:X, ne:X, odd, even, finite)");
  keep_rule<T> r;
  r.kind = *kind;
  if (valued) r.value = parse_value<T>(text.substr(colon + 1), "--keep " + name);
  if (std::is_floating_point_v<T> && (r.kind == keep_kind::odd || r.kind == keep_kind::even))
    throw input_error("--keep " + text + ": odd/even need an integer type, not " + std::string(to_string(dtype_of<T>())));
  return r;
}

/// "x0,y0,x1,y1" (corners inclusive) inside a width × height image.
inline sat_rect parse_rect(const std::string& text, std::int64_t width, std::int64_t height) {
  std::vector<std::int64_t> v;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    std::size_t used = 0;
    long long x = 0;
    try {
      x = std::stoll(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part.size()) throw input_error("--rect " + text + ": '" + part + "' is not an integer");
    v.push_back(x);
  }
  if (v.size() != 4) throw input_error("--rect " + text + ": expected x0,y0,x1,y1 (four integers, corners inclusive)");
  const sat_rect r{v[0], v[1], v[2], v[3]};
  if (r.x0 < 0 || r.y0 < 0 || r.x0 > r.x1 || r.y0 > r.y1 || r.x1 >= width || r.y1 >= height)
    throw input_error("--rect " + text + ": needs 0 ≤ x0 ≤ x1 < " + std::to_string(width) + " and 0 ≤ y0 ≤ y1 < " +
                      std::to_string(height));
  return r;
}

}  // namespace parascan::app
