// Marching cubes: the host pipeline of parascan/marching_cubes.hpp over the kernels of
// device/device_marching_cubes.cuh and the core's scans (select_flagged_indices, expand_offsets,
// inclusive_scan) and radix sort (for --weld). Explicit instantiations for u8, u16 and f32 volumes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include "parascan/device/device_marching_cubes.cuh"
#include "parascan/radix_sort.hpp"
#include "parascan/scan.hpp"
#include "parascan/select.hpp"

namespace parascan {
namespace {

__device__ mc_tables device_tables;

/// Copies the tables to the current device (4.4 KB, on the stream: every device gets its own copy).
const mc_tables* upload_tables(cudaStream_t stream) {
  PARASCAN_CUDA_CHECK(cudaMemcpyToSymbolAsync(device_tables, &marching_cubes_tables(), sizeof(mc_tables), 0,
                                              cudaMemcpyHostToDevice, stream));
  void* address = nullptr;
  PARASCAN_CUDA_CHECK(cudaGetSymbolAddress(&address, device_tables));
  return static_cast<const mc_tables*>(address);
}

/// Times the stages with events when asked to; otherwise does nothing.
class stage_clock {
 public:
  stage_clock(mc_stage_ms* times, cudaStream_t stream) : times_(times), stream_(stream) {
    if (!times_) return;
    *times_ = {};
    for (auto& e : events_) PARASCAN_CUDA_CHECK(cudaEventCreate(&e));
    PARASCAN_CUDA_CHECK(cudaEventRecord(events_[0], stream_));
  }
  ~stage_clock() {
    if (times_)
      for (auto e : events_) (void)cudaEventDestroy(e);
  }
  stage_clock(const stage_clock&) = delete;
  stage_clock& operator=(const stage_clock&) = delete;
  /// Ends the current stage; its time goes to *slot.
  void lap(float mc_stage_ms::*slot) {
    if (!times_) return;
    PARASCAN_CUDA_CHECK(cudaEventRecord(events_[1], stream_));
    PARASCAN_CUDA_CHECK(cudaEventSynchronize(events_[1]));
    float ms = 0;
    PARASCAN_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[0], events_[1]));
    times_->*slot = ms;
    std::swap(events_[0], events_[1]);
  }

 private:
  mc_stage_ms* times_;
  cudaStream_t stream_;
  cudaEvent_t events_[2] = {};
};

/// Runs a two-phase core call: asks for the temporary size, allocates it, runs.
template <class Call>
void run_two_phase(Call call) {
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(call(nullptr, bytes));
  device_buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  PARASCAN_CUDA_CHECK(call(temp.data(), bytes));
}

unsigned grid_for(std::int64_t items, int threads) {
  int device = 0, sms = 0;
  PARASCAN_CUDA_CHECK(cudaGetDevice(&device));
  PARASCAN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::int64_t blocks = (items + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{sms} * 16));
}

