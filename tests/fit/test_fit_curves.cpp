// src/fit/fit_curves.cpp: per-group curves (paper 000 Algorithm 1's loss curves and EL points;
// paper 002's M/N_a and hidden-size optima, bands and power laws) recovered from generated
// runs (issue 4; moved from test_fit_recovery.cpp).
#include <doctest/doctest.h>

#include <cmath>

#include "fit/fit_synth.hpp"
#include "moeplan/laws/efficiency_leverage.hpp"
#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;
using namespace moeplan::fit_test;

TEST_CASE("loss curves and EL points (paper 000 Algorithm 1)") {
  const LossCurve dense{2.0e3, 0.17, 1.6};
  const LossCurve moe{1.2e3, 0.16, 1.55};
  Synth s{{"family", "C", "loss"}, {}};
  std::string text = "family,A,granularity,C,loss\n";
  for (double C : {1e18, 3e18, 1e19, 3e19, 1e20, 3e20}) {
    text += fmt::format("dense,1,1,{:.17g},{:.17g}\n", C, dense.at(Flops(C)));
    text += fmt::format("moe-a3,0.031,12,{:.17g},{:.17g}\n", C, moe.at(Flops(C)));
  }
  const auto o = fit_text(text, LawKind::loss_curves);
  REQUIRE(o.curves.size() == 2);
  CHECK(value(o.curves[0].coefficients, "alpha") == doctest::Approx(0.17).epsilon(1e-4));
  CHECK(value(o.curves[1].coefficients, "E") == doctest::Approx(1.55).epsilon(1e-4));
  const double el = *efficiency_leverage_from_curves(dense, moe, Flops(3e20));
  CHECK(value(o.derived, "el_moe-a3") == doctest::Approx(el).epsilon(1e-4));
  CHECK(o.el_points_csv.find("moe-a3,0.031,12,") != std::string::npos);
}

TEST_CASE("m-over-na and hidden-size (paper 002 Sec. 5.3, 6): optima, bands, power laws") {
  const MOverNaLaw preset = builtin_laws().holistic.m_over_na;
  std::string text = "C,m_over_na,loss\n";
  const double b = 0.01;
  for (double C : {1e18, 3e18, 1e19, 3e19, 1e20, 3e20}) {
    const double x_opt = *preset.at(C);
    const double a = b * (x_opt - 6) * (x_opt - 6);  // minimum of a/(x−6) + bx at x_opt
    for (double f : {0.8, 0.9, 1.0, 1.15, 1.3}) {
      const double x = 6 + (x_opt - 6) * f;
      text += fmt::format("{:.17g},{:.17g},{:.17g}\n", C, x, a / (x - 6) + b * x + 2.0);
    }
  }
  const auto m = fit_text(text, LawKind::m_over_na);
  CHECK(value(m.coefficients, "coefficient") == doctest::Approx(preset.score_share.coefficient).epsilon(1e-6));
  CHECK(value(m.coefficients, "exponent") == doctest::Approx(preset.score_share.exponent).epsilon(1e-6));
  REQUIRE(m.curves.size() == 6);
  const double lo = value(m.curves[0].derived, "band_low"), hi = value(m.curves[0].derived, "band_high");
  const double x0 = value(m.curves[0].derived, "m_over_na_opt");
  CHECK(lo < x0);
  CHECK(x0 < hi);
  const double a0 = b * (x0 - 6) * (x0 - 6);
  const double l_opt = a0 / (x0 - 6) + b * x0 + 2.0;
  CHECK(a0 / (lo - 6) + b * lo + 2.0 == doctest::Approx(l_opt * 1.001).epsilon(1e-9));
  CHECK(m.planner_toml.find("[m_over_na]") != std::string::npos);

  std::string dtext = "C,d,loss\n";
  for (double C : {1e18, 1e19, 1e20, 1e21}) {
    const double d_opt = 100 * std::pow(C, 0.2);
    for (double f : {0.6, 0.8, 1.0, 1.25, 1.5}) {
      const double d = d_opt * f;
      dtext += fmt::format("{:.17g},{:.17g},{:.17g}\n", C, d, 1e-9 * (d - d_opt) * (d - d_opt) + 3.0);
    }
  }
  const auto d = fit_text(dtext, LawKind::hidden_size);
  CHECK(value(d.coefficients, "coefficient") == doctest::Approx(100).epsilon(1e-6));
  CHECK(value(d.coefficients, "exponent") == doctest::Approx(0.2).epsilon(1e-6));
}
