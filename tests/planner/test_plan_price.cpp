// The price of leaving paper 002's compute-optimal line (moeplan/planner/plan_price.hpp):
// the equal-loss curve of `plot overtraining` and the price of a scored config.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/candidates.hpp"
#include "moeplan/planner/model_score.hpp"
#include "moeplan/planner/plan_price.hpp"
#include "moeplan/planner/planner.hpp"

using namespace moeplan;

TEST_CASE("equal_loss_ratios: log-spaced, with ratio 1 exactly, added or snapped") {
  const std::vector<double> r = equal_loss_ratios(0.1, 2.0, 61);
  CHECK(r.size() == 62);  // 1 is not on this grid: it is added
  CHECK(r.front() == doctest::Approx(0.1));
  CHECK(r.back() == doctest::Approx(2.0));
  CHECK(std::is_sorted(r.begin(), r.end()));
  CHECK(std::count(r.begin(), r.end(), 1.0) == 1);
  // 0.01 .. 100 in 5 points has 1 in the middle up to rounding: it is snapped, not doubled.
  const std::vector<double> s = equal_loss_ratios(0.01, 100, 5);
  CHECK(s.size() == 5);
  CHECK(s[2] == 1.0);
  CHECK(equal_loss_ratios(0.2, 0.5, 4).size() == 4);  // 1 outside: not added
  CHECK(equal_loss_ratios(0.2, 0.5, 1).empty());
}

TEST_CASE("equal_loss_curve: every plan reaches the compute-optimal loss, and ratio 1 is that plan") {
  const LawSet& laws = builtin_laws();
  const Planner planner(laws.holistic, SuggestOptions{});
  const OptimalLine line(laws, planner);
  for (const double C : {1e19, 1e22}) {
    CAPTURE(C);
    const auto target = line.optimal_loss(Flops(C));
    REQUIRE(target.has_value());
    const auto curve = equal_loss_curve(line, Flops(C), 0.1, 2.0, 61);
    REQUIRE(curve.size() > 30);
    const auto at_one = std::find_if(curve.begin(), curve.end(),
                                     [](const EqualLossPoint& p) { return p.active_ratio == 1.0; });
    REQUIRE(at_one != curve.end());
    CHECK(std::abs(at_one->overhead) < 1e-6);
    CHECK(at_one->shape_compute.value() == doctest::Approx(C).epsilon(1e-9));
    CHECK(at_one->D.value() == doctest::Approx(C / line.optimal_flops_per_token(Flops(C)).value()).epsilon(1e-9));
    const double Na_opt = planner.targets(Flops(C))->targets.N_a.value();
    for (const EqualLossPoint& p : curve) {
      CAPTURE(p.active_ratio);
      // Paper 001 Eq. 11 on paper 002's targets at C' trained on D: the compute-optimal loss.
      CHECK(*line.loss_at(p.shape_compute, p.D) == doctest::Approx(*target).epsilon(1e-9));
      CHECK(planner.targets(p.shape_compute)->targets.N_a.value() ==
            doctest::Approx(p.active_ratio * Na_opt).epsilon(1e-6));
      // The overhead is the compute of that plan against C.
      const double spent = (line.optimal_flops_per_token(p.shape_compute) * p.D).value();
      CHECK(p.overhead == doctest::Approx(spent / C - 1.0));
    }
  }
}

TEST_CASE("equal_loss_curve: a size too small to reach the loss at any D has no point") {
  const LawSet& laws = builtin_laws();
  const Planner planner(laws.holistic, SuggestOptions{});
  const OptimalLine line(laws, planner);
  // At 1e22 the joint law's floor for a model a tenth the size lies above the optimum's loss.
  const auto curve = equal_loss_curve(line, Flops(1e22), 0.1, 2.0, 61);
  REQUIRE_FALSE(curve.empty());
  CHECK(curve.front().active_ratio > 0.1);
  CHECK(curve.size() < equal_loss_ratios(0.1, 2.0, 61).size());
}

