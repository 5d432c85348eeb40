// Radix sort on the GPU, the named cases (sort_test): special floats and integer limits, keys whose
// passes or tiles share a digit, values of 1–8 bytes and argsort, bad arguments; and (sort_huge, label
// slow) more than 2^31 keys and the Onesweep's portions. Each against the CPU stable sort and, where it
// has the types, cub::DeviceRadixSort (sort_check.cuh). The typed tests over sizes: gpu_sort_test.cu.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>
#include "sort_check.cuh"

namespace {
using namespace parascan;
using namespace parascan::test;

class sort_test : public gpu_test {};

TEST_F(sort_test, special_floats_and_integer_limits) {
  check_sort(special_floats<float>(1), 0, -1, false, true, "special f32");
  check_sort(special_floats<float>(2), 0, -1, true, true, "special f32 desc");
  check_sort(special_floats<double>(3), 0, -1, false, true, "special f64");
  check_sort(special_floats<double>(4), 0, -1, true, false, "special f64 desc");
  // 600 keys above take the segmented sort's one-block tile (sorted_by_one_block); 6000 f32 keys one block
  // ranking keys with their positions (sort_one_row), 6000 f64 keys and 15000 f32 keys the Onesweep
  check_sort(special_floats<float>(11, 400), 0, -1, false, true, "special f32, 6000 keys");
  check_sort(special_floats<float>(12, 400), 0, -1, true, true, "special f32 desc, 6000 keys");
  check_sort(special_floats<float>(14, 400), 0, -1, true, false, "special f32 desc keys, 6000 keys");
  check_sort(special_floats<float>(15, 1000), 0, -1, false, false, "special f32 keys, 15000 keys");
  check_sort(special_floats<double>(13, 400), 0, -1, true, false, "special f64 desc, 6000 keys");
  check_sort(special_floats<double>(16, 200), 0, -1, false, false, "special f64 keys, 3000 keys");
  // Float keys alone of 2049-8192 (f64: 1025-4096) sort their encoded keys in one block; the zeros get
  // their signs back in input order (give_zeros_their_signs): ascending, descending, rows of zeros only,
  // and keys with +0.0 but no -0.0 (the path without the fix-up).
  check_sort(special_floats<float>(17, 200), 0, -1, false, false, "special f32 keys, 3000 keys");
  check_sort(special_floats<float>(18, 500), 0, -1, true, false, "special f32 desc keys, 7500 keys");
  check_sort(special_floats<double>(19, 100), 0, -1, true, false, "special f64 desc keys, 1500 keys");
  for (bool desc : {false, true}) {
    std::vector<float> zeros(5000);
    std::mt19937 rng(20 + desc);
    for (auto& z : zeros) z = (rng() & 1) ? -0.0f : 0.0f;
    check_sort(zeros, 0, -1, desc, false, desc ? "±0.0 only desc keys, 5000" : "±0.0 only keys, 5000");
    std::vector<float> no_negative_zero = special_floats<float>(21 + desc, 300);
    for (auto& v : no_negative_zero)
      if (v == 0.0f) v = 0.0f;
    check_sort(no_negative_zero, 0, -1, desc, false, "special f32 keys without -0.0, 4500");
  }
  for (bool desc : {false, true}) {  // partial ranges: ±0.0 take CUB's bits in each direction
    check_sort(special_floats<float>(5), 1, 3, desc, true, "special f32 [1,3)");
    check_sort(special_floats<float>(6), 28, 32, desc, true, "special f32 [28,32)");
    check_sort(special_floats<double>(7), 0, 4, desc, false, "special f64 [0,4)");
  }
  std::vector<std::int32_t> i32;
  std::vector<std::int64_t> i64;
  for (int r = 0; r < 300; ++r) {
    for (std::int32_t v : {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(), 0, -1, 1}) i32.push_back(v);
    for (std::int64_t v : {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), std::int64_t(0), std::int64_t(-1)}) i64.push_back(v);
  }
  check_sort(i32, 0, -1, false, true, "i32 limits");
  check_sort(i32, 0, -1, true, true, "i32 limits desc");
  check_sort(i64, 0, -1, false, true, "i64 limits");
  // keys only: 1200 i64 and 6000 i32 keys take one block sorting the encoded keys (sort_one_row)
  check_sort(i64, 0, -1, true, false, "i64 limits desc keys");
  std::vector<std::int32_t> i32_rows;
  for (int r = 0; r < 4; ++r) i32_rows.insert(i32_rows.end(), i32.begin(), i32.end());
  check_sort(i32_rows, 0, -1, false, false, "i32 limits keys, 6000");
  check_sort(i32_rows, 0, -1, true, false, "i32 limits desc keys, 6000");
}

