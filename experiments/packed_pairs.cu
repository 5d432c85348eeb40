// Experiment: u32 pairs (values: the indices) sorted by the library's pairs kernel and as packed 8-byte
// items (packed_pairs.cuh), over 1, 2 and 4 digits, beside CUB's SortPairs over the same bits, and
// 8-byte keys sorted on their upper 2 and 4 digits alone: what the packed sort's first, last and
// middle passes cost (docs/performance.md entry 30, docs/onesweep-packed-pairs-h100.txt).
//   packed_pairs [log2 n = 28]
#include <cub/device/device_radix_sort.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "parascan/device/device_onesweep.cuh"
#include "cub_sort_timing.cuh"
#include "packed_pairs.cuh"

using namespace parascan;
using namespace parascan::device::onesweep;

namespace {

int packed_passes(std::int64_t n) {
  using U = std::uint32_t;
  using P64 = default_policy_t<std::uint64_t, no_values>;
  using PP = default_policy_t<U, U>;
  const std::size_t bytes = static_cast<std::size_t>(n) * 4;
  std::vector<U> h(n), iota(n);
  std::vector<std::uint64_t> h64(n);
  std::mt19937_64 rng(42);
  for (std::int64_t i = 0; i < n; ++i) {
    h[i] = static_cast<U>(rng());
    iota[i] = static_cast<U>(i);
    h64[i] = (static_cast<std::uint64_t>(h[i]) << 32) | iota[i];
  }
  U *in, *out, *vin, *vout, *ktemp, *vtemp, *ref, *vref;
  std::uint64_t *items_a, *items_b, *in64, *out64, *temp64;
  for (U** a : {&in, &out, &vin, &vout, &ktemp, &vtemp, &ref, &vref}) CK(cudaMalloc(a, bytes));
  for (std::uint64_t** a : {&items_a, &items_b, &in64, &out64, &temp64}) CK(cudaMalloc(a, 2 * bytes));
  CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(vin, iota.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(in64, h64.data(), 2 * bytes, cudaMemcpyHostToDevice));
  std::size_t cap = 0;
  for (int bits : {8, 16, 32}) {
    std::size_t b = 0;
    CK(cub::DeviceRadixSort::SortPairs(nullptr, b, in, ref, vin, vref, static_cast<int>(n), 0, bits));
    cap = std::max({cap, b, temp_bytes<PP, std::uint32_t>(n, 4), temp_bytes<packed_policy, std::uint32_t>(n, 4),
                    temp_bytes<P64, std::uint32_t>(n, 4)});
  }
  void* t = nullptr;
  CK(cudaMalloc(&t, cap));
  std::printf("u32 pairs n=%lld (values: indices), ms\n", (long long)n);
  int wrong = 0;
  for (int bits : {8, 16, 32}) {
    const pass_set ps{0, bits, bits / 8, key_kind::unsigned_int, false};
    const auto cub_p = [&] { std::size_t b = cap; CK(cub::DeviceRadixSort::SortPairs(t, b, in, out, vin, vout, static_cast<int>(n), 0, bits)); };
    const buffers<U, U> plain{in, out, ktemp, vin, vout, vtemp};
    const packed_buffers<U, U> packed{in, out, vin, vout, items_a, items_b};
    const auto our_plain = [&] { CK((run<PP, std::uint32_t>(t, plain, n, ps, 0, false))); };
    const auto our_packed = [&] { CK((run<packed_policy, std::uint32_t>(t, packed, n, ps, 0, false))); };
    cub_p();
    CK(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(vref, vout, bytes, cudaMemcpyDeviceToDevice));
    const long long bad[2] = {poisoned_mismatches(our_plain, out, ref, vout, vref, bytes),
                              poisoned_mismatches(our_packed, out, ref, vout, vref, bytes)};
    const float c = median_ms({10, 2, 500}, cub_p), pl = median_ms({10, 2, 500}, our_plain), pk = median_ms({10, 2, 500}, our_packed);
    std::printf("  %2d bits: CUB %.4f  plain %.4f (%.3fx, %lld bad)  packed %.4f (%.3fx, %lld bad)\n", bits, c, pl, c / pl, bad[0],
                pk, c / pk, bad[1]);
    wrong += bad[0] != 0 || bad[1] != 0;
  }
  for (int digits : {2, 4}) {  // the packed items' middle passes alone
    const pass_set ps{32, 32 + 8 * digits, digits, key_kind::unsigned_int, false};
    const buffers<std::uint64_t, no_values> io{in64, out64, temp64, nullptr, nullptr, nullptr};
    const float ms = median_ms({10, 2, 500}, [&] { CK((run<P64, std::uint32_t>(t, io, n, ps, 0, false))); });
    std::printf("  u64 keys on bits [32, %d): %.4f ms\n", 32 + 8 * digits, ms);
  }
  for (U* a : {in, out, vin, vout, ktemp, vtemp, ref, vref}) CK(cudaFree(a));
  for (std::uint64_t* a : {items_a, items_b, in64, out64, temp64}) CK(cudaFree(a));
  CK(cudaFree(t));
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 28;
  return packed_passes(std::int64_t(1) << lg) ? 1 : 0;
}
