// Procedural volumes (parascan/volume_fields.hpp): one thread per sample.
#include <cmath>
#include "parascan/volume_fields.hpp"

namespace parascan {
namespace {

struct ball {
  float x, y, z, r;
};
__constant__ ball metaballs_set[4] = {{-0.35f, -0.2f, 0.0f, 0.35f}, {0.35f, -0.2f, 0.1f, 0.35f},
                                      {0.0f, 0.35f, -0.15f, 0.3f}, {0.1f, 0.05f, 0.4f, 0.25f}};

__device__ float field_at(volume_field f, float x, float y, float z) {
  switch (f) {
    case volume_field::sphere: return sqrtf(x * x + y * y + z * z);
    case volume_field::torus: {
      const float ring = sqrtf(x * x + y * y) - 0.6f;
      return sqrtf(ring * ring + z * z);
    }
    case volume_field::metaballs: {
      float potential = 0;
      for (const ball& b : metaballs_set) {
        const float dx = x - b.x, dy = y - b.y, dz = z - b.z;
        potential += b.r * b.r / fmaxf(dx * dx + dy * dy + dz * dz, 1e-12f);
      }
      return 1.0f / potential;
    }
    case volume_field::gyroid: {
      const float k = 6.283185307f;
      return sinf(k * x) * cosf(k * y) + sinf(k * y) * cosf(k * z) + sinf(k * z) * cosf(k * x);
    }
  }
  return 0;
}

__global__ void fill_kernel(volume_field f, volume_shape shape, float* out) {
  const std::int64_t n = shape.samples();
  const float sx = 2.0f / static_cast<float>(shape.nx - 1), sy = 2.0f / static_cast<float>(shape.ny - 1),
              sz = 2.0f / static_cast<float>(shape.nz - 1);
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t row = i / shape.nx, x = i - row * shape.nx, z = row / shape.ny, y = row - z * shape.ny;
    out[i] = field_at(f, -1.0f + sx * static_cast<float>(x), -1.0f + sy * static_cast<float>(y),
                      -1.0f + sz * static_cast<float>(z));
  }
}

}  // namespace

float default_iso(volume_field f) {
  switch (f) {
    case volume_field::sphere: return 0.75f;
    case volume_field::torus: return 0.25f;
    case volume_field::metaballs: return 1.0f;
    case volume_field::gyroid: return 0.0f;
  }
  return 0;
}

cudaError_t fill_volume_field(volume_field f, volume_shape shape, float* d_out, cudaStream_t stream) {
  if (shape.nx < 2 || shape.ny < 2 || shape.nz < 2) return cudaErrorInvalidValue;
  const std::int64_t blocks = std::min<std::int64_t>((shape.samples() + 255) / 256, 65536);
  fill_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(f, shape, d_out);
  return cudaPeekAtLastError();
}

}  // namespace parascan
