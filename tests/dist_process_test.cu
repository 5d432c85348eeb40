// One process per GPU, as torchrun or mpirun start a job (tests/run_ranks.sh starts two): each process
// joins with dist::join_job (rank, size and GPU from the environment, the NCCL id through a file),
// holds its shard of one global array, and checks its slice of the global scan, selection and sort
// against the CPU over the whole array. Exit 0 when every check passes, 1 otherwise.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/distributed.hpp"
#include "parascan/error.hpp"
#include "parascan/ops.hpp"

namespace {
std::uint32_t item(std::int64_t i) {  // the global array, the same in every process
  std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull + 11;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  return static_cast<std::uint32_t>(z ^ (z >> 27)) & 0xfffffu;
}
}  // namespace

int main() {
  using namespace parascan;
  try {
    const dist::process_rank me = dist::join_job();
    const std::int64_t n = 3000017;  // odd: shards of unequal length
    const std::int64_t first = n * me.rank / me.size, count = n * (me.rank + 1) / me.size - first;
    std::vector<std::uint32_t> all(n);
    for (std::int64_t i = 0; i < n; ++i) all[i] = item(i);
    device_buffer<std::uint32_t> in(count), out(n / me.size + 1);
    in.copy_from_host(all.data() + first, count);
    int bad = 0;

    // Global inclusive scan: this rank's slice of it.
    out.poison();
    std::size_t bytes = 0;
    PARASCAN_CUDA_CHECK(dist::inclusive_scan(nullptr, bytes, in.data(), out.data(), count, sum{}, me.comm));
    device_buffer<char> temp(bytes);
    PARASCAN_CUDA_CHECK(dist::inclusive_scan(temp.data(), bytes, in.data(), out.data(), count, sum{}, me.comm));
    std::vector<std::uint32_t> got(count);
    out.copy_to_host(got.data(), count);
    std::uint32_t run = 0;
    for (std::int64_t i = 0; i < first + count; ++i) {
      run += all[i];
      if (i >= first && got[i - first] != run) ++bad;
    }
    std::printf("rank %d of %d (GPU %d): scan of %lld items: %s\n", me.rank, me.size, me.device, static_cast<long long>(count),
                bad ? "FAILED" : "ok");

    // Global sort: rank r holds its slice of the sorted array, n / P keys and one more on the first n % P ranks
    // (distributed.hpp's balance).
    out.poison();
    const dist::sort_stats st = dist::sort_keys(in.data(), count, out.data(), n / me.size + 1, me.comm);
    std::vector<std::uint32_t> sorted(all);
    std::stable_sort(sorted.begin(), sorted.end());
    const std::int64_t base = n / me.size, extra = n % me.size;
    const std::int64_t want = base + (me.rank < extra ? 1 : 0), want_first = base * me.rank + std::min<std::int64_t>(me.rank, extra);
    std::vector<std::uint32_t> slice(std::max<std::int64_t>(st.local, 0));
    out.copy_to_host(slice.data(), slice.size());
    const bool sort_ok = st.global == n && st.local == want &&
                         std::equal(slice.begin(), slice.end(), sorted.begin() + want_first);
    std::printf("rank %d: sort: holds %lld of %lld keys: %s\n", me.rank, static_cast<long long>(st.local),
                static_cast<long long>(st.global), sort_ok ? "ok" : "FAILED");
    bad += !sort_ok;
    ncclCommDestroy(me.comm);
    return bad ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dist_process_test: %s\n", e.what());
    return 1;
  }
}
