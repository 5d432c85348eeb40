// The names of every enumeration of the public API, one table each: printed by to_string in one
// spelling (snake_case, as the enumerators and the Python keywords are), read by parse_* in that
// spelling or with hyphens for underscores ("single-pass" is single_pass), so that every tool and
// the Python module share one table and one convention.
#include <array>
#include <optional>
#include <string_view>
#include <utility>
#include "parascan/options.hpp"
#include "parascan/radix_sort.hpp"
#include "parascan/sat.hpp"
#include "parascan/select.hpp"
#include "parascan/volume_fields.hpp"

namespace parascan {
namespace {

template <class E, std::size_t N>
using name_table = std::array<std::pair<E, std::string_view>, N>;

/// `given` names `canonical` when they agree letter for letter, '-' standing for '_'.
bool same_name(std::string_view given, std::string_view canonical) {
  if (given.size() != canonical.size()) return false;
  for (std::size_t i = 0; i < given.size(); ++i)
    if (given[i] != canonical[i] && !(given[i] == '-' && canonical[i] == '_')) return false;
  return true;
}

template <class E, std::size_t N>
std::string_view name_in(const name_table<E, N>& table, E e) {
  for (const auto& [value, name] : table)
    if (value == e) return name;
  return "?";
}

template <class E, std::size_t N>
std::optional<E> parse_in(const name_table<E, N>& table, std::string_view given) {
  for (const auto& [value, name] : table)
    if (same_name(given, name)) return value;
  return std::nullopt;
}

constexpr name_table<block_algorithm, 4> block_algorithms{{{block_algorithm::hillis_steele, "hillis_steele"},
                                                           {block_algorithm::blelloch_padded, "blelloch_padded"},
                                                           {block_algorithm::brent_kung, "brent_kung"},
                                                           {block_algorithm::warp_shuffle, "warp_shuffle"}}};
constexpr name_table<device_strategy, 3> device_strategies{{{device_strategy::recursive, "recursive"},
                                                            {device_strategy::reduce_then_scan, "reduce_then_scan"},
                                                            {device_strategy::single_pass, "single_pass"}}};
constexpr name_table<sort_algorithm, 4> sort_algorithms{{{sort_algorithm::split1, "split1"},
                                                         {sort_algorithm::split4, "split4"},
                                                         {sort_algorithm::split8, "split8"},
                                                         {sort_algorithm::onesweep, "onesweep"}}};
constexpr name_table<sat_algorithm, 3> sat_algorithms{{{sat_algorithm::automatic, "automatic"},
                                                       {sat_algorithm::single_pass, "single_pass"},
                                                       {sat_algorithm::three_pass, "three_pass"}}};
constexpr name_table<sat_layout, 2> sat_layouts{{{sat_layout::inclusive, "inclusive"}, {sat_layout::padded, "padded"}}};
constexpr name_table<volume_field, 4> volume_fields{{{volume_field::sphere, "sphere"},
                                                     {volume_field::torus, "torus"},
                                                     {volume_field::metaballs, "metaballs"},
                                                     {volume_field::gyroid, "gyroid"}}};
constexpr name_table<keep_kind, 10> keep_kinds{{{keep_kind::nonzero, "nonzero"},
                                                {keep_kind::gt, "gt"},
                                                {keep_kind::ge, "ge"},
                                                {keep_kind::lt, "lt"},
                                                {keep_kind::le, "le"},
                                                {keep_kind::eq, "eq"},
                                                {keep_kind::ne, "ne"},
                                                {keep_kind::odd, "odd"},
                                                {keep_kind::even, "even"},
                                                {keep_kind::finite, "finite"}}};

}  // namespace

std::string_view to_string(block_algorithm a) { return name_in(block_algorithms, a); }
std::string_view to_string(device_strategy s) { return name_in(device_strategies, s); }
std::string_view to_string(sort_algorithm a) { return name_in(sort_algorithms, a); }
std::string_view to_string(sat_algorithm a) { return name_in(sat_algorithms, a); }
std::string_view to_string(sat_layout l) { return name_in(sat_layouts, l); }
std::string_view to_string(volume_field f) { return name_in(volume_fields, f); }
std::string_view to_string(keep_kind k) { return name_in(keep_kinds, k); }

std::optional<block_algorithm> parse_block_algorithm(std::string_view name) { return parse_in(block_algorithms, name); }
std::optional<device_strategy> parse_device_strategy(std::string_view name) { return parse_in(device_strategies, name); }
std::optional<sort_algorithm> parse_sort_algorithm(std::string_view name) { return parse_in(sort_algorithms, name); }
std::optional<sat_algorithm> parse_sat_algorithm(std::string_view name) { return parse_in(sat_algorithms, name); }
std::optional<sat_layout> parse_sat_layout(std::string_view name) { return parse_in(sat_layouts, name); }
std::optional<volume_field> parse_volume_field(std::string_view name) { return parse_in(volume_fields, name); }
std::optional<keep_kind> parse_keep_kind(std::string_view name) { return parse_in(keep_kinds, name); }

}  // namespace parascan
