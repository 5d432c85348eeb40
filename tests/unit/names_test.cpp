// Every enumeration's name table (core/src/names.cpp): each value prints one snake_case name that
// parses back to it, hyphens read as underscores, and unknown names are refused.
#include <gtest/gtest.h>
#include <string>
#include "parascan/options.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/sat.hpp"
#include "parascan/select.hpp"
#include "parascan/volume_fields.hpp"

namespace {
using namespace parascan;

template <class E, class Parse>
void round_trips(std::initializer_list<E> values, Parse parse) {
  for (E v : values) {
    const std::string name(to_string(v));
    EXPECT_NE(name, "?");
    EXPECT_EQ(name.find('-'), std::string::npos) << name << ": snake_case";
    EXPECT_EQ(parse(name), v) << name;
    std::string hyphens = name;
    for (char& c : hyphens) c = c == '_' ? '-' : c;
    EXPECT_EQ(parse(hyphens), v) << hyphens;
  }
  EXPECT_FALSE(parse("no_such_name").has_value());
  EXPECT_FALSE(parse("").has_value());
}

TEST(names, every_enumeration_round_trips) {
  round_trips({block_algorithm::hillis_steele, block_algorithm::blelloch_padded, block_algorithm::brent_kung,
               block_algorithm::warp_shuffle}, parse_block_algorithm);
  round_trips({device_strategy::recursive, device_strategy::reduce_then_scan, device_strategy::single_pass},
              parse_device_strategy);
  round_trips({sort_algorithm::split1, sort_algorithm::split4, sort_algorithm::split8, sort_algorithm::onesweep},
              parse_sort_algorithm);
  round_trips({sat_algorithm::automatic, sat_algorithm::single_pass, sat_algorithm::three_pass}, parse_sat_algorithm);
  round_trips({sat_layout::inclusive, sat_layout::padded}, parse_sat_layout);
  round_trips({volume_field::sphere, volume_field::torus, volume_field::metaballs, volume_field::gyroid},
              parse_volume_field);
  round_trips({keep_kind::nonzero, keep_kind::gt, keep_kind::ge, keep_kind::lt, keep_kind::le, keep_kind::eq,
               keep_kind::ne, keep_kind::odd, keep_kind::even, keep_kind::finite}, parse_keep_kind);
  EXPECT_EQ(to_string(device_strategy::single_pass), "single_pass");
  EXPECT_EQ(parse_sat_algorithm("three-pass"), sat_algorithm::three_pass);
  EXPECT_FALSE(parse_device_strategy("single__pass").has_value());
}

}  // namespace
