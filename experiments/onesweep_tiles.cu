// Experiment: the Onesweep sort by tile shape (threads × items, blocks per SM, ballot or match.any
// ranking) beside cub::DeviceRadixSort called as a user would (int item count), for u32 / u64 / f32
// keys, u32 pairs and argsort, on uniform, few-distinct (AND of 3 random words), sorted and
// all-equal keys. Every output is compared word for word with CUB's.
// Arguments: log2 n (28), which (1: every row; 2: the pairs/argsort tile sweep and the look-back
// reading 2-8 predecessors at once; 3: u32 and f32 keys, uniform and few-distinct, reading 1 and 2 at
// once, alternated twice; 4: u32 keys, pairs and argsort through run() and through the library's
// entry (its temporary buffers carved from one allocation; keys also through run() with that layout),
// alternated twice, then pairs with random values; 5: u32 and f32 keys, pairs and argsort (uniform)
// with tiles of 6 to 26 items a thread, for small n where the default tiles leave SMs idle; 7: u32 keys and pairs through run() with the
// library's layout in one allocation, gaps of 0 B to 32 MB before or between its pieces; 9: every
// array of a u32 keys sort and a u32 pairs sort (inputs, outputs, second buffers, temporary storage)
// laid one after another in one allocation with the same gap between each two, CUB's in the same
// places, for gaps of 0 B to 32 MB: whether CUB's time, and ours, depend on where the arrays lie; 6: 4-byte keys, uniform random bits and the same sorted (as bench's `sorted`), CUB and the
// default keys kernel, min / median / max of 50 timings without and with the stream held while the
// host enqueues, and the host's time to enqueue one call, in rounds; -1 / -2: keys / pairs, CUB and
// the default tile only, for a profiler).
// nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include experiments/onesweep_tiles.cu
#include <cub/device/device_radix_sort.cuh>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>
#include "parascan/device/device_onesweep.cuh"
#include "parascan/device/device_radix_sort.cuh"
#include "parascan/device/device_select.cuh"  // the library entry's split1 path needs partition_flagged
#include "cub_sort_timing.cuh"
#include "packed_pairs.cuh"

using namespace parascan;
using namespace parascan::device::onesweep;
using parascan::device::align_up;
using parascan::device::sort_detail::no_values;

int g_wrong = 0;  // outputs that differed from CUB's: the exit status is 1 if any did

enum class dist { uniform, few, sorted, equal };
const char* dist_name[] = {"uniform", "few", "sorted", "equal"};

template <class K>
std::vector<K> make_keys(std::int64_t n, dist d) {
  std::vector<K> h(n);
  std::mt19937_64 rng(42);
  for (auto& x : h) {
    std::uint64_t r = rng();
    if (d == dist::few) r &= rng() & rng();
    if constexpr (std::is_floating_point_v<K>) x = static_cast<K>(static_cast<double>(r >> 11) / 9007199254740992.0 - 0.25);
    else std::memcpy(&x, &r, sizeof(K));
  }
  if (d == dist::sorted) {  // non-decreasing by construction (a sort of 2^28 keys takes the host 25 s)
    for (std::int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<K>) h[i] = static_cast<K>(-0.25 + static_cast<double>(i) / static_cast<double>(n));
      else h[i] = static_cast<K>(static_cast<double>(i) / static_cast<double>(n) * static_cast<double>(std::numeric_limits<K>::max()));
    }
  }
  if (d == dist::equal) std::fill(h.begin(), h.end(), h[0]);
  return h;
}

