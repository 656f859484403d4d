// src/gemm/gpu_peak.cpp: the GPU bf16 dense peak table and its SM-count fallback (moved from
// test_gemm_kernels.cpp).
#include <doctest/doctest.h>

#include <string>

#include "moeplan/gemm/gemm_kernels.hpp"

using namespace moeplan;

TEST_CASE("GPU bf16 dense peaks: datasheet parts, then SMs x clock x FLOPs/SM/clock") {
  std::string src;
  CHECK(gpu_bf16_dense_peak("NVIDIA H100 80GB HBM3", 90, 132, 1.98e9, &src) == 989.5e12);
  CHECK(src.find("H100 SXM") != std::string::npos);
  CHECK(gpu_bf16_dense_peak("NVIDIA H200", 90, 132, 1.98e9, nullptr) == 989.5e12);
  CHECK(gpu_bf16_dense_peak("NVIDIA H100 PCIe", 90, 114, 1.755e9, nullptr) == 756.5e12);
  CHECK(gpu_bf16_dense_peak("NVIDIA A100-SXM4-80GB", 80, 108, 1.41e9, nullptr) == 312e12);
  // Unknown Hopper part: 132 SMs × 1.83 GHz × 4096 = the H100 SXM's 989 TFLOPS.
  CHECK(gpu_bf16_dense_peak("Some Hopper", 90, 132, 1.83e9, &src) ==
        doctest::Approx(989.5e12).epsilon(1e-3));
  CHECK(src.find("132 SMs") != std::string::npos);
  CHECK(gpu_bf16_dense_peak("Future part", 120, 100, 2e9, &src) == 0);
  CHECK(src.find("unknown") != std::string::npos);
}
