#pragma once
/// The attention core's measured speed (issue 48; docs/step-model.md, "The attention core"):
/// the embedded data file presets/hardware/attention_rates.toml, the causal forward and
/// backward rates of the kernel Megatron-Core runs on a GPU, by sequence length and head dim,
/// from a published measurement cited there. A GPU the file does not list has none: the step
/// model then times the attention core at the large-GEMM ceiling.
#include <optional>
#include <string_view>

#include "moeplan/cluster/gpu_catalog.hpp"

namespace moeplan {

/// The attention core's rates on one GPU, for one sequence length and head dim, at the clocks
/// the step model's GEMMs assume (the table's boost-clock rates scaled as the GEMMs are).
struct AttentionRates {
  double forward = 0;   ///< FLOP/s of the causal forward (FlashAttention's count: 4·b·s²·h·d / 2)
  /// FLOP/s of the causal backward in FlashAttention's count, 2.5x the forward's FLOPs (the
  /// backward recomputes the scores); moeplan's Eq. 11 counts 2x, so a backward of forward
  /// FLOPs F takes 2.5 F / backward seconds.
  double backward = 0;
  std::string_view kernel;  ///< the table's backend and source (the embedded file's: lives as long as the program)
};

/// The measured rates of `gpu`'s attention kernel at sequence length `seq_len` and head dim
/// `head_dim` (interpolated in log2 of each, clamped at the table's ends), scaled to
/// `sustained_gemm_flops`, the large-GEMM rate the step model times this GPU's bf16 GEMMs at
/// (peak × --gemm-efficiency, or a measured rate): rate = table rate / the table GPU's peak ×
/// sustained_gemm_flops / the file's gemm_microbenchmark_fraction. nullopt: no kernel in the
/// file stands for this GPU (matched by catalog id).
std::optional<AttentionRates> attention_rates(const GpuSpec& gpu, double seq_len, double head_dim,
                                              double sustained_gemm_flops);

/// Seconds of the attention core's training work `scores_flops` (paper 002 Eq. 11's, forward
/// + backward = 3x the forward) at `rates`: the forward third at the forward rate, the backward
/// at FlashAttention's 2.5 forward-FLOPs' worth at the backward rate. Sets *forward_seconds
/// to the forward's part when given.
double attention_core_seconds(double scores_flops, const AttentionRates& rates, double* forward_seconds = nullptr);

}  // namespace moeplan
