// Rows longer than a tile, fewer than the lanes-a-row kernel wants (device_axis_scan.cuh), in one pass:
// the rows' tiles laid end to end in one decoupled look-back scan (scan_kernels.cuh,
// prefix_source::look_back_lines), each tile looking back only as far as its row's first tile, which
// starts from the init value. Each row takes 2^shift tiles of a virtual index space (the least power of
// two that holds it, so that a tile's row is a shift away); items past the row's end load as the
// operator's identity and are not stored, and tiles wholly past it end before loading.
// Traffic: each item read and written once (2n), one launch after the status reset, against the 3n and
// three launches of reduce-then-scan over row tiles (row_tile_scan.cuh, which the other strategies keep).
#pragma once
#include <climits>
#include <cstdint>
#include "parascan/axis_scan.hpp"
#include "parascan/device/device_scan.cuh"

namespace parascan::device {

/// Where virtual item v of a lines layout lies: its row and its offset in the row (≥ extent: padding).
template <int TileItems>
struct line_place {
  std::int64_t row, offset;
  __device__ __forceinline__ line_place(std::int64_t v, int shift) {
    const std::int64_t tile = v / TileItems;
    row = tile >> shift;
    offset = (tile - (row << shift)) * TileItems + (v - tile * TileItems);
  }
};

template <class In, class Acc, int TileItems>
struct line_loader {
  const In* in;
  std::int64_t extent;
  int shift;
  Acc identity;
  __device__ __forceinline__ Acc operator()(std::int64_t v) const {
    const line_place<TileItems> p(v, shift);
    return p.offset < extent ? static_cast<Acc>(in[p.row * extent + p.offset]) : identity;
  }
};

template <class Acc, int TileItems>
struct line_storer {
  Acc* out;
  std::int64_t extent;
  int shift;
  __device__ __forceinline__ void operator()(std::int64_t v, const Acc& value) const {
    const line_place<TileItems> p(v, shift);
    if (p.offset < extent) out[p.row * extent + p.offset] = value;
  }
};

/// The tiles a row of `extent` items takes in the lines layout, as a power of two (its log2).
template <class Acc>
int line_shift(std::int64_t extent) {
  const std::int64_t tiles = (extent + scan_policy<Acc>::tile_items - 1) / scan_policy<Acc>::tile_items;
  int shift = 0;
  while ((std::int64_t{1} << shift) < tiles) ++shift;
  return shift;
}

template <class Acc>
std::size_t line_scan_temp_bytes(axis_shape s) {
  return look_back_storage<Acc>::bytes(s.outer << line_shift<Acc>(s.extent));
}

/// Every row of s (inner == 1) scanned on its own, single pass; `identity` is op's. Temporary storage:
/// line_scan_temp_bytes.
template <class In, class Out, class Op>
cudaError_t line_scan(char* temp, const In* in, Out* out, axis_shape s, Op op, scan_mode<Out> mode, Out identity,
                      cudaStream_t stream, bool sync) {
  using policy = scan_policy<Out>;
  constexpr int tile_items = policy::tile_items;
  const int shift = line_shift<Out>(s.extent);
  const std::int64_t tiles = s.outer << shift;
  if (tiles > INT_MAX) return cudaErrorInvalidValue;
  mode.line_shift = shift;
  mode.line_extent = s.extent;
  const auto storage = look_back_storage<Out>::carve(temp, tiles);
  using loader = line_loader<In, Out, tile_items>;
  using storer = line_storer<Out, tile_items>;
  return storage.launch(tiles,
                        scan_tiles_kernel<policy, block_algorithm::warp_shuffle, prefix_source::look_back_lines, Out,
                                          loader, storer, Op>,
                        static_cast<unsigned>(tiles), policy::block_threads, stream, sync,
                        loader{in, s.extent, shift, identity}, storer{out, s.extent, shift}, tiles * tile_items, op,
                        mode, static_cast<Out*>(nullptr), static_cast<const Out*>(nullptr), storage.status,
                        scan_tiles_from_counter<Out>(tiles) ? storage.counter : nullptr);
}

}  // namespace parascan::device
