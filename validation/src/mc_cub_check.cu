// The marching-cubes scans redone with CUB (see mc_reference.hpp).
#include <string>
#include <vector>
#include "parascan/ops.hpp"
#include "parascan/validation/cub_scan.hpp"
#include "parascan/validation/cub_select.hpp"
#include "parascan/validation/mc_reference.hpp"

namespace parascan::validation {
namespace {

__global__ void iota_kernel(std::int64_t* out, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = i;
}

template <class V>
std::vector<V> to_host(const V* d, std::int64_t n) {
  std::vector<V> h(static_cast<std::size_t>(n));
  if (n) PARASCAN_CUDA_CHECK(cudaMemcpy(h.data(), d, sizeof(V) * static_cast<std::size_t>(n), cudaMemcpyDeviceToHost));
  return h;
}

template <class Call>
void run(Call call) {
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(call(nullptr, bytes));
  device_buffer<unsigned char> temp(bytes ? bytes : 1);
  PARASCAN_CUDA_CHECK(call(temp.data(), bytes));
}

}  // namespace

std::string check_scans_with_cub(const mc_mesh& mesh) {
  const std::int64_t cells = static_cast<std::int64_t>(mesh.cell_vertex_counts.size());
  if (cells != mesh.cells) return "the mesh was built without keep_cells";
  device_buffer<std::int64_t> iota(cells), selected(cells), count(1);
  iota_kernel<<<256, 256>>>(iota.data(), cells);
  PARASCAN_CUDA_CHECK(cudaPeekAtLastError());
  run([&](void* temp, std::size_t& bytes) {
    return cub_select_flagged<std::int64_t>(temp, bytes, iota.data(), mesh.cell_vertex_counts.data(), selected.data(),
                                            count.data(), cells);
  });
  const std::int64_t active = to_host(count.data(), 1)[0];
  if (active != mesh.active_cells)
    return "CUB selects " + std::to_string(active) + " active cells, parascan " + std::to_string(mesh.active_cells);
  if (to_host(selected.data(), active) != to_host(mesh.active_cell_ids.data(), active))
    return "the active cell list differs from cub::DeviceSelect::Flagged";
  device_buffer<std::uint64_t> offsets(active);
  run([&](void* temp, std::size_t& bytes) {
    return cub_exclusive_scan<std::uint8_t, std::uint64_t, sum>(temp, bytes, mesh.active_vertex_counts.data(),
                                                                offsets.data(), active, sum{}, std::uint64_t{0});
  });
  if (to_host(offsets.data(), active) != to_host(mesh.vertex_offsets.data(), active))
    return "the vertex offsets differ from cub::DeviceScan::ExclusiveScan";
  return "";
}

}  // namespace parascan::validation
