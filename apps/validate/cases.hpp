// The validation matrix's cases: every (input, output, operator) the library builds, plain and segmented.
#pragma once
#include <cstdint>
#include "../common/dtype.hpp"
#include "parascan/ops.hpp"
#include "parascan/scan_combinations.hpp"

namespace parascan::app {

/// Call f(type_tag<In>, type_tag<Out>, Op, segmented) for every built case: the lists of
/// parascan/scan_combinations.hpp, the same ones core instantiates.
template <class F>
void for_each_scan_case(F&& f) {
#define PARASCAN_CASE(In, Out, Op) f(type_tag<In>{}, type_tag<Out>{}, Op{}, false);
#define PARASCAN_SEGMENTED_CASE(In, Out, Op) f(type_tag<In>{}, type_tag<Out>{}, Op{}, true);
  PARASCAN_ALL_SCANS(PARASCAN_CASE)
  PARASCAN_ALL_SEGMENTED_SCANS(PARASCAN_SEGMENTED_CASE)
#undef PARASCAN_CASE
#undef PARASCAN_SEGMENTED_CASE
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
