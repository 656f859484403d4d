#pragma once
/// Time of one training step of a layout, and what it gives: tokens/s, MFU, days and
/// GPU-hours for D tokens (docs/cluster.md, "Step time"). A roofline model: each term is a
/// volume over a rate, with the rates from the GPU catalog and stated efficiencies.
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/base/units.hpp"
#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/host_launches.hpp"
#include "moeplan/cluster/gemm_table.hpp"
#include "moeplan/cluster/parallel_layout.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

struct StepTimeOptions {
  /// S, the model's (the caller's: fit_on_cluster takes the config's [training] seq_len, else
  /// the laws' family S). No value of its own: 0 is refused as a bug (std::logic_error).
  int seq_len = 0;
  /// Sustained rate of a large, well-shaped GEMM over the datasheet peak, the ceiling the
  /// shape model (gemm_rate.hpp) reduces: an engineering figure (what well-tuned bf16 GEMMs
  /// sustain in training on H100-class GPUs), stated and a flag (--gemm-efficiency). The
  /// attention core runs at it too (bf16 whatever the precision) on a GPU without a measured
  /// attention kernel (presets/hardware/attention_rates.toml); on one with, at its measured rates.
  double gemm_efficiency = 0.6;
  /// The same ceiling for the fp8 GEMMs when it differs from bf16's (--fp8-gemm-efficiency; a
  /// calibration profile fits one per precision, docs/calibration.md); unset: gemm_efficiency.
  std::optional<double> fp8_gemm_efficiency;
  /// The ceiling of the linear layers' GEMMs in this run's precision.
  [[nodiscard]] double linear_gemm_efficiency() const {
    return precision == Precision::fp8 && fp8_gemm_efficiency ? *fp8_gemm_efficiency : gemm_efficiency;
  }
  /// Achieved HBM bandwidth over the datasheet's (--hbm-efficiency; default measured,
  /// k_hbm_efficiency): the memory-bound term, the optimizer step, the GEMMs' operand traffic.
  double hbm_efficiency = k_hbm_efficiency;
  /// A measured GEMM rate on the target GPU (FLOP/s, from `moeplan bench`): replaces the
  /// shape model's rate of every GEMM when set.
  std::optional<double> measured_gemm_flops;
  /// Measured rates of this GPU and precision by shape (--gemm-table, gemm_table.hpp): every
  /// linear layer's GEMM at the table's interpolated rate; wins over measured_gemm_flops.
  std::shared_ptr<const MeasuredGemmRates> measured_gemm_rates;
  /// The linear layers' GEMMs in bf16 or fp8 (Transformer Engine's recipe; docs/step-model.md).
  Precision precision = Precision::bf16;
  /// fp8 weights all-gathered by the distributed optimizer (MemoryOptions::fp8_param_gather).
  bool fp8_param_gather = false;
  /// Gradients reduce-scattered in bf16, 2 bytes each (MemoryOptions::grad_reduce_in_bf16).
  bool grad_reduce_in_bf16 = false;
  /// Adam's m and v in bf16 (MemoryOptions::bf16_moments): the optimizer step moves 8 bytes
  /// fewer a parameter.
  bool bf16_moments = false;
  /// The SwiGLU's input cast to fp8 for the backward (MemoryOptions::activation_fp8_input_store):
  /// a cast each way, at HBM bandwidth.
  bool activation_fp8_input_store = false;
  /// Transformer Engine's communication/GEMM overlap of the TP collectives (Megatron-LM
  /// --tp-comm-overlap; Megatron-Bridge's Llama 3 recipes set it): each linear layer's
  /// all-gather and reduce-scatter pipelined with its forward GEMM, the backward's bulk-
  /// overlapped with the data- and weight-gradient GEMMs (model_parallel_config.py
  /// tp_comm_overlap_ag/_rs, tp_comm_bulk_dgrad/_wgrad), so only what outlasts those GEMMs
  /// is exposed. The MoE dispatcher's TP collectives are not linear layers: never hidden.
  bool tp_comm_overlap = false;
  /// The interleaved schedule's point-to-point sends overlapped with the chunks' compute
  /// (Megatron-LM's default with VPP > 1; --no-overlap-p2p-communication turns it off; the
  /// non-interleaved 1F1B never overlaps them, arguments.py): only the fill and drain sends,
  /// and what outlasts a chunk's forward, stay exposed.
  bool p2p_overlap = true;
  /// Achieved/nominal bandwidth of the TP, pipeline and data-parallel collectives (NCCL bus
  /// bandwidth vs the link's figure).
  double network_efficiency = 0.7;
  /// Achieved/nominal bandwidth of the expert all-to-all within a node (NVLink) and across
  /// nodes (the NIC), measured by DeepEP's normal kernels on H800 with CX7 400 Gb/s
  /// (deepseek-ai/DeepEP docs/legacy.md, dd758caf): intranode dispatch 153 GB/s of the H800's
  /// 200 per direction (the catalog's figure); internode dispatch 43 GB/s at EP 16 of the NIC's
  /// 50 (the larger EP's 51-58 count local traffic, "logical bandwidth"). docs/step-model.md.
  /// Flags --a2a-efficiency-intra and --a2a-efficiency-inter (a calibration profile fits them).
  double a2a_efficiency_intra = 153.0 / 200.0;
  double a2a_efficiency_inter = 43.0 / 50.0;
  /// Fraction of the expert all-to-all hidden behind computation (0: none, Megatron's default
  /// schedule; DualPipe and 1F1B A2A overlap hide it, docs/step-model.md).
  double a2a_overlap = 0;
  /// The dispatcher deduplicates per node (DeepEP, as Megatron's MoE recipes and DeepSeek-V3
  /// run): a token crosses the NIC once per remote node it reaches. false: NCCL all-to-all,
  /// one copy per expert (--a2a-dispatcher alltoall).
  bool a2a_node_dedup = true;
  /// SMs DeepEP's dispatch and combine kernels hold while they run (Megatron-Core 0.20's
  /// --moe-flex-dispatcher-num-sms, unset: 20, token_dispatcher.py's "DeepEP's historical mcore
  /// default"; DeepSeek-V3 Sec. 3.2.2: "only 20 SMs are sufficient to fully utilize the
  /// bandwidths of IB and NVLink"). The all-to-all hidden behind compute takes them from the
  /// compute it hides behind (docs/step-model.md); NCCL's all-to-all is not counted so.
  int a2a_comm_sms = 20;
  /// Fraction of the data-parallel gradient reduction hidden behind the backward pass.
  double dp_overlap = 0.8;
  /// Megatron-LM's --overlap-grad-reduce and --overlap-param-gather (arguments.py: both off
  /// by default; the second needs the first). false: that collective runs after the backward
  /// pass (before the forward pass) with nothing to hide behind. moeplan's own default is a
  /// tuned run's, both on; a --megatron-args file without them turns them off.
  bool overlap_grad_reduce = true;
  bool overlap_param_gather = true;
  /// Busiest expert rank's routed tokens over the balanced share (>= 1): the routing skew of
  /// `bench --routing-skew` as a load factor; it stretches the expert GEMMs and all-to-all.
  double expert_load_factor = k_default_load_imbalance;
  /// CUDA graphs (--cuda-graph-impl, --cuda-graph-scope, Megatron's): the kernels inside a
  /// captured region cost the host one graph replay, not a call each (the "host" term).
  CudaGraphs cuda_graphs;
  /// Host seconds of one Python call that launches a kernel, and of one more kernel issued
  /// from C++ (--host-op-us, --host-launch-us); unset: the data file's
  /// (presets/hardware/host_launches.toml, measured and published). Both 0: no host term.
  std::optional<double> host_python_op_seconds;
  std::optional<double> host_launch_seconds;
  /// The attention core's rate over the one the step model reads for it (--attention-efficiency):
  /// its measured kernel's (presets/hardware/attention_rates.toml) where there is one, else the
  /// bf16 GEMM ceiling. 1: as measured (or as the ceiling); a calibration fits it to a stack's
  /// measured attention time (docs/calibration.md).
  double attention_efficiency = 1.0;
  /// The memory-bound kernels' time over the fused count at --hbm-efficiency
  /// (--memory-bound-scale): 1, the bytes docs/step-model.md counts for Megatron-Core's fused
  /// kernels (stated, not measured on it); a stack without those fusions moves more (1.4-5.7 on
  /// one H200 at hbm_efficiency 0.85, docs/measurements/h200-2026-11-29). Apart from
  /// hbm_efficiency so that a fit of a stack's extra bytes leaves the optimizer's bandwidth alone.
  double memory_bound_scale = 1.0;
  /// What data parallelism shards (MemoryOptions::dp_sharding): from optim_grads the gradients
  /// are reduce-scattered after every micro-batch's backward, under optim_grads_params the
  /// weights all-gathered before every micro-batch's forward and backward, each behind its own
  /// pass (step_terms.cpp, dp_reduction_term).
  DpSharding dp_sharding = DpSharding::optim;
};

