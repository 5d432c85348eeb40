// Moving a tile between global memory and registers: coalesced (striped) global accesses, a blocked
// register arrangement (each thread owns items_per_thread consecutive items), via padded shared memory.
//
// 1. load: thread t reads items t, t+p, t+2p, … (p threads; one coalesced transaction per warp and
//    step) into shared memory; barrier; each thread reads its items_per_thread consecutive items.
// 2. store: the reverse. Traffic: one read or write of the tile in global memory, two of shared.
// 3. load_vectors / store_vectors: a whole tile of 4-byte items straight from / to a 16-byte aligned
//    address, four items a lane a step (16-byte accesses; lane l of a step holds items 4l..4l+3, which
//    land in four different banks of the padded array, so the shared side stays conflict-free). With
//    them (and the items left in shared memory) the u32 scan at 2^28 ran 4.5% faster on the H100 and 7%
//    on the H200 (performance.md entry 53).
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
    load_striped<FullTile>(smem, loader, tile_base, valid);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) items[i] = blocked(smem)[i];
  }

  /// Step 1's global side alone: items t, t+p, … of the tile into shared memory; no barrier.
  template <bool FullTile, class Loader>
  __device__ static void load_striped(storage& smem, const Loader& loader, std::int64_t tile_base, int valid) {
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) {
      const int k = i * BlockThreads + static_cast<int>(threadIdx.x);
      if (FullTile || k < valid) smem[padded_index(k)] = loader(tile_base + k);
    }
  }

  /// Step 2's global side alone: the first `valid` items from shared memory through store(tile_base + k,
  /// value); the caller has passed a barrier since the tile was last written.
  template <bool FullTile, class Storer>
  __device__ static void store_striped(const storage& smem, const Storer& storer, std::int64_t tile_base, int valid) {
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) {
      const int k = i * BlockThreads + static_cast<int>(threadIdx.x);
      if (FullTile || k < valid) storer(tile_base + k, smem[padded_index(k)]);
    }
  }

  /// This thread's items_per_thread consecutive items in the shared tile, indexed as an array.
  struct blocked_view {
    T* smem;
    __device__ T& operator[](int i) const {
      return smem[padded_index(static_cast<int>(threadIdx.x) * ItemsPerThread + i)];
    }
  };
  __device__ static blocked_view blocked(storage& smem) { return {smem}; }

  /// Whether load_vectors / store_vectors take this tile shape (4-byte items, whole vectors a thread).
  static constexpr bool vectors = sizeof(T) == 4 && ItemsPerThread % 4 == 0;

  /// Whether p may be moved by 16-byte accesses (tile bases are multiples of 4 items when `vectors`).
  __device__ static bool vector_aligned(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0; }

  /// The whole tile at `src` (16-byte aligned) into shared memory in the striped order `load` uses, by
  /// 16-byte loads; no barrier (the caller's follows).
  __device__ static void load_vectors(storage& smem, const T* src) {
    static_assert(vectors, "16-byte moves need 4-byte items, a whole number of vectors a thread");
    const uint4* v = reinterpret_cast<const uint4*>(src);
#pragma unroll
    for (int i = 0; i < ItemsPerThread / 4; ++i) {
      const int j = i * BlockThreads + static_cast<int>(threadIdx.x);
      const uint4 q = v[j];
      smem[padded_index(4 * j)] = as_item(q.x);
      smem[padded_index(4 * j + 1)] = as_item(q.y);
      smem[padded_index(4 * j + 2)] = as_item(q.z);
      smem[padded_index(4 * j + 3)] = as_item(q.w);
    }
  }

  /// The tile of plain items at src + tile_base into shared memory in the striped order: by load_vectors
  /// when the tile is whole, of a vector shape and src + tile_base is aligned, else item by item through
  /// loader(tile_base + k) (load_striped); no barrier. The scan's and the select's tiles come in so.
  template <bool FullTile, class Loader>
  __device__ static void load_tile(storage& smem, const T* src, const Loader& loader, std::int64_t tile_base,
                                   int valid) {
    if constexpr (FullTile && vectors) {
      if (vector_aligned(src + tile_base)) {
        load_vectors(smem, src + tile_base);
        return;
      }
    }
    load_striped<FullTile>(smem, loader, tile_base, valid);
  }

  /// The whole tile from shared memory to `dst` (16-byte aligned) by 16-byte stores; the caller has
  /// passed a barrier since the tile was last written.
  __device__ static void store_vectors(const storage& smem, T* dst) {
    static_assert(vectors, "16-byte moves need 4-byte items, a whole number of vectors a thread");
    uint4* v = reinterpret_cast<uint4*>(dst);
#pragma unroll
    for (int i = 0; i < ItemsPerThread / 4; ++i) {
      const int j = i * BlockThreads + static_cast<int>(threadIdx.x);
      v[j] = make_uint4(as_word(smem[padded_index(4 * j)]), as_word(smem[padded_index(4 * j + 1)]),
                        as_word(smem[padded_index(4 * j + 2)]), as_word(smem[padded_index(4 * j + 3)]));
    }
  }

  /// Store the first `valid` items of the tile through store(tile_base + k, value).
  template <bool FullTile, class Storer>
  __device__ static void store(storage& smem, const Storer& storer, std::int64_t tile_base, int valid,
                               const T (&items)[ItemsPerThread]) {
    __syncthreads();  // the shared buffer may still be read by the previous phase
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) blocked(smem)[i] = items[i];
    __syncthreads();
    store_striped<FullTile>(smem, storer, tile_base, valid);
  }

 private:
  __device__ static T as_item(unsigned w) {
    T v;
    __builtin_memcpy(&v, &w, sizeof v);
    return v;
  }
  __device__ static unsigned as_word(const T& v) {
    unsigned w;
    __builtin_memcpy(&w, &v, sizeof w);
    return w;
  }
};

}  // namespace parascan::block
