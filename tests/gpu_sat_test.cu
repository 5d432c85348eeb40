// Summed-area tables on the GPU against the CPU table and the CUB-based table: every input ×
// accumulator, both layouts, squares, odd and degenerate shapes, pitched rows, the u32 exactness
// boundary, rectangle sums and the box filter.
#include <gtest/gtest.h>
#include <cstdint>
#include <random>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/sat.hpp"
#include "parascan/validation/sat_check.hpp"

namespace {
using namespace parascan;

template <class In>
std::vector<In> random_image(std::int64_t w, std::int64_t h, double maxval, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<In> v(static_cast<std::size_t>(w * h));
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<In>) x = static_cast<In>(std::uniform_real_distribution<double>(-maxval, maxval)(rng));
    else x = static_cast<In>(rng() % (static_cast<std::uint64_t>(maxval) + 1));
  }
  return v;
}

/// Run ours and the CUB-based table on `img` with rows `pitch_extra` elements longer than the image
/// and both arrays starting `offset` elements into their allocations (to reach the unaligned paths);
/// both of our algorithms and the CUB-based table must match the CPU (integer tables: word for word).
/// Returns our single-pass table (dense rows of the layout's width).
template <class In, class Acc>
std::vector<Acc> check_sat(const std::vector<In>& img, std::int64_t w, std::int64_t h, sat_layout layout, bool squared,
                           std::int64_t pitch_extra = 0, std::int64_t offset = 0) {
  const std::int64_t s = layout == sat_layout::padded ? 1 : 0;
  const std::size_t in_pitch = static_cast<std::size_t>(w + pitch_extra) * sizeof(In);
  const std::size_t table_pitch = static_cast<std::size_t>(w + s + pitch_extra) * sizeof(Acc);
  device_buffer<In> d_img_alloc((w + pitch_extra) * h + offset);
  device_buffer<Acc> d_table_alloc((w + s + pitch_extra) * (h + s) + offset), d_cub((w + s + pitch_extra) * (h + s));
  In* d_img_data = d_img_alloc.data() + offset;
  Acc* d_table_data = d_table_alloc.data() + offset;
  for (std::int64_t y = 0; y < h; ++y)
    PARASCAN_CUDA_CHECK(cudaMemcpy(d_img_data + y * (w + pitch_extra), img.data() + y * w, w * sizeof(In), cudaMemcpyHostToDevice));
  d_table_alloc.poison();
  d_cub.poison();
  const image_shape shape{w, h};
  std::size_t cub_bytes = 0;
  PARASCAN_CUDA_CHECK(validation::cub_summed_area_table(nullptr, cub_bytes, d_img_data, in_pitch, d_cub.data(), table_pitch,
                                                        shape, layout, squared));
  device_buffer<char> cub_temp(cub_bytes);
  PARASCAN_CUDA_CHECK(validation::cub_summed_area_table(cub_temp.data(), cub_bytes, d_img_data, in_pitch, d_cub.data(),
                                                        table_pitch, shape, layout, squared));
  std::vector<Acc> ours((w + s) * (h + s)), cub((w + s) * (h + s));
  PARASCAN_CUDA_CHECK(cudaMemcpy2D(cub.data(), (w + s) * sizeof(Acc), d_cub.data(), table_pitch, (w + s) * sizeof(Acc), h + s,
                                   cudaMemcpyDeviceToHost));
  const auto cc = validation::compare_sat(cub, img.data(), w, h, layout, squared);
  EXPECT_TRUE(cc.ok()) << "CUB-based " << w << "×" << h << ": " << cc.detail;
  for (const sat_algorithm algorithm : {sat_algorithm::three_pass, sat_algorithm::single_pass}) {
    const std::string name(to_string(algorithm));
    std::size_t bytes = 0;
    PARASCAN_CUDA_CHECK(summed_area_table(nullptr, bytes, d_img_data, in_pitch, d_table_data, table_pitch, shape, layout,
                                          squared, 0, algorithm));
    device_buffer<char> temp(bytes);
    temp.poison();
    d_table_alloc.poison();
    PARASCAN_CUDA_CHECK(summed_area_table(temp.data(), bytes, d_img_data, in_pitch, d_table_data, table_pitch, shape, layout,
                                          squared, 0, algorithm));
    PARASCAN_CUDA_CHECK(cudaDeviceSynchronize());
    PARASCAN_CUDA_CHECK(cudaMemcpy2D(ours.data(), (w + s) * sizeof(Acc), d_table_data, table_pitch, (w + s) * sizeof(Acc),
                                     h + s, cudaMemcpyDeviceToHost));
    const auto c = validation::compare_sat(ours, img.data(), w, h, layout, squared);
    EXPECT_TRUE(c.ok()) << name << " " << w << "×" << h << ": " << c.mismatches << " differ; first " << c.detail;
    if constexpr (std::is_integral_v<Acc>) EXPECT_EQ(ours, cub) << name << " " << w << "×" << h;
  }
  return ours;
}

