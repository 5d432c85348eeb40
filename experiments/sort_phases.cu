// Experiment (issue 34): where the library's whole u32 (or u64) sort spends its time beyond its passes.
// Sorts n u32 (or u64) keys (hashed, uniform) with parascan::radix_sort_bits and CUB's faster SortKeys form,
// event-timed (median of 20, the host's launches hidden behind a hold kernel), and prints both. Run it
// under ncu to get each kernel of the sort alone:
//   ncu --clock-control none --metrics gpu__time_duration.sum ./sort_phases 28
// The sort's time less the sum of its kernels is what its memsets and the gaps between launches cost.
//   sort_phases [log2 n ...]   (default 24 28); exit 1 if the output differs from CUB's
// FEW=1: keys of 4 distinct values a digit (key & 0x03030303) instead of uniform ones. SORTED=1: the
// keys (uniform, or FEW's) sorted first (issue 34: sorted keys took ~11% longer than uniform ones, CUB's 3% less,
// performance.md entry 76; under ncu the kernels of the two say which of them pays). U64=1: u64 keys
// (uniform; the loss at 2^24 since stop 52, performance.md "On the H200": A/B it with stop 51's headers).
#include <cstdint>
#include <cstdio>
#include <vector>
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/device/device_select.cuh"
#include "cub_sort_timing.cuh"

/// One size: the library's sort of n keys of type K beside CUB's two call forms; true when the outputs agree.
template <class K>
bool run(int lg, bool few, bool sorted) {
  const std::int64_t n = std::int64_t(1) << lg;
  constexpr int bytes = sizeof(K);
  K *in, *out, *cub_out;
  CK(cudaMalloc(&in, n * bytes));
  CK(cudaMalloc(&out, n * bytes));
  CK(cudaMalloc(&cub_out, n * bytes));
  fill_hashed<<<1024, 256>>>(in, n);
  if (few) {
    if constexpr (bytes == 4) few_distinct<<<1024, 256>>>(in, n);
  }
  CK(cudaGetLastError());
  std::size_t tb = 0;
  CK(parascan::radix_sort_bits<K>(nullptr, tb, in, out, n, parascan::key_kind::unsigned_int, {}));
  void* t;
  CK(cudaMalloc(&t, tb));
  if (sorted) {  // the input sorted once (checked against CUB below like every other)
    CK(parascan::radix_sort_bits<K>(t, tb, in, out, n, parascan::key_kind::unsigned_int, {}));
    CK(cudaMemcpy(in, out, n * bytes, cudaMemcpyDeviceToDevice));
  }
  const timing_options o{20, 2, 50};
  const float ours = median_ms(o, [&] {
    CK(parascan::radix_sort_bits<K>(t, tb, in, out, n, parascan::key_kind::unsigned_int, {}));
  });
  const float copy = median_ms(o, [&] { CK(cudaMemcpyAsync(cub_out, in, n * bytes, cudaMemcpyDeviceToDevice)); });
  const auto [cub32, cub64] = cub_sort_keys_both_ms(in, cub_out, n, o);  // cub_out: CUB's sorted keys after
  std::vector<K> a(n), b(n);
  CK(cudaMemcpy(a.data(), out, n * bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), cub_out, n * bytes, cudaMemcpyDeviceToHost));
  const char* input = few ? (sorted ? "few distinct, sorted" : "few distinct") : sorted ? "sorted" : "uniform";
  std::printf("2^%d u%d %s: parascan %.4f ms, CUB int %.4f int64 %.4f ms (faster / ours %.3f), cudaMemcpy %.4f ms, "
              "temp %zu bytes; %s\n", lg, bytes * 8, input, ours, cub32, cub64,
              std::min(cub32, cub64) / ours, copy, tb, a == b ? "ok" : "MISMATCH");
  CK(cudaFree(in));
  CK(cudaFree(out));
  CK(cudaFree(cub_out));
  CK(cudaFree(t));
  return a == b;
}

int main(int argc, char** argv) {
  const bool few = std::getenv("FEW") != nullptr, wide = std::getenv("U64") != nullptr;
  const bool sorted = std::getenv("SORTED") != nullptr;
  if (few && wide) {
    std::printf("sort_phases: FEW is for u32 keys only\n");
    return 2;
  }
  int wrong = 0;
  for (const int lg : log_sizes(argc, argv, 1, {24, 28}))
    wrong += !(wide ? run<std::uint64_t>(lg, false, sorted) : run<std::uint32_t>(lg, few, sorted));
  return wrong ? 1 : 0;
}
