// Device-wide scan: the strategies composed from the kernels of scan_kernels.cuh, the two-phase
// temporary-storage contract, and the definitions of the public API of scan.hpp.
//
// Strategies and their device-memory traffic for n items and T tiles (T = n / tile_items):
//   recursive         scan tiles (read n, write n) + scan of T sums + add back (read n, write n): ~4n
//   reduce_then_scan  reduce tiles (read n) + scan of T sums + rescan seeded (read n, write n):    ~3n
//   single_pass       one scan kernel (read n, write n) + T status words via decoupled look-back: ~2n;
//                     when all T tiles fit on the GPU at once, one cooperative kernel instead (a grid
//                     barrier between the tile sums and the scan: no status reset, one launch)
// The two recursive strategies scan the T tile sums by calling themselves; recursion lives only here,
// in host code. scan_temp_bytes() is the only place that sizes temporary storage: the size query and
// the run carve the same layout from it.
#pragma once
#include <climits>
#include <cstdint>
#include "parascan/device/launch.cuh"
#include "parascan/device/scan_kernels.cuh"
#include "parascan/scan.hpp"

namespace parascan::device {

template <class Acc>
std::int64_t tiles_for(std::int64_t n) {
  return (n + scan_policy<Acc>::tile_items - 1) / scan_policy<Acc>::tile_items;
}

/// The single-pass look-back's temporary storage for `tiles` tiles: the tile status array, then the
/// counter that hands out tile ids in the order blocks reach it (a scan takes it when
/// scan_tiles_from_counter says so; the select never does). One layout for every single-pass kernel.
template <class Acc>
struct look_back_storage {
  tile_status<Acc> status;
  unsigned long long* counter;

