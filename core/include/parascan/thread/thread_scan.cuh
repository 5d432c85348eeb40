// Thread-level (sequential) reduce and scan over the items a thread holds (in registers, or its run of a
// shared tile).
//
// Every item array is indexed with compile-time constants only (unrolled), so it stays in registers.
// The _n forms take any array-like (items[i] readable and, for scan_n, assignable), such as a thread's
// items left in a shared tile (block_exchange::blocked_view), with the count N given.
#pragma once

namespace parascan::thread {

/// op-reduce of items[0 .. valid) of N: items past `valid` are ignored. valid ≥ 1 for a defined result.
template <bool Full, int N, class T, class Items, class Op>
__device__ __forceinline__ T reduce_n(const Items& items, int valid, Op op) {
  T acc = items[0];
#pragma unroll
  for (int i = 1; i < N; ++i) {
    if (Full || i < valid) acc = op(acc, items[i]);
  }
  return acc;
}

template <bool Full, int N, class T, class Op>
__device__ __forceinline__ T reduce(const T (&items)[N], int valid, Op op) {
  return reduce_n<Full, N, T>(items, valid, op);
}

/// Scan items in place, seeded with `prefix` when has_prefix. Exclusive: items[i] becomes
/// prefix ⊕ items[0..i); the first item has no value when !has_prefix and is left as it was.
/// Inclusive: items[i] becomes prefix ⊕ items[0..i].
template <int N, class T, class Items, class Op>
__device__ __forceinline__ void scan_n(Items&& items, bool exclusive, bool has_prefix, T prefix, Op op) {
  T running = prefix;
  bool running_valid = has_prefix;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const T x = items[i];
    const T next = running_valid ? op(running, x) : x;
    if (exclusive) {
      if (running_valid) items[i] = running;
    } else {
      items[i] = next;
    }
    running = next;
    running_valid = true;
  }
}

template <int N, class T, class Op>
__device__ __forceinline__ void scan(T (&items)[N], bool exclusive, bool has_prefix, T prefix, Op op) {
  scan_n<N>(items, exclusive, has_prefix, prefix, op);
}

}  // namespace parascan::thread
