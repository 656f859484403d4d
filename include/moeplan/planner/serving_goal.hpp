#pragma once
/// The serving goal (`suggest --serve-fit`): the plan whose served weights and cache fit the
/// inference node at a batch of at least ServingOptions::min_batch at the context. It is a cap
/// on the plan's size, as --total-params is, but on what the node holds (every served weight,
/// embeddings included, and the cache), not on paper 002's N: the cap on N is searched so that
/// the plan it gives fits (docs/serving.md).
#include <expected>
#include <optional>

#include "moeplan/planner/goal_plan.hpp"
#include "moeplan/serving/serving_fit.hpp"

namespace moeplan {

struct ServeFitPlan {
  GoalPlan plan;  ///< the plan that fits (its resolved budget carries the cap when one was needed)
  ServingFit fit;
  /// The cap on N the search set; nullopt when the uncapped plan fits as it is.
  std::optional<Params> cap;
  Params uncapped_N;  ///< N of the plan without the serving cap (the goal's own cap kept)
  std::optional<ServingFit> uncapped_fit;  ///< that plan on the node (why it needed the cap)
  int plans_tried = 0;
};

/// `goal` (its compute or tokens set, any cap of its own kept) planned so that the plan fits
/// `serving`: the goal's plan when it fits; else the largest cap on N whose plan fits, bracketed
/// a decade at a time down from the uncapped N (six at most) and bisected in log N to 0.1 %. An
/// error naming the bound when no cap on that path fits, or the goal has no plan at all.
std::expected<ServeFitPlan, ConstraintViolation> plan_to_serve(const PlanContext& context, const PlanGoal& goal,
                                                               RankRule rule, bool rank,
                                                               const ClusterFitOptions* cluster,
                                                               const ServingOptions& serving);

}  // namespace moeplan
