// One goal → one plan (and its cluster fit); the time goal's search over C.
#include "moeplan/planner/goal_plan.hpp"

#include <cmath>

#include <fmt/format.h>

namespace moeplan {

std::expected<GoalPlan, ConstraintViolation> plan_goal(const PlanContext& context, const PlanGoal& goal,
                                                       RankRule rule, bool rank,
                                                       const ClusterFitOptions* cluster) {
  auto budget = resolve_goal(context.line(), goal);
  if (!budget) return std::unexpected(budget.error());
  auto ranking = plan_for_budget(context.laws(), context.planner(), *budget, rule, rank);
  if (!ranking) return std::unexpected(ranking.error());
  GoalPlan out{*budget, std::move(*ranking), std::nullopt, std::nullopt};
  if (cluster) {
    auto fitted = co_design(context, out.ranking.candidates.front(), *cluster);
    if (fitted) {
      out.on_cluster = std::move(*fitted);
    } else {
      out.cluster_problem = fitted.error();
    }
  }
  return out;
}

std::expected<DaysPlan, ConstraintViolation> plan_within_days(const PlanContext& context, PlanGoal goal,
                                                              RankRule rule, bool rank,
                                                              const ClusterFitOptions& cluster, double days) {
  DaysSearch search;
  search.days = days;
  const Cluster& c = cluster.cluster;
  search.upper_bound = Flops(double(c.gpus) * c.gpu.bf16_dense_flops * days * 86400.0);
  std::optional<GoalPlan> best;   // the plan at lo: within the days
  std::optional<GoalPlan> above;  // the plan at hi: not within (nullopt: no plan or no layout)
  std::optional<ConstraintViolation> last_problem;
  const auto within = [](const GoalPlan& p, double T) { return p.on_cluster && p.on_cluster->fit.time.days <= T; };
  const auto try_at = [&](double C) -> std::optional<GoalPlan> {
    ++search.plans_tried;
    goal.compute = Flops(C);
    auto p = plan_goal(context, goal, rule, rank, &cluster);
    if (!p) {
      last_problem = p.error();
      return std::nullopt;
    }
    if (p->cluster_problem) last_problem = p->cluster_problem;
    return std::move(*p);
  };

  // Down from the bound: each plan that fits but takes too long says, by its own MFU, which
  // C would take the days (C · T / its days); one that fits nowhere steps down by 4.
  double hi = search.upper_bound.value(), lo = 0;
  double x = hi;
  for (int step = 0; step < 40 && lo == 0; ++step) {
    auto p = try_at(x);
    if (p && within(*p, days)) {
      lo = x;
      best = std::move(p);
      break;
    }
    hi = x;
    const double next = p && p->on_cluster ? x * days / p->on_cluster->fit.time.days * (1 - 1e-3) : x / 4;
    above = std::move(p);
    x = std::min(next, x / 1.001);
  }
  if (lo == 0) {
    return std::unexpected(ConstraintViolation{
        "a plan the cluster trains within the days",
        fmt::format("no plan down to C = {:.3g} FLOPs trains on {} x {} within {:g} days{}", x, c.gpus, c.gpu.id,
                    days, last_problem ? " (" + last_problem->to_string() + ")" : std::string())});
  }
  // Bisection in log C between a plan within the days (lo) and one not (hi). Layouts and
  // co-design step with C, so a bracket can close on a step down in speed while a larger
  // plan trains within the days again: the answer's own MFU says which C would take exactly
  // T (lo · T / its days), and the search climbs there while that plan is within the days
  // (at most 3 times, each a new bracket below the last C known to take too long).
  double ceiling = hi;  // the least C tried in the descent that took too long
  for (int climb = 0;; ++climb) {
    for (int i = 0; i < 60 && hi / lo > 1.001; ++i) {
      const double mid = std::sqrt(lo * hi);
      auto p = try_at(mid);
      if (p && within(*p, days)) {
        lo = mid;
        best = std::move(p);
      } else {
        hi = mid;
        above = std::move(p);
      }
    }
    const double aim = lo * days / best->on_cluster->fit.time.days * (1 - 1e-3);
    if (climb == 3 || !(aim > hi * 1.001) || !(aim < ceiling)) break;
    auto p = try_at(aim);
    if (!(p && within(*p, days))) break;
    lo = aim;
    hi = ceiling;
    best = std::move(p);
  }
  search.next_up = Flops(hi);
  if (above && above->on_cluster) search.next_up_days = above->on_cluster->fit.time.days;
  return DaysPlan{std::move(*best), search};
}

}  // namespace moeplan