void check_launch(const mc_options& options, cudaStream_t stream) {
  PARASCAN_CUDA_CHECK(cudaPeekAtLastError());
  if (options.scan.debug_synchronous) PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class T>
void classify(const T* volume, volume_shape shape, float iso, const mc_tables* tables, std::uint8_t* counts,
              unsigned long long* active, const mc_options& options, cudaStream_t stream) {
  using device::mc::block_threads;
  const std::int64_t cells = shape.cells();
  const unsigned grid = grid_for(cells, block_threads);
  const std::uint8_t* vertex_table = tables->vertex_count;
  if (shape.samples() <= std::numeric_limits<std::uint32_t>::max()) {
    device::mc::classify_kernel<T, std::uint32_t><<<grid, block_threads, 0, stream>>>(
        volume, static_cast<std::uint32_t>(shape.nx), static_cast<std::uint32_t>(shape.ny),
        static_cast<std::uint32_t>(cells), iso, vertex_table, counts, active);
  } else {
    device::mc::classify_kernel<T, std::uint64_t><<<grid, block_threads, 0, stream>>>(
        volume, static_cast<std::uint64_t>(shape.nx), static_cast<std::uint64_t>(shape.ny),
        static_cast<std::uint64_t>(cells), iso, vertex_table, counts, active);
  }
  check_launch(options, stream);
}

template <class V>
V read_back(const V* d_value, cudaStream_t stream) {
  V value{};
  PARASCAN_CUDA_CHECK(cudaMemcpyAsync(&value, d_value, sizeof(V), cudaMemcpyDeviceToHost, stream));
  PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return value;
}

/// Step 6: vertices keyed by their grid edge → sort → run heads → scan → unique vertices + indices.
void weld(mc_mesh& mesh, device_buffer<std::uint64_t>& keys, std::uint64_t max_key, const mc_options& options,
          cudaStream_t stream) {
  const std::int64_t n = mesh.vertices;
  device_buffer<std::uint64_t> sorted(n);
  device_buffer<std::uint32_t> perm(n);
  sort_options sort;
  sort.end_bit = 1;
  while (sort.end_bit < 64 && (max_key >> sort.end_bit) != 0) ++sort.end_bit;  // the key's significant bits
  sort.debug_synchronous = options.scan.debug_synchronous;
  run_two_phase([&](void* temp, std::size_t& bytes) {
    return radix_sort_pairs<std::uint64_t, std::uint32_t>(temp, bytes, keys.data(), sorted.data(), nullptr, perm.data(),
                                                          n, sort, stream);
  });
  keys.reset();
  device_buffer<std::uint8_t> heads(n);
  const unsigned grid = grid_for(n, device::mc::block_threads);
  device::mc::run_heads_kernel<<<grid, device::mc::block_threads, 0, stream>>>(sorted.data(), heads.data(), n);
  check_launch(options, stream);
  sorted.reset();
  device_buffer<std::uint32_t> ids(n);
  run_two_phase([&](void* temp, std::size_t& bytes) {
    return inclusive_scan<std::uint8_t, std::uint32_t, sum>(temp, bytes, heads.data(), ids.data(), n, sum{}, stream,
                                                             options.scan);
  });
  const std::int64_t unique = read_back(ids.data() + (n - 1), stream);
  device_buffer<std::uint32_t> indices(n);
  device_buffer<float> positions(3 * unique), normals(mesh.normals.size() ? 3 * unique : 0);
  device::mc::weld_scatter_kernel<<<grid, device::mc::block_threads, 0, stream>>>(
      perm.data(), heads.data(), ids.data(), mesh.positions.data(), mesh.normals.data(), n, indices.data(),
      positions.data(), normals.data());
  check_launch(options, stream);
  mesh.positions = std::move(positions);
  mesh.normals = std::move(normals);
  mesh.indices = std::move(indices);
  mesh.vertices = unique;
  mesh.welded = true;
}

}  // namespace

