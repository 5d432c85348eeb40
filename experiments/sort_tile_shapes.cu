// Experiment (issue 34): tile shapes of the Onesweep pass on the H200, for 8-byte keys alone and with 4- or
// 8-byte values (u64 pairs and argsort read 0.94–0.96× CUB's faster call at 2^24–2^30 in stop 54; their
// policy was never swept), and with `u32` as the first argument for 4-byte keys alone, with 4-byte
// values (their shapes came from H100 sweeps) and with 8-byte values (never swept). For each case and
// size: CUB's SortKeys / SortPairs in both count forms (the faster divides), then run() at each shape,
// each output compared with CUB's on the device (keys and values), and the
// histogram kernel timed alone (the sort's first launch, identical for every shape).
//   sort_tile_shapes [u32 | u32v64 | big | check | small] [log2 n ...]   (default 20 24 28 30); exit 1 if any
//   output differs from CUB's. u32v64: 4-byte keys with 8-byte values alone; big: pairs and argsort tiles
//   past 48 KB of keys (sweep_big); check: the tiles stop 57 adopted alone; small: 4-byte pairs and argsort
//   below small_pairs_below (sweep_small). SORT_SHAPES_REPS: timed runs a row.
// Keys: splitmix64 of the index cut to the key's width (uniform); values: the index (pairs: given;
// argsort: made by the first pass).
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include -I experiments experiments/sort_tile_shapes.cu
#include <cub/device/device_radix_sort.cuh>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include "parascan/device/device_onesweep.cuh"
#include "cub_sort_timing.cuh"

using namespace parascan;
using namespace parascan::device::onesweep;
using parascan::device::sort_detail::no_values;
using mm = parascan::warp::match_method;

int g_wrong = 0;
// Timed runs a row (SORT_SHAPES_REPS, default 10; 1 under compute-sanitizer, where only the checks count).
timing_options g_timing{10, 2, 200};

template <class T>
__global__ void iota_kernel(T* p, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    p[i] = static_cast<T>(i);
}

template <class T>
__global__ void count_differences(const T* a, const T* b, long long n, unsigned long long* bad) {
  unsigned long long mine = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    mine += a[i] != b[i];
  if (mine) atomicAdd(bad, mine);
}

template <class T>
long long differences(const T* a, const T* b, std::int64_t n) {
  unsigned long long* d;
  CK(cudaMalloc(&d, sizeof *d));
  CK(cudaMemset(d, 0, sizeof *d));
  count_differences<<<1024, 256>>>(a, b, n, d);
  CK(cudaGetLastError());
  unsigned long long h = 0;
  CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaFree(d));
  return static_cast<long long>(h);
}

/// V = no_values: keys alone; Argsort: values made by the first pass (values_in null), CUB given the index.
template <class K, class V, bool Argsort>
struct shape_case {
  static constexpr bool pairs = !std::is_same_v<V, no_values>;
  using VV = std::conditional_t<pairs, V, std::uint32_t>;  // storage for the arrays either way
  std::int64_t n;
  K *in, *out, *ktemp, *ref;
  VV *vin, *vout, *vtemp, *vref;
  void* temp = nullptr;
  std::size_t cap = 0;
  float cub = 0;

