// Operator names on the command line (sum, product, min, max, and, or, xor) and value parsing.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include "exit_codes.hpp"
#include "parascan/ops.hpp"

namespace parascan::app {

inline const char* op_names = "sum, product, min, max, and, or, xor";

/// Call f(op) with the functor named `name`; throws input_error for an unknown name.
template <class F>
decltype(auto) visit_op(const std::string& name, F&& f) {
  if (name == "sum") return f(parascan::sum{});
  if (name == "product") return f(parascan::product{});
  if (name == "min") return f(parascan::min_op{});
  if (name == "max") return f(parascan::max_op{});
  if (name == "and") return f(parascan::bit_and{});
  if (name == "or") return f(parascan::bit_or{});
  if (name == "xor") return f(parascan::bit_xor{});
  throw input_error("--op: unknown operator '" + name + "' (expected one of: " + op_names + ")");
}

/// Parse `text` as a T, refusing anything that does not fit exactly. `what` names the option.
template <class T>
T parse_value(const std::string& text, const std::string& what) {
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_floating_point_v<T>) {
    const double v = std::strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE) throw input_error(what + ": '" + text + "' is not a number");
    return static_cast<T>(v);
  } else if constexpr (std::is_signed_v<T>) {
    const long long v = std::strtoll(s, &end, 0);
    if (end == s || *end != '\0' || errno == ERANGE || v < std::numeric_limits<T>::min() ||
        v > std::numeric_limits<T>::max())
      throw input_error(what + ": '" + text + "' is not an integer in [" +
                        std::to_string(static_cast<long long>(std::numeric_limits<T>::min())) + ", " +
                        std::to_string(static_cast<long long>(std::numeric_limits<T>::max())) + "]");
    return static_cast<T>(v);
  } else {
    const bool negative = text.find('-') != std::string::npos;
    const unsigned long long v = std::strtoull(s, &end, 0);
    if (negative || end == s || *end != '\0' || errno == ERANGE || v > std::numeric_limits<T>::max())
      throw input_error(what + ": '" + text + "' is not an integer in [0, " +
                        std::to_string(static_cast<unsigned long long>(std::numeric_limits<T>::max())) + "]");
    return static_cast<T>(v);
  }
}

}  // namespace parascan::app
