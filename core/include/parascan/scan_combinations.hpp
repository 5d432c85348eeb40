// The one list of the scans the library builds, as X-macros: each calls X(In, Out, Op) once per
// combination. It drives core's explicit instantiations (core/src/scan_*.cu, segmented_scan*.cu), the
// has_scan / has_segmented_scan tests of instantiated.hpp, the CUB references (validation/src) and
// validate's cases (apps/validate/cases.hpp), so that adding a combination is one line here.
//
//   PARASCAN_ALL_SCANS(X)               every plain scan: the same-type scans of every element type
//                                       (PARASCAN_INTEGER_OPS_OF / PARASCAN_ARITHMETIC_OPS_OF) and the
//                                       widening sums (PARASCAN_WIDENING_SUMS)
//   PARASCAN_ALL_AXIS_SCANS(X)          every scan along an axis (axis_scan.hpp)
//   PARASCAN_ALL_SEGMENTED_SCANS(X)     every segmented scan: the same-type sums (PARASCAN_SEGMENTED_SUMS,
//                                       split _NARROW / _WIDE between two files)
//                                       and the others (PARASCAN_SEGMENTED_EXTRA)
// The instantiation files split the plain scans' element types between translation units (compile
// time), each expanding the per-type lists for its types; validate runs PARASCAN_ALL_SCANS, so a type
// left out of every file is a link error, not a silent gap.
#pragma once
#include <cstdint>
#include "parascan/ops.hpp"

/// sum, product, min, max for every type; and, or, xor for integers only.
#define PARASCAN_ARITHMETIC_OPS_OF(X, T) \
  X(T, T, parascan::sum) X(T, T, parascan::product) X(T, T, parascan::min_op) X(T, T, parascan::max_op)
#define PARASCAN_INTEGER_OPS_OF(X, T) \
  PARASCAN_ARITHMETIC_OPS_OF(X, T) X(T, T, parascan::bit_and) X(T, T, parascan::bit_or) X(T, T, parascan::bit_xor)

#define PARASCAN_WIDENING_SUMS(X)                                                                          \
  X(std::uint8_t, std::uint32_t, parascan::sum) X(std::uint8_t, std::uint64_t, parascan::sum)             \
  X(std::int8_t, std::int32_t, parascan::sum) X(std::uint16_t, std::uint32_t, parascan::sum)              \
  X(std::int16_t, std::int32_t, parascan::sum) X(std::uint32_t, std::uint64_t, parascan::sum)             \
  X(std::int32_t, std::int64_t, parascan::sum) X(float, double, parascan::sum)

#define PARASCAN_SEGMENTED_SUMS_NARROW(X)                                                                  \
  X(std::int8_t, std::int8_t, parascan::sum) X(std::uint8_t, std::uint8_t, parascan::sum)                  \
  X(std::int16_t, std::int16_t, parascan::sum) X(std::uint16_t, std::uint16_t, parascan::sum)
#define PARASCAN_SEGMENTED_SUMS_WIDE(X)                                                                    \
  X(std::int32_t, std::int32_t, parascan::sum) X(std::uint32_t, std::uint32_t, parascan::sum)              \
  X(std::int64_t, std::int64_t, parascan::sum) X(std::uint64_t, std::uint64_t, parascan::sum)              \
  X(float, float, parascan::sum) X(double, double, parascan::sum)
#define PARASCAN_SEGMENTED_SUMS(X) PARASCAN_SEGMENTED_SUMS_NARROW(X) PARASCAN_SEGMENTED_SUMS_WIDE(X)
#define PARASCAN_SEGMENTED_EXTRA(X)                                                                          \
  X(std::uint8_t, std::uint32_t, parascan::sum) X(std::int32_t, std::int32_t, parascan::max_op)             \
  X(std::int32_t, std::int32_t, parascan::min_op) X(float, float, parascan::max_op)

/// Every plain scan: the same-type ones of every type and the widening sums.
#define PARASCAN_ALL_SCANS(X)                                                                              \
  PARASCAN_INTEGER_OPS_OF(X, std::int8_t) PARASCAN_INTEGER_OPS_OF(X, std::uint8_t)                         \
  PARASCAN_INTEGER_OPS_OF(X, std::int16_t) PARASCAN_INTEGER_OPS_OF(X, std::uint16_t)                       \
  PARASCAN_INTEGER_OPS_OF(X, std::int32_t) PARASCAN_INTEGER_OPS_OF(X, std::uint32_t)                       \
  PARASCAN_INTEGER_OPS_OF(X, std::int64_t) PARASCAN_INTEGER_OPS_OF(X, std::uint64_t)                       \
  PARASCAN_ARITHMETIC_OPS_OF(X, float) PARASCAN_ARITHMETIC_OPS_OF(X, double) PARASCAN_WIDENING_SUMS(X)

/// The scans along an axis (axis_scan.hpp): sum, product, min, max of the 32- and 64-bit types, the
/// same-type sums of the narrow integers and the widening sums; split between five files (_FLOAT, _INT32,
/// _INT64, _NARROW, _WIDENING) so that none holds back a parallel build.
#define PARASCAN_AXIS_SCANS_FLOAT(X) \
  PARASCAN_ARITHMETIC_OPS_OF(X, float) PARASCAN_ARITHMETIC_OPS_OF(X, double) X(float, double, parascan::sum)
#define PARASCAN_AXIS_SCANS_INT32(X) PARASCAN_ARITHMETIC_OPS_OF(X, std::int32_t) PARASCAN_ARITHMETIC_OPS_OF(X, std::uint32_t)
#define PARASCAN_AXIS_SCANS_INT64(X) PARASCAN_ARITHMETIC_OPS_OF(X, std::int64_t) PARASCAN_ARITHMETIC_OPS_OF(X, std::uint64_t)
#define PARASCAN_AXIS_SCANS_NARROW(X) PARASCAN_SEGMENTED_SUMS_NARROW(X)
#define PARASCAN_AXIS_SCANS_WIDENING(X)                                                                     \
  X(std::uint8_t, std::uint32_t, parascan::sum) X(std::uint8_t, std::uint64_t, parascan::sum)               \
  X(std::int8_t, std::int32_t, parascan::sum) X(std::uint16_t, std::uint32_t, parascan::sum)                \
  X(std::int16_t, std::int32_t, parascan::sum) X(std::uint32_t, std::uint64_t, parascan::sum)               \
  X(std::int32_t, std::int64_t, parascan::sum)
#define PARASCAN_ALL_AXIS_SCANS(X)                                                                          \
  PARASCAN_AXIS_SCANS_FLOAT(X) PARASCAN_AXIS_SCANS_INT32(X) PARASCAN_AXIS_SCANS_INT64(X)                   \
  PARASCAN_AXIS_SCANS_NARROW(X) PARASCAN_AXIS_SCANS_WIDENING(X)

/// Every segmented scan.
#define PARASCAN_ALL_SEGMENTED_SCANS(X) PARASCAN_SEGMENTED_SUMS(X) PARASCAN_SEGMENTED_EXTRA(X)
