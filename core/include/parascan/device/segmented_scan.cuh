// Segmented scans with head flags, composed from the plain scan: the scan runs over (head, value)
// pairs with the segmented operator (a non-commutative, associative lift of op; Blelloch 1990 §1.5):
//     (ha, a) ⊕ (hb, b) = hb ? (1, b) : (ha | hb, a ⊕ b)
// Exclusive with init: a head's value enters as init ⊕ x and the scan is seeded with (1, init), so
// every element gets init ⊕ (its segment's items before it); a head itself gets init.
#pragma once
#include <cstdint>
#include "parascan/device/device_scan.cuh"

namespace parascan::device {

template <class T>
struct segmented_value {
  T value;
  std::uint32_t head;
};

template <class Op>
struct segmented_op {
  Op op;
  template <class T>
  __device__ __forceinline__ segmented_value<T> operator()(const segmented_value<T>& a,
                                                           const segmented_value<T>& b) const {
    return b.head ? b : segmented_value<T>{op(a.value, b.value), a.head};
  }
};

/// Where segments start: a byte per item (any non-zero byte is a head)...
struct flag_heads {
  const std::uint8_t* flags;
  __device__ __forceinline__ bool operator()(std::int64_t i) const { return flags[i] != 0; }
};
/// ...or every `length`-th item (equal rows, no flag array: axis_scan.cuh).
struct row_heads {
  std::int64_t length;
  __device__ __forceinline__ bool operator()(std::int64_t i) const {
    if (length <= UINT32_MAX && i <= UINT32_MAX) return static_cast<std::uint32_t>(i) % static_cast<std::uint32_t>(length) == 0;
    return i % length == 0;  // 64-bit remainder: several times the instructions
  }
};

template <class In, class Out, class Op, class Heads = flag_heads>
struct segmented_loader {
  const In* in;
  Heads heads;
  Op op;
  bool fold_init;
  Out init;
  __device__ __forceinline__ segmented_value<Out> operator()(std::int64_t i) const {
    const Out x = static_cast<Out>(in[i]);
    const bool head = heads(i);
    return {head && fold_init ? op(init, x) : x, head ? 1u : 0u};
  }
};

template <class Out, class Heads = flag_heads>
struct segmented_storer {
  Out* out;
  Heads heads;  // exclusive: heads receive init
  bool exclusive;
  Out init;
  __device__ __forceinline__ void operator()(std::int64_t i, const segmented_value<Out>& v) const {
    out[i] = (exclusive && heads(i)) ? init : v.value;
  }
};

}  // namespace parascan::device

namespace parascan {

template <class In, class Out, class Op>
cudaError_t segmented_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                     const std::uint8_t* d_head_flags, Out* d_out, std::int64_t n, Op op,
                                     Out init, cudaStream_t stream, scan_options options) {
  using pair = device::segmented_value<Out>;
  return device::dispatch_scan<pair>(d_temp, temp_bytes,
                                     device::segmented_loader<In, Out, Op>{d_in, {d_head_flags}, op, true, init},
                                     device::segmented_storer<Out>{d_out, {d_head_flags}, true, init}, nullptr, n,
                                     device::segmented_op<Op>{op}, device::scan_mode<pair>{true, true, pair{init, 1u}},
                                     stream, options);
}

template <class In, class Out, class Op>
cudaError_t segmented_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const In* d_in,
                                     const std::uint8_t* d_head_flags, Out* d_out, std::int64_t n, Op op,
                                     cudaStream_t stream, scan_options options) {
  using pair = device::segmented_value<Out>;
  return device::dispatch_scan<pair>(d_temp, temp_bytes,
                                     device::segmented_loader<In, Out, Op>{d_in, {d_head_flags}, op, false, Out{}},
                                     device::segmented_storer<Out>{d_out, {d_head_flags}, false, Out{}}, nullptr, n,
                                     device::segmented_op<Op>{op}, device::scan_mode<pair>{false, false, pair{}},
                                     stream, options);
}

}  // namespace parascan

#define PARASCAN_INSTANTIATE_SEGMENTED_SCAN(In, Out, Op)                                                     \
  template cudaError_t parascan::segmented_exclusive_scan<In, Out, Op>(                                      \
      void*, std::size_t&, const In*, const std::uint8_t*, Out*, std::int64_t, Op, Out, cudaStream_t,        \
      parascan::scan_options);                                                                               \
  template cudaError_t parascan::segmented_inclusive_scan<In, Out, Op>(                                      \
      void*, std::size_t&, const In*, const std::uint8_t*, Out*, std::int64_t, Op, cudaStream_t,             \
      parascan::scan_options);
