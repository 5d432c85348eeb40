// The CUB-based summed-area table: every row scanned by cub::DeviceScan::InclusiveScanByKey (key =
// row), into a dense buffer, then every column (key = column, the buffer read in column-major order
// through a permutation iterator) into the table. A straightforward composition of CUB's scans, used
// as the reference and as the baseline of the benchmark; not a tuned 2-D algorithm.
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include "parascan/validation/sat_check.hpp"

namespace parascan::validation {
namespace {

struct row_key {
  std::int64_t width;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i / width; }
};
template <class In, class Acc>
struct load_pixel {  // dense index → the pitched image, converted (and squared)
  const In* image;
  std::int64_t width, pitch_elems;
  bool squared;
  __host__ __device__ Acc operator()(std::int64_t i) const {
    const Acc v = static_cast<Acc>(image[(i / width) * pitch_elems + i % width]);
    return squared ? v * v : v;
  }
};
template <class Acc>
struct load_column_major {  // column-major index k → the dense row-scanned buffer
  const Acc* rows;
  std::int64_t width, height;
  __host__ __device__ Acc operator()(std::int64_t k) const { return rows[(k % height) * width + k / height]; }
};
template <class Acc>
struct table_slot {  // column-major index k → the table entry (with the layout's shift)
  Acc* table;
  std::int64_t height, pitch_elems, shift;
  __host__ __device__ Acc& operator()(std::int64_t k) const {
    return table[(k % height + shift) * pitch_elems + k / height + shift];
  }
};
template <class Acc>
struct slot_iterator {  // a minimal output iterator over table_slot
  using iterator_category = std::random_access_iterator_tag;
  using value_type = Acc;
  using difference_type = std::int64_t;
  using pointer = Acc*;
  using reference = Acc&;
  table_slot<Acc> slot;
  std::int64_t k;
  __host__ __device__ Acc& operator*() const { return slot(k); }
  __host__ __device__ Acc& operator[](std::int64_t i) const { return slot(k + i); }
  __host__ __device__ slot_iterator operator+(std::int64_t i) const { return {slot, k + i}; }
  __host__ __device__ slot_iterator& operator+=(std::int64_t i) { k += i; return *this; }
  __host__ __device__ slot_iterator& operator++() { ++k; return *this; }
  __host__ __device__ std::int64_t operator-(const slot_iterator& o) const { return k - o.k; }
};

/// The table with CUB's scans handed `items` (= width × height) as an `int` or an std::int64_t.
template <class In, class Acc, class N>
cudaError_t cub_sat_counted(void* d_temp, std::size_t& temp_bytes, const In* d_image, std::size_t image_pitch,
                            Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout, bool squared,
                            cudaStream_t stream, N items) {
  const std::int64_t w = shape.width, h = shape.height, n = w * h, shift = layout == sat_layout::padded ? 1 : 0;
  const std::int64_t table_elems = static_cast<std::int64_t>(table_pitch / sizeof(Acc));
  thrust::counting_iterator<std::int64_t> idx(0);
  auto row_keys = thrust::make_transform_iterator(idx, row_key{w});
  auto col_keys = thrust::make_transform_iterator(idx, row_key{h});  // k / height = column
  auto pixels = thrust::make_transform_iterator(
      idx, load_pixel<In, Acc>{d_image, w, static_cast<std::int64_t>(image_pitch / sizeof(In)), squared});
  std::size_t row_bytes = 0, col_bytes = 0;
  const std::size_t dense = (static_cast<std::size_t>(n) * sizeof(Acc) + 255) / 256 * 256;
  cudaError_t e = cub::DeviceScan::InclusiveScanByKey(nullptr, row_bytes, row_keys, pixels, static_cast<Acc*>(nullptr),
                                                      ::cuda::std::plus<>{}, items, ::cuda::std::equal_to<>{}, stream);
  if (e != cudaSuccess) return e;
  auto columns = thrust::make_transform_iterator(idx, load_column_major<Acc>{nullptr, w, h});
  slot_iterator<Acc> out{table_slot<Acc>{d_table, h, table_elems, shift}, 0};
  e = cub::DeviceScan::InclusiveScanByKey(nullptr, col_bytes, col_keys, columns, out, ::cuda::std::plus<>{}, items,
                                          ::cuda::std::equal_to<>{}, stream);
  if (e != cudaSuccess) return e;
  const std::size_t need = dense + std::max(row_bytes, col_bytes) + 256;
  if (d_temp == nullptr) {
    temp_bytes = need;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  if (shift && (e = cudaMemset2DAsync(d_table, table_pitch, 0, static_cast<std::size_t>(w + 1) * sizeof(Acc),
                                      static_cast<std::size_t>(h + 1), stream)) != cudaSuccess)
    return e;
  if (n == 0) return cudaSuccess;
  Acc* rows = static_cast<Acc*>(d_temp);
  void* scan_temp = static_cast<char*>(d_temp) + dense;
  std::size_t scan_bytes = need - dense;
  if ((e = cub::DeviceScan::InclusiveScanByKey(scan_temp, scan_bytes, row_keys, pixels, rows, ::cuda::std::plus<>{}, items,
                                               ::cuda::std::equal_to<>{}, stream)) != cudaSuccess)
    return e;
  columns = thrust::make_transform_iterator(idx, load_column_major<Acc>{rows, w, h});
  scan_bytes = need - dense;
  return cub::DeviceScan::InclusiveScanByKey(scan_temp, scan_bytes, col_keys, columns, out, ::cuda::std::plus<>{}, items,
                                             ::cuda::std::equal_to<>{}, stream);
}

}  // namespace

template <class In, class Acc>
cudaError_t cub_summed_area_table(void* d_temp, std::size_t& temp_bytes, const In* d_image, std::size_t image_pitch,
                                  Acc* d_table, std::size_t table_pitch, image_shape shape, sat_layout layout,
                                  bool squared, cudaStream_t stream, cub_count count) {
  return with_cub_count(shape.width * shape.height, count, [&](auto items) {
    return cub_sat_counted(d_temp, temp_bytes, d_image, image_pitch, d_table, table_pitch, shape, layout, squared, stream,
                           items);
  });
}

#define PARASCAN_CUB_SAT(In, Acc)                                                                              \
  template cudaError_t cub_summed_area_table<In, Acc>(void*, std::size_t&, const In*, std::size_t, Acc*,       \
                                                      std::size_t, image_shape, sat_layout, bool, cudaStream_t,    \
                                                      cub_count);
PARASCAN_CUB_SAT(std::uint8_t, std::uint32_t)
PARASCAN_CUB_SAT(std::uint8_t, std::uint64_t)
PARASCAN_CUB_SAT(std::uint8_t, float)
PARASCAN_CUB_SAT(std::uint8_t, double)
PARASCAN_CUB_SAT(std::uint16_t, std::uint32_t)
PARASCAN_CUB_SAT(std::uint16_t, std::uint64_t)
PARASCAN_CUB_SAT(std::uint16_t, float)
PARASCAN_CUB_SAT(std::uint16_t, double)
PARASCAN_CUB_SAT(std::uint32_t, std::uint32_t)
PARASCAN_CUB_SAT(std::uint32_t, std::uint64_t)
PARASCAN_CUB_SAT(std::uint32_t, float)
PARASCAN_CUB_SAT(std::uint32_t, double)
PARASCAN_CUB_SAT(float, float)
PARASCAN_CUB_SAT(float, double)

}  // namespace parascan::validation
