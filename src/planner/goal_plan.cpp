// One goal → one plan (and its cluster fit); the time goal's search over C.
#include "moeplan/planner/goal_plan.hpp"

#include <cmath>
#include <map>
#include <string_view>

#include <fmt/format.h>

namespace moeplan {

namespace {
// The reason a budget whose plan fits is not within the days when its cluster fails faster
// than it makes progress (ClusterFit::whole_training_problem follows it).
constexpr const char* k_goal_plan_no_progress = "no progress: ";
}  // namespace

const Suggestion& plan_suggestion(const GoalPlan& plan) {
  return plan.on_cluster ? plan.on_cluster->plan.suggestion : plan.ranking.candidates.front().suggestion;
}

namespace {

// A budget the days search chose, not one the user typed: every copy of the plan's resolved
// budget says so (the output prints it to four digits).
void mark_compute_searched(GoalPlan& p) {
  for (RankedCandidate& c : p.ranking.candidates) c.suggestion.resolved.compute_searched = true;
  if (p.on_cluster) p.on_cluster->plan.suggestion.resolved.compute_searched = true;
}

}  // namespace

std::expected<GoalPlan, ConstraintViolation> plan_goal(const PlanContext& context, const PlanGoal& goal,
                                                       RankRule rule, bool rank,
                                                       const ClusterFitOptions* cluster, FitMemo* memo) {
  auto budget = resolve_goal(context.line(), goal);
  if (!budget) return std::unexpected(budget.error());
  auto ranking = plan_for_budget(context.laws(), context.planner(), *budget, rule, rank);
  if (!ranking) return std::unexpected(ranking.error());
  GoalPlan out{std::move(*ranking), std::nullopt, std::nullopt};
  if (cluster) {
    auto fitted = co_design(context, out.ranking.candidates.front(), *cluster, memo);
    if (fitted) {
      out.on_cluster = std::move(*fitted);
    } else {
      out.cluster_problem = fitted.error();
    }
  }
  return out;
}

namespace {

// The budgets the days search tries lie on lattices fixed in absolute C (10^(k/20) and
// 10^(k/400) FLOPs), not on steps down from the bound G·peak·T: whatever the days, a budget
// the search reaches is the same budget with the same plan, so a plan found within T is tried,
// and within the days, for every larger T that reaches it (issue 46: 1,048,576 H100 for 20,000
// days answered a smaller plan than for 10,000 days, its grid offset by log10 2 missed the
// window 1.118e27-1.119e27 that the other grid hit).
constexpr int k_coarse_per_decade = 20;
constexpr int k_fine_per_decade = 400;
constexpr int k_fine_per_coarse = k_fine_per_decade / k_coarse_per_decade;
double fine_point(long j) { return std::pow(10.0, double(j) / k_fine_per_decade); }
// A plan this far past the days ends the walk up the fine lattice once it has covered its least
// range: the layout, heads and memory step with C and move a plan's days by up to 2x between
// neighbours (2048 H100 x 5 days: 1.728e23 FLOPs train in 4.36 days, 1.738e23 take 6.20, and
// 2.21e23 trains in 4.92; x 3 days: 1.137e23 2.64, 1.142e23 5.06), so a window within the days
// can lie above a plan 25 % past them (an engineering figure; the least range covers the rest).
constexpr double k_far_past = 1.5;

// One search for the largest C whose plan trains within the days (docs/cluster.md, "--days T").
class DaysSearcher {
 public:
  DaysSearcher(const PlanContext& context, PlanGoal goal, RankRule rule, bool rank, const ClusterFitOptions& cluster,
               double days, FitMemo* memo)
      : context_(context), goal_(std::move(goal)), rule_(rule), rank_(rank), cluster_(cluster), days_(days),
        memo_(memo ? memo : &own_memo_) {
    const Cluster& c = cluster.cluster;
    // No plan above G x peak x T trains within T: MFU over the peak of the run's precision is
    // at most 1 (an fp8 run's bound is the fp8 peak's; the bf16 one would cut fp8 plans off).
    search_.upper_bound = Flops(double(c.gpus) * dense_peak(c.gpu, cluster.search.time.precision) * days * 86400.0);
  }