template <class Policy, class K, class V>
float time_ours(const K* in, K* out, const V* vin, V* vout, std::int64_t n, K*& ktemp, V*& vtemp, void*& temp,
                std::size_t& temp_cap, bool check_only) {
  using U = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
  constexpr int bits = 8 * sizeof(K);
  const pass_set ps{0, bits, bits / 8, kind_of_key<K>(), false};
  const std::size_t need = temp_bytes<Policy, std::uint32_t>(n, ps.passes);
  if (need > temp_cap) {
    if (temp) CK(cudaFree(temp));
    CK(cudaMalloc(&temp, need));
    temp_cap = need;
  }
  using VV = std::conditional_t<std::is_same_v<V, no_values>, no_values, V>;
  const buffers<U, VV> io{reinterpret_cast<const U*>(in), reinterpret_cast<U*>(out), reinterpret_cast<U*>(ktemp),
                          vin, vout, vtemp};
  auto f = [&] { CK((run<Policy, std::uint32_t>(temp, io, n, ps, 0, false))); };
  if (check_only) { f(); CK(cudaDeviceSynchronize()); return 0; }
  return median_ms({10, 2, 50}, f);
}

template <class K>
struct bench {
  std::int64_t n;
  K *in, *out, *ref, *ktemp;
  std::uint32_t *vin, *vout, *vref, *vtemp;
  void* temp = nullptr;
  std::size_t cap = 0;
  cub_sort_timer cub_timer;
  explicit bench(std::int64_t n_) : n(n_) {
    CK(cudaMalloc(&in, n * sizeof(K))); CK(cudaMalloc(&out, n * sizeof(K))); CK(cudaMalloc(&ref, n * sizeof(K)));
    CK(cudaMalloc(&ktemp, n * sizeof(K)));
    CK(cudaMalloc(&vin, n * 4)); CK(cudaMalloc(&vout, n * 4)); CK(cudaMalloc(&vref, n * 4)); CK(cudaMalloc(&vtemp, n * 4));
    fill_values(false);
  }
  // The pairs' values: their indices (CUB's argsort reference relies on it), or random words (as `bench`).
  void fill_values(bool random) {
    std::vector<std::uint32_t> v(n);
    std::mt19937 rng(7);
    for (std::int64_t i = 0; i < n; ++i) v[i] = random ? static_cast<std::uint32_t>(rng()) : static_cast<std::uint32_t>(i);
    CK(cudaMemcpy(vin, v.data(), n * 4, cudaMemcpyHostToDevice));
  }
  float cub_ms(bool pairs) { return cub_timer.ms(in, ref, vin, vref, n, pairs, {10, 2, 50}); }
  // One result line: time, ratio to CUB, and whether the output equalled CUB's.
  static void report(const char* name, float ms, float cub, long long bad) {
    g_wrong += bad != 0;
    std::printf("  %-22s %8.4f ms  %6.3fx CUB  %s\n", name, ms, cub / ms, bad ? "WRONG" : "ok");
  }
  // mode 0 keys, 1 pairs (u32 values = iota), 2 argsort
  template <class Policy>
  void row(const char* name, int mode, float cub) {
    CK(cudaMemset(out, 0xa5, n * sizeof(K)));
    CK(cudaMemset(vout, 0xa5, n * 4));
    float ms;
    long long bad;
    if (mode == 0) {
      time_ours<Policy, K, no_values>(in, out, nullptr, nullptr, n, ktemp, reinterpret_cast<no_values*&>(vtemp), temp, cap, true);
      bad = mismatches(out, ref, n * sizeof(K));
      ms = time_ours<Policy, K, no_values>(in, out, nullptr, nullptr, n, ktemp, reinterpret_cast<no_values*&>(vtemp), temp, cap, false);
    } else {
      const std::uint32_t* vi = mode == 1 ? vin : nullptr;
      time_ours<Policy, K, std::uint32_t>(in, out, vi, vout, n, ktemp, vtemp, temp, cap, true);
      bad = mismatches(out, ref, n * sizeof(K)) + mismatches(vout, vref, n * 4);
      ms = time_ours<Policy, K, std::uint32_t>(in, out, vi, vout, n, ktemp, vtemp, temp, cap, false);
    }
    report(name, ms, cub, bad);
  }
  // Keys (mode 0) or pairs (1) through run() with the library's layout: the keys' (and values') second
  // buffer carved from the front of one allocation and the Onesweep temporary storage after it (as
  // device_radix_sort.cuh sort() does); with `pad`, a gap of that many bytes before the keys' second
  // buffer (`front`) or before each later piece (which = 7). Named `name`, else by its gap.
  template <class Policy>
  void padded_row(int mode, std::size_t pad, bool front, float cub, const char* name = nullptr) {
    using U = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
    CK(cudaMemset(out, 0xa5, n * sizeof(K)));
    CK(cudaMemset(vout, 0xa5, n * 4));
    const std::size_t key_buf = align_up(static_cast<std::size_t>(n) * sizeof(U)), value_buf = mode ? align_up(n * 4) : 0;
    const pass_set ps{0, 8 * int(sizeof(K)), int(sizeof(K)), kind_of_key<K>(), false};
    const std::size_t ktemp_at = front ? pad : 0, vtemp_at = ktemp_at + key_buf + (front ? 0 : pad);
    const std::size_t os_at = vtemp_at + value_buf + (front || !mode ? 0 : pad);
    char* t = nullptr;
    CK(cudaMalloc(&t, os_at + temp_bytes<Policy, std::uint32_t>(n, ps.passes)));
    float ms = 0;
    const auto time = [&](const auto& io) {
      const auto f = [&] { CK((run<Policy, std::uint32_t>(t + os_at, io, n, ps, 0, false))); };
      f();
      CK(cudaDeviceSynchronize());
      ms = median_ms({10, 2, 500}, f);
    };
    if (mode == 0) time(buffers<U, no_values>{reinterpret_cast<const U*>(in), reinterpret_cast<U*>(out),
                                              reinterpret_cast<U*>(t + ktemp_at), nullptr, nullptr, nullptr});
    else time(buffers<U, std::uint32_t>{reinterpret_cast<const U*>(in), reinterpret_cast<U*>(out), reinterpret_cast<U*>(t + ktemp_at),
                                        vin, vout, reinterpret_cast<std::uint32_t*>(t + vtemp_at)});
    const long long bad = mismatches(out, ref, n * sizeof(K)) + (mode ? mismatches(vout, vref, n * 4) : 0);
    CK(cudaFree(t));
    char gap_name[64];
    std::snprintf(gap_name, sizeof gap_name, "carved, pad %zu %s", pad, front ? "front" : "between");
    report(name ? name : gap_name, ms, cub, bad);
  }
  // The same sort through the library's entry (radix_sort_bits[_pairs]: default policy, double
  // buffers carved from its one temporary allocation, as `bench` and users call it).
  void library_row(int mode, float cub) {
    using U = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
    CK(cudaMemset(out, 0xa5, n * sizeof(K)));
    CK(cudaMemset(vout, 0xa5, n * 4));
    const U* kin = reinterpret_cast<const U*>(in);
    U* kout = reinterpret_cast<U*>(out);
    std::size_t bytes = 0;
    const auto call = [&](void* t) {
      if (mode == 0) return radix_sort_bits<U>(t, bytes, kin, kout, n, kind_of_key<K>(), sort_options{}, 0);
      return radix_sort_bits_pairs<U, std::uint32_t>(t, bytes, kin, kout, mode == 1 ? vin : nullptr, vout, n,
                                                     kind_of_key<K>(), sort_options{}, 0);
    };
    CK(call(nullptr));
    void* t = nullptr;
    CK(cudaMalloc(&t, bytes));
    CK(call(t));
    CK(cudaDeviceSynchronize());
    const long long bad = mismatches(out, ref, n * sizeof(K)) + (mode ? mismatches(vout, vref, n * 4) : 0);
    const float ms = median_ms({10, 2, 50}, [&] { CK(call(t)); });
    CK(cudaFree(t));
    report("library entry", ms, cub, bad);
  }
};

