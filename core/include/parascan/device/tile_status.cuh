// Per-tile status for the single-pass scan with decoupled look-back (Merrill & Garland 2016).
//
// Each tile publishes first its aggregate (status A) and, once its exclusive prefix is known, its
// inclusive prefix (status P). Readers spin while a status is invalid (X). Values of ≤ 4 bytes travel
// with their status in one 64-bit word, written and read whole (single-copy atomic); 8-byte values in
// one 16-byte word, one vector store and one vector load (as CUB's ScanTileState does on sm_70 and
// later: aligned 16-byte accesses are not torn there). Larger values
// use two value arrays (aggregate, inclusive) and a flag array: the writer stores the value, fences,
// then stores the flag; the reader loads the flag, fences, then loads the value the flag names. The
// two value slots are written once each, so a reader never sees a value change under it.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector_types.h>

namespace parascan::device {

enum tile_state : unsigned { state_invalid = 0, state_aggregate = 1, state_prefix = 2 };

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
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(words + tile), "l"(static_cast<unsigned long long>(state)),
                 "l"(bits)
                 : "memory");
  }
  __device__ void read(std::int64_t tile, unsigned& state, T& v) const {
    unsigned long long s = 0, bits = 0;
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(s), "=l"(bits) : "l"(words + tile) : "memory");
    state = static_cast<unsigned>(s);
    memcpy(&v, &bits, sizeof(T));
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
    *reinterpret_cast<volatile std::uint64_t*>(words + tile) = w;
  }
  __device__ void read(std::int64_t tile, unsigned& state, T& v) const {
    const std::uint64_t w = *reinterpret_cast<volatile std::uint64_t*>(words + tile);
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
    __threadfence();
    *reinterpret_cast<volatile unsigned*>(flags + tile) = state;
  }
  __device__ void read(std::int64_t tile, unsigned& state, T& v) const {
    state = *reinterpret_cast<volatile unsigned*>(flags + tile);
    if (state == state_invalid) return;
    __threadfence();
    const unsigned* src = (state == state_aggregate ? aggregates : inclusives) + tile * words_per_value;
    unsigned w[words_per_value];
#pragma unroll
    for (int i = 0; i < words_per_value; ++i) w[i] = __ldcg(src + i);
    memcpy(&v, w, sizeof(T));
  }
};

}  // namespace parascan::device
