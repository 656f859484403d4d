#pragma once
/// One plan request, every goal in one place (issue 47): the budget or size goal (--flops,
/// --tokens, --active-params, --flops-per-token, --total-params, --inference-tokens), the
/// shape options, the cluster and its time goals (--days, --gpu-hours, --target-loss,
/// --objective), and the inference node (--serve-*, --serve-fit). The request says once
/// whether it is well formed (problem(), as Ceres' Options::IsValid, ../shared/STYLE.md);
/// plan_request() resolves it in the core into one typed answer: which of the five goals ran
/// (the compute/size goal, the serving cap, the target loss, the lowest loss in the time or the
/// largest compute-optimal plan in it) and the figures each adds. The cross-goal rules live
/// here, not in the command that parses the flags.
#include <expected>
#include <optional>
#include <string>

#include "moeplan/planner/cluster_fit.hpp"
#include "moeplan/planner/goal_plan.hpp"
#include "moeplan/planner/plan_context.hpp"
#include "moeplan/planner/serving_goal.hpp"
#include "moeplan/planner/time_optimal.hpp"
#include "moeplan/serving/serving_fit.hpp"

namespace moeplan {

/// What --days plans for: the lowest predicted loss within the time, or the largest budget
/// whose compute-optimal plan trains within it (paper 002).
enum class TimeObjective { time, flops };

struct PlanRequest {
  SuggestOptions options;  ///< the shape options and the goal (options.goal: its compute, tokens, sizes, load)
  RankRule rule = RankRule::paper002;
  bool rank = true;        ///< false: the pipeline optimum alone (--candidates 0)
  bool align_auto = false;  ///< --align auto (time the aligned neighbours; not on a cluster)
  /// --gpus, --gpu, ...: the cluster the plan is fitted onto. plan_request co-designs the plan
  /// for it unless options.alignment fixes the alignment.
  std::optional<ClusterFitOptions> cluster;
  std::optional<double> days;       ///< --days T (with the cluster)
  std::optional<double> gpu_hours;  ///< --gpu-hours H: the same as --days H / (24 G)
  std::optional<double> target_loss;  ///< --target-loss L: the least GPU-hours on the cluster to reach it
  TimeObjective objective = TimeObjective::time;
  bool objective_given = false;  ///< --objective was on the command line (it needs a time)
  std::optional<ServingOptions> serving;  ///< --serve-gpus, ...: the inference node
  bool serve_fit = false;  ///< --serve-fit: the plan capped so that it fits the node

  /// The time the request plans for, in days: --days, or --gpu-hours over the cluster's GPUs.
  [[nodiscard]] std::optional<double> time_days() const;
  /// nullopt for a well-formed request; else a usage message (exit 2) naming the flags whose
  /// goals contradict each other or leave the plan under- or over-determined. One check, in
  /// one order, for every rule between goals (a goal's own form is goal_problem's, run here too).
  [[nodiscard]] std::optional<std::string> problem() const;
};

/// The request resolved: the plan and what its goal added.
struct PlannedRequest {
  GoalPlan plan;  ///< the plan printed (on the cluster when one was given)
  std::optional<ServeFitPlan> serve_fit;          ///< --serve-fit: the cap's search
  std::optional<TargetLossResult> target_loss;    ///< --target-loss
  std::optional<TimeOptimalResult> time_optimal;  ///< --days, --objective time: both plans
  std::optional<DaysSearch> days_search;          ///< --days, --objective flops: how C was found
  std::optional<TimedPlan> flop_optimal;          ///< --days, --objective flops: its section
  /// The plan exists but no layout of it fits the cluster: the message (exit 3) a caller gives
  /// after its notes on the plan.
  std::optional<std::string> infeasible_on_cluster;
};

/// Why a well-formed request has no plan: a usage message (a target below the law's floor,
/// exit 2) or an infeasible goal (exit 3), naming the goal's flag.
struct PlanRequestError {
  bool usage = false;
  std::string message;
};

/// The one core call of `suggest` for one budget: `request` (well formed: problem() is nullopt)
/// planned in `context` (built from the request's options), by its goal. The cluster options are
/// the request's, with co-design set as the alignment allows.
std::expected<PlannedRequest, PlanRequestError> plan_request(const PlanContext& context, const PlanRequest& request);

/// The cluster fit of a plan again with every GEMM at `flops_per_s`, the rate the benchmark
/// measured on `device`, when that device is the cluster's GPU and no measured GEMM table
/// (--gemm-table) already sets the rates; nullopt otherwise or when the refit fails.
std::optional<ClusterFit> refit_at_measured_rate(const LawSet& laws, const ClusterFit& fit,
                                                 const ClusterFitOptions& cluster, double flops_per_s,
                                                 const std::string& device);

}  // namespace moeplan