struct StepTerm {
  /// In this order: "gemm", "attention", "memory_bound", "recompute", "tp_collectives", "all_to_all",
  /// "pipeline" (bubble and point-to-point sends), "dp_reduction" (its exposed part). Every
  /// term is present; one that a layout does not incur has 0 seconds ("TP 1: none").
  std::string name;
  double seconds = 0;  ///< its share of the step on the critical path
  std::string detail;
};

struct StepTime {
  std::vector<StepTerm> terms;
  double step_seconds = 0;       ///< sum of the terms
  double tokens_per_step = 0;    ///< global_batch · S
  double tokens_per_second = 0;
  double model_flops_per_token = 0;  ///< M of the config (6 N_a + attention), what MFU counts
  /// Model FLOPs/s over the cluster's dense bf16 peak, in fp8 runs too (the usual MFU,
  /// comparable across precisions; an fp8 run can pass 1 on it).
  double mfu = 0;
  /// Model FLOPs/s over the dense peak of the run's precision (fp8's for an fp8 run): <= 1.
  double mfu_of_precision_peak = 0;
  /// Seconds of expert all-to-all overlapped with compute (--a2a-overlap of it); the
  /// "all_to_all" term holds what they still cost (docs/step-model.md).
  double all_to_all_overlapped = 0;
  /// Share of the SMs the overlapped all-to-all's kernels hold (DeepEP's c over the GPU's S;
  /// 0: not counted, NCCL's or a GPU without an SM count).
  double all_to_all_sm_share = 0;
  [[nodiscard]] double seconds_of(const std::string& name) const;  ///< 0 when absent
};