  explicit shape_case(std::int64_t n_) : n(n_) {
    const std::size_t kb = n * sizeof(K);
    CK(cudaMalloc(&in, kb)); CK(cudaMalloc(&out, kb)); CK(cudaMalloc(&ktemp, kb)); CK(cudaMalloc(&ref, kb));
    const std::size_t vb = pairs ? n * sizeof(VV) : sizeof(VV);
    CK(cudaMalloc(&vin, vb)); CK(cudaMalloc(&vout, vb)); CK(cudaMalloc(&vtemp, vb)); CK(cudaMalloc(&vref, vb));
    fill_hashed<<<1024, 256>>>(in, n);
    if (pairs) iota_kernel<<<1024, 256>>>(vin, n);
    CK(cudaGetLastError());
  }
  ~shape_case() {
    void* all[] = {in, out, ktemp, ref, vin, vout, vtemp, vref, temp};
    for (void* p : all)
      if (p) cudaFree(p);
  }
  std::string name() const {
    const std::string k = sizeof(K) == 8 ? "u64 " : "u32 ";
    if (!pairs) return k + "keys";
    if (Argsort) return k + (sizeof(V) == 8 ? "argsort-u64" : "argsort");
    return k + (sizeof(V) == 8 ? "pairs-u64" : "pairs-u32");
  }
  /// CUB in both count forms; ref / vref hold its result after. Prints both, keeps the faster.
  void time_cub() {
    const auto [a, b] = cub_sort_both_ms(in, ref, pairs ? vin : nullptr, vref, n, g_timing);
    cub = a < b ? a : b;
    std::printf("%s 2^%d: CUB int %.4f ms, int64 %.4f ms\n", name().c_str(), __builtin_ctzll(n), a, b);
  }
  template <class Policy>
  void row(const char* label) {
    const pass_set ps{0, 8 * int(sizeof(K)), int(sizeof(K)), key_kind::unsigned_int, false};
    const std::size_t need = temp_bytes<Policy, std::uint32_t>(n, ps.passes);
    if (need > cap) {
      if (temp) CK(cudaFree(temp));
      CK(cudaMalloc(&temp, need));
      cap = need;
    }
    const buffers<K, V> io{in, out, ktemp, pairs && !Argsort ? reinterpret_cast<const V*>(vin) : nullptr,
                           reinterpret_cast<V*>(vout), reinterpret_cast<V*>(vtemp)};
    const auto f = [&] { CK((run<Policy, std::uint32_t>(temp, io, n, ps, 0, false))); };
    CK(cudaMemset(out, 0xa5, n * sizeof(K)));
    if (pairs) CK(cudaMemset(vout, 0xa5, n * sizeof(VV)));
    f();
    CK(cudaDeviceSynchronize());
    const long long bad = differences(out, ref, n) + (pairs ? differences(vout, vref, n) : 0);
    g_wrong += bad != 0;
    const float ms = median_ms(g_timing, f);
    std::printf("  %-26s %8.4f ms  %6.3fx CUB  %s\n", label, ms, cub / ms, bad ? "WRONG" : "ok");
  }
  /// The histogram kernel alone (every shape's first launch; its scan and plan included).
  void histogram_row() {
    using Policy = default_policy_t<K, V>;
    const pass_set ps{0, 8 * int(sizeof(K)), int(sizeof(K)), key_kind::unsigned_int, false};
    const temp_layout<Policy, std::uint32_t> layout(n, ps.passes);
    char* t = static_cast<char*>(temp);
    auto* bins = reinterpret_cast<std::uint32_t*>(t + layout.bins);
    auto* plan = reinterpret_cast<pass_plan*>(t + layout.plan);
    auto* done = reinterpret_cast<unsigned*>(t + layout.counters) + ps.passes * layout.portions;
    unsigned blocks = 0;
    CK((hist_grid<K, std::uint32_t, false>(n, blocks)));
    const float ms = median_ms_cleared([&] { CK(cudaMemsetAsync(t, 0, layout.cleared)); }, [&] {
      histogram_kernel<K, std::uint32_t, false>
          <<<blocks, hist_threads, hist_smem_bytes<K>()>>>(in, n, ps, bins, plan, done);
    });
    CK(cudaGetLastError());
    std::printf("  %-26s %8.4f ms  (%u blocks of %d)\n", "histogram kernel alone", ms, blocks, hist_threads);
  }
};

#define ROW(T, I, B) c.template row<policy<T, I, B, mm::ballots>>(#T " x " #I " b" #B)
#define ROW_LB(T, I, B, R) c.template row<policy<T, I, B, mm::ballots, R>>(#T " x " #I " b" #B " reads " #R)

