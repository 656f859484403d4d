// src/gemm/gemm_cpu.cpp: the CPU GEMM kernel against a naive reference, its backends and
// threads, and the CPU hardware peak (moved from test_gemm_kernels.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gemm_reference.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"

using namespace moeplan;

TEST_CASE("CPU fp32 GEMM matches the naive reference within gamma_k (u = 2^-24)") {
  struct Shape {
    std::int64_t m, n, k;
  };
  for (const Shape s : {Shape{1, 1, 1}, Shape{7, 13, 5}, Shape{64, 96, 128}, Shape{127, 129, 255},
                        Shape{3, 300, 1000}}) {
    CAPTURE(s.m);
    CAPTURE(s.n);
    CAPTURE(s.k);
    const auto A = random_matrix(s.m, s.k, 1), B = random_matrix(s.k, s.n, 2);
    std::vector<float> C(static_cast<std::size_t>(s.m * s.n), 99.0f);
    cpu_gemm(A.data(), B.data(), C.data(), s.m, s.n, s.k);
    const double err = relative_gemm_error(A, B, C, s.m, s.n, s.k);
    CHECK(err <= gamma_k(s.k, std::ldexp(1.0, -24)));
  }
}

TEST_CASE("CPU GEMM gives the same result with 1 and 2 threads (within the same bound)") {
  const std::int64_t m = 200, n = 150, k = 300;
  const auto A = random_matrix(m, k, 3), B = random_matrix(k, n, 4);
  std::vector<float> C1(static_cast<std::size_t>(m * n)), C2(C1.size());
  set_cpu_gemm_threads(1);
  cpu_gemm(A.data(), B.data(), C1.data(), m, n, k);
  CHECK(cpu_gemm_threads() == 1);
  set_cpu_gemm_threads(2);
  cpu_gemm(A.data(), B.data(), C2.data(), m, n, k);
  set_cpu_gemm_threads(0);
  CHECK(relative_gemm_error(A, B, C1, m, n, k) <= gamma_k(k, std::ldexp(1.0, -24)));
  CHECK(relative_gemm_error(A, B, C2, m, n, k) <= gamma_k(k, std::ldexp(1.0, -24)));
}

TEST_CASE("the system BLAS backend computes the same row-major product, or is refused without one") {
  std::string why;
  const std::string blas = cpu_blas_library(&why);
  if (blas.empty()) {
    CHECK_FALSE(use_cpu_gemm_backend(CpuGemmBackend::blas));
    CHECK(cpu_gemm_backend() == CpuGemmBackend::eigen);
    CHECK(why.find("cblas_sgemm") != std::string::npos);
    return;
  }
  REQUIRE(use_cpu_gemm_backend(CpuGemmBackend::blas));
  CHECK(cpu_gemm_kernel_name().find(blas) != std::string::npos);
  using Shape = std::tuple<std::int64_t, std::int64_t, std::int64_t>;
  for (const auto& [m, n, k] : std::vector<Shape>{{7, 13, 5}, {64, 96, 128}, {3, 300, 1000}}) {
    CAPTURE(m);
    const auto A = random_matrix(m, k, 5), B = random_matrix(k, n, 6);
    std::vector<float> C(static_cast<std::size_t>(m * n), 99.0f);
    cpu_gemm(A.data(), B.data(), C.data(), m, n, k);
    CHECK(relative_gemm_error(A, B, C, m, n, k) <= gamma_k(k, std::ldexp(1.0, -24)));
  }
  use_cpu_gemm_backend(CpuGemmBackend::eigen);
  CHECK(cpu_gemm_kernel_name() == "Eigen fp32 GEMM");
}

TEST_CASE("CPU threads are capped at the CPUs this process may use (issue 22: 100000 threads)") {
  const int cpus = available_cpu_threads();
  CHECK(cpus >= 1);
  set_cpu_gemm_threads(100000);
  CHECK(cpu_gemm_threads() == std::min(cpus, 100000));
  set_cpu_gemm_threads(1);
  CHECK(cpu_gemm_threads() == 1);
  set_cpu_gemm_threads(0);
}

TEST_CASE("the CPU hardware peak is threads x clock x FLOPs/cycle of the compiled ISA, and says so") {
  const CpuPeak one = cpu_hardware_peak(1);
  const CpuPeak two = cpu_hardware_peak(2);
  CHECK(two.flops == doctest::Approx(2 * one.flops));
  CHECK(one.source.find("FLOP/cycle") != std::string::npos);
  CHECK(one.source.find("1 threads") != std::string::npos);
  if (!one.native) CHECK(one.source.find("without -march=native") != std::string::npos);
}
