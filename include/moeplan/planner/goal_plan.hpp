#pragma once
/// One goal → one plan, in the core (issue 31: "every goal resolved in the planner, once"):
/// the goal resolved on the context's compute-optimal line into (C, M, C'), the plan solved
/// and ranked, and with a cluster co-designed onto it. The time goal (--days) is a search
/// over C with the step model's own speed, here too, not in the CLI.
#include <expected>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "moeplan/planner/candidates.hpp"
#include "moeplan/planner/cluster_fit.hpp"
#include "moeplan/planner/plan_context.hpp"

namespace moeplan {

/// The goal's resolved budget is each suggestion's `resolved` (one copy per plan solved, all
/// the same budget): plan_suggestion(plan).resolved.
struct GoalPlan {
  Ranking ranking;                          ///< winner first
  std::optional<CoDesignedPlan> on_cluster;  ///< with a cluster, when a layout fits
  /// With a cluster: the plan exists but no layout of it fits (which rule, by how much).
  std::optional<ConstraintViolation> cluster_problem;
};

/// The concrete plan a goal stands for: the co-designed one on a cluster, else the winner
/// (its config: plan_config(plan_suggestion(plan)), pipeline.hpp).
const Suggestion& plan_suggestion(const GoalPlan& plan);

/// The plan of `goal` (its compute set, or a size, tokens or inference goal) in `context`'s
/// family, ranked by `rule` (with `rank` false the pipeline optimum alone), and on
/// `cluster` when given. An error when the goal has no plan; a plan that no layout fits is a
/// GoalPlan with `cluster_problem`. `memo`: the search's fits, kept and reused (co_design).
std::expected<GoalPlan, ConstraintViolation> plan_goal(const PlanContext& context, const PlanGoal& goal,
                                                       RankRule rule, bool rank,
                                                       const ClusterFitOptions* cluster, FitMemo* memo = nullptr);

/// How the time goal was searched: the bracket it ended on, for the note a user reads.
struct DaysSearch {
  Flops upper_bound;            ///< G · peak of the run's precision · T: no plan above it trains within T
  Flops next_up;                ///< the least C tried above the answer (not within T); 0: none
  std::optional<double> next_up_days;  ///< its days, when a layout of it fits
  std::string next_up_problem;  ///< else why it has no plan or no layout
  int plans_tried = 0;
  /// Every C tried, in order, and what came of it ("trains in 9.1 days", "no layout that
  /// fits: ...", "no plan: ..."): the path the search took, for `-v`.
  std::vector<std::pair<double, std::string>> tried;
};

struct DaysPlan {
  GoalPlan plan;  ///< the answer, on the cluster
  DaysSearch search;
};

/// The time goal: the largest budget C whose plan (`goal` with C set) trains on the cluster
/// within `days`. Budgets lie on lattices fixed in C (10^(k/20), 10^(k/400) FLOPs): down the
/// twentieths from the bound G·peak·T (MFU 1) to the first within T, up every 400th from there
/// (at least two twentieths, and one past the largest within T, then until a plan takes 1.5 T or
/// a twentieth has no layout), then a bisection in log C to 0.1 % (docs/cluster.md). Plans and
/// layouts step with C, so "trains within T" is not monotone in C: the answer is the largest on
/// those lattices, not a proven maximum; but the budgets tried for T cover those a shorter time
/// tried above its own start, so the answer's C never falls as T grows. An error when nothing
/// down to 20 decades below the bound trains within T, naming the largest C that had a plan
/// and why it missed. `memo`: fits kept across the caller's search (fit options `cluster` up to
/// co_design); null: the search keeps its own.
std::expected<DaysPlan, ConstraintViolation> plan_within_days(const PlanContext& context, PlanGoal goal,
                                                              RankRule rule, bool rank,
                                                              const ClusterFitOptions& cluster, double days,
                                                              FitMemo* memo = nullptr);

}  // namespace moeplan
