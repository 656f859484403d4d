#pragma once
// The cluster flags of `suggest` and `score` (--gpus, --gpu, --gpu-catalog, efficiencies)
// and the sections a fit on a cluster adds to a report (docs/cluster.md).
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "moeplan/cluster/validation_spread.hpp"
#include "moeplan/io/megatron_args.hpp"
#include "moeplan/io/model_export.hpp"
#include "moeplan/planner/cluster_fit.hpp"
#include "moeplan/planner/time_optimal.hpp"
#include "command.hpp"
#include "report.hpp"

namespace CLI {
class App;
class Option;
}

namespace moeplan::cli {

struct ClusterFlags {
  std::optional<int> gpus;
  std::string gpu;  ///< catalog id
  bool gpu_given = false;  ///< --gpu was on the command line (possibly empty)
  std::string catalog_file;
  std::optional<int> gpus_per_node;
  // The defaults are the cluster library's own (step_time.hpp, memory_model.hpp): one place,
  // and --help shows them (capture_default_str).
  double gemm_efficiency = StepTimeOptions{}.gemm_efficiency;
  std::optional<double> fp8_gemm_efficiency;  ///< --fp8-gemm-efficiency; unset: --gemm-efficiency's
  /// --hbm-efficiency (the serving node reads it too, so it needs --gpus or --serve-gpus).
  std::optional<double> hbm_efficiency;
  double a2a_efficiency_intra = StepTimeOptions{}.a2a_efficiency_intra;
  double a2a_efficiency_inter = StepTimeOptions{}.a2a_efficiency_inter;
  std::string step_profile;  ///< --step-profile FILE: a fitted step profile (docs/calibration.md)
  double network_efficiency = StepTimeOptions{}.network_efficiency;
  double attention_efficiency = StepTimeOptions{}.attention_efficiency;  ///< --attention-efficiency
  double memory_bound_scale = StepTimeOptions{}.memory_bound_scale;      ///< --memory-bound-scale
  double dp_overlap = StepTimeOptions{}.dp_overlap;
  double framework_gib = MemoryOptions{}.framework_bytes / k_gib;
  /// --load-imbalance: busiest expert rank over the balanced share; unset: a --megatron-args
  /// file's forced balance (1), else k_default_load_imbalance.
  std::optional<double> load_imbalance;
  std::optional<std::string> a2a_dispatcher;  ///< --a2a-dispatcher deepep|alltoall; unset: deepep (or the file's)
  std::optional<int> deepep_num_sms;  ///< --moe-flex-dispatcher-num-sms; unset: 20 (or the file's)
  std::optional<double> global_batch_tokens;
  std::optional<std::string> batch_ramp;  ///< --batch-ramp START:TOKENS (ClusterFitOptions::batch_ramp)
  // The user's own layout (any subset; the search fills the rest) and precision.
  std::optional<int> tp, pp, vpp, ep, etp, cp, micro_batch_size;
  std::optional<std::string> pipeline_schedule;  ///< --pipeline-schedule 1f1b|interleaved|dualpipe
  std::optional<std::string> pipeline_layout;    ///< --pipeline-model-parallel-layout (Megatron's grammar)
  std::optional<int> first_stage_layers, last_stage_layers;  ///< --decoder-first/last-pipeline-num-layers
  bool embedding_in_split = false, loss_in_split = false;     ///< --account-for-embedding/loss-in-pipeline-split
  bool bf16_moments = false;  ///< --bf16-moments (MemoryOptions::bf16_moments)
  bool use_megatron_fsdp = false;  ///< --use-megatron-fsdp (MemoryOptions::dp_sharding)
  std::optional<std::string> dp_sharding;  ///< --data-parallel-sharding-strategy (with --use-megatron-fsdp)
  bool activation_fp8_input_store = false;  ///< --activation-func-fp8-input-store (MemoryOptions::activation_fp8_input_store)
  std::string recompute;  ///< none|selective|full, "" = searched
  /// --recompute-modules a,b: the modules a selective recompute re-runs (Megatron's names).
  std::vector<std::string> recompute_modules;
  std::optional<std::string> precision;  ///< bf16|fp8; unset: bf16 (or the --megatron-args file's)
  bool fp8_param_gather = false;  ///< --fp8-param-gather: fp8 weights only (MemoryOptions::fp8_param_gather)
  bool grad_reduce_in_bf16 = false;  ///< --grad-reduce-in-bf16: bf16 gradients (MemoryOptions::grad_reduce_in_bf16)
  bool tp_comm_overlap = false;      ///< --tp-comm-overlap (StepTimeOptions::tp_comm_overlap)
  bool no_p2p_overlap = false;       ///< --no-overlap-p2p-communication (StepTimeOptions::p2p_overlap off)
  /// Set false by a --megatron-args file without --overlap-grad-reduce / --overlap-param-gather
  /// (Megatron-LM's defaults; no command-line flag: --dp-overlap 0 hides neither).
  bool overlap_grad_reduce = true, overlap_param_gather = true;
  std::optional<std::string> cuda_graph_impl;  ///< --cuda-graph-impl (StepTimeOptions::cuda_graphs)
  std::vector<std::string> cuda_graph_scope;   ///< --cuda-graph-scope (cluster_from_flags moves --cuda-graph-modules here)
  std::vector<std::string> cuda_graph_modules;  ///< --cuda-graph-modules: Megatron-Core 0.20's name of the same setting
  std::optional<double> host_op_us, host_launch_us;  ///< --host-op-us, --host-launch-us
  std::optional<int> mtp_num_layers;  ///< --mtp-num-layers: MTP modules trained (ClusterFitOptions::mtp_layers)
  std::string megatron_args;  ///< --megatron-args FILE: a Megatron-LM launch script or arguments file
  std::string gemm_table;     ///< --gemm-table FILE: measured GEMM rates by shape (gemm_table.hpp)
  /// Not a flag: a --megatron-args file's --global-batch-size (sequences), set when the
  /// command line gave no --global-batch-tokens.
  std::optional<long long> global_batch_sequences;
  double a2a_overlap = StepTimeOptions{}.a2a_overlap;
  /// --interruptions-per-gpu-hour, --restart-minutes, --checkpoint-write-gbps,
  /// --async-checkpoint, --eval-interval, --eval-minutes (defaults: the cluster library's).
  WholeTrainingOptions whole_training;
  std::optional<double> checkpoint_interval_minutes;  ///< --checkpoint-interval; unset: Young-Daly
  /// The flags that mean nothing without a cluster (every cluster flag but --gpus, --gpu and
  /// --gpu-catalog), as add_cluster_flags added them: one given on the command line without
  /// --gpus is refused by name, never ignored (a flag with a default, --gemm-efficiency say, is
  /// known given only from its option's count).
  std::vector<const CLI::Option*> need_cluster;
  /// Every flag add_cluster_flags added: flag_given() finds one by name (a flag with a default
  /// wins over a --step-profile only when it was on the command line).
  std::vector<const CLI::Option*> options;
  [[nodiscard]] bool flag_given(std::string_view name) const;
  /// The first flag of need_cluster given on the command line ("" : none).
  [[nodiscard]] std::string first_given_flag() const;
  /// A flag that needs the cluster was given (the layout and precision flags too: without
  /// --gpus they would be silently ignored).
  [[nodiscard]] bool given() const {
    return gpus.has_value() || !gpu.empty() || gpu_given || tp || pp || vpp || pipeline_schedule || pipeline_layout || ep || etp || cp ||
           micro_batch_size || first_stage_layers || last_stage_layers || embedding_in_split || loss_in_split || !recompute.empty() || !recompute_modules.empty() || precision || fp8_param_gather || grad_reduce_in_bf16 || bf16_moments || use_megatron_fsdp || dp_sharding || activation_fp8_input_store || tp_comm_overlap || no_p2p_overlap || cuda_graph_impl || !cuda_graph_scope.empty() || !cuda_graph_modules.empty() || mtp_num_layers || !megatron_args.empty() ||
           !gemm_table.empty() || !step_profile.empty() || !first_given_flag().empty();
  }
};

/// Adds the flags to a subcommand.
void add_cluster_flags(CLI::App& sub, ClusterFlags& f);

/// The embedded GPU catalog with --gpu-catalog FILE laid over it ("" : the embedded one); an
/// InputError (exit 4) for a bad file, naming the flag. The training cluster and the serving
/// node read their GPU from it.
std::expected<GpuCatalog, InputError> gpu_catalog_from_flag(const std::string& file);

/// The cluster fit's options from the flags: a usage message (exit 2) when --gpus and --gpu
/// are not given together or the GPU is unknown; an InputError for a bad --gpu-catalog file.
struct ClusterFlagsError {
  bool input = false;  ///< true: a bad catalog file (exit 4); false: usage (exit 2)
  std::string usage;
  InputError error;
  bool infeasible = false;  ///< true: a legal flag the cluster cannot do (fp8 on a GPU without it, exit 3)
};
std::expected<ClusterFitOptions, ClusterFlagsError> cluster_options(const ClusterFlags& f);

/// cluster_options for a command: nullopt when no cluster flag was given; on an error it is
/// reported on `io` and the exit status comes back instead (2 usage, 4 a bad catalog file).
/// With --megatron-args, the file's settings fill what the command line did not give (the
/// command line wins); the flags it does not use are listed on stderr, and its --seq-length is
/// returned in `seq_len` for the caller's S when that was not given either. With `file_args`
/// (score, which compares the file's model-size flags with each model it scores) the file's
/// reading is returned there; without it, those flags are listed with the ignored ones.
std::expected<std::optional<ClusterFitOptions>, int> cluster_from_flags(const ClusterFlags& f, const Io& io,
                                                                       std::optional<int>* seq_len = nullptr,
                                                                       std::optional<MegatronArgs>* file_args = nullptr);

/// The sections of a config on a cluster: "cluster" (GPU, layout, batch), "memory" (per GPU
/// by term), "step_time" (by term, tokens/s, MFU, days; and `days_limit`, suggest --days's
/// T, when given), "layouts" (the runners-up, repeated).
/// What --emit megatron writes beside the model for a cluster fit: its chosen layout and what
/// the step time assumed beyond it (`options`: the flags' fit options the fit ran with).
MegatronRun megatron_run(const ClusterFit& fit, const ClusterFitOptions& options);

void add_cluster_fit(Report& report, const ClusterFit& fit, const Cluster& cluster,
                     std::optional<double> days_limit = std::nullopt);

/// The band time figures carry: a --step-profile's leave-one-out spread, else the step
/// model's validation spread (docs/validation.md).
const ValidationSpread& step_band(const ClusterFitOptions& options);

/// The time goal's comparison (issue 34): sections "time_optimal" (the plan printed, what
/// moved, the loss gain and whether the laws resolve it) and "flop_optimal" (the largest
/// compute-optimal plan within the days), each with loss, D, days, GPU-hours, MFU and shape.
void add_time_optimal(Report& report, const TimeOptimalResult& r, const ValidationSpread& band);

/// --objective flops: the "flop_optimal" section alone (the plan printed).
void add_flop_optimal(Report& report, const TimedPlan& plan, const ValidationSpread& band);

/// The target goal (--target-loss): section "target_loss", the plan's GPU-hours, days, D and C
/// beside the compute-optimal C* for the loss.
void add_target_loss(Report& report, const TargetLossResult& r, const ValidationSpread& band);

/// The co-design moves of a plan (repeated "co_design" sections).
void add_co_design(Report& report, const CoDesignedPlan& plan);

}  // namespace moeplan::cli
