// Explicit instantiations: top-k of rows of keys of 1, 2, 4 or 8 bytes.
#include <cstdint>
#include "parascan/device/device_topk.cuh"
PARASCAN_INSTANTIATE_TOPK(std::uint8_t)
PARASCAN_INSTANTIATE_TOPK(std::uint16_t)
PARASCAN_INSTANTIATE_TOPK(std::uint32_t)
PARASCAN_INSTANTIATE_TOPK(std::uint64_t)
