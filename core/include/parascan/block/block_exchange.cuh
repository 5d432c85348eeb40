// Moving a tile between global memory and registers: coalesced (striped) global accesses, a blocked
// register arrangement (each thread owns items_per_thread consecutive items), via padded shared memory.
//
// 1. load: thread t reads items t, t+p, t+2p, … (p threads; one coalesced transaction per warp and
//    step) into shared memory; barrier; each thread reads its items_per_thread consecutive items.
// 2. store: the reverse. Traffic: one read or write of the tile in global memory, two of shared.
#pragma once
#include <cstdint>
#include "parascan/block/smem_padding.cuh"

namespace parascan::block {

template <class T, int BlockThreads, int ItemsPerThread>
struct block_exchange {
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  using storage = T[padded_size(tile_items)];

  /// Load `valid` items (≤ tile) from load(tile_base + k); items past `valid` are left unset.
  template <bool FullTile, class Loader>
  __device__ static void load(storage& smem, const Loader& loader, std::int64_t tile_base, int valid,
                              T (&items)[ItemsPerThread]) {
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) {
      const int k = i * BlockThreads + static_cast<int>(threadIdx.x);
      if (FullTile || k < valid) smem[padded_index(k)] = loader(tile_base + k);
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) {
      items[i] = smem[padded_index(static_cast<int>(threadIdx.x) * ItemsPerThread + i)];
    }
  }

  /// Store the first `valid` items of the tile through store(tile_base + k, value).
  template <bool FullTile, class Storer>
  __device__ static void store(storage& smem, const Storer& storer, std::int64_t tile_base, int valid,
                               const T (&items)[ItemsPerThread]) {
    __syncthreads();  // the shared buffer may still be read by the previous phase
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) {
      smem[padded_index(static_cast<int>(threadIdx.x) * ItemsPerThread + i)] = items[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) {
      const int k = i * BlockThreads + static_cast<int>(threadIdx.x);
      if (FullTile || k < valid) storer(tile_base + k, smem[padded_index(k)]);
    }
  }
};

}  // namespace parascan::block
