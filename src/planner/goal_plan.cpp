// One goal → one plan (and its cluster fit); the time goal's search over C.
#include "moeplan/planner/goal_plan.hpp"

#include <cmath>

#include <fmt/format.h>

namespace moeplan {

const Suggestion& plan_suggestion(const GoalPlan& plan) {
  return plan.on_cluster ? plan.on_cluster->plan.suggestion : plan.ranking.candidates.front().suggestion;
}

ModelConfig plan_config(const GoalPlan& plan) {
  const Suggestion& s = plan_suggestion(plan);
  return to_model_config(s.solution.arch, s.tokens);
}

namespace {

// A budget the days search chose, not one the user typed: every copy of the plan's resolved
// budget says so (the output prints it to four digits).
void mark_compute_searched(GoalPlan& p) {
  p.budget.compute_searched = true;
  for (RankedCandidate& c : p.ranking.candidates) c.suggestion.resolved.compute_searched = true;
  if (p.on_cluster) p.on_cluster->plan.suggestion.resolved.compute_searched = true;
}

}  // namespace

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
  const Cluster& c = cluster.cluster;
  search.upper_bound = Flops(double(c.gpus) * c.gpu.bf16_dense_flops * days * 86400.0);
  // One plan per C tried: the plan within the days or why not (no plan, no layout, too long).
  struct Tried {
    double C = 0;
    std::optional<GoalPlan> plan;  ///< the goal's plan, with or without a layout that fits
    std::string why_not;           ///< empty when within the days
  };
  const auto days_of = [](const Tried& t) { return t.plan->on_cluster->fit.time.days; };
  const auto try_at = [&](double C) {
    ++search.plans_tried;
    goal.compute = Flops(C);
    Tried t{C, std::nullopt, ""};
    auto p = plan_goal(context, goal, rule, rank, &cluster);
    if (!p) {
      t.why_not = "no plan: " + p.error().to_string();
      search.tried.push_back({C, t.why_not});
      return t;
    }
    if (p->cluster_problem) {
      t.why_not = "no layout that fits: " + p->cluster_problem->to_string();
    } else if (const double d = p->on_cluster->fit.time.days; d > days) {
      t.why_not = fmt::format("takes {:.4g} days", d);
    }
    t.plan = std::move(*p);
    search.tried.push_back({C, t.why_not.empty() ? fmt::format("trains in {:.4g} days", days_of(t)) : t.why_not});
    return t;
  };

