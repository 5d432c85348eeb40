// CUB/Thrust references for compaction and split, and CPU references (std::copy_if,
// std::stable_partition, a sequential expand).
#pragma once
#include <cuda_runtime_api.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "parascan/select.hpp"
#include "parascan/validation/cub_count.hpp"

namespace parascan::validation {

/// cub::DeviceSelect::If with keep_rule<T>; count to *d_num_selected.
template <class T>
cudaError_t cub_select_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                          std::int64_t n, keep_rule<T> rule, cudaStream_t stream = 0, cub_count count = cub_count::int64);
/// cub::DeviceSelect::If keeping x < bound by a compile-time functor (keep_rule_fixed<T, lt>): CUB's
/// fastest form, as a user with a fixed rule calls it, for `bench` (keep_rule's switch an item cost CUB
/// 3–26% of its u32 time at 2^28, performance.md entry 55). T: std::uint32_t, std::uint64_t.
template <class T>
cudaError_t cub_select_less(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::int64_t* d_num_selected,
                            std::int64_t n, T bound, cudaStream_t stream = 0, cub_count count = cub_count::int64);
/// cub::DeviceSelect::Flagged with u8 flags.
template <class T>
cudaError_t cub_select_flagged(void* d_temp, std::size_t& temp_bytes, const T* d_in, const std::uint8_t* d_flags,
                               T* d_out, std::int64_t* d_num_selected, std::int64_t n, cudaStream_t stream = 0,
                               cub_count count = cub_count::int64);
/// thrust::stable_partition_copy semantics through thrust::stable_partition on a copy: kept first,
/// rest after, both in input order. Returns the number kept (synchronises).
template <class T>
std::int64_t thrust_stable_partition(const T* d_in, T* d_out, std::int64_t n, keep_rule<T> rule);
/// What thrust_stable_partition runs: "thrust::stable_partition", or against CCCL ≥ 3.6 (whose
/// stable_partition does not compile with nvcc 13.0 and g++ 12) "two cub::DeviceSelect::If calls".
const char* stable_partition_name();

template <class T, class Keep>
std::vector<T> cpu_select(const std::vector<T>& in, Keep keep) {
  std::vector<T> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (keep(i)) out.push_back(in[i]);
  return out;
}
template <class T, class Keep>
std::vector<T> cpu_partition(const std::vector<T>& in, Keep keep, std::int64_t& kept) {
  std::vector<T> out = cpu_select(in, keep);
  kept = static_cast<std::int64_t>(out.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    if (!keep(i)) out.push_back(in[i]);
  return out;
}
/// Sequential expand: offsets, total and the owner of every slot.
template <class Count, class Offset, class Owner>
void cpu_expand(const std::vector<Count>& counts, std::vector<Offset>& offsets, Offset& total, std::vector<Owner>& owners) {
  offsets.resize(counts.size());
  total = 0;
  owners.clear();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = total;
    total = static_cast<Offset>(total + static_cast<Offset>(counts[i]));
    for (Count c = 0; c < counts[i]; ++c) owners.push_back(static_cast<Owner>(i));
  }
}

}  // namespace parascan::validation