/// Argsort (values_in == nullptr) with every algorithm against the CPU's stable order, into 4-byte
/// positions and into 8-byte ones (Onesweep sorts those as 4-byte and widens them).
template <class Key, class Position = std::uint32_t>
void check_argsort(const std::vector<Key>& keys, bool descending, const char* what) {
  if constexpr (std::is_same_v<Position, std::uint32_t>) check_argsort<Key, std::int64_t>(keys, descending, what);
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  const auto order = validation::cpu_sort_order(keys, 0, 8 * sizeof(Key), descending);
  device_buffer<Key> d_in(n), d_out(n);
  device_buffer<Position> d_perm(n);
  d_in.copy_from_host(keys.data(), n);
  for (sort_algorithm alg : algorithms_under_test()) {
    const sort_options o = checked_options(alg, descending);
    d_perm.poison();
    std::size_t bytes = 0;
    PARASCAN_CUDA_CHECK((radix_sort_pairs<Key, Position>)(nullptr, bytes, d_in.data(), d_out.data(), nullptr, d_perm.data(), n, o));
    device_buffer<char> temp(bytes);
    temp.poison();
    PARASCAN_CUDA_CHECK((radix_sort_pairs<Key, Position>)(temp.data(), bytes, d_in.data(), d_out.data(), nullptr, d_perm.data(), n, o));
    std::vector<Position> perm(keys.size());
    d_perm.copy_to_host(perm.data(), n);
    std::int64_t bad = 0, first = -1;
    for (std::int64_t i = 0; i < n; ++i)
      if (static_cast<std::int64_t>(perm[static_cast<std::size_t>(i)]) != static_cast<std::int64_t>(order[static_cast<std::size_t>(i)])) {
        if (first < 0) first = i;
        ++bad;
      }
    EXPECT_EQ(bad, 0) << what << " " << to_string(alg) << (descending ? " desc" : " asc") << " n=" << n << ", "
                      << sizeof(Position) << "-byte positions: argsort differs from the CPU's stable order, first at " << first;
  }
}

TEST_F(sort_test, passes_whose_keys_share_a_digit_are_skipped) {
  // Onesweep skips a pass whose keys all share one digit, so the passes that run may be any subset,
  // of odd or even count; the last must still write the output, and argsort's indices start at the
  // first pass that runs. Each key set below, keys and pairs, both directions, every algorithm.
  const std::int64_t n = test::small_sizes_only() ? 20011 : 300007;
  std::mt19937_64 rng(21);
  struct shape { const char* what; std::uint32_t vary, fixed; };  // key = (random & vary) | fixed
  const shape shapes[] = {
      {"low 12 bits vary (2 of 4 passes run)", 0x00000fffu, 0},
      {"byte 1 varies (1 pass)", 0x0000ff00u, 0x5a000000u},
      {"bytes 0 and 2 vary (2 passes, apart)", 0x00ff00ffu, 0x03000000u},
      {"top byte fixed (3 passes)", 0x00ffffffu, 0xc1000000u},
      {"all equal (no pass: a copy)", 0, 0x12345678u},
  };
  for (const shape& sh : shapes) {
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
    for (auto& k : keys) k = (static_cast<std::uint32_t>(rng()) & sh.vary) | sh.fixed;
    for (bool desc : {false, true}) {
      check_sort(keys, 0, -1, desc, false, sh.what);
      check_sort(keys, 0, -1, desc, true, sh.what);
      check_argsort(keys, desc, sh.what);
    }
    std::vector<std::uint64_t> wide(static_cast<std::size_t>(n));  // 8 passes, the high four all skipped
    for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = keys[i] | (std::uint64_t(0x77) << 40);
    check_sort(wide, 0, -1, false, true, sh.what);
    check_argsort(wide, true, sh.what);
  }
  std::vector<float> floats(static_cast<std::size_t>(n));  // ±0.0 and one other value: passes share digits
  for (auto& f : floats) f = (rng() % 3 == 0) ? -0.0f : (rng() % 2 ? 0.0f : 2.0f);
  check_sort(floats, 0, -1, false, true, "±0.0 and 2.0");
  check_sort(floats, 0, -1, true, true, "±0.0 and 2.0");
}

