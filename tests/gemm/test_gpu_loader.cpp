// src/gemm/gpu_loader.cpp: the optional CUDA module, loaded when compiled in; without a device
// every call says why (moved from test_gemm_kernels.cpp). The kernels themselves are checked by
// moeplan_gpu_tests, which needs a device.
#include <doctest/doctest.h>

#include "moeplan/gemm/gemm_kernels.hpp"

using namespace moeplan;

TEST_CASE("the CUDA path is compiled in exactly when CMake found nvcc and cuBLAS") {
  CHECK(gpu_compiled() == (MOEPLAN_EXPECT_CUDA != 0));
  const GpuDevice d = gpu_device();
  CHECK_FALSE(d.status.empty());  // either the device or why there is none
  if (!d.usable) {
    const GpuTiming t = gpu_time_gemm(64, 64, 64, 1, 1);
    CHECK_FALSE(t.error.empty());
  }
}
