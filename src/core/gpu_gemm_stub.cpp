// The GPU entry points of a build without CUDA (CMake found no nvcc or cuBLAS): every
// call says so, and `moeplan bench` prints that one line and runs the CPU path.
#include "moeplan/gemm_kernels.hpp"

namespace moeplan {

namespace {
constexpr const char* kWhy =
    "built without CUDA (CMake found no nvcc/cuBLAS; install the CUDA toolkit and rebuild)";
}

bool gpu_compiled() { return false; }

GpuDevice gpu_device() {
  GpuDevice d;
  d.status = kWhy;
  return d;
}

GpuTiming gpu_time_gemm(std::int64_t, std::int64_t, std::int64_t, int, int) {
  return GpuTiming{.error = kWhy};
}

GpuTiming gpu_time_grouped(const std::vector<std::int64_t>&, std::int64_t, std::int64_t, int,
                           int) {
  return GpuTiming{.error = kWhy};
}

std::string gpu_run_grouped(const std::vector<std::int64_t>&, std::int64_t, std::int64_t,
                            const std::vector<const float*>&, const std::vector<const float*>&,
                            const std::vector<float*>&) {
  return kWhy;
}

}  // namespace moeplan
