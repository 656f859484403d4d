// The CPU GEMM `moeplan bench` times: Eigen's blocked, OpenMP-parallel fp32 product.
// This file alone is compiled with -O3 (even in Debug, so sanitizer builds still time a
// real kernel) and, with MOEPLAN_NATIVE_ARCH, -march=native (see CMakeLists.txt). It is
// the only translation unit that instantiates Eigen's float matrix product, so those
// flags cannot leak into other instantiations through the linker.
#include <Eigen/Core>
#include <fstream>
#include <string>

#include "moeplan/gemm/gemm_kernels.hpp"

namespace moeplan {

namespace {
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}

void cpu_gemm(const float* A, const float* B, float* C, std::int64_t m, std::int64_t n,
              std::int64_t k) {
  Eigen::Map<const RowMajor> a(A, m, k), b(B, k, n);
  Eigen::Map<RowMajor> c(C, m, n);
  c.noalias() = a * b;
}

void set_cpu_gemm_threads(int threads) { Eigen::setNbThreads(threads); }

int cpu_gemm_threads() { return Eigen::nbThreads(); }

std::string cpu_gemm_isa() { return Eigen::SimdInstructionSetsInUse(); }

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  }
  return "unknown CPU";
}

}  // namespace moeplan
