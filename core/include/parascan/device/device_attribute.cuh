// A device attribute of the current device, remembered per device (launch.cuh's cache): the
// segmented sort's SM count, the top-k's shared-memory limit.
#pragma once
#include <cstdint>
#include "parascan/device/launch.cuh"

namespace parascan::device {

/// A device attribute of the current device, asked of the runtime once per device; `key` tells the
/// callers' attributes apart in the cache (negative: each caller its own).
inline cudaError_t remembered_attribute(cudaDeviceAttr attribute, int key, std::int64_t& value) {
  return launch_detail::remembered(nullptr, key, value, [attribute](int device, std::int64_t& v) {
    int n = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&n, attribute, device);
    v = n;
    return e;
  });
}

}  // namespace parascan::device