/// The busiest expert-parallel rank's routed rows over the balanced share (>= 1) when the
/// rows of `tokens` tokens × K are Zipf-skewed over the N_e experts (zipf_expert_rows,
/// gemm/gemm_shapes.hpp) and the experts are placed on the ep ranks in contiguous blocks of
/// N_e/ep, as Megatron places them: max over ranks of its rows / (T·K/ep). 1 for skew 0 or
/// ep 1 (one rank holds every expert). ep must divide N_e.
double expert_load_factor(long long tokens, int top_k, int n_experts, int ep, double skew);

/// Seconds per step of a legal layout (layout_illegal_reason() == ""), by term
/// (docs/cluster.md, "Step time"). layout.global_batch sequences of options.seq_len tokens.
StepTime step_time(const ModelConfig& m, const ParameterCounts& p, const Cluster& cluster,
                   const ParallelLayout& layout, const StepTimeOptions& options);

/// The terms' seconds alone, in StepTerm order (step_term_names()), and their sum: the numbers
/// step_time() reports without the details' text, for a caller that times one layout many
/// times over (the calibration fit, docs/calibration.md).
struct StepTermSeconds {
  std::vector<double> seconds;
  double total = 0;
  double tokens_per_step = 0;
  double model_flops_per_token = 0;
};
StepTermSeconds step_term_seconds(const ModelConfig& m, const ParameterCounts& p, const Cluster& cluster,
                                  const ParallelLayout& layout, const StepTimeOptions& options);
/// The terms' names, in order ("gemm", "attention", ...): StepTerm::name.
std::vector<std::string> step_term_names();

/// Where a step-model parameter's value came from, for the output ("--gemm-efficiency",
/// "profile FILE", "default"): a --step-profile run says it of every parameter.
struct StepParameterSource {
  std::string name;   ///< the parameter (calibration's name: gemm_efficiency, ...)
  double value = 0;
  std::string source;
};

/// What a run of D tokens costs at that step time.
struct TrainingTime {
  double seconds = 0;
  double days = 0;
  double gpu_hours = 0;
  long long steps = 0;
};
/// steps = ceil(D / tokens per step), seconds = D / tokens per step × step seconds (the last,
/// partial step prorated to the tokens it trains), days = seconds / 86400,
/// GPU-hours = GPUs × seconds / 3600. Zero when the step moves no tokens. A run of more than
/// k_max_training_steps steps is refused (man moeplan, LIMITS): whole steps are counted
/// exactly only below it, and such a run would take longer than any figure means.
inline constexpr double k_max_training_steps = 9007199254740992.0;  // 2^53
std::expected<TrainingTime, ConstraintViolation> training_time(const StepTime& step, const Cluster& cluster,
                                                               Tokens tokens);

}  // namespace moeplan
