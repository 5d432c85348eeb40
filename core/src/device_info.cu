// Device discovery: a clear error when there is no CUDA device or the build has no code for it.
#include <cuda_runtime_api.h>
#include <string>
#include "parascan/device_info.hpp"

namespace parascan {

namespace {
// A tiny kernel whose attributes tell whether this binary carries code the device can run.
__global__ void probe_kernel() {}
}  // namespace

bool cuda_device_available() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return count > 0;
}

device_description select_device(int id) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    // With no NVIDIA driver installed the runtime reports cudaErrorInsufficientDriver ("CUDA driver version
    // is insufficient"), which sends users to upgrade a driver they do not have: say what was not found.
    const std::string why = e == cudaSuccess ? "the driver reports 0 devices"
                            : e == cudaErrorInsufficientDriver
                                ? "no NVIDIA driver found, or one older than this CUDA runtime needs"
                                : std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    throw no_cuda_device("no CUDA device or driver was found (" + why + "); check nvidia-smi and CUDA_VISIBLE_DEVICES");
  }
  if (id < 0 || id >= count)
    throw no_cuda_device("CUDA device " + std::to_string(id) + " does not exist (found " + std::to_string(count) +
                         " device" + (count == 1 ? "" : "s") + ")");
  if ((e = cudaSetDevice(id)) != cudaSuccess) throw no_cuda_device(std::string("cannot use CUDA device: ") + cudaGetErrorString(e));
  cudaDeviceProp p{};
  if ((e = cudaGetDeviceProperties(&p, id)) != cudaSuccess)
    throw no_cuda_device(std::string("cannot query CUDA device: ") + cudaGetErrorString(e));
  cudaFuncAttributes attr{};
  if ((e = cudaFuncGetAttributes(&attr, probe_kernel)) != cudaSuccess) {
    (void)cudaGetLastError();
    throw no_cuda_device(std::string("CUDA device ") + std::to_string(id) + " (" + p.name + ", compute capability " +
                         std::to_string(p.major) + "." + std::to_string(p.minor) +
                         ") is not supported by this build: " + cudaGetErrorString(e) +
                         "; rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(p.major * 10 + p.minor));
  }
  device_description d;
  d.id = id;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.global_memory_bytes = p.totalGlobalMem;
  d.l2_bytes = p.l2CacheSize;
  (void)cudaDriverGetVersion(&d.driver_version);
  (void)cudaRuntimeGetVersion(&d.runtime_version);
  return d;
}

}  // namespace parascan
