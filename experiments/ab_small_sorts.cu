// Experiment (issue 34, performance.md entry 69): the library's sorts of 2^12 to 2^24 keys beside CUB's
// faster call form, every output compared with CUB's. Against CUB 3.6 (the cuda-cccl 1.2.1 wheel's
// headers first on the include path) the u32 pairs and argsort read 0.96x at 2^20 in stop 59, where
// CUB 3.0.1 read 1.14x: CUB 3.6 launches its kernels by programmatic dependent launch below 2^24 and
// clears its counters by kernels, not memsets. An A/B harness: the parascan headers on the include path
// decide the variant (git archive <commit> core/include | tar -x -C old; build against old/core/include
// and core/include; run the two alternately).
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr [-I <wheel>/cuda/cccl/headers/include]
//        -I core/include -I experiments experiments/ab_small_sorts.cu -o ab_small_sorts
//   ab_small_sorts NAME [log2 n ...]   (default 12 16 18 20 21 22 24); exit 1 if any output differs
// Rows: u32 keys, u32 pairs (u32 values), u32 argsort (u32 positions), u64 keys; uniform keys (hashed);
// u32 keys whose low byte takes 2, 4, 16 or 64 values (`keys-lo2` … `keys-lo64`: the first pass's digits
// meet 16, 8, 2 or ~1 to an address in a warp, where the unstable first pass's atomics queue,
// performance.md entries 70–71), keys in runs of 64 equal keys (`keys-runs64`: every lane of a warp on
// one digit, though the digits' counts are even), the bench's few-distinct keys (`keys-few`: each bit set
// with probability 1/8), the u32 keys' bits sorted as f32 keys (`keys-f32`), keys drawn from 300 or 3000
// values (`keys-d300`, `keys-d3000`: within one value of the low bits a warp's keys are one or two values,
// where a later pass's atomics would queue, entry 74) and sorted keys (`keys-sorted`). AB_ROWS=a,b,... runs
// only the rows named (u64 keys: `keys-u64`).
#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_segmented_sort.cuh"
#include "parascan/device/device_select.cuh"
#include "cub_sort_timing.cuh"

template <class T>
__global__ void iota_kernel(T* p, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    p[i] = static_cast<T>(i);
}

/// CUB's SortKeys (vin null) or SortPairs, the faster of its two count forms; ref / vref hold its result.
template <class K>
float cub_faster(const K* in, K* ref, const std::uint32_t* vin, std::uint32_t* vref, std::int64_t n,
                 const timing_options& o) {
  const auto [with_int, with_int64] = cub_sort_both_ms(in, ref, vin, vref, n, o);
  return with_int < with_int64 ? with_int : with_int64;
}

/// The rows' key shapes beyond uniform: shape 1 keeps `low` values of the low byte (a power of 2),
/// 2 runs of 64 equal keys, 3 each bit set with probability 1/8, 4 keys drawn from `low` values, 5 sorted
/// (key i about i · 2^bits / n).
template <class T>
__global__ void shape_keys(T* p, long long n, int shape, unsigned low) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const unsigned long long u = static_cast<unsigned long long>(i);
    if (shape == 1) p[i] &= static_cast<T>(~T(0xff) | T(low - 1));
    if (shape == 2) p[i] = static_cast<T>(hashed_index(u >> 6));
    if (shape == 3)
      p[i] = static_cast<T>(hashed_index(u) & hashed_index(u + (1ull << 40)) & hashed_index(u + (1ull << 41)));
    if (shape == 4) p[i] = static_cast<T>(hashed_index(hashed_index(u) % low + (1ull << 42)));
    if (shape == 5) {
      const unsigned long long stride = sizeof(T) == 8 ? ~0ull / static_cast<unsigned long long>(n)
                                                       : (1ull << 32) / static_cast<unsigned long long>(n);
      p[i] = static_cast<T>(u * stride + hashed_index(u) % (stride > 0 ? stride : 1));
    }
  }
}

/// The rows: what the sort carries and how its keys are shaped.
struct row_kind {
  const char* name;
  int what;  // 0 keys, 1 pairs (u32 values), 2 argsort
  int shape;
  unsigned low;
  bool as_float;  // the keys' bits sorted as f32 keys (CUB sorts them as float)
};
constexpr row_kind row_kinds[] = {
    {"keys", 0, 0, 0, false},        {"pairs-u32", 1, 0, 0, false}, {"argsort", 2, 0, 0, false},
    {"keys-lo2", 0, 1, 2, false},    {"keys-lo4", 0, 1, 4, false},  {"keys-lo16", 0, 1, 16, false},
    {"keys-lo64", 0, 1, 64, false},  {"keys-runs64", 0, 2, 0, false}, {"keys-few", 0, 3, 0, false},
    {"keys-f32", 0, 0, 0, true},     {"keys-d300", 0, 4, 300, false}, {"keys-d3000", 0, 4, 3000, false},
    {"keys-sorted", 0, 5, 0, false},
};