TEST_F(sort_test, tiles_whose_keys_share_a_digit) {
  // A tile whose keys all have one digit keeps input order without ranking (onesweep's short cut):
  // runs of equal keys longer than a tile, beside runs shorter than one, in random order of runs.
  const std::int64_t n = test::small_sizes_only() ? 40000 : 400000;
  std::mt19937_64 rng(23);
  std::vector<std::uint32_t> keys;
  while (static_cast<std::int64_t>(keys.size()) < n) {
    const std::int64_t run = rng() % 4 == 0 ? 9000 + rng() % 9000 : 1 + rng() % 300;
    const std::uint32_t k = static_cast<std::uint32_t>(rng());
    for (std::int64_t i = 0; i < run && static_cast<std::int64_t>(keys.size()) < n; ++i) keys.push_back(k);
  }
  for (bool desc : {false, true}) {
    check_sort(keys, 0, -1, desc, true, "runs");
    check_argsort(keys, desc, "runs");
  }
  std::vector<std::uint64_t> wide(keys.begin(), keys.end());
  for (auto& w : wide) w = w * 0x9E3779B97F4A7C15ull;
  check_sort(wide, 0, -1, false, true, "runs u64");
}

TEST_F(sort_test, first_pass_of_keys_alone_ranks_unstably) {
  // Keys alone on all their bits: the first pass ranks by its atomics, in no set order within a digit
  // (onesweep/pass.cuh, `Unstable`), unless a warp finds its first row crowded (more than 8 of its keys
  // share one digit) or float keys hold a −0.0. The low
  // byte takes the 16 values 240–255, so the digits are not crowded and digit 255 is common: the last,
  // partial tile's real keys of digit 255 meet no padding (which the stable pass ranks as digit 255);
  // sizes put 1, 7 or most of a tile (8192 u32 / f32, 5120 u64, 5888 u16 keys) in the last one. Low
  // bytes 254/255 and runs of 64 equal keys crowd the warps (the stable ranking), and the same
  // keys on a bit range keep the stable first pass, which CUB's order and the CPU's show.
  std::mt19937_64 rng(29);
  const auto low_byte = [&](auto tag, std::int64_t n, unsigned first, unsigned values) {
    using K = decltype(tag);
    std::vector<K> keys(static_cast<std::size_t>(n));
    for (auto& k : keys) k = static_cast<K>((rng() & ~std::uint64_t(0xff)) | (first + rng() % values));
    return keys;
  };
  for (const std::int64_t n : {std::int64_t(3 * 8192 + 1), std::int64_t(4 * 8192 - 1), std::int64_t(40000)}) {
    const auto keys = low_byte(std::uint32_t{}, n, 240, 16);
    check_sort(keys, 0, -1, false, false, "u32 keys, low byte 240-255");
    check_sort(keys, 0, -1, true, false, "u32 keys desc, low byte 240-255");
    check_sort(keys, 0, 24, false, false, "u32 keys [0,24), low byte 240-255");
    check_sort(low_byte(std::uint32_t{}, n, 254, 2), 0, -1, false, false, "u32 keys, low byte 254/255 (crowded)");
    auto runs = keys;
    for (std::size_t i = 0; i < runs.size(); ++i) runs[i] = keys[i / 64 * 64];
    check_sort(runs, 0, -1, false, false, "u32 keys in runs of 64 (crowded)");
    // Float keys, finite, of either sign, 1 in 16 a +0.0 (its first digit 0 then holds ~1/15 of them, not
    // crowded): they take the unstable pass; beside −0.0 (same digits, other bits, kept in input order by
    // a stable sort) the histogram flags it and pass 0 ranks stably.
    std::vector<float> floats(keys.size());
    for (auto& f : floats) {
      const auto bits = static_cast<std::uint32_t>((rng() & 0x807fffffu) | ((100 + rng() % 50) << 23));
      std::memcpy(&f, &bits, sizeof f);
      if (rng() % 16 == 0) f = 0.0f;
    }
    check_sort(floats, 0, -1, n % 2 == 1, false, "f32 keys with +0.0");
    for (std::size_t i = 0; i < floats.size(); i += 3)
      if (floats[i] == 0.0f) floats[i] = -0.0f;
    check_sort(floats, 0, -1, false, false, "f32 keys with ±0.0");
    check_sort(floats, 0, -1, true, false, "f32 keys with ±0.0 desc");
  }
  check_sort(low_byte(std::uint64_t{}, 4 * 5120 + 7, 240, 16), 0, -1, false, false, "u64 keys, low byte 240-255");
  check_sort(low_byte(std::uint64_t{}, 4 * 5120 + 7, 240, 16), 8, 64, false, false, "u64 keys [8,64)");
  check_sort(low_byte(std::uint16_t{}, 5 * 5888 + 1, 240, 16), 0, -1, false, false, "u16 keys, low byte 240-255");
}