struct shape_case {
  std::int64_t w, h;
};
std::vector<shape_case> shapes() {
  std::vector<shape_case> v = {{1, 1}, {1, 2}, {2, 1}, {1, 1000}, {1000, 1}, {383, 191}, {4097, 3}, {3, 4097},
                               {128, 64}, {129, 65}, {127, 63}, {256, 128}, {300, 200}};
  if (!test::small_sizes_only()) {
    v.push_back({2049, 1531});
    v.push_back({40961, 67});  // 321 tiles along a tile row: look-back windows of 32 tiles, many of them
  }
  return v;
}

class sat_test : public test::gpu_test {};

TEST_F(sat_test, every_input_and_accumulator_both_layouts_and_squares) {
  for (const auto& sh : shapes()) {
    for (auto layout : {sat_layout::inclusive, sat_layout::padded}) {
      for (bool sq : {false, true}) {
        const auto u8 = random_image<std::uint8_t>(sh.w, sh.h, 255, 1 + sh.w);
        check_sat<std::uint8_t, std::uint32_t>(u8, sh.w, sh.h, layout, sq);
        check_sat<std::uint8_t, std::uint64_t>(u8, sh.w, sh.h, layout, sq);
        check_sat<std::uint8_t, double>(u8, sh.w, sh.h, layout, sq);
        const auto u16 = random_image<std::uint16_t>(sh.w, sh.h, 65535, 2 + sh.h);
        check_sat<std::uint16_t, std::uint64_t>(u16, sh.w, sh.h, layout, sq);
        check_sat<std::uint16_t, float>(u16, sh.w, sh.h, layout, sq);
        const auto u32 = random_image<std::uint32_t>(sh.w, sh.h, 1000, 3);
        check_sat<std::uint32_t, std::uint64_t>(u32, sh.w, sh.h, layout, sq);
        check_sat<std::uint32_t, std::uint32_t>(u32, sh.w, sh.h, layout, false);
        const auto f32 = random_image<float>(sh.w, sh.h, 100, 4);
        check_sat<float, float>(f32, sh.w, sh.h, layout, sq);
        check_sat<float, double>(f32, sh.w, sh.h, layout, sq);
      }
    }
  }
}

TEST_F(sat_test, pitched_rows) {
  const auto img = random_image<std::uint8_t>(301, 77, 255, 9);
  check_sat<std::uint8_t, std::uint32_t>(img, 301, 77, sat_layout::padded, false, 13);
  check_sat<std::uint8_t, std::uint64_t>(img, 301, 77, sat_layout::inclusive, true, 3);
}

TEST_F(sat_test, vector_and_scalar_paths) {
  // Rows and arrays aligned or not for the 4-pixel vector loads and the 16-byte table stores, widths
  // that end on a tile (the padded table's last column then lies past the last tile), or not.
  const auto a = random_image<std::uint8_t>(256, 70, 255, 11);
  check_sat<std::uint8_t, std::uint32_t>(a, 256, 70, sat_layout::padded, false, 3);      // table rows 16-byte aligned
  check_sat<std::uint8_t, std::uint64_t>(a, 256, 70, sat_layout::padded, true, 1);       // table rows 16-byte aligned
  check_sat<std::uint8_t, std::uint32_t>(a, 256, 70, sat_layout::inclusive, false, 0, 1);  // both unaligned
  check_sat<std::uint8_t, std::uint32_t>(a, 256, 70, sat_layout::padded, false, 0, 3);
  const auto b = random_image<std::uint8_t>(1023, 65, 255, 12);
  check_sat<std::uint8_t, std::uint32_t>(b, 1023, 65, sat_layout::padded, false);         // table aligned, image not
  check_sat<std::uint8_t, std::uint32_t>(b, 1023, 65, sat_layout::inclusive, false, 1);   // image aligned, table not
  const auto c = random_image<std::uint16_t>(384, 129, 65535, 13);
  check_sat<std::uint16_t, std::uint64_t>(c, 384, 129, sat_layout::padded, false, 0, 2);
  check_sat<std::uint16_t, std::uint32_t>(random_image<std::uint16_t>(130, 64, 255, 14), 130, 64, sat_layout::inclusive, false, 2);
  const auto f = random_image<float>(260, 67, 50, 15);
  check_sat<float, float>(f, 260, 67, sat_layout::padded, false, 3);
  check_sat<float, double>(f, 260, 67, sat_layout::inclusive, true, 0, 1);
}