  std::expected<DaysPlan, ConstraintViolation> run() {
    if (auto none = coarse_scan()) return std::unexpected(*none);
    fine_walk();
    bisect();
    const Tried& answer = tried_.at(best_);
    if (above_ && *above_ > answer.C) {
      const Tried& up = tried_.at(*above_);
      search_.next_up = Flops(up.C);
      if (up.plan && up.plan->on_cluster) {
        search_.next_up_days = days_of(up);
      } else {
        search_.next_up_problem = up.why_not;
      }
    }
    GoalPlan plan = std::move(*tried_.at(best_).plan);
    mark_compute_searched(plan);
    return DaysPlan{std::move(plan), search_};
  }

 private:
  // One plan per C tried: the plan within the days or why not (no plan, no layout, too long).
  struct Tried {
    double C = 0;
    std::optional<GoalPlan> plan;  ///< the goal's plan, with or without a layout that fits
    std::string why_not;           ///< empty when within the days
  };
  static double days_of(const Tried& t) { return t.plan->on_cluster->fit.planning_days(); }
  bool within(double key) const { return tried_.at(key).why_not.empty(); }

  // The plan at C (each C planned once; the key is C itself, a lattice point or a midpoint).
  const Tried& try_at(double C) {
    if (const auto it = tried_.find(C); it != tried_.end()) return it->second;
    ++search_.plans_tried;
    goal_.compute = Flops(C);
    Tried t{C, std::nullopt, ""};
    auto p = plan_goal(context_, goal_, rule_, rank_, &cluster_, memo_);
    if (!p) {
      t.why_not = "no plan: " + p.error().to_string();
    } else {
      if (p->cluster_problem) {
        t.why_not = "no layout that fits: " + p->cluster_problem->to_string();
      } else if (!p->on_cluster->fit.whole.makes_progress) {
        t.why_not = k_goal_plan_no_progress + p->on_cluster->fit.whole_training_problem;
      } else if (const double d = p->on_cluster->fit.planning_days(); d > days_) {
        t.why_not = fmt::format("takes {:.4g} wall days", d);
      }
      t.plan = std::move(*p);
    }
    search_.tried.push_back({C, t.why_not.empty() ? fmt::format("trains in {:.4g} wall days", days_of(t)) : t.why_not});
    return tried_.emplace(C, std::move(t)).first->second;
  }

  // Down the coarse lattice from the largest point under the bound, every point tried, so that a
  // larger plan that trains within the days is met before a smaller one: "fits and trains within
  // T" is not monotone in C (plans, heads, layouts and memory step with C; on 4096 H100 a plan of
  // 4.3e22 FLOPs takes 1.09 days where one of 6.9e22 takes 0.78, its MFU 2.2x higher), so no point
  // may be skipped on the strength of one plan's MFU. Stops a decade below the smallest budget
  // that had a plan; the error names the largest that had one and why it missed.
  std::optional<ConstraintViolation> coarse_scan() {
    const long top = static_cast<long>(std::floor(k_coarse_per_decade * std::log10(search_.upper_bound.value()) + 1e-9));
    std::string largest_with_plan, none_below, reason_at_top, no_progress;
    double smallest_with_plan = 0, x = 0;
    for (long k = top; k > top - 20 * k_coarse_per_decade; --k) {  // 20 decades
      x = fine_point(k * k_fine_per_coarse);
      if (smallest_with_plan > 0 && x < smallest_with_plan / 10) break;
      const Tried& t = try_at(x);
      if (t.why_not.empty()) {
        best_ = x;
        return std::nullopt;
      }
      above_ = x;
      if (k == top) reason_at_top = t.why_not;
      if (t.plan) {
        smallest_with_plan = t.C;
        none_below.clear();
      } else if (smallest_with_plan > 0 && none_below.empty()) {
        none_below = t.why_not;
      }
      if (t.plan && largest_with_plan.empty()) largest_with_plan = fmt::format("C = {:.4g}: {}", t.C, t.why_not);
      if (no_progress.empty() && t.why_not.starts_with(k_goal_plan_no_progress)) no_progress = t.why_not;
    }
    const Cluster& c = cluster_.cluster;
    if (!no_progress.empty()) {  // the cause is the interruptions, whatever the largest plan met
      return ConstraintViolation{
          "a plan the cluster trains within the days",
          fmt::format("no plan from C = {:.3g} down to {:.3g} FLOPs trains on {} x {} within {:g} days ({} plans "
                      "tried): the interruptions: {}",
                      search_.upper_bound.value(), smallest_with_plan > 0 ? smallest_with_plan : x, c.gpus, c.gpu.id,
                      days_, search_.plans_tried, no_progress.substr(std::string_view(k_goal_plan_no_progress).size()))};
    }
    const std::string below =
        none_below.empty() ? std::string()
                           : fmt::format("; below C = {:.4g} there is none ({})", smallest_with_plan, none_below);
    return ConstraintViolation{
        "a plan the cluster trains within the days",
        fmt::format("no plan from C = {:.3g} down to {:.3g} FLOPs trains on {} x {} within {:g} days ({} plans "
                    "tried); {}{}",
                    search_.upper_bound.value(), smallest_with_plan > 0 ? smallest_with_plan : x, c.gpus, c.gpu.id,
                    days_, search_.plans_tried,
                    !largest_with_plan.empty() ? "the largest with a plan, " + largest_with_plan
                                               : "at the bound: " + reason_at_top,
                    below)};
  }

