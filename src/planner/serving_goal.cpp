// The serving goal: a cap on N searched so that the plan fits the inference node.
#include "moeplan/planner/serving_goal.hpp"

#include <cmath>

#include <fmt/format.h>

namespace moeplan {

std::expected<ServeFitPlan, ConstraintViolation> plan_to_serve(const PlanContext& context, const PlanGoal& goal,
                                                               RankRule rule, bool rank,
                                                               const ClusterFitOptions* cluster,
                                                               const ServingOptions& serving) {
  ServeFitPlan out;
  // One plan under a cap and its serving fit; nullopt when there is no plan under it.
  struct Tried {
    std::optional<GoalPlan> plan;
    std::optional<ServingFit> fit;
    std::string why_not;
    [[nodiscard]] bool fits() const { return fit && fit->fits && plan && !plan->cluster_problem; }
  };
  // The bisection plans the pipeline optimum alone (ranking a capped goal's candidates costs
  // 10-100x more); the ranked plan is checked at the end.
  const auto try_with = [&](std::optional<Params> cap, bool ranked) {
    ++out.plans_tried;
    PlanGoal g = goal;
    if (cap) g.total_params_cap = g.total_params_cap ? Params(std::min(g.total_params_cap->value(), cap->value())) : *cap;
    Tried t;
    auto p = plan_goal(context, g, rule, ranked, cluster);
    if (!p) {
      t.why_not = p.error().to_string();
      return t;
    }
    auto f = serving_fit(plan_config(plan_suggestion(*p)), serving);
    if (!f) {
      t.why_not = f.error();
      return t;
    }
    t.why_not = p->cluster_problem ? "no layout on the training cluster: " + p->cluster_problem->to_string() : f->why_not;
    t.fit = std::move(*f);
    t.plan = std::move(*p);
    return t;
  };
  Tried first = try_with(std::nullopt, rank);
  if (!first.plan) return std::unexpected(ConstraintViolation{"the goal", first.why_not});
  if (!first.fit) return std::unexpected(ConstraintViolation{"serving", first.why_not});
  const Suggestion& s0 = first.plan->ranking.candidates.front().suggestion;
  out.uncapped_N = s0.solution.accounting.N;
  if (first.fits()) {
    out.fit = std::move(*first.fit);
    out.plan = std::move(*first.plan);
    return out;
  }
  out.uncapped_fit = first.fit;
  // Only a compute budget alone leaves the size to choose: a goal that fixes it (tokens, N_a,
  // M, an inference load) takes a cap as a constraint, so no cap makes its plan fit.
  if (const GoalKind kind = goal_kind(goal); kind != GoalKind::compute_optimal && kind != GoalKind::size_capped) {
    return std::unexpected(ConstraintViolation{
        "serving fit",
        fmt::format("the plan of this goal ({}) does not fit {} x {}: {}; the goal fixes the plan's size, so "
                    "--serve-fit cannot shrink it (give --flops alone, or a smaller --active-params)",
                    to_string(kind), serving.gpus, serving.gpu.id, first.why_not)});
  }
  // Bisection in log N between a cap that fits and one that does not. The fit is not strictly
  // monotone in the cap (plans step: layers, widths), so the answer is the largest cap found
  // to fit on the bisection's path, as the time goal's search is.
  // Down from the uncapped N a decade at a time to the first cap whose plan fits (the
  // bracket's low end), at most six decades; a cap with no plan at all ends the search.
  const double hi0 = out.uncapped_N.value();
  double lo = 0, hi = hi0;
  std::optional<Tried> found;
  std::string last_why = first.why_not;
  for (int i = 1; i <= 6; ++i) {
    const double cap = hi0 / std::pow(10.0, i);
    Tried t = try_with(Params(cap), false);
    if (t.fits()) {
      lo = cap;
      found = std::move(t);
      break;
    }
    hi = cap;
    last_why = t.why_not;
    if (!t.plan) break;
  }
  if (!found) {
    return std::unexpected(ConstraintViolation{
        "serving fit",
        fmt::format("no plan from N = {:.3g} down to {:.3g} fits {} x {} at {} tokens and a batch of {}: {}", hi0, hi,
                    serving.gpus, serving.gpu.id, serving.context, serving.min_batch, last_why)});
  }
  Tried best = std::move(*found);
  double best_cap = lo;
  while (std::log(hi / lo) > 1e-3) {
    const double mid = std::sqrt(lo * hi);
    Tried t = try_with(Params(mid), false);
    if (t.fits()) {
      lo = mid;
      if (mid > best_cap) {
        best_cap = mid;
        best = std::move(t);
      }
    } else {
      hi = mid;
    }
  }
  // The ranked winner at the cap may be another shape (a ranking variant of slightly more N):
  // the cap steps down 1 % at a time, 8 times at most, until it fits; else the pipeline
  // optimum that fits stands (and the ranking is that plan's alone).
  if (rank) {
    double cap = best_cap;
    for (int i = 0; i < 8; ++i, cap *= 0.99) {
      Tried t = try_with(Params(cap), true);
      if (t.fits()) {
        best_cap = cap;
        best = std::move(t);
        break;
      }
    }
  }
  out.cap = Params(best_cap);
  out.fit = std::move(*best.fit);
  out.plan = std::move(*best.plan);
  return out;
}

}  // namespace moeplan