TEST_F(sat_test, tall_images_scan_the_corners_apart) {
  // More than 1024 tile rows (64 image rows each): the corners get a kernel of their own.
  if (test::small_sizes_only()) GTEST_SKIP() << "large image: not under the sanitizer";
  const auto img = random_image<std::uint8_t>(131, 65601, 255, 16);
  check_sat<std::uint8_t, std::uint32_t>(img, 131, 65601, sat_layout::padded, false);
  check_sat<std::uint8_t, std::uint64_t>(img, 131, 65601, sat_layout::inclusive, true);
}

TEST_F(sat_test, wide_8_bit_images_take_blocks_of_16_tiles) {
  // At least 16 tiles wide: the single-pass kernel's blocks of 16 tiles (device_sat.cuh), the last
  // block of a tile row with tiles past the image or not; narrower images take blocks of 8.
  for (const std::int64_t w : {2048, 2049, 1920}) {  // 16 tiles, 17 (a block of 1 tile), 15
    const auto img = random_image<std::uint8_t>(w, 131, 255, 23);
    check_sat<std::uint8_t, std::uint32_t>(img, w, 131, sat_layout::padded, false);
    check_sat<std::uint8_t, std::uint64_t>(img, w, 131, sat_layout::inclusive, true);
  }
  if (test::small_sizes_only()) GTEST_SKIP() << "large image: not under the sanitizer";
  const std::int64_t w = 16385, h = 8193;  // 129 × 129 tiles
  check_sat<std::uint8_t, std::uint32_t>(random_image<std::uint8_t>(w, h, 255, 22), w, h, sat_layout::padded, false);
}

TEST_F(sat_test, u32_stays_exact_up_to_its_boundary) {
  // 2^32 − 1 = 255 · 257 · 65537: an all-255 image of 65537 × 257 pixels ends exactly at UINT32_MAX.
  if (test::small_sizes_only()) GTEST_SKIP() << "large image: not under the sanitizer";
  const image_shape fits{65537, 257}, over{65538, 257};
  EXPECT_TRUE(sat_fits_exactly(fits, 255, false, 32));
  EXPECT_FALSE(sat_fits_exactly(over, 255, false, 32));
  EXPECT_TRUE(sat_fits_exactly(over, 255, false, 64));
  const std::vector<std::uint8_t> img(static_cast<std::size_t>(fits.width * fits.height), 255);
  const auto t = check_sat<std::uint8_t, std::uint32_t>(img, fits.width, fits.height, sat_layout::inclusive, false);
  EXPECT_EQ(t.back(), 4294967295u);
  const std::vector<std::uint8_t> img2(static_cast<std::size_t>(over.width * over.height), 255);
  const auto t2 = check_sat<std::uint8_t, std::uint64_t>(img2, over.width, over.height, sat_layout::inclusive, false);
  EXPECT_EQ(t2.back(), 4294967295ull + 255ull * 257ull);
}

TEST_F(sat_test, single_pass_reuses_its_temporary_storage) {
  // The look-back status must start cleared on every call: the same temporary, three calls.
  const std::int64_t w = 1000, h = 700;
  const auto img = random_image<std::uint8_t>(w, h, 255, 21);
  device_buffer<std::uint8_t> d_img(w * h);
  d_img.copy_from_host(img.data(), img.size());
  device_buffer<std::uint32_t> table(w * h);
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(summed_area_table(nullptr, bytes, d_img.data(), w, table.data(), w * 4, {w, h}, sat_layout::inclusive,
                                        false, 0, sat_algorithm::single_pass));
  device_buffer<char> temp(bytes);
  temp.poison();
  std::vector<std::uint32_t> out(static_cast<std::size_t>(w * h));
  for (int call = 0; call < 3; ++call) {
    table.poison();
    PARASCAN_CUDA_CHECK(summed_area_table(temp.data(), bytes, d_img.data(), w, table.data(), w * 4, {w, h},
                                          sat_layout::inclusive, false, 0, sat_algorithm::single_pass));
    table.copy_to_host(out.data(), out.size());
    const auto c = validation::compare_sat(out, img.data(), w, h, sat_layout::inclusive, false);
    EXPECT_TRUE(c.ok()) << "call " << call << ": " << c.detail;
  }
}