/// onesweep's keys against CUB's alone (no CPU sort: for sizes where it would take minutes).
template <class Key>
void check_onesweep_against_cub(const std::vector<Key>& keys, const char* what) {
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  device_buffer<Key> d_in(n), d_out(n), d_cub(n);
  d_in.copy_from_host(keys.data(), n);
  d_out.poison();
  const sort_options o = checked_options(sort_algorithm::onesweep, false);
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(radix_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, o));
  std::size_t cub_bytes = 0;
  const int end = static_cast<int>(8 * sizeof(Key));
  PARASCAN_CUDA_CHECK(validation::cub_sort_keys(nullptr, cub_bytes, d_in.data(), d_cub.data(), n, 0, end, false));
  {
    device_buffer<char> temp(bytes > cub_bytes ? bytes : cub_bytes);
    temp.poison();
    PARASCAN_CUDA_CHECK(radix_sort_keys(temp.data(), bytes, d_in.data(), d_out.data(), n, o));
    PARASCAN_CUDA_CHECK(validation::cub_sort_keys(temp.data(), cub_bytes, d_in.data(), d_cub.data(), n, 0, end, false));
    PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::vector<Key> got(keys.size()), cub(keys.size());
  d_out.copy_to_host(got.data(), n);
  d_cub.copy_to_host(cub.data(), n);
  std::int64_t first = -1;
  EXPECT_EQ(validation::bit_mismatches(got, cub, &first), 0) << what << " n=" << n << ": keys differ from CUB's, first at " << first;
}

