// The GPU entry points of the binary. The CUDA path lives in libmoeplan_cuda.so
// (src/gpu/gemm_cuda.cu), which is dlopen()ed the first time a GPU is asked for, so that
// commands that never touch a GPU (--version, suggest --no-bench, score, fit) do not map
// cuBLAS (~220 MB, ~80 ms at start-up). Without the module every call says why, and
// `moeplan bench` prints that one line and runs the CPU path.

#include <mutex>
#include <string>
#include <vector>

#include "gpu_module.hpp"
#include "moeplan/base/module_loader.hpp"
#include "moeplan/gemm/gemm_kernels.hpp"

#ifndef MOEPLAN_CUDA_MODULE
#define MOEPLAN_CUDA_MODULE ""  // built without CUDA
#endif
#ifndef MOEPLAN_CUDA_MODULE_DIRS
#define MOEPLAN_CUDA_MODULE_DIRS ""
#endif

namespace moeplan {
namespace {

struct Loaded {
  const gpu_module::Api* api = nullptr;
  std::string why;  ///< when api is null
};

const Loaded& loaded() {
  static Loaded l;
  static std::once_flag once;
  std::call_once(once, [] {
    if (std::string(MOEPLAN_CUDA_MODULE).empty()) {
      l.why = "built without CUDA (CMake found no nvcc/cuBLAS; install the CUDA toolkit and rebuild)";
      return;
    }
    const OpenedModule m = open_module("CUDA", MOEPLAN_CUDA_MODULE, MOEPLAN_CUDA_MODULE_DIRS, gpu_module::k_entry);
    if (m.entry == nullptr) {
      l.why = m.why;
      return;
    }
    using Entry = const gpu_module::Api* (*)();
    const gpu_module::Api* api = reinterpret_cast<Entry>(m.entry)();
    if (!api || api->abi != gpu_module::k_abi) {
      l.why = "the CUDA module " + m.path + " is from another build of moeplan";
      return;
    }
    l.api = api;  // the handle stays open for the life of the process
  });
  return l;
}

GpuTiming failed(const std::string& why) {
  GpuTiming t;
  t.error = why;
  return t;
}

}  // namespace

bool gpu_compiled() { return !std::string(MOEPLAN_CUDA_MODULE).empty(); }

GpuDevice gpu_device() {
  if (const auto* api = loaded().api) return api->device();
  GpuDevice d;
  d.status = loaded().why;
  return d;
}

GpuTiming gpu_time_gemm(std::int64_t m, std::int64_t n, std::int64_t k, int warmup, int reps) {
  if (const auto* api = loaded().api) return api->time_gemm(m, n, k, warmup, reps);
  return failed(loaded().why);
}

GpuTiming gpu_time_grouped(const std::vector<std::int64_t>& rows, std::int64_t n, std::int64_t k,
                           int warmup, int reps) {
  if (const auto* api = loaded().api) return api->time_grouped(rows, n, k, warmup, reps);
  return failed(loaded().why);
}

std::string gpu_run_grouped(const std::vector<std::int64_t>& rows, std::int64_t n, std::int64_t k,
                            const std::vector<const float*>& A, const std::vector<const float*>& B,
                            const std::vector<float*>& C) {
  if (const auto* api = loaded().api) return api->run_grouped(rows, n, k, A, B, C);
  return loaded().why;
}

}  // namespace moeplan
