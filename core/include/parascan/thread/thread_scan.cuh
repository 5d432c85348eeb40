// Thread-level (sequential) reduce and scan over the items a thread holds in registers.
//
// Every item array is indexed with compile-time constants only (unrolled), so it stays in registers.
#pragma once

namespace parascan::thread {

/// op-reduce of items[0 .. valid): items past `valid` are ignored. valid ≥ 1 for a defined result.
template <bool Full, int N, class T, class Op>
__device__ __forceinline__ T reduce(const T (&items)[N], int valid, Op op) {
  T acc = items[0];
#pragma unroll
  for (int i = 1; i < N; ++i) {
    if (Full || i < valid) acc = op(acc, items[i]);
  }
  return acc;
}

/// Scan items in place, seeded with `prefix` when has_prefix. Exclusive: items[i] becomes
/// prefix ⊕ items[0..i); the first item has no value when !has_prefix and is left as it was.
/// Inclusive: items[i] becomes prefix ⊕ items[0..i].
template <int N, class T, class Op>
__device__ __forceinline__ void scan(T (&items)[N], bool exclusive, bool has_prefix, T prefix, Op op) {
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

}  // namespace parascan::thread
