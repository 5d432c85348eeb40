// Macros shared by host-only and device code: what compiles for both sides, and the version.
#pragma once

#if defined(__CUDACC__)
#define PARASCAN_HD __host__ __device__ __forceinline__
#else
#define PARASCAN_HD inline
#endif

#define PARASCAN_VERSION_STRING "0.1.0"
