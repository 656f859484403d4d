#pragma once
/// Memory per GPU of a training job: weights, gradients, optimizer states, activations,
/// all-to-all buffers and a framework allowance, on the most loaded pipeline stage
/// (docs/cluster.md, "Memory").
///
/// Sources: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
/// Models" (arXiv 2205.05198), Sec. 4 and Table 2, for the activations of a transformer
/// layer; Megatron-LM megatron/training/theoretical_memory_usage.py for the weight and
/// optimizer bytes per parameter (18, or 6 + 12/DP with the distributed optimizer) and the
/// in-flight micro-batches of 1F1B and interleaved schedules. The MoE extension (router,
/// K-fold dispatched tokens, expert intermediates, capacity factor) is moeplan's and is
/// derived term by term in docs/cluster.md.
#include <string>
#include <vector>

#include "moeplan/cluster/parallel_layout.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

struct MemoryOptions {
  int seq_len = 4096;  ///< S
  /// Routed tokens an expert rank holds, relative to the balanced share: the capacity factor
  /// of a capacity-limited router, or the busiest rank's load of a dropless one (>= 1).
  double expert_load_factor = 1.0;
  /// Flash attention (no s×s score matrices stored, whatever the recompute level): the
  /// default, as in every current MoE recipe; Korthikanti et al.'s 5as/h term is kept off.
  bool flash_attention = true;
  /// Allowance for what no formula counts: CUDA context, NCCL buffers, allocator
  /// fragmentation. A stated engineering figure, not a paper's (docs/cluster.md).
  double framework_bytes = 5.0 * (1ull << 30);
};

/// One term of the breakdown, in bytes on the most loaded GPU.
struct MemoryTerm {
  std::string name;    ///< "weights", "gradients", "optimizer", "activations", "all_to_all", "framework"
  double bytes = 0;
  std::string detail;  ///< how it was counted, one line
};

struct MemoryBreakdown {
  std::vector<MemoryTerm> terms;   ///< in the order above
  double params_on_gpu = 0;        ///< parameters held by the most loaded GPU
  int stage_layers = 0;            ///< transformer layers of that GPU's pipeline stage(s)
  double in_flight_microbatches = 0;  ///< micro-batches whose activations it holds at once
  [[nodiscard]] double total() const;
  [[nodiscard]] double bytes_of(const std::string& name) const;  ///< 0 when absent
};

/// The breakdown for `m` (counts `p`) under `layout`. Mixed precision as Megatron-LM trains:
/// bf16 weights (2 bytes), fp32 gradients (4), fp32 master weights and Adam moments (12),
/// sharded over dp (edp for routed experts) by the distributed optimizer.
MemoryBreakdown memory_per_gpu(const ModelConfig& m, const ParameterCounts& p,
                               const ParallelLayout& layout, const MemoryOptions& options);

/// Korthikanti et al. 2022 Table 2: activation bytes of one transformer layer (16-bit
/// activations, GPT-style 4h MLP with GeLU and dropout) for sequence s, micro-batch b,
/// hidden h, heads a, tensor parallel t: s·b·h·(34 + 5·a·s/h) without parallelism; with TP
/// and SP every term / t; selective recompute drops 5·a·s/h; full recompute keeps 2·s·b·h/t.
double korthikanti_layer_activation_bytes(double s, double b, double h, double a, int t,
                                          bool sequence_parallel, Recompute recompute);

}  // namespace moeplan
