// Status words for the decoupled look-back (Merrill & Garland 2016), every layout in one place, and
// the one memory-ordering idiom they are read and written with (the walk over them is look_back.cuh).
//
// Each tile publishes first its aggregate (status A) and, once its exclusive prefix is known, its
// inclusive prefix (status P). Readers spin while a status is invalid (X).
//
// Memory ordering, one rule: a word that carries its own value is written and read whole with
// relaxed gpu-scope accesses (st/ld.relaxed.gpu: single-copy atomic, no fence needed, since nothing
// else is read on its word's say-so); a flag that vouches for values stored apart from it is stored
// with release after them and loaded with acquire before them.
//   packed:  a value of ≤ 4 bytes and its state in one 64-bit word (scan, select);
//   wide:    an 8-byte value and its state in one aligned 16-byte word, one vector access (as CUB's
//            ScanTileState does on sm_70 and later: aligned 16-byte accesses are not torn there);
//   split:   larger values in two arrays (aggregate, inclusive) beside a flag array; each value slot
//            is written once, so a reader never sees a value change under it;
//   counted: Onesweep's 32-bit word per (tile, digit), the state in the top 2 bits, a count below;
//   vectors: the summed-area table's flag per tile beside 32 lanes' vectors of values.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector_types.h>

namespace parascan::device {

enum tile_state : unsigned { state_invalid = 0, state_aggregate = 1, state_prefix = 2 };

// The memory-ordering idiom (above).
__device__ __forceinline__ std::uint32_t load_relaxed(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ std::uint64_t load_relaxed(const std::uint64_t* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(std::uint64_t* p, std::uint64_t v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(static_cast<unsigned long long>(v)) : "memory");
}
__device__ __forceinline__ ulonglong2 load_relaxed(const ulonglong2* p) {
  ulonglong2 v;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(ulonglong2* p, ulonglong2 v) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(v.x), "l"(v.y) : "memory");
}
__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/// How a tile's status travels: with a value of ≤ 4 bytes in one 64-bit word, with an 8-byte value
/// in one 16-byte word, or (larger values) as a flag beside two value arrays.
enum class status_words { packed, wide, split };
template <class T>
constexpr status_words status_words_for = sizeof(T) <= 4 ? status_words::packed
                                          : sizeof(T) == 8 ? status_words::wide
                                                           : status_words::split;

template <class T, status_words Words = status_words_for<T>>
struct tile_status;

/// 8-byte values: status and value in one aligned 16-byte word.
template <class T>
struct tile_status<T, status_words::wide> {
  ulonglong2* words;

  static std::size_t bytes(std::int64_t tiles) { return static_cast<std::size_t>(tiles) * sizeof(ulonglong2); }
  static tile_status carve(void* p, std::int64_t) { return {static_cast<ulonglong2*>(p)}; }

  __device__ void init(std::int64_t tile) const { words[tile] = make_ulonglong2(0, 0); }
  __device__ void publish(std::int64_t tile, unsigned state, const T& v) const {
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(T));
    store_relaxed(words + tile, make_ulonglong2(state, bits));
  }
  __device__ void read(std::int64_t tile, unsigned& state, T& v) const {
    const ulonglong2 w = load_relaxed(words + tile);
    state = static_cast<unsigned>(w.x);
    memcpy(&v, &w.y, sizeof(T));
  }
};

template <class T>
struct tile_status<T, status_words::packed> {
  std::uint64_t* words;

  static std::size_t bytes(std::int64_t tiles) { return static_cast<std::size_t>(tiles) * sizeof(std::uint64_t); }
  static tile_status carve(void* p, std::int64_t) { return {static_cast<std::uint64_t*>(p)}; }

  __device__ void init(std::int64_t tile) const { words[tile] = 0; }
  __device__ void publish(std::int64_t tile, unsigned state, const T& v) const {
    std::uint32_t bits = 0;
    memcpy(&bits, &v, sizeof(T));
    const std::uint64_t w = (static_cast<std::uint64_t>(state) << 32) | bits;
    store_relaxed(words + tile, w);
  }
  __device__ void read(std::int64_t tile, unsigned& state, T& v) const {
    const std::uint64_t w = load_relaxed(words + tile);
    state = static_cast<unsigned>(w >> 32);
    const std::uint32_t bits = static_cast<std::uint32_t>(w);
    memcpy(&v, &bits, sizeof(T));
  }
};

template <class T>
struct tile_status<T, status_words::split> {
  static_assert(sizeof(T) % 4 == 0, "unpacked tile values move as 32-bit words");
  static constexpr int words_per_value = sizeof(T) / 4;
  unsigned* flags;
  unsigned* aggregates;  // words_per_value words per tile
  unsigned* inclusives;