template <class V, bool Argsort>
void sweep_wide(std::int64_t n) {
  shape_case<std::uint64_t, V, Argsort> c(n);
  c.time_cub();
  if constexpr (std::is_same_v<V, no_values>) {
    ROW_LB(256, 20, 3, 2);  // the default since stop 55
    ROW(384, 12, 3);  // the default before
    ROW_LB(384, 12, 3, 2); ROW_LB(384, 14, 3, 2); ROW_LB(256, 16, 4, 2); ROW_LB(256, 18, 3, 2);
    ROW(256, 16, 4); ROW(256, 20, 3); ROW(384, 14, 3); ROW_LB(384, 12, 3, 4);
    ROW_LB(256, 20, 3, 2);  // the default again: the drift over the run
  } else {  // the keys' stage is static shared memory: at most 48 KB (384 x 16 of 8-byte keys is not)
    ROW(384, 14, 2);  // the default before stop 55
    ROW(384, 15, 2); ROW_LB(384, 15, 2, 2); ROW(256, 20, 3); ROW_LB(256, 20, 3, 2); ROW(384, 12, 3);
    ROW_LB(384, 12, 3, 2); ROW_LB(384, 14, 2, 2); ROW(256, 16, 3); ROW_LB(256, 16, 3, 2);
    ROW(384, 14, 2);
  }
  c.histogram_row();
}

template <class V, bool Argsort>
void sweep_narrow(std::int64_t n) {
  shape_case<std::uint32_t, V, Argsort> c(n);
  c.time_cub();
  if constexpr (std::is_same_v<V, no_values>) {
    ROW_LB(256, 32, 3, 2);  // the default since stop 55
    ROW_LB(256, 23, 4, 2);  // the default before stop 55 (H100 sweeps)
    ROW_LB(256, 28, 3, 2); ROW_LB(384, 20, 3, 2); ROW_LB(384, 24, 2, 2); ROW_LB(384, 28, 2, 2);
    ROW_LB(512, 20, 2, 2); ROW(256, 32, 3);
    ROW_LB(256, 32, 3, 2);
    // 256 x 36 at 3 (96 bytes of spills) stopped on an illegal address at 2^20 in call 4 of stop 55:
    // ptxas 13.0 miscompiles it (stop 56, performance.md entry 66; `policy` now refuses > 32 items).
  } else if constexpr (sizeof(V) == 8) {  // 4-byte keys with 8-byte values: 0.96-0.97x CUB in stop 55
    // (384 x 14 at 2); stop 55's call 8 read 384 x 18 at 2 reading two 1.055 / 1.047x at 2^24 / 2^28.
    // 384 x 22: 34 KB of keys + 68 KB of values a block, two blocks an SM; 384 x 24 would not fit two.
    ROW(384, 20, 2);  // the default since stop 56
    ROW(384, 14, 2);  // the default before stop 56
    ROW_LB(384, 18, 2, 2); ROW_LB(384, 16, 2, 2); ROW_LB(384, 20, 2, 2); ROW_LB(384, 22, 2, 2); ROW(384, 22, 2);
    ROW_LB(256, 20, 3, 2); ROW_LB(256, 24, 2, 2); ROW_LB(512, 16, 2, 2);
    ROW(384, 20, 2);
  } else {  // the keys' stage is static shared memory: at most 48 KB (384 x 30 of 4-byte keys at most)
    ROW_LB(384, 30, 2, 2);  // the default since stop 55
    ROW(384, 26, 2);  // the default before stop 55 (H100 sweeps)
    ROW(384, 30, 2); ROW_LB(384, 26, 2, 2); ROW(384, 28, 2); ROW(512, 22, 2); ROW_LB(512, 18, 2, 2);
    ROW_LB(384, 30, 2, 2);
  }
  c.histogram_row();
}