TEST_F(sat_test, empty_images_write_only_the_padding) {
  device_buffer<std::uint32_t> table(5);
  table.poison();
  std::size_t bytes = 0;
  const std::uint8_t* none = nullptr;
  PARASCAN_CUDA_CHECK(summed_area_table(nullptr, bytes, none, 0, table.data(), 5 * sizeof(std::uint32_t), {4, 0}, sat_layout::padded));
  device_buffer<char> temp(bytes);
  PARASCAN_CUDA_CHECK(summed_area_table(temp.data(), bytes, none, 0, table.data(), 5 * sizeof(std::uint32_t), {4, 0}, sat_layout::padded));
  std::vector<std::uint32_t> h(5);
  table.copy_to_host(h.data(), 5);
  EXPECT_EQ(h, std::vector<std::uint32_t>(5, 0));
}

TEST_F(sat_test, bad_pitches_are_refused) {
  device_buffer<std::uint8_t> img(100);
  device_buffer<std::uint32_t> table(121);
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(summed_area_table(nullptr, bytes, img.data(), 10, table.data(), 44, {10, 10}, sat_layout::padded));
  device_buffer<char> temp(bytes);
  EXPECT_EQ(summed_area_table(temp.data(), bytes, img.data(), 10, table.data(), 40, {10, 10}, sat_layout::padded),
            cudaErrorInvalidPitchValue);
  EXPECT_EQ(summed_area_table(temp.data(), bytes, img.data(), 9, table.data(), 44, {10, 10}, sat_layout::padded),
            cudaErrorInvalidPitchValue);
}

TEST_F(sat_test, rect_sums_and_box_filter_match_the_cpu) {
  const std::int64_t w = 197, h = 133;
  const auto img = random_image<std::uint8_t>(w, h, 255, 21);
  const auto ref = validation::cpu_sat<std::uint64_t>(img.data(), w, h, false);
  auto cpu_rect = [&](const sat_rect& r) {
    auto at = [&](std::int64_t y, std::int64_t x) -> std::uint64_t { return y < 0 || x < 0 ? 0 : ref[y * w + x]; };
    return at(r.y1, r.x1) - at(r.y0 - 1, r.x1) - at(r.y1, r.x0 - 1) + at(r.y0 - 1, r.x0 - 1);
  };
  for (auto layout : {sat_layout::inclusive, sat_layout::padded}) {
    const std::int64_t s = layout == sat_layout::padded ? 1 : 0;
    device_buffer<std::uint8_t> d_img(w * h);
    d_img.copy_from_host(img.data(), w * h);
    device_buffer<std::uint32_t> d_table((w + s) * (h + s));
    const std::size_t pitch = (w + s) * sizeof(std::uint32_t);
    std::size_t bytes = 0;
    PARASCAN_CUDA_CHECK(summed_area_table(nullptr, bytes, d_img.data(), w, d_table.data(), pitch, {w, h}, layout));
    device_buffer<char> temp(bytes);
    PARASCAN_CUDA_CHECK(summed_area_table(temp.data(), bytes, d_img.data(), w, d_table.data(), pitch, {w, h}, layout));
    const std::vector<sat_rect> rects = {{0, 0, 0, 0}, {0, 0, w - 1, h - 1}, {5, 7, 5, 7}, {0, 3, 10, 3}, {3, 0, 3, 50},
                                         {w - 1, h - 1, w - 1, h - 1}, {17, 19, 150, 100}};
    device_buffer<sat_rect> d_rects(rects.size());
    device_buffer<std::uint32_t> d_sums(rects.size());
    d_rects.copy_from_host(rects.data(), rects.size());
    d_sums.poison();
    PARASCAN_CUDA_CHECK(sat_rect_sums(d_table.data(), pitch, {w, h}, layout, d_rects.data(), d_sums.data(),
                                      static_cast<std::int64_t>(rects.size())));
    std::vector<std::uint32_t> sums(rects.size());
    d_sums.copy_to_host(sums.data(), rects.size());
    for (std::size_t i = 0; i < rects.size(); ++i) EXPECT_EQ(sums[i], cpu_rect(rects[i])) << "rect " << i;
    for (int radius : {0, 1, 4, 200}) {
      device_buffer<std::uint8_t> d_blur(w * h);
      d_blur.poison();
      PARASCAN_CUDA_CHECK(sat_box_filter(d_table.data(), pitch, {w, h}, layout, radius, d_blur.data(), w));
      std::vector<std::uint8_t> blur(w * h);
      d_blur.copy_to_host(blur.data(), w * h);
      for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x) {
          const sat_rect r{std::max<std::int64_t>(0, x - radius), std::max<std::int64_t>(0, y - radius),
                           std::min(w - 1, x + radius), std::min(h - 1, y + radius)};
          const std::uint64_t area = (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
          ASSERT_EQ(blur[y * w + x], (cpu_rect(r) + area / 2) / area) << "radius " << radius << " at " << y << "," << x;
          if (radius == 0) ASSERT_EQ(blur[y * w + x], img[y * w + x]);
        }
    }
  }
}

}  // namespace
