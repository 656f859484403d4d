// The ranking (rank_candidates) directly: what each rule may pick and why, on the built-in
// laws, inside Table 4's range (1e20) and past it (1e22).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/candidates.hpp"

using namespace moeplan;

namespace {

double d_distance(const RankedCandidate& c) {
  return std::abs(std::log(c.suggestion.solution.arch.d / c.suggestion.d_target));
}

Ranking ranked(double C, RankRule rule) {
  const LawSet& laws = builtin_laws();
  SuggestOptions o{.goal = {.compute = Flops(C)}};
  const auto pipeline = suggest(laws.holistic, o);
  REQUIRE(pipeline.has_value());
  return rank_candidates(laws, Planner(laws.holistic, o), *pipeline, rule);
}

}  // namespace

TEST_CASE("rank paper002: only shapes that keep the law's targets and heads win, d nearest the target") {
  for (double C : {1e20, 1e22}) {
    CAPTURE(C);
    const Ranking r = ranked(C, RankRule::paper002);
    REQUIRE(r.candidates.size() >= 2);
    const RankedCandidate& w = r.candidates.front();
    CHECK(w.eligible);
    CHECK(w.keeps_targets);
    // Target moves (M/N_a x0.95/x1.05, N/N_a ±1) are listed but may not win.
    const bool has_move = std::any_of(r.candidates.begin(), r.candidates.end(),
                                      [](const RankedCandidate& c) { return !c.keeps_targets; });
    CHECK(has_move);
    for (const RankedCandidate& c : r.candidates) {
      CAPTURE(c.variant);
      if (!c.keeps_targets) CHECK(!c.eligible);
      // No eligible shape is nearer the d target by more than the 1 % near-tie band.
      if (c.eligible) CHECK(d_distance(w) <= d_distance(c) + 0.01);
    }
    // Eligible candidates come first, the winner's heads are the pipeline's.
    const auto first_ineligible = std::find_if(r.candidates.begin(), r.candidates.end(),
                                               [](const RankedCandidate& c) { return !c.eligible; });
    CHECK(std::all_of(first_ineligible, r.candidates.end(), [](const RankedCandidate& c) { return !c.eligible; }));
    CHECK(!r.decided_by.empty());
    CHECK(r.warnings.empty());
  }
}

TEST_CASE("rank el: the highest EL within ±10 % of the d target, with a warning that EL is blind") {
  const Ranking r = ranked(1e20, RankRule::efficiency_leverage);
  const RankedCandidate& w = r.candidates.front();
  CHECK(w.eligible);
  for (const RankedCandidate& c : r.candidates) {
    CAPTURE(c.variant);
    if (!c.eligible) continue;
    CHECK(c.keeps_targets);
    CHECK(w.efficiency_leverage >= c.efficiency_leverage);
    if (c.variant != "pipeline optimum") CHECK(d_distance(c) <= std::log1p(0.10) + 1e-12);
  }
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings.front().find("granularity") != std::string::npos);
}

TEST_CASE("rank joint-loss: every candidate may win, the lowest loss, EL among those within 0.001") {
  const Ranking r = ranked(1e20, RankRule::joint_loss);
  const RankedCandidate& w = r.candidates.front();
  double best = w.predicted_loss;
  for (const RankedCandidate& c : r.candidates) {
    CHECK(c.eligible);
    best = std::min(best, c.predicted_loss);
  }
  CHECK(w.predicted_loss - best <= 0.001);  // paper 001 Table 3's practical threshold
  for (const RankedCandidate& c : r.candidates) {
    if (c.predicted_loss - best <= 0.001) CHECK(w.efficiency_leverage >= c.efficiency_leverage);
  }
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings.front().find("no attention term") != std::string::npos);
}

TEST_CASE("plan_for_budget without ranking is the pipeline optimum alone, scored as the ranking scores it") {
  const LawSet& laws = builtin_laws();
  const SuggestOptions o{.goal = {.compute = Flops(1e20)}};
  const auto plan = plan_for_budget(laws, o, RankRule::paper002, false);
  REQUIRE(plan.has_value());
  REQUIRE(plan->candidates.size() == 1);
  const RankedCandidate& c = plan->candidates.front();
  CHECK(c.variant == "pipeline optimum");
  const auto pipeline = suggest(laws.holistic, o);
  REQUIRE(pipeline.has_value());
  const RankedCandidate again = score_suggestion(laws, *pipeline, "x");
  CHECK(c.predicted_loss == again.predicted_loss);
  CHECK(c.efficiency_leverage == again.efficiency_leverage);
  CHECK(c.suggestion.solution.arch.d == pipeline->solution.arch.d);
}
