// The benchmarks' and large tests' pseudo-random words: splitmix64 of (index, seed), on the device.
#pragma once
#include <cstdint>

namespace parascan::validation::detail {

__host__ __device__ inline std::uint64_t hashed(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t z = i + seed * 0x9e3779b97f4a7c15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace parascan::validation::detail
