// The cuBLAS bf16 kernels against a naive double-precision reference on small random
// shapes. Inputs are rounded to bf16 on upload, so the reference uses the same rounded
// values; the kernel accumulates in fp32 (γ_k with u = 2^-24) and rounds its output to
// bf16 (one more relative 2^-8 of |C| ≤ Σ|a b|): error / Σ|a b| ≤ 2^-8 + γ_k(2^-24).
#include <doctest/doctest.h>

#include <bit>
#include <cstring>

#include "gemm_reference.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"

using namespace moeplan;

namespace {

float to_bf16(float x) {  // round to nearest even, as __float2bfloat16
  auto bits = std::bit_cast<std::uint32_t>(x);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return std::bit_cast<float>(bits & 0xffff0000u);
}

std::vector<float> bf16_matrix(std::int64_t rows, std::int64_t cols, unsigned seed) {
  auto v = random_matrix(rows, cols, seed);
  for (float& x : v) x = to_bf16(x);
  return v;
}

double bound(std::int64_t k) { return std::ldexp(1.0, -8) + gamma_k(k, std::ldexp(1.0, -24)); }

}  // namespace

TEST_CASE("GPU bf16 GEMM (cublasGemmEx) matches the reference") {
  struct Shape {
    std::int64_t m, n, k;
  };
  for (const auto [m, n, k] : {Shape{1, 1, 1}, Shape{7, 13, 5}, Shape{64, 96, 128}, Shape{127, 129, 255}}) {
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(k);
    const auto A = bf16_matrix(m, k, 1), B = bf16_matrix(k, n, 2);
    std::vector<float> C(static_cast<std::size_t>(m * n), 99.0f);
    REQUIRE(gpu_run_grouped({m}, n, k, {A.data()}, {B.data()}, {C.data()}) == "");
    CHECK(relative_gemm_error(A, B, C, m, n, k) <= bound(k));
  }
}

TEST_CASE("GPU grouped bf16 GEMM: members of different rows, each with its own weights") {
  const std::vector<std::int64_t> rows{5, 3, 5, 0, 8};
  const std::int64_t n = 48, k = 64;
  std::vector<std::vector<float>> A, B, C;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    A.push_back(bf16_matrix(rows[i], k, 10 + unsigned(i)));
    B.push_back(bf16_matrix(k, n, 20 + unsigned(i)));
    C.emplace_back(static_cast<std::size_t>(rows[i] * n), 99.0f);
  }
  std::vector<const float*> a, b;
  std::vector<float*> c;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    a.push_back(A[i].data());
    b.push_back(B[i].data());
    c.push_back(C[i].data());
  }
  REQUIRE(gpu_run_grouped(rows, n, k, a, b, c) == "");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    CHECK(relative_gemm_error(A[i], B[i], C[i], rows[i], n, k) <= bound(k));
  }
}

TEST_CASE("GPU timings: events give ordered, positive times") {
  const GpuTiming plain = gpu_time_gemm(1024, 1024, 1024, 2, 5);
  REQUIRE(plain.error == "");
  CHECK(plain.reps == 5);
  CHECK(plain.min_s > 0);
  CHECK(plain.min_s <= plain.median_s);
  CHECK(plain.median_s <= plain.max_s);
  const GpuTiming grouped = gpu_time_grouped({228, 228, 227}, 512, 256, 2, 5);
  REQUIRE(grouped.error == "");
  CHECK(grouped.kernel.find("cublas") != std::string::npos);
  CHECK(grouped.median_s > 0);
  const GpuDevice d = gpu_device();
  CHECK(d.sm_count > 0);
  CHECK(d.compute_capability >= 70);
}
