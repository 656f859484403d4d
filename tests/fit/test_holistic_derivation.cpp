// The M/N_a law, the N/N_a schedule and the head schedule: derived from paper 002's own
// tables, as recorded in presets/laws/holistic.toml.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "moeplan/planner/head_schedule.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/fit/power_law_fit.hpp"
#include "paper_tables.hpp"

using namespace moeplan;

namespace {
std::vector<std::pair<double, double>> sec6_optima() {
  std::vector<std::pair<double, double>> out;
  for (int table = 16; table <= 21; ++table) {
    const auto o = paper002::sec6_optimum(table);
    out.emplace_back(o.C, o.m_over_na);
  }
  return out;
}
}  // namespace

TEST_CASE("the preset's M/N_a law is the fit to the Sec. 6 tables") {
  const auto optima = sec6_optima();
  std::vector<double> C, x;
  for (auto [c, v] : optima) {
    C.push_back(c);
    x.push_back(v);
  }
  const auto fitted = derive_m_over_na_law(C, x);
  REQUIRE(fitted.has_value());
  const MOverNaLaw derived = *fitted;
  const MOverNaLaw& preset = builtin_holistic_laws().m_over_na;
  CHECK(preset.score_share.coefficient == doctest::Approx(derived.score_share.coefficient).epsilon(1e-5));
  CHECK(preset.score_share.exponent == doctest::Approx(derived.score_share.exponent).epsilon(1e-5));
  // The law tracks the six optima within 3 % (it is a 2-parameter fit to 6 points).
  for (auto [c, v] : optima) {
    CAPTURE(c);
    CHECK(*preset.at(c) == doctest::Approx(v).epsilon(0.03));
  }
}

TEST_CASE("the M/N_a law stays above 6 from 1e15 to 1e27 and falls with C") {
  const MOverNaLaw& law = builtin_holistic_laws().m_over_na;
  double previous = INFINITY;
  for (double e = 15.0; e <= 27.0 + 1e-9; e += 0.1) {
    const auto x = law.at(std::pow(10.0, e));
    REQUIRE(x.has_value());
    CHECK(*x > 6.0);
    CHECK(*x < previous);
    previous = *x;
  }
}

TEST_CASE("a plain power law through the same optima would cross 6 (why the form was chosen)") {
  std::vector<double> C, x;
  for (auto [c, v] : sec6_optima()) {
    C.push_back(c);
    x.push_back(v);
  }
  const PowerLaw plain = fit_power_law(C, x).value();
  const double crossing = std::pow(6.0 / plain.coefficient, 1.0 / plain.exponent);
  CHECK(crossing > 1e22);
  CHECK(crossing < 1e24);
  MESSAGE("plain power law M/N_a = " << plain.coefficient << " C^" << plain.exponent
                                     << " reaches 6 at C = " << crossing);
}

TEST_CASE("N/N_a follows Appendix F.4's choices and holds them outside") {
  const LogSchedule& s = builtin_holistic_laws().n_over_na;
  CHECK(s.at(1e18) == 19.0);
  CHECK(s.at(3e18) == 20.0);
  CHECK(s.at(1e19) == 21.0);
  CHECK(s.at(3e19) == 21.0);
  CHECK(s.at(1e20) == 22.0);
  CHECK(s.at(3e20) == 22.0);
  CHECK(s.at(1e16) == 19.0);
  CHECK(s.at(1e24) == 22.0);
  CHECK(s.at(std::sqrt(1e18 * 3e18)) == doctest::Approx(19.5));
}

TEST_CASE("heads follow Table 4 at its six scales, its first row below it") {
  const HolisticLaws& laws = builtin_holistic_laws();
  for (double C : {1e18, 3e18, 1e19, 3e19, 1e20, 3e20}) {
    CAPTURE(C);
    CHECK(table4_heads(laws, C) == paper002::table4_heads(C));
  }
  CHECK(table4_heads(laws, 1e16) == paper002::table4_heads(1e18));
  CHECK(table4_heads(laws, 2e19) == paper002::table4_heads(3e19));  // nearer in log10
}

TEST_CASE("past Table 4, N_kv is the whole number nearest width / (2 d_qkv), GQA 2, clamped") {
  const HeadExtrapolation x = builtin_holistic_laws().head_extrapolation;
  CHECK(extrapolated_heads(x, 4096) == AttentionHeads{32, 16, 128});
  CHECK(extrapolated_heads(x, 4096 + 127) == AttentionHeads{32, 16, 128});  // 16.496 KV heads
  CHECK(extrapolated_heads(x, 4096 + 129) == AttentionHeads{34, 17, 128});  // 16.504
  CHECK(extrapolated_heads(x, 4096 * 1.42) == AttentionHeads{46, 23, 128});  // not a doubling
  CHECK(extrapolated_heads(x, 10) == AttentionHeads{x.min_n_q, x.min_n_q / 2, 128});
  CHECK(extrapolated_heads(x, 1e12).n_q == x.max_n_q);
}

TEST_CASE("Table 4 learning rate and batch size at every compute scale") {
  const moeplan::HolisticTrainingSchedule& t = moeplan::builtin_laws().holistic_training;
  const double C[] = {1e18, 3e18, 1e19, 3e19, 1e20, 3e20};
  const double lr[] = {1.20e-3, 1.00e-3, 8.28e-4, 6.95e-4, 5.74e-4, 4.82e-4};
  const double bs[] = {64, 80, 128, 160, 208, 288};
  for (int k = 0; k < 6; ++k) {
    CHECK(t.learning_rate.at(C[k]) == doctest::Approx(lr[k]).epsilon(1e-12));
    CHECK(t.batch_size.at(C[k]) == doctest::Approx(bs[k]).epsilon(1e-12));
  }
  CHECK(t.learning_rate.at(1e22) == doctest::Approx(4.82e-4));  // held past the last row
}

TEST_CASE("fit_power_law and derive_m_over_na_law return the reason instead of throwing") {
  const std::vector<double> one{1e20}, two_same{1e20, 1e20}, two{1e20, 1e21}, bad_y{1.0, -1.0};
  CHECK(fit_power_law(one, one).error().find("at least two") != std::string::npos);
  CHECK(fit_power_law(two_same, two).error().find("distinct") != std::string::npos);
  CHECK(fit_power_law(two, bad_y).error().find("y > 0") != std::string::npos);
  const std::vector<double> at_six{6.0, 7.0};
  CHECK(derive_m_over_na_law(two, at_six).error().find("exceed 6") != std::string::npos);
  const auto ok = fit_power_law(two, std::vector<double>{2.0, 4.0});
  REQUIRE(ok.has_value());
  CHECK(ok->exponent == doctest::Approx(std::log10(2.0)));  // doubling per decade
}