#define ROW(T, I, B, M) b.template row<policy<T, I, B, M>>(#T " x " #I " b" #B " " #M, mode, cub)
#define ROW_LB(T, I, B, R) b.template row<policy<T, I, B, ballots, R>>(#T " x " #I " b" #B " look-back reads " #R, mode, cub)
using mm = parascan::warp::match_method;
constexpr mm ballots = mm::ballots;

template <class K>
void sweep(std::int64_t n, const char* kname, bool all_dists, int which) {
  bench<K> b(n);
  for (dist d : {dist::uniform, dist::few, dist::sorted, dist::equal}) {
    if (!all_dists && d != dist::uniform && !((which == 2 || which == 3) && d == dist::few)) continue;
    const auto h = make_keys<K>(n, d);
    CK(cudaMemcpy(b.in, h.data(), n * sizeof(K), cudaMemcpyHostToDevice));
    for (int mode : {0, 1, 2}) {
      if ((sizeof(K) == 8 || which == -1 || which == 3) && mode != 0) continue;
      if constexpr (sizeof(K) == 4) if (which == 4) {  // the default kernel through run() and the library's entry, twice
        const float cub = b.cub_ms(mode != 0);
        std::printf("%s n=%lld %s %s: CUB %.4f ms\n", kname, (long long)n, dist_name[(int)d],
                    mode == 0 ? "keys" : mode == 1 ? "pairs" : "argsort", cub);
        for (int twice = 0; twice < 2; ++twice) {
          if (mode == 0) ROW_LB(256, 23, 4, 2); else ROW(384, 26, 2, ballots);
          if (mode == 0) b.template padded_row<policy<256, 23, 4, ballots, 2>>(0, 0, false, cub, "run(), library layout");
          b.library_row(mode, cub);
        }
        if (mode == 1) {  // the same with random values, as `bench` sorts them
          b.fill_values(true);
          const float cub_random = b.cub_ms(true);
          std::printf("%s n=%lld %s pairs, random values: CUB %.4f ms\n", kname, (long long)n, dist_name[(int)d], cub_random);
          b.template row<policy<384, 26, 2, ballots>>("384 x 26 b2 ballots", 1, cub_random);
          b.library_row(1, cub_random);
          b.fill_values(false);
        }
        continue;
      }
      if constexpr (sizeof(K) == 4) if (which == 7) {  // the library's layout with gaps: keys and pairs
        if (mode == 2) continue;
        const float cub = b.cub_ms(mode != 0);
        std::printf("%s n=%lld %s %s: CUB %.4f ms\n", kname, (long long)n, dist_name[(int)d], mode == 0 ? "keys" : "pairs", cub);
        for (int twice = 0; twice < 2; ++twice) {
          if (mode == 0) ROW_LB(256, 23, 4, 2); else ROW(384, 26, 2, ballots);
          for (std::size_t pad : {std::size_t(0), std::size_t(4096), std::size_t(1) << 16, std::size_t(1) << 20,
                                  std::size_t(2) << 20, (std::size_t(3) << 20) + 4096, std::size_t(32) << 20}) {
            for (bool front : {false, true}) {
              if (pad == 0 && front) continue;
              if (mode == 0) b.template padded_row<policy<256, 23, 4, ballots, 2>>(0, pad, front, cub);
              else b.template padded_row<policy<384, 26, 2, ballots>>(1, pad, front, cub);
            }
          }
        }
        continue;
      }
      if constexpr (sizeof(K) == 4) if (which == 5) {  // small sorts: tiles small enough for several a SM
        if (d != dist::uniform) continue;
        const float cub = b.cub_ms(mode != 0);
        std::printf("%s n=%lld %s %s: CUB %.4f ms\n", kname, (long long)n, dist_name[(int)d],
                    mode == 0 ? "keys" : mode == 1 ? "pairs" : "argsort", cub);
        if (mode == 0) {
          ROW_LB(256, 23, 4, 2); ROW_LB(256, 16, 4, 2); ROW_LB(256, 12, 4, 2); ROW_LB(256, 8, 4, 2);
          ROW_LB(384, 8, 3, 2); ROW_LB(512, 8, 2, 2); ROW_LB(512, 6, 2, 2);
        } else {
          ROW(384, 26, 2, ballots); ROW(384, 16, 2, ballots); ROW(384, 12, 3, ballots); ROW(384, 8, 3, ballots);
          ROW(256, 12, 4, ballots); ROW(256, 8, 4, ballots); ROW(512, 8, 2, ballots); ROW(512, 6, 2, ballots);
        }
        continue;
      }
      if (which == -2 && mode != 1) continue;
      if (which == 2 && mode == 0 && d != dist::uniform) continue;  // pairs and argsort, uniform keys
      const float cub = b.cub_ms(mode != 0);
      std::printf("%s n=%lld %s %s: CUB %s %.4f ms\n", kname, (long long)n, dist_name[(int)d],
                  mode == 0 ? "keys" : mode == 1 ? "pairs" : "argsort", mode == 0 ? "SortKeys" : "SortPairs", cub);
      if constexpr (sizeof(K) == 4) {
      if (mode == 0) {
        ROW(256, 23, 4, ballots);
        if (which == 2) { ROW_LB(256, 23, 4, 2); ROW_LB(256, 23, 4, 4); }
        else if (which == 3) { ROW_LB(256, 23, 4, 2); ROW(256, 23, 4, ballots); ROW_LB(256, 23, 4, 2); }
        else if (which > 0 && d == dist::uniform) {
          ROW(384, 19, 3, ballots);
          ROW(256, 21, 4, ballots);
        }
      } else {
        ROW(384, 26, 2, ballots);  // the default (device_onesweep.cuh)
        if (which == 2) {  // pairs: CUB's SM90 tile and its neighbours (entries 24, 25)
          ROW_LB(384, 26, 2, 2); ROW_LB(384, 26, 2, 4); ROW_LB(384, 26, 2, 8); ROW(384, 23, 2, ballots);
        } else if (which > 0 && d == dist::uniform) {
          ROW(384, 22, 2, ballots); ROW(384, 17, 2, ballots); ROW(256, 19, 3, ballots); ROW(512, 12, 2, ballots);
          ROW(256, 15, 4, ballots);
        }
      }
      } else {
        ROW(384, 12, 3, ballots);
        if (which == 2) { ROW_LB(384, 12, 3, 2); ROW_LB(384, 12, 3, 4); }
        else if (which > 0 && d == dist::uniform) { ROW(384, 15, 2, ballots); ROW(256, 12, 4, ballots); ROW(256, 16, 3, ballots); }
      }
    }
  }
}

