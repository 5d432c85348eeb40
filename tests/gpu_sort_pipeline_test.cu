// GPU tests of the out-of-core sort (sort_pipeline.hpp): host arrays sorted through the GPU, with a
// device-memory limit that forces the two-round-trip path on small data, checked against a CPU
// stable sort on an order image written independently (validation/sort_check.hpp). Every key width,
// floats, descending, bit ranges, pairs, argsort, pinned and pageable memory, in place, and the
// skewed inputs that make buckets larger than a slot (one value holding half the keys, a narrow
// range, all keys equal, sorted keys).
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/error.hpp"
#include "parascan/sort_pipeline.hpp"
#include "parascan/validation/sort_check.hpp"

namespace {
using namespace parascan;
using parascan::test::gpu_test;
using validation::bit_mismatches;
using validation::cpu_sort_order;
using validation::permuted;

enum class dist { uniform, half_one_value, narrow, all_equal, sorted };
const char* name(dist d) {
  switch (d) {
    case dist::uniform: return "uniform";
    case dist::half_one_value: return "half one value";
    case dist::narrow: return "narrow (< 256)";
    case dist::all_equal: return "all equal";
    case dist::sorted: return "sorted";
  }
  return "?";
}

template <class Key>
std::vector<Key> make_keys(std::int64_t n, dist d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> k(static_cast<std::size_t>(n));
  for (auto& x : k) {
    std::uint64_t bits = rng();
    if (d == dist::narrow) bits %= 200;
    if (d == dist::all_equal) bits = 0x1234567890abcdefull;
    if (d == dist::half_one_value && (rng() & 1)) bits = 0x0f0f0f0f0f0f0f0full;
    std::memcpy(&x, &bits, sizeof(Key));
  }
  if (d == dist::sorted) k = permuted(k, cpu_sort_order(k, 0, 8 * sizeof(Key), false));
  return k;
}

/// Host memory pinned (cudaMallocHost) or pageable, filled from a vector.
template <class T>
struct host_copy {
  host_copy(const std::vector<T>& v, bool pinned) : pinned(pinned), n(v.size()) {
    if (pinned) PARASCAN_CUDA_CHECK(cudaMallocHost(&p, std::max<std::size_t>(n, 1) * sizeof(T)));
    else store.resize(std::max<std::size_t>(n, 1)), p = store.data();
    if (n) std::memcpy(p, v.data(), n * sizeof(T));
  }
  ~host_copy() {
    if (pinned) cudaFreeHost(p);
  }
  std::vector<T> vec() const { return std::vector<T>(p, p + n); }
  bool pinned;
  std::size_t n;
  T* p = nullptr;
  std::vector<T> store;
};

struct run_case {
  std::size_t limit = 1 << 20;  // bytes of device memory: out of core beyond a few 10^4 keys
  bool pinned_in = false, pinned_out = false, in_place = false;
  int begin_bit = 0, end_bit = -1;
  bool descending = false;
  int slots = 3;
};

std::string describe(const run_case& c, std::int64_t n, dist d) {
  return "n=" + std::to_string(n) + " " + name(d) + " limit=" + std::to_string(c.limit) + " pinned in/out " +
         std::to_string(c.pinned_in) + std::to_string(c.pinned_out) + (c.in_place ? " in place" : "") + " bits [" +
         std::to_string(c.begin_bit) + ", " + std::to_string(c.end_bit) + ")" + (c.descending ? " descending" : "") +
         " slots=" + std::to_string(c.slots);
}

template <class Key>
sort_pipeline_stats check_keys(std::int64_t n, dist d, const run_case& c) {
  SCOPED_TRACE(describe(c, n, d));
  const std::vector<Key> keys = make_keys<Key>(n, d, static_cast<std::uint64_t>(n) * 7 + static_cast<int>(d));
  host_copy<Key> in(keys, c.pinned_in), out(std::vector<Key>(keys.size(), Key(0x5a)), c.pinned_out);  // poisoned
  sort_pipeline_options o;
  o.device_memory_limit = c.limit;
  o.slots = c.slots;
  radix_sort_pipeline<Key> p(o);
  sort_options so;
  so.begin_bit = c.begin_bit, so.end_bit = c.end_bit, so.descending = c.descending;
  Key* dst = c.in_place ? in.p : out.p;
  const sort_pipeline_stats st = p.sort_keys(in.p, dst, n, so);
  const int end = c.end_bit < 0 ? 8 * sizeof(Key) : c.end_bit;
  const std::vector<Key> want = permuted(keys, cpu_sort_order(keys, c.begin_bit, end, c.descending));
  std::int64_t first = -1;
  EXPECT_EQ(bit_mismatches(c.in_place ? in.vec() : out.vec(), want, &first), 0) << "first at " << first;
  return st;
}

class sort_pipeline_test : public gpu_test {};

TEST_F(sort_pipeline_test, out_of_core_u32_pinned_pageable_and_in_place) {
  for (std::int64_t n : {0, 1, 1000, 100003}) {
    for (int pin = 0; pin < 4; ++pin) {
      run_case c;
      c.pinned_in = pin & 1, c.pinned_out = pin & 2;
      const auto st = check_keys<std::uint32_t>(n, dist::uniform, c);
      if (n == 100003) {
        EXPECT_TRUE(st.out_of_core);
        EXPECT_GT(st.partitions, 1);
        EXPECT_GT(st.batches, 1);
      }
    }
    run_case c;
    c.in_place = true;
    check_keys<std::uint32_t>(n, dist::uniform, c);
  }
}

TEST_F(sort_pipeline_test, fits_in_one_round_trip_without_a_limit) {
  run_case c;
  c.limit = 0;
  const auto st = check_keys<std::uint32_t>(100003, dist::uniform, c);
  EXPECT_FALSE(st.out_of_core);
  EXPECT_EQ(st.batches, 1);
}

TEST_F(sort_pipeline_test, every_key_type_both_directions_and_bit_ranges) {
  for (bool desc : {false, true}) {
    run_case c;
    c.descending = desc;
    check_keys<std::uint8_t>(70001, dist::uniform, c);
    check_keys<std::int8_t>(70001, dist::uniform, c);
    check_keys<std::uint16_t>(70001, dist::uniform, c);
    check_keys<std::int16_t>(70001, dist::uniform, c);
    check_keys<std::int32_t>(70001, dist::uniform, c);
    check_keys<float>(70001, dist::uniform, c);
    check_keys<std::uint64_t>(70001, dist::uniform, c);
    check_keys<std::int64_t>(70001, dist::uniform, c);
    check_keys<double>(70001, dist::uniform, c);
    c.begin_bit = 3, c.end_bit = 21;
    check_keys<std::uint32_t>(70001, dist::uniform, c);
    check_keys<float>(70001, dist::uniform, c);
    c.begin_bit = 20, c.end_bit = 52;
    check_keys<std::int64_t>(70001, dist::uniform, c);
    c.begin_bit = 9, c.end_bit = 9;  // no bits: the input order
    check_keys<std::uint32_t>(70001, dist::uniform, c);
  }
}

TEST_F(sort_pipeline_test, skewed_keys_split_oversized_buckets_again) {
  for (dist d : {dist::half_one_value, dist::narrow, dist::all_equal, dist::sorted}) {
    run_case c;
    const auto st = check_keys<std::uint32_t>(150001, d, c);
    EXPECT_TRUE(st.out_of_core);
    if (d != dist::sorted) EXPECT_GT(st.repartitioned + st.unsorted, 0) << name(d);
    c.descending = true;
    check_keys<std::uint64_t>(150001, d, c);
    c.slots = 2;
    check_keys<double>(90001, d, c);
  }
}

template <class Key, class Value>
void check_pairs(std::int64_t n, dist d, bool argsort, bool descending, bool pinned) {
  SCOPED_TRACE("pairs n=" + std::to_string(n) + " " + name(d) + (argsort ? " argsort" : "") +
               (descending ? " descending" : "") + (pinned ? " pinned" : " pageable"));
  const std::vector<Key> keys = make_keys<Key>(n, d, static_cast<std::uint64_t>(n) + 99);
  std::vector<Value> values(keys.size());
  std::mt19937_64 rng(5);
  for (auto& v : values) v = static_cast<Value>(rng());
  host_copy<Key> kin(keys, pinned), kout(std::vector<Key>(keys.size(), Key(0x5a)), pinned);
  host_copy<Value> vin(values, pinned), vout(std::vector<Value>(values.size(), Value(0xa5)), pinned);
  sort_pipeline_options o;
  o.device_memory_limit = 1 << 20;
  radix_sort_pipeline<Key, Value> p(o);
  sort_options so;
  so.descending = descending;
  const auto st = p.sort_pairs(kin.p, kout.p, argsort ? nullptr : vin.p, vout.p, n, so);
  if (n > 100000) EXPECT_TRUE(st.out_of_core);
  const auto order = cpu_sort_order(keys, 0, 8 * sizeof(Key), descending);
  std::int64_t first = -1;
  EXPECT_EQ(bit_mismatches(kout.vec(), permuted(keys, order), &first), 0) << "keys, first at " << first;
  std::vector<Value> want(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    want[i] = argsort ? static_cast<Value>(order[i]) : values[static_cast<std::size_t>(order[i])];
  EXPECT_EQ(bit_mismatches(vout.vec(), want, &first), 0) << "values, first at " << first;
}

TEST_F(sort_pipeline_test, pairs_and_argsort) {
  for (bool pinned : {false, true}) {
    check_pairs<std::uint32_t, std::uint32_t>(120001, dist::uniform, false, false, pinned);
    check_pairs<std::uint32_t, std::uint32_t>(120001, dist::uniform, true, false, pinned);
    check_pairs<float, std::uint64_t>(120001, dist::uniform, true, true, pinned);
    check_pairs<std::int64_t, std::uint64_t>(120001, dist::half_one_value, false, false, pinned);
    check_pairs<std::uint16_t, std::uint32_t>(120001, dist::narrow, true, false, pinned);
    check_pairs<std::uint32_t, std::uint64_t>(120001, dist::all_equal, true, true, pinned);
  }
  check_pairs<std::uint32_t, std::uint32_t>(0, dist::uniform, true, false, false);
  check_pairs<std::uint32_t, std::uint32_t>(1, dist::uniform, true, false, false);
}

TEST_F(sort_pipeline_test, a_limit_too_small_for_two_slots_is_an_allocation_error) {
  sort_pipeline_options o;
  o.device_memory_limit = 1000;
  radix_sort_pipeline<std::uint32_t> p(o);
  std::vector<std::uint32_t> keys(100000, 1u), out(keys.size());
  try {
    p.sort_keys(keys.data(), out.data(), static_cast<std::int64_t>(keys.size()));
    FAIL() << "no error";
  } catch (const cuda_error& e) {
    EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
    EXPECT_NE(std::string(e.what()).find("device memory limit"), std::string::npos) << e.what();
  }
}

TEST_F(sort_pipeline_test, a_bad_bit_range_is_refused) {
  radix_sort_pipeline<std::uint16_t> p;
  std::vector<std::uint16_t> keys(10, 1), out(10);
  sort_options so;
  so.begin_bit = 4, so.end_bit = 17;
  EXPECT_THROW(p.sort_keys(keys.data(), out.data(), 10, so), cuda_error);
}

}  // namespace