  static std::size_t bytes(std::int64_t tiles) {
    return align_up(tile_status<Acc>::bytes(tiles)) + align_up(sizeof(unsigned long long));
  }
  static look_back_storage carve(void* temp, std::int64_t tiles) {
    return {tile_status<Acc>::carve(temp, tiles),
            reinterpret_cast<unsigned long long*>(static_cast<char*>(temp) + align_up(tile_status<Acc>::bytes(tiles)))};
  }
  /// Enqueue the reset of every status to invalid and of the counter to 0.
  cudaError_t init(std::int64_t tiles, cudaStream_t stream, bool synchronous) const;
  /// Enqueue the reset, then the look-back kernel that uses the storage on `grid` blocks, as a
  /// dependent launch where the device has it (sm_90+): its blocks are launched while the reset
  /// runs, and each waits for the reset (wait_for_previous_grid) before it takes a tile. At 2^20
  /// items the scan is a few microseconds, and the launch gap between the two was one of them.
  template <class... Params, class... Args>
  cudaError_t launch(std::int64_t tiles, void (*kernel)(Params...), unsigned grid, unsigned block,
                     cudaStream_t stream, bool synchronous, Args... args) const {
    bool overlap = false;
    cudaError_t e;
    if ((e = init(tiles, stream, synchronous)) != cudaSuccess) return e;
    if (!synchronous && (e = dependent_launch_available(overlap)) != cudaSuccess) return e;
    if ((e = launch_after_previous(overlap, kernel, grid, block, 0, stream, args...)) != cudaSuccess) return e;
    return check_launch(stream, synchronous);
  }
};

/// Temporary bytes a scan of n items needs under strategy s (0 for n == 0).
template <class Acc>
std::size_t scan_temp_bytes(std::int64_t n, device_strategy s) {
  if (n <= 0) return 0;
  const std::int64_t tiles = tiles_for<Acc>(n);
  if (s == device_strategy::single_pass) return look_back_storage<Acc>::bytes(tiles);
  if (tiles == 1) return 0;
  return align_up(static_cast<std::size_t>(tiles) * sizeof(Acc)) + scan_temp_bytes<Acc>(tiles, s);
}


template <class Acc>
cudaError_t look_back_storage<Acc>::init(std::int64_t tiles, cudaStream_t stream, bool synchronous) const {
  const unsigned grid = static_cast<unsigned>((tiles + helper_threads - 1) / helper_threads);
  init_status_kernel<Acc><<<grid, helper_threads, 0, stream>>>(status, tiles, counter);
  return check_launch(stream, synchronous);
}

/// AllAlgorithms = false compiles only the default block algorithm (warp_shuffle), for the primitives
/// composed from the scan (compaction, expand), which would otherwise compile four times as much.
template <class Acc, bool AllAlgorithms = true, class Loader, class Storer, class Op>
cudaError_t dispatch_scan(void* d_temp, std::size_t& temp_bytes, Loader load, Storer store, Acc* d_out_plain,
                          std::int64_t n, Op op, scan_mode<Acc> mode, cudaStream_t stream, scan_options options);

template <block_algorithm Alg, bool AllAlgorithms, class Acc, class Loader, class Storer, class Op>
cudaError_t run_scan(char* temp, Loader load, Storer store, Acc* d_out_plain, std::int64_t n, Op op,
                     scan_mode<Acc> mode, cudaStream_t stream, scan_options options) {
  using policy = scan_policy<Acc>;
  const std::int64_t tiles = tiles_for<Acc>(n);
  const unsigned grid = static_cast<unsigned>(tiles);
  const bool sync = options.debug_synchronous;
  cudaError_t e;

  if (options.strategy == device_strategy::single_pass) {
    const auto storage = look_back_storage<Acc>::carve(temp, tiles);
    // Every tile resident at once (2^22 u32 items on an H100): one cooperative launch, no reset.
    bool launched = false;
    e = try_launch_resident(options.one_launch, launched, scan_resident_kernel<resident_scan_policy<policy>, Alg, Acc, Loader, Storer, Op>,
                            tiles, policy::block_threads, stream, load, store, n, op, mode, storage.status);
    if (e != cudaSuccess) return e;
    if (launched) return check_launch(stream, sync);
    return storage.launch(tiles, scan_tiles_kernel<policy, Alg, prefix_source::look_back, Acc, Loader, Storer, Op>, grid,
                          policy::block_threads, stream, sync, load, store, n, op, mode, static_cast<Acc*>(nullptr),
                          static_cast<const Acc*>(nullptr), storage.status,
                          scan_tiles_from_counter<Acc>(tiles) ? storage.counter : nullptr);
  }

  if (tiles == 1) {  // one tile: its prefix is the init value, if any
    scan_tiles_kernel<policy, Alg, prefix_source::partials, Acc><<<1, policy::block_threads, 0, stream>>>(
        load, store, n, op, mode, nullptr, nullptr, tile_status<Acc>{}, nullptr);
    return check_launch(stream, sync);
  }
  if (options.strategy == device_strategy::recursive && d_out_plain == nullptr) return cudaErrorNotSupported;

  // Step 1: one sum per tile (recursive: while scanning the tiles).
  Acc* sums = reinterpret_cast<Acc*>(temp);
  if (options.strategy == device_strategy::recursive) {
    scan_tiles_kernel<policy, Alg, prefix_source::none, Acc><<<grid, policy::block_threads, 0, stream>>>(
        load, store, n, op, mode, sums, nullptr, tile_status<Acc>{}, nullptr);
  } else {
    reduce_tiles_kernel<policy, Alg, Acc><<<grid, policy::block_threads, 0, stream>>>(load, n, op, sums);
  }
  if ((e = check_launch(stream, sync)) != cudaSuccess) return e;

  // Step 2: the tile sums, scanned in place (exclusive, with the caller's init): the tile prefixes.
  std::size_t inner_bytes = scan_temp_bytes<Acc>(tiles, options.strategy);
  e = dispatch_scan<Acc, AllAlgorithms>(temp + align_up(static_cast<std::size_t>(tiles) * sizeof(Acc)), inner_bytes,
                         pointer_loader<Acc, Acc>{sums}, pointer_storer<Acc>{sums}, sums, tiles, op,
                         scan_mode<Acc>{true, mode.has_init, mode.init}, stream, options);
  if (e != cudaSuccess) return e;

  // Step 3: apply the prefixes.
  if (options.strategy == device_strategy::recursive) {
    add_tile_prefix_kernel<policy, Acc><<<grid, policy::block_threads, 0, stream>>>(d_out_plain, n, op, sums,
                                                                                    mode.exclusive, mode.has_init);
  } else {
    scan_tiles_kernel<policy, Alg, prefix_source::partials, Acc><<<grid, policy::block_threads, 0, stream>>>(
        load, store, n, op, mode, nullptr, sums, tile_status<Acc>{}, nullptr);
  }
  return check_launch(stream, sync);
}

template <class Acc, bool AllAlgorithms, class Loader, class Storer, class Op>
cudaError_t dispatch_scan(void* d_temp, std::size_t& temp_bytes, Loader load, Storer store, Acc* d_out_plain,
                          std::int64_t n, Op op, scan_mode<Acc> mode, cudaStream_t stream, scan_options options) {
  if (n < 0) return cudaErrorInvalidValue;
  const std::size_t need = scan_temp_bytes<Acc>(n, options.strategy);
  if (d_temp == nullptr) {
    temp_bytes = need > 0 ? need : 1;
    return cudaSuccess;
  }
  if (temp_bytes < need) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  if (tiles_for<Acc>(n) > INT_MAX) return cudaErrorInvalidValue;
  char* temp = static_cast<char*>(d_temp);
  if constexpr (!AllAlgorithms) {
    return run_scan<block_algorithm::warp_shuffle, false>(temp, load, store, d_out_plain, n, op, mode, stream, options);
  } else {
    switch (options.algorithm) {
      case block_algorithm::hillis_steele:
        return run_scan<block_algorithm::hillis_steele, true>(temp, load, store, d_out_plain, n, op, mode, stream, options);
      case block_algorithm::blelloch_padded:
        return run_scan<block_algorithm::blelloch_padded, true>(temp, load, store, d_out_plain, n, op, mode, stream, options);
      case block_algorithm::brent_kung:
        return run_scan<block_algorithm::brent_kung, true>(temp, load, store, d_out_plain, n, op, mode, stream, options);
      case block_algorithm::warp_shuffle:
        return run_scan<block_algorithm::warp_shuffle, true>(temp, load, store, d_out_plain, n, op, mode, stream, options);
    }
  }
  return cudaErrorInvalidValue;
}

}  // namespace parascan::device