TEST_F(sort_test, later_passes_rank_warps_that_share_the_bits_below_unstably) {
  // Keys alone on all their bits: a later pass p ranks a warp of a full tile by its atomics where the warp's
  // first and last keys share the bits under the digit and its first row is not crowded (onesweep/pass.cuh),
  // in passes whose keys of one such L number ≥ 4096 on average (pass 1 from 2^20 keys, pass 2 from 2^28).
  // Inputs that put warps on both sides of each test: uniform keys; keys of few values (a warp of one L holds
  // one or two values: crowded); a skipped pass 1; low bytes of two values; runs of 64; low 16 bits of 32
  // values; signed, 16-bit, float (with +0.0, and beside −0.0: every warp stable) and 8-byte keys. Against the
  // CPU stable sort and CUB; 2^28 + 4097 (pass 2 too) against CUB alone.
  std::mt19937_64 rng(74);
  const auto draw = [&](std::int64_t n, auto make) {
    using K = decltype(make(std::uint64_t{}));
    std::vector<K> keys(static_cast<std::size_t>(n));
    for (auto& k : keys) k = make(rng());
    return keys;
  };
  std::vector<std::uint32_t> few(3000);
  for (auto& v : few) v = static_cast<std::uint32_t>(rng());
  const auto u32 = [](std::uint64_t r) { return static_cast<std::uint32_t>(r >> 32); };
  const auto of_few = [&](std::size_t values) { return [&few, values](std::uint64_t r) { return few[(r >> 20) % values]; }; };
  const auto low16_of_32 = [&few](std::uint64_t r) { return static_cast<std::uint32_t>((r >> 32) & 0xffff0000u) | (few[r % 32] & 0xffffu); };
  std::vector<std::int64_t> sizes = {(std::int64_t(1) << 20) + 4099};
  if (!small_sizes_only()) sizes.push_back((std::int64_t(1) << 22) + 4097);
  for (const std::int64_t n : sizes) {
    const auto uniform = draw(n, u32);
    check_sort(uniform, 0, -1, false, false, "u32 uniform");
    check_sort(uniform, 0, -1, true, false, "u32 uniform desc");
    check_sort(draw(n, of_few(3000)), 0, -1, false, false, "u32 of 3000 values");
    check_sort(draw(n, of_few(100)), 0, -1, true, false, "u32 of 100 values desc");
    check_sort(draw(n, [](std::uint64_t r) { return static_cast<std::uint32_t>(((r >> 32) & 0xffff00ffu) | 0x5a00u); }), 0, -1,
               false, false, "u32 second byte constant (pass 1 skipped)");
    check_sort(draw(n, [](std::uint64_t r) { return static_cast<std::uint32_t>(((r >> 32) & ~0xffu) | (r & 1)); }), 0, -1,
               false, false, "u32 low byte 0/1");
    auto runs = uniform;
    for (std::size_t i = 0; i < runs.size(); ++i) runs[i] = uniform[i / 64 * 64];
    check_sort(runs, 0, -1, false, false, "u32 runs of 64");
    check_sort(draw(n, low16_of_32), 0, -1, false, false, "u32 low 16 bits of 32 values");
    check_sort(draw(n, [](std::uint64_t r) { return static_cast<std::int32_t>(r >> 32); }), 0, -1, true, false, "i32 desc");
    check_sort(draw(n, [](std::uint64_t r) { return static_cast<std::uint16_t>(r >> 48); }), 0, -1, false, false, "u16");
    check_sort(draw(n, [](std::uint64_t r) { return r; }), 0, -1, false, false, "u64 uniform");
    auto floats = draw(n, [](std::uint64_t r) {
      const auto bits = static_cast<std::uint32_t>(((r >> 32) & 0x807fffffu) | ((100 + (r & 0x3f)) << 23));
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return (r >> 8) % 16 == 0 ? 0.0f : f;
    });
    check_sort(floats, 0, -1, false, false, "f32 with +0.0");
    for (std::size_t i = 0; i < floats.size(); i += 3)
      if (floats[i] == 0.0f) floats[i] = -0.0f;
    check_sort(floats, 0, -1, true, false, "f32 with ±0.0 desc");
  }
  if (small_sizes_only()) return;
  const std::int64_t big = (std::int64_t(1) << 28) + 4097;
  check_onesweep_against_cub(draw(big, u32), "u32 uniform");
  check_onesweep_against_cub(draw(big, low16_of_32), "u32 low 16 bits of 32 values");
  check_onesweep_against_cub(draw(big, of_few(3000)), "u32 of 3000 values");
}

