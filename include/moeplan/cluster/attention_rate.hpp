#pragma once
/// The attention core's measured speed (issue 48; docs/step-model.md, "The attention core"):
/// the embedded data file presets/hardware/attention_rates.toml, the forward and backward rates
/// of the kernel Megatron-Core runs on a GPU, causal and without the mask, by sequence length
/// and head dim, from a published measurement cited there. A GPU the file does not list has
/// none: the step model then times the attention core at the large-GEMM ceiling.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "moeplan/cluster/gpu_catalog.hpp"

namespace moeplan {

/// The attention core's rates on one GPU at one sequence length and head dim, FLOP/s in
/// FlashAttention's count: a forward does 4·b·s²·h·d (half that with the causal mask), a
/// backward 2.5x its forward's FLOPs (it recomputes the scores), where moeplan's Eq. 11 counts
/// 2x; so a backward of forward FLOPs F takes 2.5 F / backward seconds.
struct AttentionRates {
  double forward_causal = 0, backward_causal = 0;  ///< a causal kernel (the whole sequence, CP 1)
  double forward_full = 0, backward_full = 0;      ///< without the mask (CP's off-diagonal blocks)
  std::string_view kernel;  ///< the table's backend and source (the embedded file's: lives as long as the program)
};

/// The measured rates of `gpu`'s attention kernel at sequence length `seq_len` and head dim
/// `head_dim` (linear in log2 of each between the table's points, the nearest point outside;
/// above the head dims with a published backward, the backward and the unmasked forward follow
/// the causal forward), as a fraction of the measuring GPU's bf16 peak times this GPU's.
/// nullopt: no kernel in the file stands for this GPU (matched by catalog id). Allocates nothing.
std::optional<AttentionRates> attention_rates(const GpuSpec& gpu, double seq_len, double head_dim);

/// The sequence lengths `gpu`'s measured kernel covers (the table's first and last; outside
/// them its rates are the nearest point's), nullopt where there is none.
std::optional<std::pair<double, double>> attention_seq_range(const GpuSpec& gpu);

/// Where `gpu`'s attention-core rates come from, in words: the measured kernel and its source,
/// or the bf16 GEMM ceiling where the file has none for this GPU.
std::string attention_rates_source(const GpuSpec& gpu);

/// The share of a rank's attention work in causal (diagonal) blocks under context parallelism:
/// 1 with CP 1 (one causal kernel over the sequence); 1/(2·CP) with CP > 1, Megatron's
/// load-balanced split (each rank holds 2 of 2·CP chunks: of the 2·CP² chunk-pair units of the
/// causal matrix, the 2·CP diagonal blocks are half masked, CP units; the rest run unmasked).
double attention_causal_share(int cp);

/// Seconds of the attention core's training work `scores_flops` (paper 002 Eq. 11's, forward +
/// backward = 3x the forward) at `rates`: the forward third at the forward rates, the backward's
/// 2.5 forward-FLOPs' worth at the backward rates, each split `causal_share` causal and the rest
/// unmasked. Sets *forward_seconds to the forward's part when given. A rate of 0 takes forever.
double attention_core_seconds(double scores_flops, const AttentionRates& rates, double causal_share,
                              double* forward_seconds = nullptr);

}  // namespace moeplan
