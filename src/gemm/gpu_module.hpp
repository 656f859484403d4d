#pragma once
// Private: the interface between the binary and libmoeplan_cuda.so, the CUDA path built as
// a module that the binary dlopen()s the first time a GPU is asked for (gpu_loader.cpp).
// Linking cuBLAS into the binary mapped ~220 MB and cost ~80 ms in every command, also in
// `--version`; as a module it costs only the commands that use a GPU. Both sides are built
// by this project with the same compiler and standard library, so the table may carry C++
// types; `abi` guards against a stale module from another build.
#include <cstdint>
#include <string>
#include <vector>

#include "moeplan/gemm/gemm_kernels.hpp"

namespace moeplan::gpu_module {

inline constexpr int k_abi = 1;

struct Api {
  int abi = k_abi;
  GpuDevice (*device)();
  GpuTiming (*time_gemm)(std::int64_t m, std::int64_t n, std::int64_t k, int warmup, int reps);
  GpuTiming (*time_grouped)(const std::vector<std::int64_t>& rows, std::int64_t n, std::int64_t k,
                            int warmup, int reps);
  std::string (*run_grouped)(const std::vector<std::int64_t>& rows, std::int64_t n, std::int64_t k,
                             const std::vector<const float*>& A, const std::vector<const float*>& B,
                             const std::vector<float*>& C);
};

/// The module's one exported symbol.
inline constexpr const char* k_entry = "moeplan_gpu_module_api";

}  // namespace moeplan::gpu_module