class sort_values : public sort_test, public ::testing::WithParamInterface<std::int64_t> {};

// 20011 keys take the Onesweep; 1999 the segmented sort's one-block tile (4- and 8-byte values; 1- and
// 2-byte values stay with the Onesweep)
INSTANTIATE_TEST_SUITE_P(sizes, sort_values, ::testing::Values(std::int64_t(20011), std::int64_t(1999)));

TEST_P(sort_values, values_of_every_width_and_argsort) {
  const auto keys = make_keys<std::uint32_t>(GetParam(), dist::few_unique, 9);
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  const auto order = validation::cpu_sort_order(keys, 0, 32, false);
  device_buffer<std::uint32_t> d_keys(n), d_out(n);
  d_keys.copy_from_host(keys.data(), n);
  const auto run = [&](auto value_tag, bool argsort) {
    using V = decltype(value_tag);
    std::vector<V> values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<V>(i * 40503u + 17);
    const auto want = argsort ? std::vector<V>() : validation::permuted(values, order);
    device_buffer<V> d_v(n), d_vout(n);
    d_v.copy_from_host(values.data(), n);
    for (sort_algorithm alg : algorithms_under_test()) {
      const sort_options o = checked_options(alg, false);
      d_vout.poison();
      std::size_t bytes = 0;
      const V* vin = argsort ? nullptr : d_v.data();
      PARASCAN_CUDA_CHECK(radix_sort_pairs(nullptr, bytes, d_keys.data(), d_out.data(), vin, d_vout.data(), n, o));
      device_buffer<char> temp(bytes);
      PARASCAN_CUDA_CHECK(radix_sort_pairs(temp.data(), bytes, d_keys.data(), d_out.data(), vin, d_vout.data(), n, o));
      std::vector<V> got(values.size());
      d_vout.copy_to_host(got.data(), n);
      if (argsort) {
        for (std::size_t i = 0; i < got.size(); ++i)
          ASSERT_EQ(static_cast<std::int64_t>(got[i]), order[i]) << to_string(alg) << " argsort, " << sizeof(V) << "-byte indices, at " << i;
      } else {
        EXPECT_EQ(validation::bit_mismatches(got, want), 0) << to_string(alg) << " " << sizeof(V) << "-byte values";
      }
    }
  };
  run(std::uint8_t{}, false);
  run(std::uint16_t{}, false);
  run(std::uint32_t{}, false);
  run(std::uint64_t{}, false);
  run(std::uint32_t{}, true);
  run(std::uint64_t{}, true);
}

TEST_F(sort_test, bad_arguments_are_refused) {
  device_buffer<std::uint32_t> a(10), b(10);
  std::size_t bytes = 0;
  sort_options o;
  o.begin_bit = 5;
  o.end_bit = 33;
  EXPECT_EQ(radix_sort_keys(nullptr, bytes, a.data(), b.data(), 10, o), cudaErrorInvalidValue);
  o.end_bit = 4;
  EXPECT_EQ(radix_sort_keys(nullptr, bytes, a.data(), b.data(), 10, o), cudaErrorInvalidValue);
  o = {};
  std::uint16_t* none = nullptr;
  EXPECT_EQ(radix_sort_pairs(nullptr, bytes, a.data(), b.data(), static_cast<const std::uint16_t*>(nullptr), none, 10, o),
            cudaErrorInvalidValue);  // argsort needs 4- or 8-byte indices
}

class sort_huge : public gpu_test {};

