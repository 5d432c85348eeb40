// Procedural scalar fields on a grid, for marching-cubes demos, tests and benchmarks. Sample (i, j, k)
// of an nx × ny × nz grid sits at p = (−1 + 2i/(nx−1), …) in [−1, 1]³; values are f32, x fastest.
//   sphere     |p|                                        surface at 0.75
//   torus      distance to the circle of radius 0.6 in z = 0  surface at 0.25 (a ring of radius 0.25)
//   metaballs  1 / Σ r_i² / |p − c_i|² over four balls   surface at 1 (inside: where the balls merge)
//   gyroid     sin 2πx cos 2πy + sin 2πy cos 2πz + sin 2πz cos 2πx   surface at 0 (a triply periodic
//              minimal-like surface: many small triangles everywhere, the heavy case)
#pragma once
#include <cuda_runtime_api.h>
#include <optional>
#include <string_view>
#include "parascan/marching_cubes.hpp"

namespace parascan {

enum class volume_field { sphere, torus, metaballs, gyroid };

std::string_view to_string(volume_field f);
std::optional<volume_field> parse_volume_field(std::string_view name);
/// The iso value at which the field's surface is the shape described above.
float default_iso(volume_field f);

/// Fills d_out (shape.samples() floats) with the field. Each axis needs at least 2 samples.
cudaError_t fill_volume_field(volume_field f, volume_shape shape, float* d_out, cudaStream_t stream = 0);

}  // namespace parascan