/// Whether row `name` is among AB_ROWS (a comma list of row names; unset or empty: every row).
inline bool row_wanted(const char* name) {
  const char* rows = std::getenv("AB_ROWS");
  if (rows == nullptr || *rows == 0) return true;
  const std::string list = std::string(",") + rows + ",";
  return list.find(std::string(",") + name + ",") != std::string::npos;
}

/// One row of kind row_kinds[index]. Returns the bytes that differ from CUB's output.
template <class K>
long long row(const char* name, int index, int lg, const timing_options& o) {
  const row_kind& rk = row_kinds[index];
  if (!row_wanted(sizeof(K) == 8 ? "keys-u64" : rk.name)) return 0;
  const int what = rk.what;
  const std::int64_t n = std::int64_t(1) << lg;
  K *in, *out, *ref;
  std::uint32_t *vin, *vout, *vref, *iota;
  CK(cudaMalloc(&in, n * sizeof(K))); CK(cudaMalloc(&out, n * sizeof(K))); CK(cudaMalloc(&ref, n * sizeof(K)));
  for (std::uint32_t** a : {&vin, &vout, &vref, &iota}) CK(cudaMalloc(a, n * 4));
  fill_hashed<<<1024, 256>>>(in, n);
  fill_hashed<<<1024, 256>>>(vin, n);
  iota_kernel<<<1024, 256>>>(iota, n);
  if (rk.shape != 0) shape_keys<<<1024, 256>>>(in, n, rk.shape, rk.low);
  CK(cudaGetLastError());
  const auto kind = rk.as_float ? parascan::key_kind::floating : parascan::key_kind::unsigned_int;
  const std::uint32_t* values = what == 1 ? vin : nullptr;  // argsort: the sort makes the positions
  const auto ours = [&](void* t, std::size_t& tb) {
    if (what == 0) return parascan::radix_sort_bits<K>(t, tb, in, out, n, kind, {});
    return parascan::radix_sort_bits_pairs<K, std::uint32_t>(t, tb, in, out, values, vout, n,
                                                             parascan::key_kind::unsigned_int, {});
  };
  std::size_t tb = 0;
  CK(ours(nullptr, tb));
  void* t;
  CK(cudaMalloc(&t, tb > 0 ? tb : 1));
  float mine = 0, cub = 0;
  for (int round = 0; round < 2; ++round) {  // the second round's times are printed
    mine = median_ms(o, [&] { CK(ours(t, tb)); });
    if constexpr (sizeof(K) == 4) {
      if (rk.as_float) {
        cub = cub_faster(reinterpret_cast<const float*>(in), reinterpret_cast<float*>(ref), nullptr, vref, n, o);
        continue;
      }
    }
    cub = cub_faster(in, ref, what == 0 ? nullptr : what == 1 ? vin : iota, vref, n, o);
  }
  CK(cudaMemset(out, 0xa5, n * sizeof(K)));
  CK(cudaMemset(vout, 0xa5, n * 4));
  CK(ours(t, tb));
  CK(cudaDeviceSynchronize());
  const long long bad = mismatches(out, ref, n * sizeof(K)) + (what ? mismatches(vout, vref, n * 4) : 0);
  std::printf("%-10s %s %-11s 2^%-2d ours %8.4f ms  CUB %8.4f ms  %.3fx  %s\n", name, sizeof(K) == 8 ? "u64" : "u32",
              rk.name, lg, mine, cub, cub / mine, bad ? "WRONG" : "ok");
  CK(cudaFree(t));
  for (void* p : {(void*)in, (void*)out, (void*)ref, (void*)vin, (void*)vout, (void*)vref, (void*)iota}) CK(cudaFree(p));
  return bad;
}

int main(int argc, char** argv) {
  const char* name = argc > 1 ? argv[1] : "this-tree";
  std::printf("%s: CUB %d.%d.%d\n", name, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
  timing_options o{20, 2, 100};  // the host's launches hidden behind a 100 µs hold
  long long bad = 0;
  for (const int lg : log_sizes(argc, argv, 2, {12, 16, 18, 20, 21, 22, 24})) {
    bad += row<std::uint32_t>(name, 0, lg, o);
    bad += row<std::uint32_t>(name, 1, lg, o);
    bad += row<std::uint32_t>(name, 2, lg, o);
    bad += row<std::uint64_t>(name, 0, lg, o);
    for (int k = 3; k < static_cast<int>(sizeof(row_kinds) / sizeof(row_kinds[0])); ++k)
      bad += row<std::uint32_t>(name, k, lg, o);
  }
  std::printf("%s: %s\n", name, bad ? "SOME OUTPUTS DIFFER FROM CUB'S" : "every output equals CUB's");
  return bad ? 1 : 0;
}
