// GPU tests of the host pipelines (host_pipeline.hpp): host arrays, pinned and pageable, streamed in
// chunks through the GPU — scans with the carry passed between chunks, compaction with the output
// offsets passed on — checked against a CPU scan and std::copy_if order.
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>
#include "gpu_test.hpp"
#include "parascan/error.hpp"
#include "parascan/host_pipeline.hpp"

namespace {
using namespace parascan;
using parascan::test::gpu_test;

/// Host memory either pinned (cudaMallocHost) or pageable (std::vector).
template <class T>
class host_array {
 public:
  host_array(std::int64_t n, bool pinned) : n_(n), pinned_(pinned) {
    if (pinned) {
      PARASCAN_CUDA_CHECK(cudaMallocHost(&p_, static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(T)));
    } else {
      v_.resize(static_cast<std::size_t>(n > 0 ? n : 1));
      p_ = v_.data();
    }
  }
  ~host_array() {
    if (pinned_) cudaFreeHost(p_);
  }
  T* data() { return p_; }
  T& operator[](std::int64_t i) { return p_[i]; }

 private:
  std::int64_t n_;
  bool pinned_;
  T* p_ = nullptr;
  std::vector<T> v_;
};

template <class T>
void check_pipeline(std::int64_t n, pipeline_options o, bool pinned_in, bool pinned_out, bool inclusive, bool in_place) {
  SCOPED_TRACE(::testing::Message() << "n=" << n << " chunk=" << o.chunk_items << " streams=" << o.streams
                                    << " pinned in/out " << pinned_in << pinned_out << (inclusive ? " inclusive" : " exclusive")
                                    << (in_place ? " in place" : ""));
  host_array<T> in(n, pinned_in), out_store(n, pinned_out);
  T* out = in_place ? in.data() : out_store.data();
  std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 31 + o.chunk_items);
  std::vector<T> want(static_cast<std::size_t>(n));
  T acc = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const T v = static_cast<T>(rng() % 1000) - static_cast<T>(std::is_signed_v<T> ? 500 : 0);
    in[i] = v;
    want[static_cast<std::size_t>(i)] = inclusive ? static_cast<T>(acc + v) : acc;
    acc = static_cast<T>(acc + v);
  }
  if (!in_place)
    for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(0x5a5a5a5a);  // poison
  scan_pipeline<T> p(o);
  const pipeline_stats st = p.run(in.data(), out, n, inclusive);
  EXPECT_EQ(st.chunks, (n + o.chunk_items - 1) / o.chunk_items);
  if (n > 0) {
    EXPECT_EQ(st.pinned_in, pinned_in);
    EXPECT_EQ(st.pinned_out, in_place ? pinned_in : pinned_out);
  }
  std::int64_t bad = 0, first = -1;
  for (std::int64_t i = 0; i < n; ++i)
    if (out[i] != want[static_cast<std::size_t>(i)] && bad++ == 0) first = i;
  EXPECT_EQ(bad, 0) << "first at " << first;
}

class pipeline_test : public gpu_test {};

TEST_F(pipeline_test, pinned_and_pageable_inclusive_and_exclusive) {
  pipeline_options o;
  o.chunk_items = 1000;  // many chunks: the carry crosses every boundary and every stream
  o.streams = 3;
  for (bool pin_in : {true, false})
    for (bool pin_out : {true, false})
      for (bool inclusive : {true, false}) check_pipeline<std::uint32_t>(10 * 1000 + 7, o, pin_in, pin_out, inclusive, false);
}

TEST_F(pipeline_test, sizes_types_streams_and_in_place) {
  for (std::int64_t n : {0, 1, 999, 1000, 1001, 3000, 54321}) {
    for (int streams : {1, 2, 4}) {
      pipeline_options o;
      o.chunk_items = 1000;
      o.streams = streams;
      check_pipeline<std::int64_t>(n, o, true, true, true, false);
      check_pipeline<std::int32_t>(n, o, true, true, false, true);
      check_pipeline<std::uint64_t>(n, o, false, false, true, true);
    }
  }
}

TEST_F(pipeline_test, chunks_larger_than_the_scan_tile_and_floats) {
  pipeline_options o;
  o.chunk_items = (1 << 20) + 3;
  check_pipeline<std::int32_t>(5 * o.chunk_items - 11, o, true, true, false, false);
  check_pipeline<double>(3 * o.chunk_items + 5, o, true, false, true, false);  // small integers: exact in double
}

