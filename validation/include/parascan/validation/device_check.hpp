// Run one scan on the device with parascan and with CUB, outputs poisoned first, and compare both
// with the CPU reference (and with each other). Host code; used by `validate`, `scan --validate` and
// the GPU tests.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>
#include "parascan/buffer.hpp"
#include "parascan/error.hpp"
#include "parascan/instantiated.hpp"
#include "parascan/scan.hpp"
#include "parascan/validation/compare.hpp"
#include "parascan/validation/cub_scan.hpp"

namespace parascan::validation {

struct scan_check {
  comparison vs_cpu;   // parascan against the CPU reference
  comparison vs_cub;   // parascan against CUB (floats: both within the bound)
  bool ok() const { return vs_cpu.ok() && vs_cub.ok(); }
  std::string describe() const {
    if (!vs_cpu.ok()) return "vs CPU: " + std::to_string(vs_cpu.mismatches) + " mismatches, first at " + vs_cpu.detail;
    if (!vs_cub.ok()) return "vs CUB: " + std::to_string(vs_cub.mismatches) + " mismatches, first at " + vs_cub.detail;
    return "ok";
  }
};

/// Run a two-phase call (size query, then the run) with temporary storage owned here.
template <class Call>
void run_two_phase(Call&& call, cudaStream_t stream) {
  std::size_t bytes = 0;
  PARASCAN_CUDA_CHECK(call(nullptr, bytes));
  device_buffer<char> temp(bytes);
  PARASCAN_CUDA_CHECK(call(temp.data(), bytes));
  PARASCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
}

/// The two-phase call (temp, bytes) → cudaError_t of parascan's scan for `spec` (plain or, with
/// d_heads, segmented). The scan tool times it; run_parascan runs it once.
template <class In, class Out, class Op>
auto parascan_scan_call(const In* d_in, const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op,
                        const scan_spec<Out>& spec, scan_options options, cudaStream_t stream = 0) {
  return [=](void* temp, std::size_t& bytes) -> cudaError_t {
    if (d_heads) {
      if constexpr (has_segmented_scan<In, Out, Op>) {
        return spec.exclusive
                   ? segmented_exclusive_scan(temp, bytes, d_in, d_heads, d_out, n, op, spec.init, stream, options)
                   : segmented_inclusive_scan(temp, bytes, d_in, d_heads, d_out, n, op, stream, options);
      } else {
        throw std::logic_error("parascan_scan_call: this segmented scan is not instantiated");
      }
    }
    if (spec.exclusive) return exclusive_scan(temp, bytes, d_in, d_out, n, op, spec.init, stream, options);
    return spec.has_init ? inclusive_scan_init(temp, bytes, d_in, d_out, n, op, spec.init, stream, options)
                         : inclusive_scan(temp, bytes, d_in, d_out, n, op, stream, options);
  };
}

/// The same call through CUB, (temp, bytes[, count]) with the count form of cub_count.hpp.
template <class In, class Out, class Op>
auto cub_scan_call(const In* d_in, const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op,
                   const scan_spec<Out>& spec, cudaStream_t stream = 0) {
  return [=](void* temp, std::size_t& bytes, cub_count count = cub_count::int64) -> cudaError_t {
    if (d_heads) {
      if constexpr (has_segmented_scan<In, Out, Op>) {
        return spec.exclusive
                   ? cub_segmented_exclusive_scan(temp, bytes, d_in, d_heads, d_out, n, op, spec.init, stream, count)
                   : cub_segmented_inclusive_scan(temp, bytes, d_in, d_heads, d_out, n, op, stream, count);
      } else {
        throw std::logic_error("cub_scan_call: this segmented scan is not instantiated");
      }
    }
    if (spec.exclusive) return cub_exclusive_scan(temp, bytes, d_in, d_out, n, op, spec.init, stream, count);
    return spec.has_init ? cub_inclusive_scan_init(temp, bytes, d_in, d_out, n, op, spec.init, stream, count)
                         : cub_inclusive_scan(temp, bytes, d_in, d_out, n, op, stream, count);
  };
}

/// Run parascan's scan for `spec` and wait for it. Throws cuda_error on failure.
template <class In, class Out, class Op>
void run_parascan(const In* d_in, const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op,
                  const scan_spec<Out>& spec, scan_options options, cudaStream_t stream = 0) {
  run_two_phase(parascan_scan_call(d_in, d_heads, d_out, n, op, spec, options, stream), stream);
}

/// The same through CUB.
template <class In, class Out, class Op>
void run_cub(const In* d_in, const std::uint8_t* d_heads, Out* d_out, std::int64_t n, Op op, const scan_spec<Out>& spec,
             cudaStream_t stream = 0) {
  run_two_phase(cub_scan_call(d_in, d_heads, d_out, n, op, spec, stream), stream);
}

/// Device inputs uploaded once, CUB and the CPU reference computed once, then parascan checked under
/// several options (algorithms × strategies), its output poisoned before every run.
template <class In, class Out, class Op>
class device_scan_checker {
 public:
  device_scan_checker(const std::vector<In>& h_in, const std::vector<std::uint8_t>* h_heads, Op op,
                      scan_spec<Out> spec, bool in_place = false)
      : h_in_(h_in), n_(static_cast<std::int64_t>(h_in.size())), op_(op), spec_(with_heads(spec, h_heads)),
        in_place_(in_place), reference_(h_in.data(), n_, op, spec_), d_in_(h_in.size()), d_out_(h_in.size()),
        h_out_(h_in.size()), h_cub_(h_in.size()) {
    if (h_heads) {
      d_heads_ = device_buffer<std::uint8_t>(h_heads->size());
      d_heads_.copy_from_host(h_heads->data(), h_heads->size());
    }
    d_in_.copy_from_host(h_in.data(), h_in.size());
    d_out_.poison(0x5A);
    run_cub(d_in_.data(), heads(), d_out_.data(), n_, op_, spec_);
    d_out_.copy_to_host(h_cub_.data(), h_cub_.size());
  }

