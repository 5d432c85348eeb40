// GPU tests of warp-level collectives that the device kernels build on, against the CPU: the warp
// maximum in both its forms (warp::warp_max, one redux.sync on sm_80 and later, and
// warp::warp_max_by_shuffles, the butterfly that sm_75 builds take: run here on whatever GPU is present,
// so the older GPUs' path is tested on this one), the warp sum, the inclusive warp scan, and the
// peers of an 8-bit label by both match methods (the sort's ranking: ballots, and __match_any_sync).
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/buffer.hpp"
#include "parascan/ops.hpp"
#include "parascan/warp/warp_match.cuh"
#include "parascan/warp/warp_shuffle.cuh"

namespace {
using namespace parascan;
using parascan::test::gpu_test;

enum class warp_op { max_redux, max_shuffles, sum, inclusive_sum, peers_ballots, peers_match_any, lanes_le };

/// Each warp w of the launch reads in[32w + lane] and writes its lane's result to out[32w + lane].
__global__ void warp_op_kernel(const unsigned* in, unsigned* out, warp_op op) {
  const unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int lane = static_cast<int>(threadIdx.x % 32);
  unsigned r = 0;
  switch (op) {  // uniform over the launch: every lane of each warp takes the same collective
    case warp_op::max_redux: r = warp::warp_max(v); break;
    case warp_op::max_shuffles: r = warp::warp_max_by_shuffles(v); break;
    case warp_op::sum: r = warp::warp_sum(v); break;
    case warp_op::inclusive_sum: r = warp::inclusive_scan(v, sum{}, lane); break;
    case warp_op::peers_ballots: r = warp::match_label<8, warp::match_method::ballots>(v & 0xffu); break;
    case warp_op::peers_match_any: r = warp::match_label<8, warp::match_method::match_any>(v & 0xffu); break;
    case warp_op::lanes_le: r = warp::lanemask_le(); break;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

/// Warps of values of several shapes: random over all 32 bits, small values with many ties, the
/// maximum in lane 0 or lane 31 alone, every lane equal, 0xffffffff and 0 mixed.
std::vector<unsigned> warp_inputs(int warps) {
  std::vector<unsigned> v(static_cast<std::size_t>(warps) * 32);
  std::mt19937 rng(20261207);
  for (int w = 0; w < warps; ++w) {
    unsigned* x = v.data() + static_cast<std::size_t>(w) * 32;
    const int shape = w % 6;
    for (int l = 0; l < 32; ++l) {
      switch (shape) {
        case 0: x[l] = static_cast<unsigned>(rng()); break;
        case 1: x[l] = static_cast<unsigned>(rng() % 5); break;
        case 2: x[l] = l == 0 ? 1000u + static_cast<unsigned>(rng() % 7) : static_cast<unsigned>(rng() % 1000); break;
        case 3: x[l] = l == 31 ? 0x80000000u : static_cast<unsigned>(rng() % 0x80000000u); break;
        case 4: x[l] = 7u; break;
        default: x[l] = rng() % 2 ? 0xffffffffu : 0u; break;
      }
    }
  }
  return v;
}

class warp_test : public gpu_test {
 protected:
  /// The op on every warp of `in` (blocks of 128 threads), back on the host.
  static std::vector<unsigned> run(const std::vector<unsigned>& in, warp_op op) {
    const auto n = static_cast<std::int64_t>(in.size());
    device_buffer<unsigned> d_in(n), d_out(n);
    d_in.copy_from_host(in.data(), n);
    EXPECT_EQ(cudaMemset(d_out.data(), 0x5a, in.size() * 4), cudaSuccess);  // poisoned
    warp_op_kernel<<<static_cast<unsigned>(n / 128), 128>>>(d_in.data(), d_out.data(), op);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned> out(in.size());
    EXPECT_EQ(cudaMemcpy(out.data(), d_out.data(), in.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
};

TEST_F(warp_test, warp_max_both_forms_give_every_lane_the_largest_value) {
  const std::vector<unsigned> in = warp_inputs(4 * 60);
  for (const warp_op op : {warp_op::max_redux, warp_op::max_shuffles}) {
    SCOPED_TRACE(op == warp_op::max_redux ? "warp_max" : "warp_max_by_shuffles");
    const std::vector<unsigned> got = run(in, op);
    for (std::size_t w = 0; w < in.size() / 32; ++w) {
      const unsigned want = *std::max_element(in.begin() + 32 * w, in.begin() + 32 * (w + 1));
      for (std::size_t l = 0; l < 32; ++l) ASSERT_EQ(got[32 * w + l], want) << "warp " << w << " lane " << l;
    }
  }
}

TEST_F(warp_test, warp_sum_and_inclusive_scan_match_the_cpu_modulo_2_32) {
  const std::vector<unsigned> in = warp_inputs(4 * 60);
  const std::vector<unsigned> total = run(in, warp_op::sum), prefix = run(in, warp_op::inclusive_sum);
  for (std::size_t w = 0; w < in.size() / 32; ++w) {
    unsigned run_sum = 0, want_total = 0;
    for (std::size_t l = 0; l < 32; ++l) want_total += in[32 * w + l];
    for (std::size_t l = 0; l < 32; ++l) {
      run_sum += in[32 * w + l];
      ASSERT_EQ(prefix[32 * w + l], run_sum) << "warp " << w << " lane " << l;
      ASSERT_EQ(total[32 * w + l], want_total) << "warp " << w << " lane " << l;
    }
  }
}

TEST_F(warp_test, peers_of_an_8_bit_label_by_ballots_and_by_match_any_are_the_lanes_of_equal_labels) {
  const std::vector<unsigned> in = warp_inputs(4 * 60);
  const std::vector<unsigned> le = run(in, warp_op::lanes_le);
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(le[i], (2ull << (i % 32)) - 1) << "lanemask_le, lane " << i % 32;
  for (const warp_op op : {warp_op::peers_ballots, warp_op::peers_match_any}) {
    SCOPED_TRACE(op == warp_op::peers_ballots ? "ballots" : "match_any");
    const std::vector<unsigned> got = run(in, op);
    for (std::size_t w = 0; w < in.size() / 32; ++w)
      for (std::size_t l = 0; l < 32; ++l) {
        unsigned want = 0;
        for (std::size_t o = 0; o < 32; ++o)
          if ((in[32 * w + o] & 0xffu) == (in[32 * w + l] & 0xffu)) want |= 1u << o;
        ASSERT_EQ(got[32 * w + l], want) << "warp " << w << " lane " << l;
      }
  }
}

}  // namespace
