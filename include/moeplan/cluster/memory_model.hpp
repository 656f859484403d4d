#pragma once
/// Memory per GPU of a training job: weights, gradients, optimizer states, activations,
/// all-to-all buffers and a framework allowance, on the most loaded pipeline stage
/// (docs/cluster.md, "Memory").
///
/// Sources: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
/// Models" (arXiv 2205.05198), Sec. 4 and Table 2, for the activations of a transformer
/// layer; Megatron-LM megatron/training/theoretical_memory_usage.py for the weight and
/// optimizer bytes per parameter (18, or 6 + 12/DP; data: presets/hardware/precisions.toml) and the
/// in-flight micro-batches of 1F1B and interleaved schedules. The MoE extension (router,
/// K-fold dispatched tokens, expert intermediates, capacity factor) is moeplan's and is
/// derived term by term in docs/cluster.md.
#include <string>
#include <vector>

#include "moeplan/base/units.hpp"
#include "moeplan/cluster/parallel_layout.hpp"
#include "moeplan/cluster/precision_spec.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

/// Which count of a layer's activations memory_per_gpu uses.
enum class ActivationFormula {
  /// moeplan's own (memory_model.cpp, term by term): SwiGLU, GQA/MLA, flash attention, MoE
  /// router/dispatch/expert terms, the three recompute levels. What the planner uses.
  moeplan,
  /// Megatron-LM megatron/training/theoretical_memory_usage.py as report_theoretical_memory
  /// applies it: compute_activation_memory (per layer s·b·h·(18 + 4·f/h), Korthikanti Table 2
  /// with SP and selective recompute, f = ffn_hidden_size, its embedding and output terms and
  /// interleaved penalty, / TP) with SP and selective recompute, and
  /// compute_activation_memory_without_sp (s·b·h·(10 + 24/t) per layer, × 1.05) otherwise.
  /// Megatron has no full-recompute count: there Korthikanti's kept layer input 2·s·b·h (/ t
  /// with SP) replaces the layer term. Dense-FFN width f: intermediate_size, else the expert
  /// width (Megatron's --moe-ffn-hidden-size defaults to --ffn-hidden-size). For checking
  /// against Megatron's own estimate; it knows nothing of MoE activations.
  megatron,
};

struct MemoryOptions {
  int seq_len = 0;  ///< S, as StepTimeOptions::seq_len (the layout search sets it from there)
  ActivationFormula activation_formula = ActivationFormula::moeplan;
  /// Routed tokens an expert rank holds, relative to the balanced share: the capacity factor
  /// of a capacity-limited router, or the busiest rank's load of a dropless one (>= 1).
  double expert_load_factor = k_default_load_imbalance;
  /// Flash attention (no s×s score matrices stored, whatever the recompute level): the
  /// default, as in every current MoE recipe; Korthikanti et al.'s 5as/h term is kept off.
  bool flash_attention = true;
  /// Allowance for what no formula counts: CUDA context, NCCL buffers, allocator
  /// fragmentation. A stated engineering figure, not a paper's (docs/cluster.md).
  double framework_bytes = 5.0 * k_gib;
  /// The linear layers' precision: its bytes per weight, low-precision copy ("fp8_weights"
  /// term: Transformer Engine's fp8 copy and transpose), gradient, optimizer state and cached
  /// linear-layer input are its description's (precision_spec.hpp,
  /// presets/hardware/precisions.toml, each figure cited there).
  Precision precision = Precision::bf16;
  /// The weights kept in the precision only, no bf16 copy, where it has such a mode (Megatron-LM
  /// --fp8-param-gather; the description's [fp8.param_gather]); the fp32 master stays.
  bool fp8_param_gather = false;
  /// Gradients accumulated and reduced in bf16 (Megatron-LM --grad-reduce-in-bf16): the
  /// description's bf16_gradient_bytes instead of gradient_bytes. Master and Adam states unchanged.
  bool grad_reduce_in_bf16 = false;
  /// Adam's m and v kept in bf16, the fp32 master kept (Megatron-LM's
  /// --use-precision-aware-optimizer --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16; DeepSeek-V3
  /// Sec. 3.3.3): the description's bf16_moment_bytes each.
  bool bf16_moments = false;
  /// The SwiGLU's input (gate and up, the first GEMM's output) kept for the backward as an fp8
  /// (e4m3) copy, 1 byte an element instead of bf16's 2 (Megatron-Core's TransformerConfig
  /// activation_func_fp8_input_store, fused_bias_swiglu.py: `input.to(torch.float8_e4m3fn)`;
  /// DeepSeek-V3, arXiv 2412.19437 Sec. 3.3.3: "we cache the inputs of the SwiGLU operator ...
  /// stored in FP8"). Dense FFNs, shared and routed experts alike; SwiGLU only.
  bool activation_fp8_input_store = false;
  /// What data parallelism shards (--use-megatron-fsdp --data-parallel-sharding-strategy;
  /// parallel_layout.hpp): gradients over DP (EDP for experts) from optim_grads, weights and
  /// their fp8 copies too under optim_grads_params, each beside the full buffers of the units in
  /// flight (memory_model.cpp, "Megatron-FSDP").
  DpSharding dp_sharding = DpSharding::optim;
};

/// One term of the breakdown, in bytes on the most loaded GPU.
struct MemoryTerm {
  std::string name;    ///< "weights", "fp8_weights" (fp8 runs), "gradients", "optimizer", "activations", "all_to_all", "framework"
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

/// Micro-batches whose activations pipeline rank `rank` holds at once (in units of all its
/// layers): Megatron-core's 1F1B and interleaved schedules (src/cluster/memory_model.cpp).
double microbatches_in_flight(const ParallelLayout& layout, int rank);

/// The breakdown for `m` (counts `p`) under `layout`. Mixed precision as Megatron-LM trains, at
/// the bytes of `options.precision`'s description: bf16 weights (2 bytes), fp32 gradients (4),
/// fp32 master weights and Adam moments (12), the optimizer state sharded over dp (edp for
/// routed experts) by the distributed optimizer.
MemoryBreakdown memory_per_gpu(const ModelConfig& m, const ParameterCounts& p,
                               const ParallelLayout& layout, const MemoryOptions& options);
/// memory_per_gpu(...).total() without the terms' descriptions: what the layout search asks
/// of every layout (it describes the few it keeps).
double memory_total_bytes(const ModelConfig& m, const ParallelLayout& layout, const MemoryOptions& options);

/// Korthikanti et al. 2022 Table 2: activation bytes of one transformer layer (16-bit
/// activations, GPT-style 4h MLP with GeLU and dropout) for sequence s, micro-batch b,
/// hidden h, heads a, tensor parallel t: s·b·h·(34 + 5·a·s/h) without parallelism; with TP
/// and SP every term / t; selective recompute drops 5·a·s/h; full recompute keeps 2·s·b·h/t.
double korthikanti_layer_activation_bytes(double s, double b, double h, double a, int t,
                                          bool sequence_parallel, Recompute recompute);

}  // namespace moeplan
