// Several GPUs of this host as NCCL ranks, for the tools' --gpus N and bench --primitive dist (built
// with NCCL only): one communicator per GPU from ncclCommInitAll, one host thread per rank (each on its
// GPU, as distributed.hpp asks: a rank's collective sits between kernels on its own stream), host
// arrays split into contiguous shards in rank order (shard.hpp), and wall-clock timing of all ranks at
// once. NVLink multicast stays off (NCCL_NVLS_ENABLE=0, set before the communicators are made).
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "shard.hpp"

namespace parascan::app {

/// Throws no_cuda_device (exit 4) when this host has fewer than `gpus` CUDA devices (the option's
/// own range is checked by check_gpus_option in multi_gpu.hpp). Called before any device work.
void check_gpu_count(int gpus);

class gpu_group {
 public:
  /// Communicators over GPUs 0 .. gpus − 1 (throws cuda_error naming the NCCL error).
  explicit gpu_group(int gpus);
  ~gpu_group();
  gpu_group(const gpu_group&) = delete;
  gpu_group& operator=(const gpu_group&) = delete;

  int size() const { return static_cast<int>(comms_.size()); }
  ncclComm_t comm(int rank) const { return comms_[rank]; }

  /// f(rank) on one host thread per rank, each with its GPU current, all started together. An
  /// exception on one rank aborts the communicators (so no rank is left waiting in a collective) and
  /// the first one is rethrown after every thread has ended; the group cannot be used again.
  void each(const std::function<void(int rank)>& f);

  /// Median wall time of `repeat` runs of f on every rank at once (after one warm-up), each rank's
  /// device idle at the start and synchronised at the end: the time the slowest rank takes.
  double median_ms(int repeat, const std::function<void(int rank)>& f);

 private:
  std::vector<ncclComm_t> comms_;
  bool aborted_ = false;
};

}  // namespace parascan::app
