// Device-side generators and checks for inputs too large to verify on the host (> 2^31 items).
#include "hashed.cuh"
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/tabulate.h>
#include "parascan/validation/cub_scan.hpp"

namespace parascan::validation {

namespace {
struct one_plus_mod3 {
  __device__ std::uint8_t operator()(std::int64_t i) const { return static_cast<std::uint8_t>(1 + i % 3); }
};
struct mod3_mismatch {
  const std::uint64_t* out;
  __device__ bool operator()(std::int64_t i) const {
    const std::uint64_t expected = static_cast<std::uint64_t>(i + 3 * (i / 3) + (i % 3 == 2 ? 1 : 0));
    return out[i] != expected;
  }
};
}  // namespace

cudaError_t fill_one_plus_mod3(std::uint8_t* d_in, std::int64_t n, cudaStream_t stream) {
  try {
    thrust::tabulate(thrust::cuda::par.on(stream), d_in, d_in + n, one_plus_mod3{});
  } catch (...) {
    return cudaErrorUnknown;
  }
  return cudaPeekAtLastError();
}

cudaError_t count_mod3_exclusive_mismatches(const std::uint64_t* d_out, std::int64_t n, std::int64_t& mismatches,
                                            cudaStream_t stream) {
  try {
    mismatches = thrust::count_if(thrust::cuda::par.on(stream), thrust::counting_iterator<std::int64_t>(0),
                                  thrust::counting_iterator<std::int64_t>(n), mod3_mismatch{d_out});
  } catch (...) {
    return cudaErrorUnknown;
  }
  return cudaPeekAtLastError();
}

namespace {
struct hashed_word {
  std::uint64_t seed;
  __device__ std::uint32_t operator()(std::int64_t i) const {
    return static_cast<std::uint32_t>(detail::hashed(static_cast<std::uint64_t>(i), seed));
  }
};
struct sparse_one {
  std::uint64_t seed;
  __device__ float operator()(std::int64_t i) const { return (hashed_word{seed}(i) & 63u) == 0 ? 1.0f : 0.0f; }
};
struct word_differs {
  const std::uint32_t* a;
  const std::uint32_t* b;
  __device__ bool operator()(std::int64_t i) const { return a[i] != b[i]; }
};
}  // namespace

cudaError_t fill_random_words(std::uint32_t* d, std::size_t words, std::uint64_t seed, cudaStream_t stream) {
  try {
    thrust::tabulate(thrust::cuda::par.on(stream), d, d + words, hashed_word{seed});
  } catch (...) {
    return cudaErrorUnknown;
  }
  return cudaPeekAtLastError();
}

namespace {
__global__ void hold_kernel(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}
}  // namespace

cudaError_t hold_stream(cudaStream_t stream, unsigned microseconds) {
  hold_kernel<<<1, 1, 0, stream>>>(1000ull * microseconds);
  return cudaPeekAtLastError();
}

cudaError_t fill_sparse_ones(float* d, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
  try {
    thrust::tabulate(thrust::cuda::par.on(stream), d, d + n, sparse_one{seed});
  } catch (...) {
    return cudaErrorUnknown;
  }
  return cudaPeekAtLastError();
}

cudaError_t count_word_differences(const std::uint32_t* d_a, const std::uint32_t* d_b, std::size_t words,
                                   std::int64_t& differences, cudaStream_t stream) {
  try {
    differences = thrust::count_if(thrust::cuda::par.on(stream), thrust::counting_iterator<std::int64_t>(0),
                                   thrust::counting_iterator<std::int64_t>(static_cast<std::int64_t>(words)),
                                   word_differs{d_a, d_b});
  } catch (...) {
    return cudaErrorUnknown;
  }
  return cudaPeekAtLastError();
}

cudaError_t device_copy(void* d_dst, const void* d_src, std::size_t bytes, cudaStream_t stream) {
  return cudaMemcpyAsync(d_dst, d_src, bytes, cudaMemcpyDeviceToDevice, stream);
}

}  // namespace parascan::validation
