#pragma once
/// A plan (or any config) on a cluster: its layout, memory and time, and the co-design
/// that moves a plan's integers to what the cluster runs well, inside paper 002's
/// near-optimal band (docs/cluster.md, "Co-design").
#include <expected>
#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "moeplan/cluster/layout_search.hpp"
#include "moeplan/cluster/validation_spread.hpp"
#include "moeplan/cluster/whole_training.hpp"
#include "moeplan/laws/law_set.hpp"
#include "moeplan/planner/candidates.hpp"
#include "moeplan/planner/plan_context.hpp"
#include "moeplan/planner/planner.hpp"

namespace moeplan {

/// A batch-size ramp (--batch-ramp START:TOKENS): the global batch grows linearly from
/// START sequences to the run's batch over the first TOKENS tokens (DeepSeek-V3 Sec. 4.2:
/// 3,072 to 15,360 sequences over 469B tokens; Megatron-LM's --rampup-batch-size).
struct BatchRamp {
  long long start_sequences = 0;
  double tokens = 0;
};

/// The constraint a fit fails with when --batch-ramp START is not below the run's global batch
/// (a usage error: the CLI exits 2 on it).
inline constexpr const char* k_batch_ramp_constraint = "--batch-ramp START below the run's global batch";

struct ClusterFitOptions {
  Cluster cluster;
  /// --batch-ramp: the days and steps of the ramp at the smaller batches, timed on the chosen
  /// layout (its micro-batches fewer, its pipeline bubble and DP exposure larger).
  std::optional<BatchRamp> batch_ramp;
  LayoutSearchOptions search;  ///< global_batch_tokens 0: from the laws at the run's C
  /// Move the plan to hardware-friendly values inside the band (suggest's default with a
  /// cluster; `--align N` keeps the planner's alignment and moves nothing).
  bool co_design = true;
  /// Paper 002 Sec. 5.3-5.4: within 0.1 % of the loss of the plan as the papers give it.
  double band = 0.001;
  /// With a given layout (search.given), also search without it and say whether and why the
  /// search's best is faster (score: "my layout" beside moeplan's; a second search).
  bool compare_given_with_search = false;
  /// A global batch given in sequences (a --megatron-args file's --global-batch-size), × the
  /// run's S; `global_batch_given_by` names it in global_batch_source. Used when
  /// search.global_batch_tokens is not given.
  long long global_batch_sequences = 0;
  std::string global_batch_given_by;
  /// How the step time's GEMM rates were had, for the output ("shape model, bf16 peak x 0.6",
  /// "--gemm-table FILE: 120 rows of this GPU and precision", ...).
  std::string gemm_rates_source;
  /// MTP modules trained beside the model (Megatron-LM's --mtp-num-layers); unset: the
  /// config's num_nextn_predict_layers. They are timed and counted on the last stage.
  std::optional<int> mtp_layers;
  /// What a whole training adds to the steady state (interruptions, checkpoints, evaluations).
  WholeTrainingOptions whole_training;
  /// A --step-profile (docs/calibration.md): its file, where each step-model parameter came
  /// from, and the band (its leave-one-out spread) the time figures carry instead of the step
  /// model's validation spread. Empty / nullopt without one.
  std::string step_profile;
  std::vector<StepParameterSource> step_parameter_sources;
  std::optional<ValidationSpread> step_band;
  /// --load-imbalance was given (not the default): on an EP 1 layout, where the load is 1,
  /// the fit says it did not apply.
  bool load_imbalance_given = false;
  /// --use-megatron-fsdp was given: the exported script asks for Megatron-FSDP whatever it shards
  /// (with `optim`, the distributed optimizer's model), so a script round-trips.
  bool megatron_fsdp = false;
};

/// A config on the cluster: the global batch it trains with, the ranked layouts, the time.
struct ClusterFit {
  ModelConfig config;
  long long global_batch_sequences = 0;    ///< the chosen layout's
  long long requested_batch_sequences = 0; ///< the law's or the user's (capped at D / S)
  std::string global_batch_source;  ///< which law gave it (paper 002 Table 4 or paper 000 Eq. 5), and any cap or raise
  LayoutSearchResult layouts;       ///< ranked[0] is the chosen layout
  TrainingTime time;                ///< for the run's D on ranked[0]: the steady state (and any batch ramp)
  /// With --batch-ramp: what the ramp adds to `time` over training at the full batch, and how
  /// its slices were rounded (and where a ramp longer than D ends).
  std::optional<TrainingTime> ramp_extra;
  std::string ramp_note;
  /// The whole training's wall time on top of `time` (whole.makes_progress false, with the
  /// reason in whole_training_problem, when the cluster fails faster than it makes progress).
  WholeTraining whole;
  std::string whole_training_problem;
  /// The days a time goal plans against (--days, --gpu-hours, --target-loss, the time-optimal
  /// search, plot frontier): the whole training's wall days, not the steady state's (issue 48:
  /// a team's days carry interruptions, restarts, lost work, checkpoints and evaluations);
  /// infinite when the cluster fails faster than it makes progress.
  [[nodiscard]] double planning_days() const {
    return whole.makes_progress ? whole.wall_days : std::numeric_limits<double>::infinity();
  }
  /// The GPU-hours of planning_days().
  [[nodiscard]] double planning_gpu_hours() const {
    return whole.makes_progress ? whole.wall_gpu_hours : std::numeric_limits<double>::infinity();
  }
  Tokens tokens;                    ///< D
  Precision precision = Precision::bf16;  ///< of the linear layers' GEMMs (options.search.time)
  bool fp8_param_gather = false;          ///< fp8 weights only (options.search.time)
  bool grad_reduce_in_bf16 = false;       ///< bf16 gradients (options.search.time)
  bool bf16_moments = false;              ///< Adam's m and v in bf16 (options.search.time)
  bool activation_fp8_input_store = false;  ///< SwiGLU inputs kept in fp8 (options.search.time)
  bool tp_comm_overlap = false;           ///< TP collectives overlapped with GEMMs, as applied (asked and TP > 1)
  CudaGraphs cuda_graphs;                 ///< --cuda-graph-impl / --cuda-graph-scope, as the host term counts them
  bool p2p_overlap = false;               ///< pipeline sends overlapped, as applied (not turned off, and VPP > 1)
  /// The busiest expert rank's routed tokens over the balanced share that the expert terms
  /// assume (options.search.time.expert_load_factor: --load-imbalance, 1 for forced balance).
  double load_imbalance = 1.0;
  GivenLayout given;                ///< the layout dimensions the user fixed (options.search.given)
  std::string gemm_rates_source;    ///< options.gemm_rates_source
  std::string step_profile;                                  ///< options.step_profile
  std::vector<StepParameterSource> step_parameter_sources;   ///< options.step_parameter_sources
  std::optional<ValidationSpread> step_band;                 ///< options.step_band
  /// compare_given_with_search: the fastest layout the search finds with nothing given, when
  /// it is faster than the given one's best, and the step-time terms that decide it.
  std::optional<LayoutCandidate> searched_best;
  std::string given_slower_because;
  /// Legal figures no practice describes (man moeplan, LIMITS), for stderr: a run of more than
  /// k_max_plausible_days.
  std::vector<std::string> warnings;
  double attention_efficiency = 1.0;  ///< options.search.time.attention_efficiency (--attention-efficiency)
  DpSharding dp_sharding = DpSharding::optim;  ///< what data parallelism shards (options.search.time)
};

/// Ten years: a hundred times the published pre-trainings (DeepSeek-V3: under two months on
/// 2048 H800, arXiv:2412.19437 Sec. 1); a run longer than this is warned about.
inline constexpr double k_max_plausible_days = 3650;

/// The config `m` trained on `tokens` on the cluster: batch from the laws at the run's C
/// (`compute` when the caller's budget was given as C; without it C = M·D of the config's
/// count, which for a plan is its own budget) or the options', layouts searched, time for D. `counted`: the config's count when the caller has
/// it (score), so a config is counted once. A ConstraintViolation when nothing fits.
std::expected<ClusterFit, ConstraintViolation> fit_on_cluster(const LawSet& laws,
                                                              const ModelConfig& m, Tokens tokens,
                                                              const ClusterFitOptions& options,
                                                              std::optional<Flops> compute = {},
                                                              const ParameterCounts* counted = nullptr);

/// One co-design move: what it changed, what it cost in predicted loss, and whether it was
/// kept (in band and no slower) or why not.
struct CoDesignMove {
  std::string name;        ///< "d, d_m aligned", "L multiple of PP", "heads multiple of TP", "N_e multiple of EP"
  std::string from, to;    ///< the values before and after ("" when nothing was tried)
  double loss_change = 0;  ///< (L_after − L_paper) / L_paper, joint law (paper 001 Eq. 11)
  bool kept = false;
  std::string why;
  /// EL_after / EL_paper − 1, paper 000 Eq. 4 (it sees granularity 2d/d_m, the joint law not).
  double el_change = 0;
  /// The trial moved L by more than one PP step or d_m by more than one alignment step: a
  /// reshape, kept only when EL stays inside the band.
  bool reshaped = false;
  /// Refused as such a reshape: EL fell by more than the band (noted on stderr).
  bool outside_el_band = false;
};

struct CoDesignedPlan {
  RankedCandidate plan;        ///< the plan as moved (the paper's plan when nothing was kept)
  double paper_loss = 0;       ///< the joint-law loss of the plan as the planner gave it
  ClusterFit fit;
  std::vector<CoDesignMove> moves;
};

/// The cluster fits of one search, kept by the plan they fitted (its architecture and tokens), so
/// that a plan met again (the time search's shortlist, its re-plans, the days search's answer) is
/// not fitted again (issue 47). Its owner passes it only with fit options that differ at most in
/// `co_design`, which `fit_on_cluster` does not read; a fit is the same function of the same
/// inputs, so a kept one is the fit that would be computed.
class FitMemo {
 public:
  using Fit = std::expected<ClusterFit, ConstraintViolation>;
  /// The fit kept for `plan`, or nullptr.
  [[nodiscard]] const Fit* find(const Suggestion& plan) const;
  void keep(const Suggestion& plan, const Fit& fit);

 private:
  using Key = std::tuple<int, int, int, int, int, int, int, int, int, int, int, int, double, int, double>;
  static Key key_of(const Suggestion& plan);
  std::map<Key, Fit> fits_;
};

/// `plan` (the planner's winner) fitted onto the cluster, moved inside the band where a move
/// makes it train faster or lets it use the hardware's shapes.
/// The context's Planner is the plan's family; an N_e move plans with the context's Planner
/// of that N_e (built once per command).
std::expected<CoDesignedPlan, ConstraintViolation> co_design(const PlanContext& context,
                                                             const RankedCandidate& plan,
                                                             const ClusterFitOptions& options,
                                                             FitMemo* memo = nullptr);

}  // namespace moeplan