  static std::size_t bytes(std::int64_t tiles) {
    return static_cast<std::size_t>(tiles) * (sizeof(unsigned) + 2 * sizeof(T));
  }
  static tile_status carve(void* p, std::int64_t tiles) {
    auto* base = static_cast<unsigned*>(p);
    return {base, base + tiles, base + tiles + tiles * words_per_value};
  }

  __device__ void init(std::int64_t tile) const { flags[tile] = state_invalid; }
  __device__ void publish(std::int64_t tile, unsigned state, const T& v) const {
    unsigned w[words_per_value];
    memcpy(w, &v, sizeof(T));
    unsigned* dst = (state == state_aggregate ? aggregates : inclusives) + tile * words_per_value;
#pragma unroll
    for (int i = 0; i < words_per_value; ++i) __stcg(dst + i, w[i]);
    store_release(flags + tile, state);
  }
  __device__ void read(std::int64_t tile, unsigned& state, T& v) const {
    state = load_acquire(flags + tile);
    if (state == state_invalid) return;
    const unsigned* src = (state == state_aggregate ? aggregates : inclusives) + tile * words_per_value;
    unsigned w[words_per_value];
#pragma unroll
    for (int i = 0; i < words_per_value; ++i) w[i] = __ldcg(src + i);
    memcpy(&v, w, sizeof(T));
  }
};

/// Onesweep's status: one 32-bit word per (tile, digit), the state in the top 2 bits and the digit's
/// key count below (so a launch covers at most 2^30 − 1 keys of one digit).
struct counted_status {
  static constexpr unsigned state_shift = 30, count_mask = (1u << state_shift) - 1u;
  __device__ static void publish(unsigned* word, unsigned state, unsigned count) {
    store_relaxed(word, (state << state_shift) | count);
  }
  __device__ static unsigned read(const unsigned* word, unsigned& count) {
    const unsigned w = load_relaxed(word);
    count = w & count_mask;
    return w >> state_shift;
  }
};

/// The summed-area table's status: flags[t] is the state of tile t; lane l's V values are at
/// aggregates/inclusives[(t · 32 + l) · V + j] (8·k bytes, aligned: one or a few vector accesses
/// through L2).
template <class Acc, int V>
struct tile_vectors {
  unsigned* flags;
  Acc* aggregates;
  Acc* inclusives;

  /// Stores the lane's V values, then (lane 0) the flag with release semantics: the warp barrier
  /// orders every lane's stores before it, so a reader that acquires the flag sees them all.
  __device__ __forceinline__ void publish(std::int64_t tile, unsigned state, const Acc (&v)[V], int lane) const {
    Acc* dst = (state == state_aggregate ? aggregates : inclusives) + (tile * 32 + lane) * V;
    if constexpr (V * sizeof(Acc) % 16 == 0) {
      uint4 w[V * sizeof(Acc) / 16];
      memcpy(w, v, sizeof(v));
#pragma unroll
      for (int i = 0; i < static_cast<int>(V * sizeof(Acc) / 16); ++i) __stcg(reinterpret_cast<uint4*>(dst) + i, w[i]);
    } else {
      static_assert(V * sizeof(Acc) == 8);
      uint2 w;
      memcpy(&w, v, sizeof(v));
      __stcg(reinterpret_cast<uint2*>(dst), w);
    }
    __syncwarp();
    if (lane == 0) store_release(flags + tile, state);
  }
  __device__ __forceinline__ unsigned state(std::int64_t tile) const { return load_acquire(flags + tile); }
  /// The lane's values of a tile whose state (acquired) is A, or P with `inclusive`.
  __device__ __forceinline__ void load(std::int64_t tile, bool inclusive, int lane, Acc (&v)[V]) const {
    const Acc* src = (inclusive ? inclusives : aggregates) + (tile * 32 + lane) * V;
    if constexpr (V * sizeof(Acc) % 16 == 0) {
      uint4 w[V * sizeof(Acc) / 16];
#pragma unroll
      for (int i = 0; i < static_cast<int>(V * sizeof(Acc) / 16); ++i) w[i] = __ldcg(reinterpret_cast<const uint4*>(src) + i);
      memcpy(v, w, sizeof(v));
    } else {
      static_assert(V * sizeof(Acc) == 8);
      const uint2 w = __ldcg(reinterpret_cast<const uint2*>(src));
      memcpy(v, &w, sizeof(v));
    }
  }
};

}  // namespace parascan::device
