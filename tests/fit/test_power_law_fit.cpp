// src/fit/power_law_fit.cpp: the log-log power-law fit and paper 002's M/N_a law derived from
// the Sec. 6 optima (moved from test_holistic_derivation.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "moeplan/fit/power_law_fit.hpp"
#include "moeplan/laws/laws_loader.hpp"
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