// which = 6: keys of 4 bytes at n (2^20 in the bench's anomaly), uniform random bits and the same
// sorted (as bench's `sorted` input), f32 and u32; CUB and the default keys kernel through run(),
// each timed 50 times: min / median / max, five rounds, to tell a reproducible slow case from noise.
template <class K>
void sorted_spread(std::int64_t n, int rounds) {
  bench<K> b(n);
  using U = std::uint32_t;
  for (int sorted = 0; sorted < 2; ++sorted) {
    std::vector<U> h(n);
    std::mt19937_64 rng(42);
    for (auto& x : h) x = static_cast<U>(rng());
    if (sorted) {
      const key_kind kind = kind_of_key<K>();
      std::stable_sort(h.begin(), h.end(), [&](U x, U y) {
        return parascan::device::sort_detail::key_codec<U>(kind, false).ordered(parascan::device::sort_detail::key_codec<U>(kind, false).encode(x)) <
               parascan::device::sort_detail::key_codec<U>(kind, false).ordered(parascan::device::sort_detail::key_codec<U>(kind, false).encode(y));
      });
    }
    CK(cudaMemcpy(b.in, h.data(), n * sizeof(K), cudaMemcpyHostToDevice));
    std::size_t cb = 0;
    CK(cub::DeviceRadixSort::SortKeys(nullptr, cb, b.in, b.ref, static_cast<int>(n)));
    void* ct = nullptr;
    CK(cudaMalloc(&ct, cb));
    const pass_set ps{0, 32, 4, kind_of_key<K>(), false};
    using P = default_policy_t<U, no_values>;
    void* t = nullptr;
    CK(cudaMalloc(&t, temp_bytes<P, std::uint32_t>(n, 4)));
    const buffers<U, no_values> io{reinterpret_cast<const U*>(b.in), reinterpret_cast<U*>(b.out), reinterpret_cast<U*>(b.ktemp),
                                   nullptr, nullptr, nullptr};
    // GPU ms (min / median / max of 50), then with the stream held 200 µs before each timed call (so
    // that the host's enqueueing is not timed), then the host's µs to enqueue one call (median).
    const auto spread = [](auto f) {
      cudaEvent_t e0, e1;
      CK(cudaEventCreate(&e0));
      CK(cudaEventCreate(&e1));
      std::vector<float> v, held, host;
      for (int hold = 0; hold < 2; ++hold) {
        for (int i = 0; i < 52; ++i) {
          if (hold) experiment_hold_kernel<<<1, 1>>>(200000);
          CK(cudaEventRecord(e0));
          const auto t0 = std::chrono::steady_clock::now();
          f();
          const auto t1 = std::chrono::steady_clock::now();
          CK(cudaEventRecord(e1));
          CK(cudaEventSynchronize(e1));
          float ms;
          CK(cudaEventElapsedTime(&ms, e0, e1));
          if (i < 2) continue;
          (hold ? held : v).push_back(ms);
          if (hold) host.push_back(std::chrono::duration<float, std::micro>(t1 - t0).count());
        }
      }
      std::sort(v.begin(), v.end());
      std::sort(held.begin(), held.end());
      std::sort(host.begin(), host.end());
      std::printf("%.4f / %.4f / %.4f, held %.4f / %.4f / %.4f, host %.1f us", v.front(), v[v.size() / 2], v.back(),
                  held.front(), held[held.size() / 2], held.back(), host[host.size() / 2]);
    };
    for (int round = 0; round < rounds; ++round) {
      std::printf("%s %s n=%lld round %d  CUB ", std::is_floating_point_v<K> ? "f32" : "u32", sorted ? "sorted" : "uniform",
                  (long long)n, round);
      spread([&] { CK(cub::DeviceRadixSort::SortKeys(ct, cb, b.in, b.ref, static_cast<int>(n))); });
      std::printf("  ours ");
      spread([&] { CK((run<P, std::uint32_t>(t, io, n, ps, 0, false))); });
      CK(cudaDeviceSynchronize());
      const bool bad = mismatches(b.out, b.ref, n * sizeof(K)) != 0;
      g_wrong += bad;
      std::printf("  %s\n", bad ? "WRONG" : "ok");
    }
    CK(cudaFree(t));
    CK(cudaFree(ct));
  }
}