namespace parascan {

template <class In, class Out, class Op>
cudaError_t exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                           Op op, Out init, cudaStream_t stream, scan_options options) {
  return device::dispatch_scan<Out>(d_temp, temp_bytes, device::pointer_loader<In, Out>{d_in},
                                    device::pointer_storer<Out>{d_out}, d_out, n, op,
                                    device::scan_mode<Out>{true, true, init}, stream, options);
}

template <class In, class Out, class Op>
cudaError_t inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out, std::int64_t n,
                           Op op, cudaStream_t stream, scan_options options) {
  return device::dispatch_scan<Out>(d_temp, temp_bytes, device::pointer_loader<In, Out>{d_in},
                                    device::pointer_storer<Out>{d_out}, d_out, n, op,
                                    device::scan_mode<Out>{false, false, Out{}}, stream, options);
}

template <class In, class Out, class Op>
cudaError_t inclusive_scan_init(void* d_temp, std::size_t& temp_bytes, const In* d_in, Out* d_out,
                                std::int64_t n, Op op, Out init, cudaStream_t stream, scan_options options) {
  return device::dispatch_scan<Out>(d_temp, temp_bytes, device::pointer_loader<In, Out>{d_in},
                                    device::pointer_storer<Out>{d_out}, d_out, n, op,
                                    device::scan_mode<Out>{false, true, init}, stream, options);
}

}  // namespace parascan

/// Explicit instantiation of the three plain scans for (In, Out, Op).
#define PARASCAN_INSTANTIATE_SCAN(In, Out, Op)                                                              \
  template cudaError_t parascan::exclusive_scan<In, Out, Op>(void*, std::size_t&, const In*, Out*,          \
                                                             std::int64_t, Op, Out, cudaStream_t,           \
                                                             parascan::scan_options);                       \
  template cudaError_t parascan::inclusive_scan<In, Out, Op>(void*, std::size_t&, const In*, Out*,          \
                                                             std::int64_t, Op, cudaStream_t,                \
                                                             parascan::scan_options);                       \
  template cudaError_t parascan::inclusive_scan_init<In, Out, Op>(void*, std::size_t&, const In*, Out*,     \
                                                                  std::int64_t, Op, Out, cudaStream_t,      \
                                                                  parascan::scan_options);