TEST_CASE("a config of paper 002's family scored on D has a price - others say why not") {
  // Paper 002's own plan at 1e20 (inside the fitted range), as score reads it back.
  const LawSet& laws = builtin_laws();
  const Planner planner(laws.holistic, SuggestOptions{});
  const Flops C(1e20);
  const auto plan = planner.solve(compute_optimal_budget(C, compute_optimal(laws.holistic.compute_optimal, C).M));
  REQUIRE(plan.has_value());
  ModelConfig m = plan_config(*plan);
  m.training = TrainingSetup{.tokens = {}, .compute = C, .seq_len = 8192, .unique_tokens = {}};
  const ModelScore s = score_model(laws, m);
  REQUIRE(s.holistic.in_family);
  REQUIRE_MESSAGE(s.price.has_value(), s.price.error());
  const PlanPrice& p = *s.price;
  CHECK(p.plan.D.value() == doctest::Approx(s.D->value()));
  CHECK(p.plan.N_a.value() == doctest::Approx(s.params.N_a.value()));
  CHECK(p.plan.training_compute.value() == doctest::Approx(1e20));
  CHECK(p.plan.tokens_per_active_param == doctest::Approx(s.D->value() / s.params.N_a.value()));
  // Its own N, N_a in the joint law: score's own predicted loss.
  CHECK(p.plan.predicted_loss == doctest::Approx(*s.predicted_loss));
  REQUIRE_MESSAGE(p.overhead.has_value(), p.overhead_note);
  REQUIRE(p.equal_loss_compute.has_value());
  CHECK(*p.overhead == doctest::Approx(1e20 / p.equal_loss_compute->value() - 1.0));
  // The plan itself, within the tolerance of its targets: on the line up to a few per cent.
  CHECK(std::abs(*p.overhead) < 0.05);
  REQUIRE(p.compute_optimal.has_value());
  CHECK(p.compute_optimal->N_a.value() == doctest::Approx(s.params.N_a.value()));

  // Ten times the data on the same model: further off the line, a higher price.
  ModelConfig longer = m;
  longer.training = TrainingSetup{.tokens = Tokens(10 * s.D->value()), .compute = {}, .seq_len = 8192,
                                  .unique_tokens = {}};
  const ModelScore t = score_model(laws, longer);
  REQUIRE(t.price.has_value());
  REQUIRE(t.price->overhead.has_value());
  CHECK(*t.price->overhead > *p.overhead + 0.1);

  ModelConfig no_budget = m;
  no_budget.training.reset();
  const ModelScore nb = score_model(laws, no_budget);
  REQUIRE_FALSE(nb.price.has_value());
  CHECK(nb.price.error() == "no training budget");
  ModelConfig mla = m;
  mla.latent_attention = LatentAttention{0, 512, 64, 64, 128};
  // Outside the family the config's own figures stand; only the comparison with paper 002's
  // line is missing, and the note says why.
  const ModelScore u = score_model(laws, mla);
  REQUIRE(u.price.has_value());
  CHECK(u.price->plan.D == *u.D);
  CHECK(u.price->plan.tokens_per_active_param == doctest::Approx(u.D->value() / u.params.N_a.value()));
  CHECK(std::isfinite(u.price->plan.predicted_loss));
  CHECK_FALSE(u.price->overhead.has_value());
  CHECK_FALSE(u.price->compute_optimal.has_value());
  CHECK(u.price->overhead_note.find("outside paper 002's family") != std::string::npos);
  CHECK(u.price->overhead_note.find("latent attention") != std::string::npos);
}

TEST_CASE("C* is found inside the fitted range, where the line has no targets 6 decades below C") {
  // Below about 1e15 FLOPs paper 002's M/N_a law has no solution; C* at 1e18..3e20 must not
  // need one there.
  const LawSet& laws = builtin_laws();
  const Planner planner(laws.holistic, SuggestOptions{});
  const OptimalLine line(laws, planner);
  CHECK_FALSE(line.optimal_loss(Flops(1e13)).has_value());
  for (const double C : {1e18, 1e19, 1e20, 3e20}) {
    CAPTURE(C);
    const auto L = line.optimal_loss(Flops(C));
    REQUIRE(L.has_value());
    const auto back = line.equal_loss_compute(*L, Flops(C * 2.5));
    REQUIRE(back.has_value());
    // At the last Table 4 row the targets step from the law's M/N_a to the anchored
    // shape's, which starts at the row plan's own (1.3 % off the law's at 3e20; docs/design.md
    // "Past the last Table 4 row"): the line's loss steps up by what 1 % of compute buys, so
    // L_opt(3e20) is met again at ~1.01 x 3e20.
    CHECK(back->value() == doctest::Approx(C).epsilon(C < 3e20 ? 1e-6 : 0.02));
  }
}
