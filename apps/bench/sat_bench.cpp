// bench --primitive sat: summed-area tables of u8 images, both methods, beside a CUB-based table.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "runner.hpp"
#include "parascan/sat.hpp"
#include "parascan/validation/device_check.hpp"
#include "parascan/validation/sat_check.hpp"

namespace parascan::app {
namespace {

/// Summed-area table of a side × side u8 image (random bytes) in `layout`. Traffic counted: the
/// floor (image read once, table written once).
template <class Acc>
void sat_case(runner& r, std::int64_t side, sat_layout layout) {
  const std::int64_t n = side * side, s = layout == sat_layout::padded ? 1 : 0;
  const std::int64_t cells = (side + s) * (side + s);
  device_buffer<std::uint8_t> img(n);
  device_buffer<Acc> out(cells), ref(cells);
  PARASCAN_CUDA_CHECK(validation::fill_random_words(reinterpret_cast<std::uint32_t*>(img.data()), n / 4, 7 + side));
  const image_shape shape{side, side};
  const std::size_t pitch = (side + s) * sizeof(Acc);
  const double copy = r.copy_gbs(out.data(), ref.data(), cells * sizeof(Acc));
  const auto cub = [&](void* t, std::size_t& b, validation::cub_count c) {
    return validation::cub_summed_area_table(t, b, img.data(), side, ref.data(), pitch, shape, layout, false, 0, c);
  };
  std::size_t cub_bytes = cub_temp_bytes(cub);
  device_buffer<char> cub_temp(cub_bytes);
  const cub_times cub_t = r.time_cub([&](validation::cub_count c) { PARASCAN_CUDA_CHECK(cub(cub_temp.data(), cub_bytes, c)); });
  const double cub_ms = cub_t.best_ms();
  const double bytes = static_cast<double>(n) + static_cast<double>(cells) * sizeof(Acc);
  const std::string type = sizeof(Acc) == 4 ? "u32" : "u64";
  const std::string shape_name = std::to_string(side) + "^2 u8 " + (s ? "padded" : "inclusive");
  r.add(with_cub({"sat", type, "CUB-based", shape_name, n, bytes, cub_ms, cub_ms, copy, true}, cub_t));
  for (const sat_algorithm algorithm : {sat_algorithm::single_pass, sat_algorithm::three_pass}) {
    std::size_t our_bytes = 0;
    PARASCAN_CUDA_CHECK(
        summed_area_table(nullptr, our_bytes, img.data(), side, out.data(), pitch, shape, layout, false, 0, algorithm));
    device_buffer<char> our_temp(our_bytes);
    out.poison();
    const double ms = r.time([&] {
      PARASCAN_CUDA_CHECK(summed_area_table(our_temp.data(), our_bytes, img.data(), side, out.data(), pitch, shape,
                                            layout, false, 0, algorithm));
    });
    std::int64_t diff = 0;
    PARASCAN_CUDA_CHECK(validation::count_word_differences(reinterpret_cast<std::uint32_t*>(out.data()),
                                                           reinterpret_cast<std::uint32_t*>(ref.data()),
                                                           static_cast<std::size_t>(cells) * sizeof(Acc) / 4, diff));
    r.add(with_cub({"sat", type, std::string(to_string(algorithm)), shape_name, n, bytes, ms, cub_ms, copy, diff == 0},
                   cub_t));
  }
}

}  // namespace

void bench_sat(runner& r, bool quick) {
  const std::vector<std::int64_t> sides = quick ? std::vector<std::int64_t>{1024, 8192}
                                                : std::vector<std::int64_t>{1024, 4096, 8192, 16384};
  for (std::int64_t side : sides) {
    sat_case<std::uint32_t>(r, side, sat_layout::inclusive);
    sat_case<std::uint32_t>(r, side, sat_layout::padded);
    sat_case<std::uint64_t>(r, side, sat_layout::inclusive);
  }
}

}  // namespace parascan::app
