// Top-k of every row: the k largest (or smallest) keys of each of `rows` rows of `length` keys, with
// their positions in the row — torch.topk's shape. Host API; definitions in device/device_topk.cuh.
//
//   out_keys[r·k + j], out_indices[r·k + j]   the j-th chosen key of row r and its position in the row
//
// Order of the keys is the radix sort's (CUB's: floats with −0.0 = +0.0, NaNs by bit pattern beyond
// ±inf). Ties at the k-th key are broken by position: the earliest are chosen. sorted = true: each row's
// k in order (largest first when largest, ties by position); false: in row order (by position).
// Mechanism: rows shorter than 8192 keys (and more than 512 rows shorter than 128 KB) take a block per
// row that selects the k-th key by radix select (block/block_radix_select.cuh, 8-bit digits, the row
// cached in shared memory when it fits) and lists the chosen in row order. Other rows
// (device/topk/filter.cuh) are read twice by several blocks a row: a histogram of the top 11 bits of
// the keys, then a filter that keeps the keys below the k-th key's digit and lists those of that digit
// as candidates; up to two more such rounds run over the candidates while they number 4096 or more; a
// block a row selects among the last candidates (the whole row when more than a quarter of it shares
// the k-th key's top digit), and the k positions of each row are sorted. sorted output sorts the k per
// row with the segmented sort. Rows of up to 2^31 keys; 0 ≤ k ≤ length. Temporary storage: the filter
// path takes 24 KB a row of counters and two lists of 4 bytes a candidate (a quarter of the row, at
// least 8192). Two-phase temporary storage as scan.hpp, stream-ordered, no host synchronisation
// (capturable in a CUDA graph).
#pragma once
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include "parascan/radix_sort.hpp"

namespace parascan {

struct topk_options {
  bool largest = true;   ///< false: the k smallest
  bool sorted = true;    ///< false: the chosen in row order
  bool debug_synchronous = false;
};

/// Keys of 1, 2, 4 or 8 bytes as raw bits (`kind` says how they order).
template <class Bits>
cudaError_t topk_bits(void* d_temp, std::size_t& temp_bytes, const Bits* d_keys, std::int64_t rows, std::int64_t length,
                      std::int64_t k, key_kind kind, Bits* d_out_keys, std::int64_t* d_out_indices,
                      topk_options options = {}, cudaStream_t stream = 0);

template <class Key>
cudaError_t topk(void* d_temp, std::size_t& temp_bytes, const Key* d_keys, std::int64_t rows, std::int64_t length,
                 std::int64_t k, Key* d_out_keys, std::int64_t* d_out_indices, topk_options options = {},
                 cudaStream_t stream = 0) {
  using bits = typename key_bits_of<Key>::type;
  return topk_bits<bits>(d_temp, temp_bytes, reinterpret_cast<const bits*>(d_keys), rows, length, k, kind_of_key<Key>(),
                         reinterpret_cast<bits*>(d_out_keys), d_out_indices, options, stream);
}

}  // namespace parascan
