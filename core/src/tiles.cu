// The tile sizes of the scan policy, for host code that needs them (edge-size tests, benchmarks).
#include <cstdint>
#include "parascan/device/scan_policy.cuh"
#include "parascan/device/segmented_scan.cuh"
#include "parascan/scan.hpp"

namespace parascan {

namespace {
template <class Out>
int tile_of(bool segmented) {
  return segmented ? device::scan_policy<device::segmented_value<Out>>::tile_items : device::scan_policy<Out>::tile_items;
}
}  // namespace

int scan_tile_items(std::size_t out_bytes, bool segmented) {
  switch (out_bytes) {
    case 1: return tile_of<std::uint8_t>(segmented);
    case 2: return tile_of<std::uint16_t>(segmented);
    case 4: return tile_of<std::uint32_t>(segmented);
    default: return tile_of<std::uint64_t>(segmented);
  }
}

}  // namespace parascan
