// Explicit instantiations of the summed-area table, rectangle sums and box filter.
#include <cstdint>
#include "parascan/device/device_sat.cuh"

#define PARASCAN_SAT(In, Acc)                                                                                  \
  template cudaError_t parascan::summed_area_table<In, Acc>(void*, std::size_t&, const In*, std::size_t, Acc*, \
                                                            std::size_t, parascan::image_shape,                \
                                                            parascan::sat_layout, bool, cudaStream_t,  \
                                                            parascan::sat_algorithm);
#define PARASCAN_SAT_READERS(Acc)                                                                              \
  template cudaError_t parascan::sat_rect_sums<Acc>(const Acc*, std::size_t, parascan::image_shape,            \
                                                    parascan::sat_layout, const parascan::sat_rect*, Acc*,     \
                                                    std::int64_t, cudaStream_t);                               \
  template cudaError_t parascan::sat_box_filter<Acc, std::uint8_t>(const Acc*, std::size_t,                    \
                                                                   parascan::image_shape, parascan::sat_layout, \
                                                                   int, std::uint8_t*, std::size_t, cudaStream_t); \
  template cudaError_t parascan::sat_box_filter<Acc, std::uint16_t>(const Acc*, std::size_t,                   \
                                                                    parascan::image_shape, parascan::sat_layout, \
                                                                    int, std::uint16_t*, std::size_t, cudaStream_t);

#define PARASCAN_SAT_INTEGER_INPUT(In)                                                                         \
  PARASCAN_SAT(In, std::uint32_t)                                                                              \
  PARASCAN_SAT(In, std::uint64_t)                                                                              \
  PARASCAN_SAT(In, float)                                                                                      \
  PARASCAN_SAT(In, double)
PARASCAN_SAT_INTEGER_INPUT(std::uint8_t)
PARASCAN_SAT_INTEGER_INPUT(std::uint16_t)
PARASCAN_SAT_INTEGER_INPUT(std::uint32_t)
PARASCAN_SAT(float, float)
PARASCAN_SAT(float, double)
PARASCAN_SAT_READERS(std::uint32_t)
PARASCAN_SAT_READERS(std::uint64_t)
PARASCAN_SAT_READERS(float)
PARASCAN_SAT_READERS(double)