TEST_F(sort_huge, more_than_2_pow_31_keys) {
  // 2^31 + 3 u8 keys (about 2 GiB each way): onesweep (8 portions) and split8 in one pass, split4 in two, compared with a CPU counting sort.
  const std::int64_t n = (std::int64_t(1) << 31) + 3;
  std::vector<std::uint8_t> keys(static_cast<std::size_t>(n));
  std::mt19937_64 rng(5);
  for (auto& k : keys) k = static_cast<std::uint8_t>(rng() >> 56);
  std::vector<std::int64_t> count(256, 0);
  for (auto k : keys) ++count[k];
  device_buffer<std::uint8_t> d_in(n), d_out(n);
  d_in.copy_from_host(keys.data(), n);
  for (sort_algorithm alg : {sort_algorithm::onesweep, sort_algorithm::split8, sort_algorithm::split4}) {
    sort_options o;
    o.algorithm = alg;
    d_out.poison();
    std::size_t bytes = 0;
    PARASCAN_CUDA_CHECK(radix_sort_keys(nullptr, bytes, d_in.data(), d_out.data(), n, o));
    device_buffer<char> temp(bytes);
    PARASCAN_CUDA_CHECK(radix_sort_keys(temp.data(), bytes, d_in.data(), d_out.data(), n, o));
    std::vector<std::uint8_t> got(static_cast<std::size_t>(n));
    d_out.copy_to_host(got.data(), n);
    std::int64_t at = 0, bad = 0;
    for (int v = 0; v < 256; ++v)
      for (std::int64_t j = 0; j < count[v]; ++j, ++at) bad += got[static_cast<std::size_t>(at)] != v;
    EXPECT_EQ(bad, 0) << to_string(alg) << ": keys out of place";
  }
}

TEST_F(sort_huge, onesweep_across_portions) {
  // Onesweep launches a pass per portion of 2^28 keys (rounded up to whole tiles) and hands the digit offsets on: 2^28 + 12305
  // u16 keys, argsort, checked in O(n): keys in order, equal keys in input order, keys = input[perm].
  const std::int64_t n = (std::int64_t(1) << 28) + 3 * 4096 + 17;
  std::vector<std::uint16_t> keys(static_cast<std::size_t>(n));
  std::mt19937_64 rng(11);
  for (auto& k : keys) k = static_cast<std::uint16_t>(rng() >> 48);
  device_buffer<std::uint16_t> d_in(n), d_out(n);
  device_buffer<std::uint32_t> d_perm(n);
  d_in.copy_from_host(keys.data(), n);
  d_out.poison();
  d_perm.poison();
  for (bool descending : {false, true}) {
    sort_options o;
    o.algorithm = sort_algorithm::onesweep;
    o.descending = descending;
    std::size_t bytes = 0;
    PARASCAN_CUDA_CHECK((radix_sort_pairs<std::uint16_t, std::uint32_t>)(nullptr, bytes, d_in.data(), d_out.data(), nullptr,
                                                                       d_perm.data(), n, o));
    device_buffer<char> temp(bytes);
    PARASCAN_CUDA_CHECK((radix_sort_pairs<std::uint16_t, std::uint32_t>)(temp.data(), bytes, d_in.data(), d_out.data(),
                                                                       nullptr, d_perm.data(), n, o));
    std::vector<std::uint16_t> got(static_cast<std::size_t>(n));
    std::vector<std::uint32_t> perm(static_cast<std::size_t>(n));
    d_out.copy_to_host(got.data(), n);
    d_perm.copy_to_host(perm.data(), n);
    std::int64_t bad_order = 0, bad_key = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const auto p = perm[static_cast<std::size_t>(i)];
      bad_key += p >= static_cast<std::uint64_t>(n) || keys[p] != got[static_cast<std::size_t>(i)];
      if (i > 0) {
        const auto a = got[static_cast<std::size_t>(i - 1)], b = got[static_cast<std::size_t>(i)];
        const bool in_order = descending ? a > b : a < b;
        bad_order += !(in_order || (a == b && perm[static_cast<std::size_t>(i - 1)] < p));
      }
    }
    EXPECT_EQ(bad_key, 0) << (descending ? "descending" : "ascending");
    EXPECT_EQ(bad_order, 0) << (descending ? "descending" : "ascending");
  }
}

}  // namespace