  // Down from the bound in twentieths of a decade, every one tried, so that a larger plan that
  // trains within the days is met before a smaller one: "fits and trains within T" is not
  // monotone in C (plans, heads, layouts and memory step with C; on 4096 H100 a plan of
  // 4.3e22 FLOPs takes 1.09 days where one of 6.9e22 takes 0.78, its MFU 2.2x higher), so
  // no step may be skipped on the strength of one plan's MFU.
  constexpr double k_step = 1.1220184543019633;  // 10^(1/20)
  std::optional<Tried> best, above;
  std::string largest_with_plan;  // the error's reason: the largest C that had a plan, and why it missed
  double smallest_with_plan = 0;  // the scan stops a decade of budgets without a plan below it
  std::string none_below;         // why the first budget below it had no plan
  double x = search.upper_bound.value();
  std::string reason_at_bound;
  for (int i = 0; i < 400; ++i) {  // 20 decades
    if (smallest_with_plan > 0 && x < smallest_with_plan / 10) break;
    Tried t = try_at(x);
    if (t.why_not.empty()) {
      best = std::move(t);
      break;
    }
    if (i == 0) reason_at_bound = t.why_not;
    if (t.plan) {
      smallest_with_plan = t.C;
      none_below.clear();
    } else if (smallest_with_plan > 0 && none_below.empty()) {
      none_below = t.why_not;
    }
    if (t.plan && largest_with_plan.empty()) largest_with_plan = fmt::format("C = {:.4g}: {}", t.C, t.why_not);
    above = std::move(t);
    x /= k_step;
  }
  if (!best) {
    // Why, in the user's terms: the largest plan and what it missed by, and where plans end.
    const std::string below =
        none_below.empty() ? std::string()
                           : fmt::format("; below C = {:.4g} there is none ({})", smallest_with_plan, none_below);
    return std::unexpected(ConstraintViolation{
        "a plan the cluster trains within the days",
        fmt::format("no plan from C = {:.3g} down to {:.3g} FLOPs trains on {} x {} within {:g} days ({} plans "
                    "tried); {}{}",
                    search.upper_bound.value(), smallest_with_plan > 0 ? smallest_with_plan : x, c.gpus,
                    c.gpu.id, days, search.plans_tried,
                    !largest_with_plan.empty() ? "the largest with a plan, " + largest_with_plan
                                               : "at the bound: " + reason_at_bound,
                    below)});
  }
  // Bisection in log C between the plan within the days (lo) and the C above it that was not.
  // The climb: where the answer's own MFU says a larger C would take T, below the least C
  // known to miss, that plan is tried (at most 3 times); within the days, it opens a new bracket.
  double lo = best->C;
  double hi = above ? above->C : lo;
  double ceiling = hi;
  const auto bisect = [&] {  // to 0.1 % in log C: lo within the days, hi not
    for (int i = 0; i < 60 && hi / lo > 1.001; ++i) {
      Tried t = try_at(std::sqrt(lo * hi));
      if (t.why_not.empty()) {
        lo = t.C;
        best = std::move(t);
      } else {
        hi = t.C;
        above = std::move(t);
      }
    }
  };
  for (int climb = 0;; ++climb) {
    bisect();
    const double aim = lo * days / days_of(*best) * (1 - 1e-3);
    if (climb == 3 || !(aim > hi * 1.001) || !(aim < ceiling)) break;
    Tried t = try_at(aim);
    if (!t.why_not.empty()) break;
    lo = aim;
    hi = ceiling;
    best = std::move(t);
  }
  // A fine scan in 400ths of a decade up to the grid step above the first grid point that
  // missed: near the crossing, budgets that fit and budgets that miss alternate (the heads, the
  // layout or the memory step with C, moving the days by up to ~10 %: on 256 H100 x 10 days
  // 5.48e22 fits, the grid point 5.49e22 takes 10.02 days, 5.67e22 10.3 and 5.85e22 fits again
  // at 9.78), so neither the grid nor the bisection's answer need be the largest. Every step is
  // tried (at most 40); the largest within the days is kept and bisected against the step above.
  constexpr double k_fine_step = 1.0057728467201307;  // 10^(1/400)
  const double fine_end = std::min(ceiling * k_step, search.upper_bound.value());
  // The scan's steps are 400ths of a decade above the answer it starts from; when the
  // bisection then moves the answer off those steps, its own 400ths above are scanned again
  // (at most three passes): a window between two steps of the first scan (2048 H100 x 3 days:
  // 1.320e23-1.324e23 fits, 1.3155e23-1.3195e23 does not) is found from the answer below it.
  for (int pass = 0; pass < 3; ++pass) {
    double fine_above = 0;  // the first step above lo that missed
    for (double x_fine = lo * k_fine_step; x_fine < fine_end / 1.001; x_fine *= k_fine_step) {
      Tried t = try_at(x_fine);
      // A plan a quarter past the days: the steps seen move the days by ~10 %, so no window
      // lies above it (the scan's cost on large clusters, where each plan's layout search is
      // longest).
      const bool far_past = t.plan && t.plan->on_cluster && days_of(t) > 1.25 * days;
      if (t.why_not.empty()) {
        lo = t.C;
        best = std::move(t);
        fine_above = 0;
      } else if (fine_above == 0) {
        fine_above = t.C;
        above = std::move(t);
      }
      if (far_past) break;
    }
    if (fine_above == 0 && above && above->C < lo && fine_end > lo) {
      above = try_at(fine_end);  // the step above the answer is the grid point that missed
    }
    if (fine_above == 0) break;
    const double on_grid = lo;
    hi = fine_above;
    bisect();
    if (lo == on_grid) break;  // the answer is a step of this scan: every step above was tried
  }
  if (above && above->C > lo) {
    search.next_up = Flops(above->C);
    if (above->plan && above->plan->on_cluster) {
      search.next_up_days = days_of(*above);
    } else {
      search.next_up_problem = above->why_not;
    }
  }
  mark_compute_searched(*best->plan);
  return DaysPlan{std::move(*best->plan), search};
}

}  // namespace moeplan
