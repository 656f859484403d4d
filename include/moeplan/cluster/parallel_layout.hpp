#pragma once
/// A cluster (GPU kind × count) and a parallel layout of one training job on it, in
/// Megatron-LM's vocabulary (its MoE README, "parallel folding": attention TP × CP × DP × PP,
/// MoE layers ETP × EP × EDP × PP over the same GPUs).
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "moeplan/cluster/gpu_catalog.hpp"

namespace moeplan {

/// Busiest expert rank's routed tokens over the balanced share in dropless training, by
/// default: the median of the five forced-balance / dropless throughput ratios Megatron's MoE
/// model zoo publishes for the same layouts (yanring/Megatron-MoE-ModelZoo: Qwen3-235B at 16K,
/// 32K, 64K, 128K: 295/237, 335/277, 368/320, 389/357; Mixtral 8x22B: 465/445), 1.15. Applied
/// to the expert-proportional terms only, so the step slows by less than that: a lower bound
/// on the published effect. Forced-balance benchmarks are run with --load-imbalance 1.
inline constexpr double k_default_load_imbalance = 1.15;

struct Cluster {
  GpuSpec gpu;
  int gpus = 0;           ///< world size
  int gpus_per_node = 8;  ///< normally gpu.gpus_per_node
  [[nodiscard]] int nodes() const { return (gpus + gpus_per_node - 1) / gpus_per_node; }
};

/// What is kept for the backward pass (Korthikanti et al. 2022, Sec. 4-5).
enum class Recompute {
  none,       ///< every activation stored
  selective,  ///< the attention core (softmax, dropout, QK^T, AV) recomputed: no 5as/h term
  full,       ///< only each layer's input stored; the layer is recomputed (one more forward)
};
const char* to_string(Recompute r);

/// What data parallelism shards beyond the forward pass's replicas: Megatron-LM's
/// --data-parallel-sharding-strategy under --use-megatron-fsdp (arguments.py; its default is
/// optim_grads_params), `optim` also being what Megatron's distributed optimizer does without
/// FSDP (moeplan's default). Megatron-FSDP reduce-scatters the gradients after every
/// micro-batch's backward when they are sharded (megatron_fsdp.py: grad_reduce_every_bprop for
/// optim_grads and optim_grads_params) and, with the parameters sharded, all-gathers each
/// layer's weights before its forward and again before its backward, the next layer's
/// prefetched while one computes (core/distributed/fsdp/src/docs/runtime_schedule.md).
/// no_shard (plain replication) is not modelled.
enum class DpSharding {
  optim,               ///< optimizer states sharded (ZeRO-1): Megatron's distributed optimizer
  optim_grads,         ///< and the gradients (ZeRO-2)
  optim_grads_params,  ///< and the parameters (ZeRO-3, FSDP)
};
const char* to_string(DpSharding s);
/// Megatron's name of a strategy, nullopt for another word (no_shard included).
std::optional<DpSharding> dp_sharding_of(std::string_view name);

/// What a selective recompute re-runs: Megatron-LM's --recompute-modules (its
/// TransformerConfig.recompute_modules, used with --recompute-granularity selective), as a
/// set of bits. Megatron's default is core_attn alone, moeplan's `selective`. "moe" (the whole
/// MoE layer again, its all-to-all included) is Megatron's too and not modelled.
enum RecomputeModule : unsigned {
  recompute_core_attn = 1u << 0,       ///< the attention core (QK^T, softmax, AV)
  recompute_layernorm = 1u << 1,       ///< the two norms' outputs: QKV, router and FFN inputs
  recompute_moe_act = 1u << 2,         ///< the routed experts' SwiGLU: their down projection's input
  recompute_mla_up_proj = 1u << 3,     ///< MLA's q/k/v up-projections from the kept latents
  recompute_mlp = 1u << 4,             ///< a dense-FFN layer's MLP from its input
  recompute_shared_experts = 1u << 5,  ///< the shared experts from their input
};
inline constexpr unsigned k_default_recompute_modules = recompute_core_attn;
/// Megatron's names in bit order, e.g. "core_attn,layernorm" (`sep` between them).
std::string recompute_modules_string(unsigned modules, const char* sep = ",");
/// The bit of one Megatron module name, nullopt for any other word ("moe" included).
std::optional<unsigned> recompute_module_of(std::string_view name);
/// "core_attn, layernorm, moe_act, mla_up_proj, mlp, shared_experts": what moeplan models.
std::string recompute_module_names();

struct ParallelLayout {
  int tp = 1;                      ///< tensor parallel (attention and dense FFN)
  bool sequence_parallel = true;   ///< SP with TP (Korthikanti et al. 2022 Sec. 4.2.2)
  int cp = 1;                      ///< context parallel
  int pp = 1;                      ///< pipeline stages
  int vpp = 1;                     ///< virtual stages per pipeline rank (interleaved 1F1B)
  int ep = 1;                      ///< expert parallel
  int etp = 1;                     ///< expert tensor parallel
  int dp = 1;                      ///< data parallel of the dense part: world / (tp·cp·pp)
  int edp = 1;                     ///< data parallel of the experts: world / (etp·ep·pp)
  /// The dense part's data-parallel group with its context-parallel ranks, DP·CP: what
  /// Megatron's distributed optimizer and Megatron-FSDP shard the dense part over.
  [[nodiscard]] int dp_cp() const { return std::max(1, dp) * std::max(1, cp); }
  bool distributed_optimizer = true;  ///< ZeRO-1: optimizer states sharded over dp (edp for experts)
  int micro_batch = 1;             ///< sequences per micro-batch
  long long global_batch = 0;      ///< sequences per optimizer step
  Recompute recompute = Recompute::selective;
  /// With selective recompute: the modules re-run (RecomputeModule bits).
  unsigned recompute_modules = k_default_recompute_modules;
  /// The modules a step actually re-runs: none without recompute, every one under full.
  [[nodiscard]] unsigned recomputed_modules() const;
  /// Layers of the first and last pipeline stage when they differ from L/pp
  /// (Megatron's --decoder-first/last-pipeline-num-layers); 0: even split.
  int first_stage_layers = 0;
  int last_stage_layers = 0;
  /// Megatron's --account-for-embedding/loss-in-pipeline-split: the split above is
  /// accounted_stage_split's (an uneven one VPP may interleave).
  bool embedding_in_split = false;
  bool loss_in_split = false;
  /// DeepSeek's DualPipe schedule (--pipeline-schedule dualpipe; deepseek-ai/DualPipe @030ce432
  /// README and dualpipe.py): micro-batches fed from both ends, so rank r also holds stage
  /// PP-1-r (2x parameters, PP+1 micro-batches of activations), a bubble of (PP/2-1)(F&B+B-3W),
  /// the all-to-all and the pipeline's sends hidden (DeepSeek-V3 Sec. 3.2.1). PP even, VPP 1.
  bool dualpipe = false;
  /// Megatron's --pipeline-model-parallel-layout when the split came from one ("" otherwise):
  /// first/last_stage_layers and vpp hold what it says (parse_pipeline_layout).
  std::string pipeline_layout;

  /// Micro-batches per step on one pipeline: global_batch / (micro_batch·dp).
  [[nodiscard]] long long microbatches() const;
  /// "TP 8 · PP 4 (v2) · EP 8 · DP 32 · mb 1 · selective": one line for people (the
  /// modules in brackets when they are not Megatron's default).
  [[nodiscard]] std::string describe() const;
};

/// The busiest expert rank's load on layout `L`, as the expert terms (time and memory) apply
/// it: `load` where EP > 1, and 1 on EP 1, where one rank holds every expert and so routes
/// exactly K copies of its tokens however the router splits them (the routing-skew search's
/// expert_load_factor is 1 there for the same reason).
[[nodiscard]] inline double expert_rank_load(double load, const ParallelLayout& L) { return L.ep > 1 ? load : 1.0; }

}  // namespace moeplan