// which = 9: the arrays of one sort at offsets k · (array + gap) of one allocation, ours and CUB's alike.
void layout_sweep(std::int64_t n) {
  using U = std::uint32_t;
  const std::size_t bytes = align_up(static_cast<std::size_t>(n) * sizeof(U));
  const pass_set ps{0, 32, 4, key_kind::unsigned_int, false};
  using PK = default_policy_t<U, no_values>;
  using PP = default_policy_t<U, U>;
  std::size_t cub_keys = 0, cub_pairs = 0;
  CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_keys, static_cast<const U*>(nullptr), static_cast<U*>(nullptr), static_cast<int>(n)));
  CK(cub::DeviceRadixSort::SortPairs(nullptr, cub_pairs, static_cast<const U*>(nullptr), static_cast<U*>(nullptr),
                                     static_cast<const U*>(nullptr), static_cast<U*>(nullptr), static_cast<int>(n)));
  std::size_t temp = temp_bytes<PP, std::uint32_t>(n, 4);
  for (std::size_t t : {temp_bytes<PK, std::uint32_t>(n, 4), cub_keys, cub_pairs}) temp = t > temp ? t : temp;
  const std::size_t max_gap = std::size_t(32) << 20;
  char* arena = nullptr;
  std::size_t packed_temp = temp_bytes<packed_policy, std::uint32_t>(n, 4);
  temp = packed_temp > temp ? packed_temp : temp;
  CK(cudaMalloc(&arena, 10 * (bytes + max_gap) + temp));
  std::vector<U> h(n), iota(n);
  std::mt19937_64 rng(42);
  for (std::int64_t i = 0; i < n; ++i) { h[i] = static_cast<U>(rng()); iota[i] = static_cast<U>(i); }
  U *ref = nullptr, *vref = nullptr;  // CUB's results, outside the arena
  CK(cudaMalloc(&ref, bytes));
  CK(cudaMalloc(&vref, bytes));
  std::printf("u32 n=%lld, arrays one after another with a gap between each two: ms (CUB / ours, ratio)\n", (long long)n);
  for (std::size_t gap : {std::size_t(0), std::size_t(4096), std::size_t(1) << 16, std::size_t(1) << 20, std::size_t(2) << 20,
                          (std::size_t(3) << 20) + 4096, std::size_t(32) << 20}) {
    const auto at = [&](int k) { return reinterpret_cast<U*>(arena + k * (bytes + gap)); };
    U *in = at(0), *out = at(1), *ktemp = at(2), *vin = at(3), *vout = at(4), *vtemp = at(5);
    auto* items_a = reinterpret_cast<std::uint64_t*>(at(6));  // two arrays' room each
    auto* items_b = reinterpret_cast<std::uint64_t*>(at(8));
    void* t = arena + 10 * (bytes + gap);
    CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(vin, iota.data(), n * 4, cudaMemcpyHostToDevice));
    // CUB, as a user calls it, with its temporary storage where ours lies.
    const auto cub_k = [&] { std::size_t b = cub_keys; CK(cub::DeviceRadixSort::SortKeys(t, b, in, out, static_cast<int>(n))); };
    const auto cub_p = [&] { std::size_t b = cub_pairs; CK(cub::DeviceRadixSort::SortPairs(t, b, in, out, vin, vout, static_cast<int>(n))); };
    const buffers<U, no_values> kio{in, out, ktemp, nullptr, nullptr, nullptr};
    const buffers<U, U> pio{in, out, ktemp, vin, vout, vtemp};
    const auto our_k = [&] { CK((run<PK, std::uint32_t>(t, kio, n, ps, 0, false))); };
    const auto our_p = [&] { CK((run<PP, std::uint32_t>(t, pio, n, ps, 0, false))); };
    const packed_buffers<U, U> packed{in, out, vin, vout, items_a, items_b}, packed_arg{in, out, nullptr, vout, items_a, items_b};
    const buffers<U, U> plain_arg{in, out, ktemp, nullptr, vout, vtemp};
    const auto our_pp = [&] { CK((run<packed_policy, std::uint32_t>(t, packed, n, ps, 0, false))); };
    const auto our_pa = [&] { CK((run<packed_policy, std::uint32_t>(t, packed_arg, n, ps, 0, false))); };
    const auto our_a = [&] { CK((run<PP, std::uint32_t>(t, plain_arg, n, ps, 0, false))); };
    cub_p();
    CK(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(vref, vout, bytes, cudaMemcpyDeviceToDevice));
    const long long bad_pairs = poisoned_mismatches(our_p, out, ref, vout, vref, bytes);
    if (bad_pairs) std::printf("  (pairs: %lld bytes differ from CUB's)\n", bad_pairs);
    // The packed pairs and both argsorts must equal CUB's pairs too (the values are the indices).
    long long bad_other = 0;
    const char* names[] = {"packed pairs", "packed argsort", "argsort"};
    int variant = 0;
    for (const auto& f : {std::function<void()>(our_pp), std::function<void()>(our_pa), std::function<void()>(our_a)}) {
      const long long bad = poisoned_mismatches(f, out, ref, vout, vref, bytes);
      if (bad) std::printf("  (%s: %lld bytes differ from CUB's)\n", names[variant], bad);
      ++variant;
      bad_other += bad;
    }
    const bool ok = bad_pairs == 0;
    g_wrong += !ok || bad_other != 0;
    const float ck = median_ms({10, 2, 500}, cub_k), ok_ms = median_ms({10, 2, 500}, our_k);
    const float cp = median_ms({10, 2, 500}, cub_p), op = median_ms({10, 2, 500}, our_p);
    const float opp = median_ms({10, 2, 500}, our_pp), oa = median_ms({10, 2, 500}, our_a), opa = median_ms({10, 2, 500}, our_pa);
    std::printf("  gap %9zu B  keys %.4f / %.4f (%.3fx)  pairs %.4f / %.4f (%.3fx) packed %.4f (%.3fx)"
                "  argsort %.4f (%.3fx) packed %.4f (%.3fx)  %s\n", gap, ck, ok_ms, ck / ok_ms, cp, op, cp / op, opp, cp / opp,
                oa, cp / oa, opa, cp / opa, ok && bad_other == 0 ? "ok" : "WRONG");
  }
  CK(cudaFree(ref));
  CK(cudaFree(vref));
  CK(cudaFree(arena));
}

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 28;
  const int which = argc > 2 ? std::atoi(argv[2]) : 1;
  const std::int64_t n = std::int64_t(1) << lg;
  // 2: the pairs sweep (u32 keys with u32 values and argsort, uniform and few-distinct), the look-back
  // reading 2-8 predecessors at once (pairs, u32 and u64 keys), f32 at the default tiles; -1 / -2: for
  // a profiler, u32 uniform keys / pairs, CUB then the default tile only.
  if (which == 9) {
    layout_sweep(n);
    return g_wrong ? 1 : 0;
  }
  if (which == 6) {  // 4-byte keys, uniform and sorted: the spread of CUB's and our times
    sorted_spread<float>(n, 12);
    sorted_spread<std::uint32_t>(n, 4);
    return g_wrong ? 1 : 0;
  }
  if (which == 5) {  // u32 and f32 keys, pairs and argsort at small n: smaller tiles
    sweep<std::uint32_t>(n, "u32", false, which);
    sweep<float>(n, "f32", false, which);
    return g_wrong ? 1 : 0;
  }
  if (which == 4 || which == 7) {  // u32 keys, pairs and argsort: run() against the library's entry (bench's path)
    sweep<std::uint32_t>(n, "u32", false, which);
    return g_wrong ? 1 : 0;
  }
  if (which == 3) {  // keys of 4 bytes: the look-back one word at a time and two at once, twice each
    sweep<std::uint32_t>(n, "u32", false, which);
    sweep<float>(n, "f32", false, which);
    return g_wrong ? 1 : 0;
  }
  if (which == 2 || which < 0) {
    sweep<std::uint32_t>(n, "u32", false, which);
    if (which == 2) {
      sweep<std::uint64_t>(n, "u64", false, which);
      sweep<float>(n, "f32", false, 0);
    }
    return g_wrong ? 1 : 0;
  }
  sweep<std::uint32_t>(n, "u32", true, which);
  sweep<float>(n, "f32", false, 0);
  sweep<std::uint64_t>(n, "u64", true, which);
  sweep<std::uint32_t>(std::int64_t(1) << 24, "u32", false, 0);
  sweep<std::uint32_t>(std::int64_t(1) << 20, "u32", false, 0);
  return g_wrong ? 1 : 0;
}