  // Up the fine lattice from the coarse answer, every point tried: near the crossing, budgets
  // that fit and budgets that miss alternate (the heads, the layout or the memory step with C,
  // moving the days by up to ~10 %: on 256 H100 x 10 days 5.48e22 fits, 5.49e22 takes 10.02 days,
  // 5.67e22 10.3 and 5.85e22 fits again at 9.78). It covers at least two coarse steps above the
  // coarse answer and one above the largest C within the days (on 2048 H100 x 3 days 1.137e23
  // trains in 2.64 days, 1.142e23 takes 5.06 and 1.23e23 trains in 2.73); past that it ends at a
  // plan k_far_past beyond the days, or after a coarse step of budgets none of whose plans has a
  // layout; and always at the bound. Each end only moves up with T (a
  // plan past 1.5 T is past 1.5 T' < 1.5 T; a layout fits or not whatever the days), so the
  // walk for T covers the walk for any shorter time from its own start (docs/cluster.md).
  void fine_walk() {
    const double x0 = best_, bound = search_.upper_bound.value();
    const double k_coarse_step = std::pow(10.0, 1.0 / k_coarse_per_decade);
    const double two_steps = x0 * k_coarse_step * k_coarse_step;
    const long j0 = std::lround(k_fine_per_decade * std::log10(x0));
    int without_layout = 0;  // consecutive budgets whose plan has no layout (or no plan)
    for (long j = j0 + 1;; ++j) {
      const double p = fine_point(j);
      if (p > bound) break;
      const Tried& t = try_at(p);
      if (t.why_not.empty()) best_ = p;
      const bool fits = t.plan && t.plan->on_cluster;
      without_layout = fits ? 0 : without_layout + 1;
      if (p <= std::max(two_steps, best_ * k_coarse_step)) continue;  // the least the walk covers
      if ((fits && days_of(t) > k_far_past * days_) || without_layout >= k_fine_per_coarse) break;
    }
    // The least C above the answer that misses: the fine point next above it, tried unless it
    // lies past the bound.
    const double next = fine_point(std::lround(k_fine_per_decade * std::log10(best_)) + 1);
    above_.reset();
    if (tried_.contains(next) && !within(next)) above_ = next;
  }

  // Bisection in log C to 0.1 % between the answer and the fine point above it (a miss): for a
  // longer time each midpoint within the shorter time is within it too, so its path goes up
  // wherever the shorter one does and the answer does not fall.
  void bisect() {
    if (!above_) return;
    double lo = best_, hi = *above_;
    for (int i = 0; i < 60 && hi / lo > 1.001; ++i) {
      const double mid = std::sqrt(lo * hi);
      if (try_at(mid).why_not.empty()) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    best_ = lo;
    above_ = hi;
  }

  const PlanContext& context_;
  PlanGoal goal_;
  RankRule rule_;
  bool rank_;
  const ClusterFitOptions& cluster_;
  double days_;
  FitMemo own_memo_;
  FitMemo* memo_;  // the caller's or own_memo_
  DaysSearch search_;
  std::map<double, Tried> tried_;
  double best_ = 0;              // the largest C within the days so far
  std::optional<double> above_;  // the least C tried above it that missed
};

}  // namespace

std::expected<DaysPlan, ConstraintViolation> plan_within_days(const PlanContext& context, PlanGoal goal,
                                                              RankRule rule, bool rank,
                                                              const ClusterFitOptions& cluster, double days,
                                                              FitMemo* memo) {
  return DaysSearcher(context, std::move(goal), rule, rank, cluster, days, memo).run();
}

}  // namespace moeplan
