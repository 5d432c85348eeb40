// The validation matrix's cases: every (input, output, operator) the library builds, plain and segmented.
#pragma once
#include <cstdint>
#include "../common/dtype.hpp"
#include "parascan/ops.hpp"

namespace parascan::app {

/// Call f(type_tag<In>, type_tag<Out>, Op, segmented) for every built case.
template <class F>
void for_each_scan_case(F&& f) {
  auto integer_ops = [&](auto tag) {
    f(tag, tag, parascan::sum{}, false);
    f(tag, tag, parascan::product{}, false);
    f(tag, tag, parascan::min_op{}, false);
    f(tag, tag, parascan::max_op{}, false);
    f(tag, tag, parascan::bit_and{}, false);
    f(tag, tag, parascan::bit_or{}, false);
    f(tag, tag, parascan::bit_xor{}, false);
  };
  auto float_ops = [&](auto tag) {
    f(tag, tag, parascan::sum{}, false);
    f(tag, tag, parascan::product{}, false);
    f(tag, tag, parascan::min_op{}, false);
    f(tag, tag, parascan::max_op{}, false);
  };
  integer_ops(type_tag<std::int8_t>{});
  integer_ops(type_tag<std::uint8_t>{});
  integer_ops(type_tag<std::int16_t>{});
  integer_ops(type_tag<std::uint16_t>{});
  integer_ops(type_tag<std::int32_t>{});
  integer_ops(type_tag<std::uint32_t>{});
  integer_ops(type_tag<std::int64_t>{});
  integer_ops(type_tag<std::uint64_t>{});
  float_ops(type_tag<float>{});
  float_ops(type_tag<double>{});
  f(type_tag<std::uint8_t>{}, type_tag<std::uint32_t>{}, parascan::sum{}, false);
  f(type_tag<std::uint8_t>{}, type_tag<std::uint64_t>{}, parascan::sum{}, false);
  f(type_tag<std::int8_t>{}, type_tag<std::int32_t>{}, parascan::sum{}, false);
  f(type_tag<std::uint16_t>{}, type_tag<std::uint32_t>{}, parascan::sum{}, false);
  f(type_tag<std::int16_t>{}, type_tag<std::int32_t>{}, parascan::sum{}, false);
  f(type_tag<std::uint32_t>{}, type_tag<std::uint64_t>{}, parascan::sum{}, false);
  f(type_tag<std::int32_t>{}, type_tag<std::int64_t>{}, parascan::sum{}, false);
  f(type_tag<float>{}, type_tag<double>{}, parascan::sum{}, false);
  // Segmented scans.
  f(type_tag<std::int8_t>{}, type_tag<std::int8_t>{}, parascan::sum{}, true);
  f(type_tag<std::uint16_t>{}, type_tag<std::uint16_t>{}, parascan::sum{}, true);
  f(type_tag<std::int32_t>{}, type_tag<std::int32_t>{}, parascan::sum{}, true);
  f(type_tag<std::uint32_t>{}, type_tag<std::uint32_t>{}, parascan::sum{}, true);
  f(type_tag<std::int64_t>{}, type_tag<std::int64_t>{}, parascan::sum{}, true);
  f(type_tag<std::uint64_t>{}, type_tag<std::uint64_t>{}, parascan::sum{}, true);
  f(type_tag<float>{}, type_tag<float>{}, parascan::sum{}, true);
  f(type_tag<double>{}, type_tag<double>{}, parascan::sum{}, true);
  f(type_tag<std::uint8_t>{}, type_tag<std::uint32_t>{}, parascan::sum{}, true);
  f(type_tag<std::int32_t>{}, type_tag<std::int32_t>{}, parascan::max_op{}, true);
  f(type_tag<std::int32_t>{}, type_tag<std::int32_t>{}, parascan::min_op{}, true);
  f(type_tag<float>{}, type_tag<float>{}, parascan::max_op{}, true);
}

/// Call f(type_tag<T>) for every element type.
template <class F>
void visit_all_types(F&& f) {
  f(type_tag<std::int8_t>{});
  f(type_tag<std::uint8_t>{});
  f(type_tag<std::int16_t>{});
  f(type_tag<std::uint16_t>{});
  f(type_tag<std::int32_t>{});
  f(type_tag<std::uint32_t>{});
  f(type_tag<std::int64_t>{});
  f(type_tag<std::uint64_t>{});
  f(type_tag<float>{});
  f(type_tag<double>{});
}

template <class Op> constexpr const char* op_name() {
  if constexpr (std::is_same_v<Op, parascan::sum>) return "sum";
  else if constexpr (std::is_same_v<Op, parascan::product>) return "product";
  else if constexpr (std::is_same_v<Op, parascan::min_op>) return "min";
  else if constexpr (std::is_same_v<Op, parascan::max_op>) return "max";
  else if constexpr (std::is_same_v<Op, parascan::bit_and>) return "and";
  else if constexpr (std::is_same_v<Op, parascan::bit_or>) return "or";
  else return "xor";
}

}  // namespace parascan::app
