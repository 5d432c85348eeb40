// Many short rows (2..64 items each, one after another), a thread a row: a block stages the rows it
// owns in padded shared memory with coalesced loads, each thread sorts its row's (image, position)
// pairs in registers (thread/thread_sort.cuh), and results go back through shared memory with
// coalesced stores. Used by the segmented sort of rows (device/segmented_sort/thread_rows.cuh) and
// the top-k of short rows (device/topk/thread_rows.cuh).
//
// Why a thread a row: a warp of lanes a row (warp/warp_sort.cuh) spends a shuffle pair per
// compare-exchange step and a loop trip per 32 items; a thread's network is register work only, and
// the global traffic is one coalesced read and one coalesced write of each item.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include "parascan/block/smem_padding.cuh"
#include "parascan/thread/thread_sort.cuh"

namespace parascan::block {

template <int Threads, int P>
struct short_rows {
  static constexpr int tile_items = Threads * P;  // the most items a block's rows hold
  template <class T>
  using storage = T[padded_size(tile_items)];

  /// Rows row0 .. row0 + Threads (those below `rows`) of `length` items from src into `staged`,
  /// coalesced; the number of items staged.
  template <class T>
  __device__ static int stage(const T* src, std::int64_t row0, std::int64_t rows, int length, T* staged) {
    const std::int64_t have = rows - row0 < Threads ? rows - row0 : Threads;
    const int items = static_cast<int>(have) * length;
    const T* from = src + row0 * length;
    for (int i = static_cast<int>(threadIdx.x); i < items; i += Threads) staged[padded_index(i)] = from[i];
    return items;
  }

  /// The first `items` staged items back to dst + row0 · length (converted to D), coalesced.
  template <class T, class D>
  __device__ static void unstage(const T* staged, int items, std::int64_t row0, int length, D* dst) {
    D* to = dst + row0 * length;
    for (int i = static_cast<int>(threadIdx.x); i < items; i += Threads) to[i] = static_cast<D>(staged[padded_index(i)]);
  }

  /// staged[begin + j] = staged[begin + from[j]] for j < length: this thread's row permuted in place
  /// (every item read before any is written), through `moved`, registers the caller gives: the keys'
  /// sort images, dead by then, for the keys. A fresh array here took the keys-only kernels from 48 to
  /// 64 registers at P = 16 and from 95 to 124 at P = 32, and rows of 32 from 0.116 to 0.146 ms (H200,
  /// docs/performance.md entry 40).
  template <class T>
  __device__ static void permute_row(T* staged, int begin, int length, const unsigned (&from)[P], T (&moved)[P]) {
#pragma unroll
    for (int j = 0; j < P; ++j)
      if (j < length) moved[j] = staged[padded_index(begin + static_cast<int>(from[j]))];
#pragma unroll
    for (int j = 0; j < P; ++j)
      if (j < length) staged[padded_index(begin + j)] = moved[j];
  }

  /// This thread's row (staged at begin, `length` ≤ P items) as images sorted ascending with their
  /// positions in the row: image[j] the j-th smallest, from[j] its position (ties by position, so
  /// stable). Entries j ≥ length hold the largest image and positions ≥ length.
  template <class U, class ImageOf>
  __device__ static void sort_row(const U* staged, int begin, int length, const ImageOf& image_of, U (&image)[P],
                                  unsigned (&from)[P]) {
#pragma unroll
    for (int j = 0; j < P; ++j) {
      image[j] = j < length ? image_of(staged[padded_index(begin + j)]) : static_cast<U>(~U(0));
      from[j] = static_cast<unsigned>(j);
    }
    thread::bitonic_sort<P>(image, from);
  }
};

/// The most items of a row a thread takes (the largest network of with_network_size).
constexpr int short_rows_max = 32;

/// Threads a block for rows of up to P items whose items stage KeyBytes + ValueBytes each (ValueBytes 0:
/// keys only): a tile of 4096 items when that is at most 8 bytes (32 KB of shared memory), else 2048;
/// at most 256 threads.
template <int P, std::size_t KeyBytes, std::size_t ValueBytes>
constexpr int short_rows_threads() {
  constexpr int tile = KeyBytes + ValueBytes <= 8 ? 4096 : 2048;
  return tile / P < 256 ? tile / P : 256;
}

/// Calls go(std::integral_constant<int, P>{}) for P the least power of two ≥ length, 2 ≤ P ≤ 32: the
/// network size a row of `length` items (2..32) takes.
template <class Go>
void with_network_size(std::int64_t length, Go&& go) {
  if (length <= 2) go(std::integral_constant<int, 2>{});
  else if (length <= 4) go(std::integral_constant<int, 4>{});
  else if (length <= 8) go(std::integral_constant<int, 8>{});
  else if (length <= 16) go(std::integral_constant<int, 16>{});
  else go(std::integral_constant<int, 32>{});
}

}  // namespace parascan::block
