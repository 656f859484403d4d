// moeplan_gpu_tests: the CUDA kernels against the naive reference. Without a usable GPU it
// prints why and exits 77, which CTest reports as "skipped" (SKIP_RETURN_CODE).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>

#include "moeplan/gemm/gemm_kernels.hpp"

int main(int argc, char** argv) {
  const moeplan::GpuDevice d = moeplan::gpu_device();
  if (!d.usable) {
    std::cout << "skipped: " << d.status << "\n";
    return 77;
  }
  std::cout << "GPU: " << d.status << "\n";
  doctest::Context context(argc, argv);
  return context.run();
}