template <class T>
mc_mesh marching_cubes(const T* d_volume, volume_shape shape, float iso, const mc_options& options,
                       cudaStream_t stream, mc_stage_ms* times) {
  if (std::isnan(iso)) throw std::invalid_argument("marching_cubes: the iso value is NaN");
  if (shape.nx < 0 || shape.ny < 0 || shape.nz < 0) throw std::invalid_argument("marching_cubes: negative dimensions");
  if (shape.nx > 0 && shape.ny > 0 && shape.nz > 0 &&
      shape.nx > std::numeric_limits<std::int64_t>::max() / 4 / shape.ny / shape.nz)
    throw std::invalid_argument("marching_cubes: the dimensions overflow a 64-bit sample count");
  mc_mesh mesh;
  mesh.cells = shape.cells();
  if (mesh.cells == 0) return mesh;
  stage_clock clock(times, stream);
  const mc_tables* tables = upload_tables(stream);

  // 1. classify
  device_buffer<std::uint8_t> counts(mesh.cells);
  device_buffer<unsigned long long> active_total(1);
  device_buffer<std::int64_t> n_selected(1);
  PARASCAN_CUDA_CHECK(cudaMemsetAsync(active_total.data(), 0, sizeof(unsigned long long), stream));
  classify(d_volume, shape, iso, tables, counts.data(), active_total.data(), options, stream);
  mesh.active_cells = static_cast<std::int64_t>(read_back(active_total.data(), stream));
  clock.lap(&mc_stage_ms::classify);
  if (mesh.active_cells == 0) {
    if (options.keep_cells) mesh.cell_vertex_counts = std::move(counts);
    return mesh;
  }

  // 2. compact the active cells (stable: increasing cell id)
  device_buffer<std::int64_t> ids(mesh.active_cells);
  run_two_phase([&](void* temp, std::size_t& bytes) {
    return select_flagged_indices<std::uint8_t>(temp, bytes, counts.data(), ids.data(), n_selected.data(), mesh.cells,
                                                stream, options.scan);
  });
  clock.lap(&mc_stage_ms::compact);

  // 3. offsets: exclusive sum of the active cells' vertex counts, and the total
  device_buffer<std::uint8_t> active_counts(mesh.active_cells);
  device::mc::gather_counts_kernel<<<grid_for(mesh.active_cells, device::mc::block_threads), device::mc::block_threads, 0,
                                     stream>>>(ids.data(), counts.data(), active_counts.data(), mesh.active_cells);
  check_launch(options, stream);
  device_buffer<std::uint64_t> offsets(mesh.active_cells), total(1);
  run_two_phase([&](void* temp, std::size_t& bytes) {
    return expand_offsets<std::uint8_t, std::uint64_t>(temp, bytes, active_counts.data(), offsets.data(), total.data(),
                                                       mesh.active_cells, stream, options.scan);
  });
  clock.lap(&mc_stage_ms::offsets);

  // 4. allocate exactly
  const std::int64_t selected = read_back(n_selected.data(), stream);
  if (selected != mesh.active_cells)
    throw cuda_error(cudaErrorUnknown, "marching_cubes: classify counted " + std::to_string(mesh.active_cells) +
                                           " active cells, the compaction " + std::to_string(selected));
  mesh.vertices = static_cast<std::int64_t>(read_back(total.data(), stream));
  mesh.triangles = mesh.vertices / 3;
  if (options.weld && mesh.vertices > std::int64_t{std::numeric_limits<std::uint32_t>::max()})
    throw std::invalid_argument("marching_cubes: welding needs fewer than 2^32 vertices, the surface has " +
                                std::to_string(mesh.vertices));
  mesh.positions = device_buffer<float>(3 * mesh.vertices);
  if (options.normals) mesh.normals = device_buffer<float>(3 * mesh.vertices);
  device_buffer<std::uint64_t> keys(options.weld ? mesh.vertices : 0);
  if (options.scan.debug_synchronous) {  // tests: NaN bytes, so a slot the emit misses cannot pass
    mesh.positions.poison(0xff, stream);
    mesh.normals.poison(0xff, stream);
    keys.poison(0xff, stream);
  }
  clock.lap(&mc_stage_ms::allocate);

  // 5. emit
  constexpr int emit_threads = 128;
  const auto emit_blocks = static_cast<unsigned>((mesh.active_cells + emit_threads - 1) / emit_threads);
  device::mc::emit_kernel<T><<<emit_blocks, emit_threads, 0, stream>>>(
      d_volume, shape, iso, ids.data(), offsets.data(), mesh.active_cells, tables, mesh.positions.data(),
      mesh.normals.data(), keys.data());
  check_launch(options, stream);
  clock.lap(&mc_stage_ms::emit);

  // 6. weld
  if (options.weld) {
    weld(mesh, keys, static_cast<std::uint64_t>(shape.samples()) * 3u, options, stream);
    clock.lap(&mc_stage_ms::weld);
  }
  if (!times) PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));  // the mesh is ready on return
  if (options.keep_cells) {
    mesh.cell_vertex_counts = std::move(counts);
    mesh.active_cell_ids = std::move(ids);
    mesh.active_vertex_counts = std::move(active_counts);
    mesh.vertex_offsets = std::move(offsets);
  }
  return mesh;
}

template mc_mesh marching_cubes<std::uint8_t>(const std::uint8_t*, volume_shape, float, const mc_options&, cudaStream_t,
                                              mc_stage_ms*);
template mc_mesh marching_cubes<std::uint16_t>(const std::uint16_t*, volume_shape, float, const mc_options&,
                                               cudaStream_t, mc_stage_ms*);
template mc_mesh marching_cubes<float>(const float*, volume_shape, float, const mc_options&, cudaStream_t, mc_stage_ms*);

}  // namespace parascan
