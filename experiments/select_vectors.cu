// Experiment: the single-pass u32 select with 16-byte loads (performance.md entry 53's next step; the
// scan gained 4.5–7% at 2^28 from 16-byte moves and more blocks an SM). Lane l of warp w holds, in vector
// row q, the four items 4(q·P + 32w + l) .. +3 (P threads), so a warp's row segment is 128 consecutive
// items; four ballots a vector row (one per component) give each item's rank: the kept items of lower
// lanes (four popc a vector row, not a item) plus the lane's own kept components before it. The segment
// counts, their scan, the publish and the look-back are the library's (count_and_look_back, look_back).
// Beside the library's select_if and CUB's DeviceSelect::If (both count types, the faster dividing),
// keeping x < threshold for 10 / 50 / 90% of random u32; every output and count compared with CUB's.
//   select_vectors [log2 n ...]      (default 22 24 28); exit 1 on a mismatch
// Measured (H100, stop 50, docs/select-shared-stop50-h100.txt): 4–6% faster than select_if at 10% kept
// from 2^24 up, 7–38% slower at 50 and 90% (each lane's four items scatter across the warp's run in
// four stores); select_shared.cu, the tile in shared memory, is what the library took.
#include "select_harness.cuh"

namespace {
using namespace parascan;
using namespace parascan::device;
using u32 = std::uint32_t;

/// Threads × Vecs vectors of 4 items a tile; MinBlocks blocks an SM asked of the compiler.
template <int Threads, int Vecs, int MinBlocks, class Rule>
__global__ void __launch_bounds__(Threads, MinBlocks)
    select_vec_kernel(const u32* in, Rule keep, u32* out, std::int64_t n, std::int64_t* count_out,
                      tile_status<u32> status) {
  using policy = scan_policy_t<Threads, Vecs * 4, 1150, 76>;
  constexpr int warps = Threads / 32, segments = Vecs * warps, tile_items = Threads * Vecs * 4;
  __shared__ u32 segment_count[segments], segment_begin[segments];
  __shared__ u32 tile_prefix, tile_count;
  const std::int64_t tile = blockIdx.x, first = tile * tile_items;
  const bool full = n - first >= tile_items;
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  uint4 v[Vecs];
  unsigned b[Vecs][4];
#pragma unroll
  for (int q = 0; q < Vecs; ++q) {
    const std::int64_t at = first + 4 * (static_cast<std::int64_t>(q) * Threads + threadIdx.x);
    if (full) {
      v[q] = reinterpret_cast<const uint4*>(in + first)[q * Threads + threadIdx.x];
    } else {
      v[q].x = at < n ? in[at] : 0u;
      v[q].y = at + 1 < n ? in[at + 1] : 0u;
      v[q].z = at + 2 < n ? in[at + 2] : 0u;
      v[q].w = at + 3 < n ? in[at + 3] : 0u;
    }
  }
#pragma unroll
  for (int q = 0; q < Vecs; ++q) {
    const std::int64_t at = first + 4 * (static_cast<std::int64_t>(q) * Threads + threadIdx.x);
    b[q][0] = __ballot_sync(~0u, (full || at < n) && keep(v[q].x));
    b[q][1] = __ballot_sync(~0u, (full || at + 1 < n) && keep(v[q].y));
    b[q][2] = __ballot_sync(~0u, (full || at + 2 < n) && keep(v[q].z));
    b[q][3] = __ballot_sync(~0u, (full || at + 3 < n) && keep(v[q].w));
  }
  if (lane == 0) {
#pragma unroll
    for (int q = 0; q < Vecs; ++q)
      segment_count[q * warps + w] = __popc(b[q][0]) + __popc(b[q][1]) + __popc(b[q][2]) + __popc(b[q][3]);
  }
  __syncthreads();
  count_and_look_back(segment_count, segment_begin, tile_prefix, tile_count, tile, status,
                      [&](u32 total) { return look_back<policy>(status, tile, tile, total, sum{}); });
  __syncthreads();
  const std::int64_t out_first = tile_prefix;
  const unsigned lower = (1u << lane) - 1u;
#pragma unroll
  for (int q = 0; q < Vecs; ++q) {
    const unsigned m0 = b[q][0], m1 = b[q][1], m2 = b[q][2], m3 = b[q][3];
    std::int64_t at = out_first + segment_begin[q * warps + w] + __popc(m0 & lower) + __popc(m1 & lower) +
                      __popc(m2 & lower) + __popc(m3 & lower);
    if ((m0 >> lane) & 1u) out[at++] = v[q].x;
    if ((m1 >> lane) & 1u) out[at++] = v[q].y;
    if ((m2 >> lane) & 1u) out[at++] = v[q].z;
    if ((m3 >> lane) & 1u) out[at++] = v[q].w;
  }
  if (tile == static_cast<std::int64_t>(gridDim.x) - 1 && threadIdx.x == 0)
    *count_out = static_cast<std::int64_t>(tile_prefix) + tile_count;
}

template <int Threads, int Vecs, int MinBlocks>
select_row run_vec(const select_case& s) {
  char shape[48];
  std::snprintf(shape, sizeof shape, "vec %d x %d x 4 /%d", Threads, Vecs, MinBlocks);
  return s.run_kernel(shape, select_vec_kernel<Threads, Vecs, MinBlocks, below>, Threads, Threads * Vecs * 4);
}

}  // namespace

int main(int argc, char** argv) {
  return run_select_table(argc, argv, [](const select_case& s) {
    return std::vector<select_row>{run_vec<384, 4, 1>(s), run_vec<384, 4, 3>(s), run_vec<256, 4, 4>(s),
                                   run_vec<256, 6, 1>(s), run_vec<128, 8, 1>(s), run_vec<512, 4, 2>(s)};
  });
}
