// Explicit instantiations of expand (allocate): counts → offsets and total, slots → owners.
#include <cstdint>
#include "parascan/device/device_select.cuh"

#define PARASCAN_EXPAND(Count, Offset)                                                                         \
  template cudaError_t parascan::expand_offsets<Count, Offset>(void*, std::size_t&, const Count*, Offset*,     \
                                                               Offset*, std::int64_t, cudaStream_t,            \
                                                               parascan::scan_options);                        \
  template cudaError_t parascan::expand_owners<Count, Offset, std::uint32_t>(                                  \
      void*, std::size_t&, const Count*, const Offset*, std::int64_t, std::uint32_t*, std::int64_t,            \
      cudaStream_t, parascan::scan_options);                                                                   \
  template cudaError_t parascan::expand_owners<Count, Offset, std::int64_t>(                                   \
      void*, std::size_t&, const Count*, const Offset*, std::int64_t, std::int64_t*, std::int64_t,             \
      cudaStream_t, parascan::scan_options);
PARASCAN_EXPAND(std::uint8_t, std::uint32_t)
PARASCAN_EXPAND(std::uint8_t, std::uint64_t)
PARASCAN_EXPAND(std::uint16_t, std::uint32_t)
PARASCAN_EXPAND(std::uint32_t, std::uint32_t)
PARASCAN_EXPAND(std::uint32_t, std::uint64_t)
PARASCAN_EXPAND(std::int32_t, std::int64_t)
PARASCAN_EXPAND(std::uint64_t, std::uint64_t)
PARASCAN_EXPAND(std::int64_t, std::int64_t)