TEST_F(pipeline_test, device_memory_is_bounded_by_the_chunks_and_copy_is_identity) {
  pipeline_options o;
  o.chunk_items = 1 << 16;
  o.streams = 3;
  const std::int64_t n = 64 * o.chunk_items + 123;  // 64 chunks through 3 slots
  host_array<std::uint32_t> in(n, true), out(n, true);
  for (std::int64_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(i * 2654435761u);
  scan_pipeline<std::uint32_t> p(o);
  const pipeline_stats st = p.copy(in.data(), out.data(), n);
  EXPECT_LT(st.device_bytes, static_cast<std::size_t>(n) * sizeof(std::uint32_t) / 4);
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += out[i] != in[i];
  EXPECT_EQ(bad, 0);
  // The same object runs again (buffers reused, the carry reset).
  const pipeline_stats st2 = p.run(in.data(), out.data(), n, true);
  EXPECT_EQ(st2.chunks, 65);
  std::uint32_t acc = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    acc += in[i];
    if (out[i] != acc) ++bad;
  }
  EXPECT_EQ(bad, 0);
}

template <class T>
void check_select_pipeline(std::int64_t n, pipeline_options o, bool pinned_in, bool pinned_out, bool in_place,
                           keep_rule<T> rule) {
  SCOPED_TRACE(::testing::Message() << "select n=" << n << " chunk=" << o.chunk_items << " streams=" << o.streams
                                    << " pinned in/out " << pinned_in << pinned_out << (in_place ? " in place" : "")
                                    << " rule value " << rule.value);
  host_array<T> in(n, pinned_in), out_store(n, pinned_out);
  T* out = in_place ? in.data() : out_store.data();
  std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 7 + o.streams);
  std::vector<T> want;
  for (std::int64_t i = 0; i < n; ++i) {
    in[i] = static_cast<T>(rng() % 1000);
    if (rule(in[i])) want.push_back(in[i]);
  }
  if (!in_place)
    for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(0x5a5a5a5a);
  select_pipeline<T> p(o);
  pipeline_stats st;
  const std::int64_t kept = p.run(in.data(), out, n, rule, &st);
  ASSERT_EQ(kept, static_cast<std::int64_t>(want.size()));
  EXPECT_EQ(st.chunks, (n + o.chunk_items - 1) / o.chunk_items);
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < kept; ++i) bad += out[i] != want[static_cast<std::size_t>(i)];
  EXPECT_EQ(bad, 0);
}

TEST_F(pipeline_test, compaction_in_input_order_across_chunks) {
  for (int streams : {1, 2, 3}) {
    pipeline_options o;
    o.chunk_items = 1000;
    o.streams = streams;
    for (std::int64_t n : {0, 1, 999, 1000, 1001, 12345}) {
      check_select_pipeline<std::uint32_t>(n, o, true, true, false, keep_rule<std::uint32_t>{keep_kind::lt, 500});
      check_select_pipeline<std::int64_t>(n, o, false, false, false, keep_rule<std::int64_t>{keep_kind::odd, 0});
      check_select_pipeline<std::uint32_t>(n, o, true, false, true, keep_rule<std::uint32_t>{keep_kind::gt, 900});
      check_select_pipeline<float>(n, o, false, true, true, keep_rule<float>{keep_kind::ge, 0.0f});  // keeps all
      check_select_pipeline<double>(n, o, true, true, false, keep_rule<double>{keep_kind::gt, 5000.0});  // keeps none
    }
  }
  pipeline_options big;
  big.chunk_items = (1 << 20) + 5;
  check_select_pipeline<std::uint32_t>(4 * big.chunk_items - 3, big, true, true, false,
                                       keep_rule<std::uint32_t>{keep_kind::lt, 100});
}

TEST_F(pipeline_test, bad_arguments_throw) {
  pipeline_options o;
  o.streams = 0;
  EXPECT_THROW(scan_pipeline<float>{o}, cuda_error);
  scan_pipeline<float> p;
  float x = 1;
  EXPECT_THROW(p.run(&x, &x, -1, true), cuda_error);
  select_pipeline<float> q;
  EXPECT_THROW(q.run(&x, &x, -1, keep_rule<float>{}), cuda_error);
  EXPECT_THROW(select_pipeline<float>{o}, cuda_error);
}

}  // namespace
