// plot frontier: loss against days on a cluster, the FLOP-optimal and the time-optimal plans.
#include <cmath>

#include <fmt/format.h>

#include "moeplan/cluster/validation_spread.hpp"
#include "moeplan/planner/time_optimal.hpp"
#include "moeplan/plot/plot_data.hpp"

namespace moeplan::plot {

std::string days_range_problem(const DaysRange& range) {
  const double from = range.from.value_or(1), to = range.to.value_or(100);
  if (!(from >= k_min_plan_days) || !(to <= k_max_plan_days) || !(from < to)) {
    return fmt::format("--from/--to: days from {:g} to {:g} with from < to, got {:g} to {:g}", k_min_plan_days,
                       k_max_plan_days, from, to);
  }
  if (range.points < 2 || range.points > k_max_frontier_points) {
    return fmt::format("--points: 2 to {} for a frontier (each point is a whole time search)", k_max_frontier_points);
  }
  return "";
}

std::expected<Figure, ConstraintViolation> frontier(const LawSet& laws, const SuggestOptions& options,
                                                   const ClusterFitOptions& cluster, const DaysRange& range) {
  const double from = range.from.value_or(1), to = range.to.value_or(100);
  Figure f;
  f.kind = "frontier";
  f.title = fmt::format("Predicted loss against days on {} x {}", cluster.cluster.gpus, cluster.cluster.gpu.id);
  f.x_label = "wall days (steps, restarts, lost work, checkpoints, evaluations)";
  f.y_label = "predicted loss (paper 001 Eq. 11), nats/token";
  f.x_key = "days";
  f.y_key = "loss";
  f.log_x = true;
  f.caption = "time-optimal: the lowest loss in the days; FLOP-optimal: the largest compute-optimal plan in them";
  Series flop{"FLOP-optimal", SeriesStyle::line, {}, {}, {}};
  Series time{"time-optimal", SeriesStyle::line, {}, {}, {}};
  const PlanContext context(laws, options);  // one family, its Planner built once
  for (int i = 0; i < range.points; ++i) {
    const double days = from * std::pow(to / from, double(i) / (range.points - 1));
    auto r = plan_time_optimal(context, options.goal, RankRule::paper002, true, cluster, days);
    if (!r) {
      f.notes.push_back(fmt::format("{:.4g} days: no plan ({})", days, r.error().to_string()));
      continue;
    }
    flop.x.push_back(days);
    flop.y.push_back(r->flop_optimal.predicted_loss);
    time.x.push_back(days);
    time.y.push_back(r->time_optimal.predicted_loss);
  }
  if (flop.x.empty()) {
    return std::unexpected(ConstraintViolation{"a plan within the days",
                                               fmt::format("no time from {:g} to {:g} days has a plan on {} x {}", from,
                                                           to, cluster.cluster.gpus, cluster.cluster.gpu.id)});
  }
  // The days band (issue 48): the days are wall days (ClusterFit::planning_days), so the band is
  // the spread of the published whole trainings against their prediction: a plan predicted to
  // take d wall days took d x speed_ratio_min to d x speed_ratio_max.
  const ValidationSpread& band = whole_training_validation_spread();
  Series fast{fmt::format("time-optimal, days x {:g} (fastest run)", band.speed_ratio_min), SeriesStyle::line, {}, {}, {}};
  Series slow{fmt::format("time-optimal, days x {:g} (slowest run)", band.speed_ratio_max), SeriesStyle::line, {}, {}, {}};
  for (std::size_t i = 0; i < time.x.size(); ++i) {
    fast.x.push_back(time.x[i] * band.speed_ratio_min);
    fast.y.push_back(time.y[i]);
    slow.x.push_back(time.x[i] * band.speed_ratio_max);
    slow.y.push_back(time.y[i]);
  }
  f.series.push_back(std::move(flop));
  f.series.push_back(std::move(time));
  f.series.push_back(std::move(fast));
  f.series.push_back(std::move(slow));
  return f;
}

}  // namespace moeplan::plot
