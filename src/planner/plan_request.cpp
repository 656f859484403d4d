// One plan request: its cross-goal rules and its one resolution (plan_request.hpp).
#include "moeplan/planner/plan_request.hpp"

#include <utility>

#include <fmt/format.h>

namespace moeplan {

std::optional<double> PlanRequest::time_days() const {
  if (gpu_hours && cluster) return *gpu_hours / (24.0 * cluster->cluster.gpus);
  return days;
}

namespace {

// The rules of the cluster's time goals (--days, --gpu-hours, --target-loss, --objective).
std::optional<std::string> time_goal_problem(const PlanRequest& r) {
  const PlanGoal& g = r.options.goal;
  if (r.gpu_hours && r.days) return "--gpu-hours and --days both set the time: give one";
  if (r.target_loss) {
    if (!r.cluster) return "--target-loss needs --gpus and --gpu (the GPU-hours are the cluster's)";
    if (r.days || r.gpu_hours || g.compute || g.tokens || g.active_params || g.flops_per_token ||
        g.inference_tokens || g.total_params_cap || r.serve_fit) {
      return "--target-loss sets the goal: give it without --flops, --days, --gpu-hours, --tokens, "
             "--active-params, --flops-per-token, --inference-tokens, --total-params and --serve-fit";
    }
  }
  if (r.gpu_hours && !r.cluster) {
    return "--gpu-hours needs --gpus and --gpu (hours are shared by the cluster's GPUs)";
  }
  const std::optional<double> days = r.time_days();
  if (r.gpu_hours && !(*days >= k_min_plan_days && *days <= k_max_plan_days)) {  // the range --days takes
    return fmt::format("--gpu-hours {:g} on {} GPUs is {:.4g} days: the time must be from {:g} to {:g} days",
                       *r.gpu_hours, r.cluster->cluster.gpus, *days, k_min_plan_days, k_max_plan_days);
  }
  if (r.objective_given && !days) return "--objective needs a time: --days or --gpu-hours (with --gpus, --gpu)";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> PlanRequest::problem() const {
  if (cluster && align_auto) {
    return "--align auto times CPU GEMMs; with --gpus the plan is co-designed for the cluster instead "
           "(--align N keeps the planner's alignment)";
  }
  if (auto why = time_goal_problem(*this)) return why;
  const std::optional<double> time = time_days();
  if (serving && serving->count_mtp) {  // served for nothing: no plan of the laws has MTP modules
    return "--serve-mtp: a suggested plan has no multi-token-prediction modules to serve (score serves a "
           "config's num_nextn_predict_layers)";
  }
  if (serve_fit && time) {
    return "--serve-fit with --days: not supported yet (give --flops or --tokens with --serve-fit, or "
           "--days without it and read the serving section)";
  }
  const PlanGoal& g = options.goal;
  if (time) {
    const char* flag = gpu_hours ? "--gpu-hours" : "--days";
    if (!cluster) return fmt::format("{} needs --gpus and --gpu (the cluster that trains)", flag);
    if (g.compute || g.tokens || g.active_params || g.flops_per_token || g.inference_tokens) {
      return fmt::format("{} sets the budget from the cluster: give it instead of --flops, --tokens, "
                         "--active-params, --flops-per-token and --inference-tokens",
                         flag);
    }
  }
  // --days and --target-loss: the core searches C; the goal is checked with a placeholder C.
  PlanGoal checked = g;
  if (time || target_loss) checked.compute = Flops(1);
  return goal_problem(checked);
}

namespace {

// "infeasible on 64 x h100: ..." for a plan no layout of the cluster fits.
std::string no_layout_message(const GoalPlan& plan, const ClusterFitOptions& cluster, const char* advice) {
  const Accounting& acc = plan.ranking.candidates.front().suggestion.solution.accounting;
  return fmt::format("infeasible on {} x {}: {} (the plan has N = {:.3g} parameters{})", cluster.cluster.gpus,
                     cluster.cluster.gpu.id, plan.cluster_problem->to_string(), acc.N.value(), advice);
}

using RequestResult = std::expected<PlannedRequest, PlanRequestError>;

RequestResult infeasible(std::string message) { return std::unexpected(PlanRequestError{false, std::move(message)}); }

// --serve-fit: the plan capped so that it fits the node.
RequestResult serve_fitted(const PlanContext& context, const PlanRequest& r, const ClusterFitOptions* on) {
  ServingOptions node = *r.serving;
  // The context defaults to the plan's S, the family's (every plan of the search has it).
  if (node.context == 0) node.context = context.planner().family().seq_len;
  auto fitted = plan_to_serve(context, r.options.goal, r.rule, r.rank, on, node);
  if (!fitted) return infeasible("--serve-fit: " + fitted.error().to_string());
  PlannedRequest out{fitted->plan, std::move(*fitted), {}, {}, {}, {}, {}};
  if (out.plan.cluster_problem) out.infeasible_on_cluster = no_layout_message(out.plan, *on, "");
  return out;
}

// --target-loss L: the least GPU-hours on the cluster to reach L.
RequestResult target_reached(const PlanContext& context, const PlanRequest& r, const ClusterFitOptions& on) {
  const double epsilon = context.laws().joint.epsilon;
  if (!(*r.target_loss > epsilon)) {
    return std::unexpected(PlanRequestError{
        true, fmt::format("--target-loss {:g}: at or below the joint law's irreducible loss epsilon = {:g} "
                          "(paper 001 Eq. 11): no plan reaches it",
                          *r.target_loss, epsilon)});
  }
  auto reached = plan_for_target_loss(context, r.options.goal, r.rule, r.rank, on, *r.target_loss);
  if (!reached) return infeasible("--target-loss: " + reached.error().to_string());
  PlannedRequest out{reached->plan.plan, {}, std::move(*reached), {}, {}, {}, {}};
  return out;
}

// --days T: the lowest predicted loss in the time, or the largest compute-optimal plan in it.
RequestResult within_time(const PlanContext& context, const PlanRequest& r, const ClusterFitOptions& on, double days) {
  if (r.objective == TimeObjective::time) {
    auto best = plan_time_optimal(context, r.options.goal, r.rule, r.rank, on, days);
    if (!best) return infeasible("--days: " + best.error().detail);
    PlannedRequest out{best->time_optimal.plan, {}, {}, std::move(*best), {}, {}, {}};
    return out;
  }
  auto within = plan_within_days(context, r.options.goal, r.rule, r.rank, on, days);
  if (!within) return infeasible("--days: " + within.error().detail);
  // The FLOP-optimal plan's section, as the time objective prints it beside its own.
  const Suggestion& s = plan_suggestion(within->plan);
  TimedPlan flop_optimal = timed_plan(context.laws(), within->plan, s.tokens, s.budget.C);
  PlannedRequest out{std::move(within->plan), {}, {}, {}, std::move(within->search), std::move(flop_optimal), {}};
  return out;
}

}  // namespace

std::expected<PlannedRequest, PlanRequestError> plan_request(const PlanContext& context, const PlanRequest& r) {
  std::optional<ClusterFitOptions> cluster = r.cluster;
  // --align N keeps the planner's alignment: no co-design moves.
  if (cluster) cluster->co_design = !r.options.alignment;
  const ClusterFitOptions* on = cluster ? &*cluster : nullptr;
  if (r.serve_fit) return serve_fitted(context, r, on);
  if (r.target_loss) return target_reached(context, r, *cluster);
  if (const std::optional<double> days = r.time_days()) return within_time(context, r, *cluster, *days);
  auto planned = plan_goal(context, r.options.goal, r.rule, r.rank, on);
  if (!planned) return infeasible("infeasible: " + planned.error().to_string());
  PlannedRequest out{std::move(*planned), {}, {}, {}, {}, {}, {}};
  if (out.plan.cluster_problem) {
    out.infeasible_on_cluster = no_layout_message(out.plan, *cluster, ": more GPUs, or --total-params to cap its size");
  }
  return out;
}

std::optional<ClusterFit> refit_at_measured_rate(const LawSet& laws, const ClusterFit& fit,
                                                 const ClusterFitOptions& cluster, double flops_per_s,
                                                 const std::string& device) {
  // A --gemm-table given wins; a benchmark on another GPU says nothing of the cluster's.
  if (!gpu_is(device, cluster.cluster.gpu) || cluster.search.time.measured_gemm_rates) return std::nullopt;
  ClusterFitOptions measured = cluster;
  measured.search.time.measured_gemm_flops = flops_per_s;
  measured.gemm_rates_source =
      fmt::format("measured on this {} by the benchmark: {:.0f} TFLOP/s for every GEMM", device, flops_per_s / 1e12);
  auto refit = fit_on_cluster(laws, fit.config, fit.tokens, measured);
  if (!refit) return std::nullopt;
  return std::move(*refit);
}

}  // namespace moeplan
