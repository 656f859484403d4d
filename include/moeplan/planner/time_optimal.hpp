#pragma once
/// The time goal planned for loss, not per FLOP (issue 34, docs/time-optimal.md): on a cluster
/// and a number of days, the plan with the lowest predicted loss that trains within them.
///
/// Papers 000-002 choose the shape with the lowest loss per FLOP; a team pays in GPU-days.
/// Every plan compared is priced by one measure, paper 001's joint law (Eq. 11) at its own
/// (N, D, N_a, G, S), with D = its tokens/s on its best layout x the days. The search moves what
/// the joint law sees: the experts (N_e, K, shared: its G and S), paper 002's ratios N/N_a and
/// M/N_a, and the size (the shape budget C', so N_a and N); what no law sees (d, L, heads) moves only inside paper 002's
/// near-optimal band, by co-design, as for any plan on a cluster. Granularity is the one thing
/// the joint law cannot see: a family move is admitted only where paper 000's EL at equal
/// compute does not fall by more than 1 % (EL's change is printed beside).
#include <expected>
#include <string>
#include <vector>

#include "moeplan/planner/goal_plan.hpp"

namespace moeplan {

/// One plan of the comparison and its figures.
struct TimedPlan {
  GoalPlan plan;              ///< on the cluster (plan.on_cluster set)
  Tokens tokens;              ///< D it trains in the days
  double predicted_loss = 0;  ///< paper 001 Eq. 11 at (N, D, N_a, G, S) of the concrete config
  double efficiency_leverage = 0;  ///< paper 000 Eq. 4 at the FLOP-optimal plan's C (equal compute)
  double days = 0, gpu_hours = 0, mfu = 0, mfu_of_precision_peak = 0, tokens_per_second = 0;
  /// How far its compute M·D lies past the laws' fitted budgets, in decades (0 inside; negative
  /// below the least): every law is extrapolated by that much.
  double extrapolation_decades = 0;
  double active_experts = 0;  ///< the joint law's G = K + shared (paper 001 Eq. 2)
  double shared_ratio = 0;    ///< the joint law's S = shared / G
};

/// A plan on its cluster (plan.on_cluster set) trained on D: the joint law's loss at its concrete
/// N, N_a, G, S and D; EL at `el_compute` (shapes compared at equal compute); days and GPU-hours
/// from its fit (for the plan's own D); how far M D extrapolates past the laws' fitted budgets.
TimedPlan timed_plan(const LawSet& laws, GoalPlan plan, Tokens D, Flops el_compute);

/// The times a plan may be asked for (--days, --gpu-hours, plot frontier): from a minute and a
/// half to a hundred years, past which no figure means anything (man moeplan, LIMITS).
inline constexpr double k_min_plan_days = 0.001;
inline constexpr double k_max_plan_days = 36500;

/// Paper 002's near-optimal band (Sec. 5.3-5.4: shapes within 0.1 % of the optimal loss are
/// equivalent): a loss gain smaller than this is not a resolvable win.
inline constexpr double k_loss_resolution = 0.001;
/// A family move may cost at most this much of paper 000's EL (at equal compute).
inline constexpr double k_el_tolerance = 0.01;

struct TimeOptimalResult {
  TimedPlan flop_optimal;  ///< plan_within_days: the largest C whose compute-optimal plan fits the days
  TimedPlan time_optimal;  ///< the lowest loss within the days (the FLOP-optimal one when no move resolves a gain)
  double loss_gain = 0;    ///< 1 - L_time / L_flop of the two plans printed (0 when they are one)
  double best_gain_found = 0;  ///< the same for the best plan the search found, resolved or not
  bool resolved = false;   ///< the gain is at least k_loss_resolution
  std::vector<std::string> moved;      ///< what moved (dimension: from -> to), empty when nothing
  std::vector<std::string> rejected;   ///< family moves refused by the EL rule, and why
  int plans_evaluated = 0;
  DaysSearch days_search;  ///< the FLOP-optimal plan's search
};

/// The time-optimal plan of `goal` (its compute unset) on `cluster` within `days`: the FLOP-
/// optimal plan (plan_within_days), then for each family (N_e in {N_e/2, N_e, 2 N_e} x K in
/// {K/2, K, 2K}; 0 and 2 shared experts; N/N_a x 0.8, 1.25 and M/N_a x 0.9, 1.1 of the FLOP-
/// optimal plan's) the shape budgets C' from a decade and a half below the FLOP-optimal C to half
/// a decade above, in quarter decades and then the eighths either side of the family's best, each
/// on its layout with D = tokens/s x days; the six best co-designed and priced again; the three
/// best of those and the FLOP-optimal shape trained the whole time each re-planned with D fixed
/// (goal: tokens and M), on the most tokens it trains within the days (its own layout and batch),
/// so that its sections are those of any plan; the lowest joint-law loss re-planned wins.
std::expected<TimeOptimalResult, ConstraintViolation> plan_time_optimal(const PlanContext& context, PlanGoal goal,
                                                                       RankRule rule, bool rank,
                                                                       const ClusterFitOptions& cluster, double days);

/// The least GPU-hours on the cluster to reach a predicted loss (--target-loss L).
struct TargetLossResult {
  double target_loss = 0;
  /// C*: where paper 002's continuous compute-optimal line reaches L (paper 001's joint law on
  /// its curves, OptimalLine::equal_loss_compute), the price section's C*.
  Flops compute_optimal_compute;
  TimedPlan plan;           ///< the plan with the least GPU-hours to L, trained on the D that reaches it
  Flops training_compute;   ///< M·D of that plan
  std::vector<std::string> rejected;
  int plans_evaluated = 0;
};

/// `target_loss` reached on `cluster` in the fewest GPU-hours: the families and sizes of the time
/// search around C*, each on its layout, priced at D = the joint law's tokens to L (b / D^β = L -
/// L(D = ∞) at its N, N_a, G, S) over its tokens/s; the winner re-planned with that D. An error
/// when the line reaches no such loss (below the law's floor) or no plan on the cluster does.
std::expected<TargetLossResult, ConstraintViolation> plan_for_target_loss(const PlanContext& context, PlanGoal goal,
                                                                         RankRule rule, bool rank,
                                                                         const ClusterFitOptions& cluster,
                                                                         double target_loss);

}  // namespace moeplan
