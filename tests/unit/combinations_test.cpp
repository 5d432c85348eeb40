// The one list of built scans (scan_combinations.hpp) and what instantiated.hpp answers from it.
#include <gtest/gtest.h>
#include <cstdint>
#include "parascan/instantiated.hpp"
#include "parascan/scan_combinations.hpp"

namespace {
using namespace parascan;

static_assert(has_scan<std::uint32_t, std::uint32_t, bit_xor>);
static_assert(has_scan<double, double, product>);
static_assert(!has_scan<float, float, bit_and>, "no bitwise scans of floats");
static_assert(has_scan<std::uint8_t, std::uint64_t, sum>);
static_assert(!has_scan<std::uint8_t, std::uint64_t, max_op>, "widening is for sums only");
static_assert(!has_scan<std::uint64_t, std::uint32_t, sum>, "no narrowing");
static_assert(has_segmented_scan<std::int16_t, std::int16_t, sum>);
static_assert(has_segmented_scan<float, float, max_op>);
static_assert(!has_segmented_scan<double, double, max_op>);
static_assert(!has_segmented_scan<std::uint8_t, std::uint64_t, sum>);

TEST(combinations, every_list_entry_is_built_and_counted_once) {
  int scans = 0, segmented = 0, wrong = 0;
#define PARASCAN_COUNT_SCAN(In, Out, Op) ++scans, wrong += !has_scan<In, Out, Op>;
#define PARASCAN_COUNT_SEGMENTED(In, Out, Op) ++segmented, wrong += !has_segmented_scan<In, Out, Op>;
  PARASCAN_ALL_SCANS(PARASCAN_COUNT_SCAN)
  PARASCAN_ALL_SEGMENTED_SCANS(PARASCAN_COUNT_SEGMENTED)
#undef PARASCAN_COUNT_SCAN
#undef PARASCAN_COUNT_SEGMENTED
  EXPECT_EQ(scans, 8 * 7 + 2 * 4 + 8);  // integer types × 7 operators, floats × 4, 8 widening sums
  EXPECT_EQ(segmented, 10 + 4);
  EXPECT_EQ(wrong, 0);
}

}  // namespace
