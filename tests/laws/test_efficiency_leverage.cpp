// Paper 000 (Efficiency Leverage): the published statements the EL law must reproduce.
#include <doctest/doctest.h>

#include <cmath>

#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;

namespace {
const EfficiencyLeverageLaw& law() { return builtin_laws().leverage; }

// The G in [1, 64] with the largest EL, by scanning (not by the closed form).
double argmax_granularity(double A, double C) {
  double best_g = 1, best = 0;
  for (double g = 1; g <= 64; g += 0.01) {
    const double el = law().at(A, g, Flops(C));
    if (el > best) {
      best = el;
      best_g = g;
    }
  }
  return best_g;
}
}  // namespace

TEST_CASE("Table 6 coefficients are the preset's") {
  CHECK(law().a == 1.23);
  CHECK(law().d == -7.61e-2);
  CHECK(law().gamma == 1.67e-2);
  CHECK(law().beta == -1.17e-1);
  CHECK(law().a_start == 1.63e-2);
  CHECK(law().a_max == 5.28e16);
}

TEST_CASE("EL exceeds 7 at 1e22 FLOPs for A = 3.1 %, G = 12 (Sec. 4.2.3, Fig. 1)") {
  CHECK(law().at(0.031, 12, Flops(1e22)) > 7.0);
  CHECK(law().at(1.0 / 32.0, 12, Flops(1e22)) > 7.0);  // 8 of 256, the ratio of Fig. 4b
}

TEST_CASE("MoE-mini: EL is 7 to within the rounding of Table 6 (Sec. 5)") {
  // A = (12 + 1)/(384 + 1), G = 2·2048/384. The paper hypothesises "more than 7x" by
  // reading Fig. 1 at (3.1 %, 12). With Table 6 as printed (3 significant digits) the law
  // gives 6.98 here; a = 1.23 alone is uncertain by ±0.005, which moves EL by ±1.5 %.
  const double el = law().at(13.0 / 385.0, 2.0 * 2048 / 384, Flops(1e22));
  CHECK(el == doctest::Approx(7.0).epsilon(0.01));
  EfficiencyLeverageLaw rounded_up = law();
  rounded_up.a = 1.225;  // still prints as 1.23
  CHECK(rounded_up.at(13.0 / 385.0, 2.0 * 2048 / 384, Flops(1e22)) > 7.0);
}

TEST_CASE("the EL-maximising granularity lies in [8, 12] and does not move with C") {
  for (double C : {1e19, 1e22, 1e24}) {
    CAPTURE(C);
    const double g = argmax_granularity(0.031, C);
    CHECK(g >= 8.0);
    CHECK(g <= 12.0);
    CHECK(g == doctest::Approx(law().optimal_granularity()).epsilon(0.002));
  }
}

TEST_CASE("EL grows with C at fixed A and G (Sec. 4.2.1, Fig. 4c)") {
  for (double A : {0.008, 0.031, 0.1, 0.5}) {
    double previous = 0;
    for (double C = 1e18; C <= 1e25; C *= 10) {
      const double el = law().at(A, 12, Flops(C));
      CHECK(el > previous);
      previous = el;
    }
  }
}

TEST_CASE("a dense model (A = 1) has EL close to 1 (Sec. 4.2.1)") {
  for (double C : {1e18, 1e22, 1e25}) {
    for (double g : {1.0, 2.0, 12.0}) {
      CHECK(law().at(1.0, g, Flops(C)) == doctest::Approx(1.0).epsilon(0.02));
    }
  }
}

TEST_CASE("EL from two loss curves (Sec. 3, Algorithm 1)") {
  // Dense L = 10·C^-0.1 + 1.5, MoE L = 8·C^-0.1 + 1.5: equal loss when
  // 10·C_d^-0.1 = 8·C_m^-0.1, so EL = C_d/C_m = (10/8)^10 at every C.
  const LossCurve dense{10, 0.1, 1.5};
  const LossCurve moe{8, 0.1, 1.5};
  auto el = efficiency_leverage_from_curves(dense, moe, Flops(1e21));
  REQUIRE(el.has_value());
  CHECK(*el == doctest::Approx(std::pow(10.0 / 8.0, 10.0)).epsilon(1e-9));
  // A MoE whose loss falls below the dense floor: undefined (Algorithm 1 lines 7–8).
  const LossCurve better_floor{8, 0.1, 1.0};
  CHECK_FALSE(efficiency_leverage_from_curves(dense, better_floor, Flops(1e30)).has_value());
  CHECK_FALSE(dense.compute_for(1.5).has_value());
}

TEST_CASE("Eq. 5 and Table 5 training laws") {
  const LeverageTrainingLaws& t = builtin_laws().leverage_training;
  CHECK(t.learning_rate(1e20) == doctest::Approx(1.1576 * std::pow(1e20, -0.1529)));
  CHECK(t.batch_tokens(1e20) == doctest::Approx(0.0694 * std::pow(1e20, 0.3644)));
  // Table 5's insight: at any budget the optimal MoE is smaller in M and uses more data.
  for (double C = 1e18; C <= 1e24; C *= 10) {
    CHECK(t.moe_flops_per_token(C) < t.dense_flops_per_token(C));
    CHECK(t.moe_tokens(C) > t.dense_tokens(C));
    // and each pair splits C: M·D ≈ C (the exponents sum to 1).
    CHECK(t.moe_flops_per_token(C) * t.moe_tokens(C) == doctest::Approx(C).epsilon(0.01));
  }
}

TEST_CASE("Appendix F.4 attention-share guidance is the preset's 30-40 % and 20-50 %") {
  const AttentionShareGuide& g = builtin_laws().attention_share;
  CHECK(g.optimal.lo == 0.30);
  CHECK(g.optimal.hi == 0.40);
  CHECK(g.flat.lo == 0.20);
  CHECK(g.flat.hi == 0.50);
}