/// Tiles whose keys' stage passes the 48 KB of static shared memory, so it goes to dynamic shared memory
/// (pass.cuh, keys_stage_dynamic; stop 57): the default tile first and last (the drift), larger ones between.
/// The pairs sweeps above stopped at 384 x 30 (4-byte keys) and 384 x 15 (8-byte keys) for that limit,
/// and gained ~0.9% a step of two items on the way there.
template <class K, class V, bool Argsort>
void sweep_big(std::int64_t n) {
  shape_case<K, V, Argsort> c(n);
  c.time_cub();
  if constexpr (sizeof(K) == 4) {  // 4-byte values or argsort: 48 KB of keys + 48 KB of values a block at 384 x 32
    ROW_LB(384, 30, 2, 2);  // the default since stop 55
    ROW_LB(384, 32, 2, 2); ROW(384, 32, 2); ROW_LB(512, 24, 2, 2); ROW_LB(512, 22, 2, 2);
    ROW_LB(384, 30, 2, 2);
  } else if constexpr (sizeof(V) == 4) {  // 8-byte keys with 4-byte values or argsort
    ROW_LB(384, 15, 2, 2);  // the default since stop 55
    ROW_LB(384, 16, 2, 2); ROW_LB(384, 18, 2, 2); ROW_LB(384, 20, 2, 2); ROW(384, 18, 2);
    ROW_LB(384, 22, 2, 2); ROW_LB(384, 24, 2, 2); ROW(384, 22, 2); ROW_LB(512, 16, 2, 2); ROW_LB(512, 18, 2, 2);
    ROW_LB(384, 15, 2, 2);
  } else {  // 8-byte keys with 8-byte values: 384 x 18 is 108 KB a block, two an SM
    ROW(384, 15, 2);  // the default since stop 55
    ROW(384, 16, 2); ROW_LB(384, 16, 2, 2); ROW(384, 18, 2);
    ROW(384, 15, 2);
  }
}

/// Pairs and argsort of 4-byte keys and values below small_pairs_below (device_onesweep.cuh: 384 x 16 at 2
/// since the H100's sweeps against CUB 3.5, entries 43 and 51): against CUB 3.6 on the H200 they read
/// 0.96x at 2^20 (stop 59). Build with the cuda-cccl wheel's headers first to time that CUB.
template <bool Argsort>
void sweep_small(std::int64_t n) {
  shape_case<std::uint32_t, std::uint32_t, Argsort> c(n);
  c.time_cub();
  ROW(384, 16, 2);  // the default below small_pairs_below
  ROW_LB(384, 16, 2, 2); ROW(384, 12, 2); ROW(384, 20, 2); ROW_LB(384, 23, 2, 2); ROW(256, 16, 3);
  ROW_LB(256, 20, 3, 2); ROW(512, 12, 2); ROW_LB(512, 16, 2, 2);
  ROW(384, 16, 2);
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool narrow = mode == "u32", v64 = mode == "u32v64", big = mode == "big", check = mode == "check",
             small = mode == "small";
  if (const char* r = std::getenv("SORT_SHAPES_REPS")) g_timing = {std::atoi(r), 0, 0};
  for (const int lg : log_sizes(argc, argv, narrow || v64 || big || check || small ? 2 : 1, {20, 24, 28, 30})) {
    const std::int64_t n = std::int64_t(1) << lg;
    if (small) {
      sweep_small<false>(n);
      sweep_small<true>(n);
    } else if (check) {  // the shapes stop 57 adopted, alone (for compute-sanitizer)
      { shape_case<std::uint64_t, std::uint32_t, false> c(n); c.time_cub(); ROW_LB(384, 20, 2, 2); }
      { shape_case<std::uint64_t, std::uint32_t, true> c(n); c.time_cub(); ROW_LB(384, 20, 2, 2); }
      { shape_case<std::uint32_t, std::uint64_t, false> c(n); c.time_cub(); ROW_LB(384, 16, 2, 2); }
    } else if (big) {
      sweep_big<std::uint32_t, std::uint32_t, false>(n);
      sweep_big<std::uint32_t, std::uint32_t, true>(n);
      sweep_big<std::uint64_t, std::uint32_t, false>(n);
      sweep_big<std::uint64_t, std::uint32_t, true>(n);
      sweep_big<std::uint64_t, std::uint64_t, false>(n);
    } else if (v64) {
      sweep_narrow<std::uint64_t, false>(n);
    } else if (narrow) {
      sweep_narrow<no_values, false>(n);
      sweep_narrow<std::uint32_t, false>(n);
      sweep_narrow<std::uint32_t, true>(n);
      sweep_narrow<std::uint64_t, false>(n);
    } else {
      sweep_wide<no_values, false>(n);
      sweep_wide<std::uint32_t, false>(n);
      sweep_wide<std::uint32_t, true>(n);
      sweep_wide<std::uint64_t, false>(n);
    }
  }
  std::printf("%s\n", g_wrong ? "SOME OUTPUTS DIFFER FROM CUB'S" : "every output equals CUB's");
  return g_wrong ? 1 : 0;
}
