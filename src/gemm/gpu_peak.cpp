// Nominal dense bf16 peak of an NVIDIA GPU, for "% of peak" in `moeplan bench`.
#include <array>
#include <string>

#include <fmt/format.h>

#include "moeplan/gemm/gemm_kernels.hpp"

namespace moeplan {

double gpu_bf16_dense_peak(const std::string& name, int compute_capability, int sm_count,
                           double clock_hz, std::string* source) {
  // NVIDIA datasheets, BF16 Tensor Core without sparsity (the printed figures are with
  // sparsity, twice these). Checked in order, so "H100 NVL" precedes "H100".
  struct Part {
    const char* needle;
    double flops;
    const char* sheet;
  };
  static const std::array<Part, 7> parts{{
      {"H200", 989.5e12, "H200 datasheet: 1,979 TFLOPS with sparsity"},
      {"H100 NVL", 835.5e12, "H100 NVL datasheet: 1,671 TFLOPS with sparsity"},
      {"H100 PCIe", 756.5e12, "H100 PCIe datasheet: 1,513 TFLOPS with sparsity"},
      {"H100", 989.5e12, "H100 SXM datasheet: 1,979 TFLOPS with sparsity"},
      {"GH200", 989.5e12, "GH200 datasheet: 1,979 TFLOPS with sparsity"},
      {"A100", 312e12, "A100 datasheet: 312 TFLOPS dense"},
      {"L40S", 362.05e12, "L40S datasheet: 733 TFLOPS with sparsity"},
  }};
  for (const Part& p : parts) {
    if (name.find(p.needle) != std::string::npos) {
      if (source) *source = p.sheet;
      return p.flops;
    }
  }
  // Dense bf16 FLOPs per SM per clock (tensor cores, fp32 accumulate): Ampere GA100 2048
  // (A100: 108 SMs × 1.41 GHz × 2048 = 312 TFLOPS), GA10x/Ada 1024, Hopper 4096
  // (H100 SXM: 132 × 1.83 GHz × 4096 = 989 TFLOPS).
  int per_sm = 0;
  if (compute_capability == 80) per_sm = 2048;
  else if (compute_capability == 86 || compute_capability == 87 || compute_capability == 89) per_sm = 1024;
  else if (compute_capability == 90) per_sm = 4096;
  if (per_sm == 0 || sm_count <= 0 || clock_hz <= 0) {
    if (source) *source = fmt::format("unknown for compute capability {}.{}",
                                      compute_capability / 10, compute_capability % 10);
    return 0;
  }
  if (source) {
    *source = fmt::format("{} SMs x {:.3f} GHz x {} FLOPs/SM/clock", sm_count, clock_hz / 1e9,
                          per_sm);
  }
  return sm_count * clock_hz * per_sm;
}

}  // namespace moeplan