  /// Poison the output, run parascan with `options`, and compare with the CPU and CUB.
  scan_check check(scan_options options) {
    Out* out = d_out_.data();
    const In* in = d_in_.data();
    if constexpr (std::is_same_v<In, Out>) {
      if (in_place_) {  // the input buffer is the output: restore it first
        d_in_.copy_from_host(h_in_.data(), h_in_.size());
        out = d_in_.data();
      }
    }
    if (out == d_out_.data()) d_out_.poison();
    run_parascan(in, heads(), out, n_, op_, spec_, options);
    PARASCAN_CUDA_CHECK(cudaMemcpy(h_out_.data(), out, h_out_.size() * sizeof(Out), cudaMemcpyDeviceToHost));
    scan_check r;
    r.vs_cpu = reference_.compare(h_out_.data());
    r.vs_cub = reference_.compare_with_other(h_out_.data(), h_cub_.data());
    return r;
  }
  const std::vector<Out>& last_output() const { return h_out_; }

 private:
  static scan_spec<Out> with_heads(scan_spec<Out> s, const std::vector<std::uint8_t>* h) {
    s.heads = h ? h->data() : nullptr;
    return s;
  }
  const std::uint8_t* heads() const { return spec_.heads ? d_heads_.data() : nullptr; }
  const std::vector<In>& h_in_;
  std::int64_t n_;
  Op op_;
  scan_spec<Out> spec_;
  bool in_place_;
  scan_reference<In, Out, Op> reference_;
  device_buffer<In> d_in_;
  device_buffer<std::uint8_t> d_heads_;
  device_buffer<Out> d_out_;
  std::vector<Out> h_out_, h_cub_;
};

}  // namespace parascan::validation
