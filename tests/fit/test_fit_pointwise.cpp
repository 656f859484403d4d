// src/fit/fit_pointwise.cpp: the pointwise laws (Chinchilla, paper 001's joint and activation
// laws, paper 000's EL, paper 004's r*) recovered from runs generated from their published
// coefficients over the papers' own ranges (issue 4; moved from test_fit_recovery.cpp).
// Without noise the coefficients return to 1e-4 relative; with 0.5 % multiplicative noise
// within the tolerances stated per case (docs/fit.md lists them and why some coefficients are
// not identifiable).
#include <doctest/doctest.h>

#include <cmath>

#include "fit/fit_synth.hpp"
#include "moeplan/laws/efficiency_leverage.hpp"
#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;
using namespace moeplan::fit_test;

TEST_CASE("chinchilla: Hoffmann et al.'s E, A, B, α, β come back") {
  // Hoffmann et al. (2022) Eq. 10: E = 1.69, A = 406.4, B = 410.7, α = 0.34, β = 0.28,
  // over N 1e8..1e10 and D 1e10..5e11 (their sweep's span).
  const std::map<std::string, double> truth{{"E", 1.69}, {"A", 406.4}, {"B", 410.7}, {"alpha", 0.34}, {"beta", 0.28}};
  Synth s{{"N", "D", "loss"}, {}};
  for (double N : {1e8, 2e8, 5e8, 1e9, 2e9, 5e9, 1e10}) {
    for (double D : {1e10, 2e10, 5e10, 1e11, 2e11, 5e11}) {
      s.rows.push_back({N, D, 1.69 + 406.4 * std::pow(N, -0.34) + 410.7 * std::pow(D, -0.28)});
    }
  }
  fit::FitSettings st;
  st.max_starts = 100;
  const auto exact = fit_text(s.csv(0), LawKind::chinchilla, st);
  check_all(exact, truth, 1e-4);
  CHECK(exact.train.r2 > 0.999999);
  // Derived: N_opt ∝ C^(β/(α+β)) = C^0.4516.
  CHECK(value(exact.derived, "n_opt_exponent") == doctest::Approx(0.28 / 0.62).epsilon(1e-4));

  const auto noisy = fit_text(s.csv(0.005), LawKind::chinchilla, st);
  CHECK(value(noisy.coefficients, "alpha") == doctest::Approx(0.34).epsilon(0.15));
  CHECK(value(noisy.coefficients, "beta") == doctest::Approx(0.28).epsilon(0.15));
  CHECK(value(noisy.coefficients, "E") == doctest::Approx(1.69).epsilon(0.05));
  CHECK(value(noisy.derived, "n_opt_exponent") == doctest::Approx(0.28 / 0.62).epsilon(0.1));
}

TEST_CASE("joint law (paper 001 Eq. 11): Table 2 comes back on Table 6's grid" * doctest::test_suite("slow")) {
  const JointLossLaw j = builtin_laws().joint;
  const std::map<std::string, double> truth{
      {"e", j.e}, {"f", j.f}, {"m", j.m}, {"n", j.n}, {"k", j.k}, {"h", j.h},
      {"a", j.a}, {"alpha", j.alpha}, {"b", j.b}, {"beta", j.beta}, {"c", j.c}, {"epsilon", j.epsilon}};
  const Synth s = joint_grid(
      [&](double N, double Na, double D, double G, double S) {
        return j.loss(Params(N), Tokens(D), Params(Na), G, S);
      },
      {"N", "N_a", "D", "G", "S", "loss"});
  const auto exact = fit_text(s.csv(0), LawKind::joint);
  check_all(exact, truth, 1e-4);
  CHECK(exact.solution.polished);  // every residual inside δ: finished as least squares
  CHECK(value(exact.derived, "G_opt") == doctest::Approx(std::sqrt(j.f / j.e)).epsilon(1e-4));
  CHECK(value(exact.derived, "S_opt") == doctest::Approx(-j.n / (2 * j.m)).epsilon(1e-4));
  for (const std::string& w : exact.warnings) CHECK(w.find("outside the data's") == std::string::npos);

  // A law whose shared-expert optimum lies outside the data but inside its domain (S_opt =
  // 0.9, S in [0, 0.7]): the fit finds it, and says it extrapolates there.
  const auto fit_with_n = [&](double n) {
    JointLossLaw shifted_law = j;
    shifted_law.n = n;
    const Synth shifted = joint_grid(
        [&](double N, double Na, double D, double G, double S) {
          return shifted_law.loss(Params(N), Tokens(D), Params(Na), G, S);
        },
        {"N", "N_a", "D", "G", "S", "loss"});
    return fit_text(shifted.csv(0), LawKind::joint);
  };
  const auto outside = fit_with_n(-2 * 0.9 * j.m);
  CHECK(value(outside.derived, "S_opt") == doctest::Approx(0.9).epsilon(0.05));  // S terms are loose (above)
  bool warned = false;
  for (const std::string& w : outside.warnings) {
    warned = warned || (w.find("S_opt") == 0 && w.find("outside the data's S range") != std::string::npos);
  }
  CHECK(warned);

  // S_opt = 2 is no share of the activated experts (issue 22: fit printed S_opt = 1.45e10):
  // no number, a reason; and (N_a/N)_opt, taken at S_opt, is undefined with it.
  const auto beyond = fit_with_n(-2 * 2.0 * j.m);
  const auto estimate = [](const fit::FitOutcome& o, const std::string& name) {
    for (const auto& e : o.derived) {
      if (e.name == name) return e;
    }
    FAIL("no estimate named " << name);
    return fit::Estimate{};
  };
  const fit::Estimate s_opt = estimate(beyond, "S_opt");
  CHECK(std::isnan(s_opt.value));
  CHECK(s_opt.undefined_reason.find("outside 0 <= S <= 1") != std::string::npos);
  const fit::Estimate ratio_opt = estimate(beyond, "optimal_active_ratio");
  CHECK(std::isnan(ratio_opt.value));
  CHECK(!ratio_opt.undefined_reason.empty());
  CHECK(std::isfinite(estimate(beyond, "G_opt").value));  // G is still well defined

  // 0.5 % noise: the size/data part and G_opt are well determined; the S terms (m, n)
  // and k are not (S only spans 0..0.7 in groups, k·N_a^−α is tiny), so S_opt is loose.
  const auto noisy = fit_text(s.csv(0.005), LawKind::joint);
  CHECK(value(noisy.coefficients, "alpha") == doctest::Approx(j.alpha).epsilon(0.1));
  CHECK(value(noisy.coefficients, "epsilon") == doctest::Approx(j.epsilon).epsilon(0.05));
  CHECK(value(noisy.derived, "G_opt") == doctest::Approx(std::sqrt(j.f / j.e)).epsilon(0.1));
  CHECK(std::abs(value(noisy.derived, "S_opt") - (-j.n / (2 * j.m))) < 0.2);
  CHECK(noisy.train.r2 > 0.99);
}

TEST_CASE("activation law (paper 001 Eq. 7) comes back with its N_a/N optimum" * doctest::test_suite("slow")) {
  // Eq. 7 has no published coefficients of its own; use Table 2's a, α, b, β, c, ε and
  // h = 0.045 (Table 2's h) on Table 6's (N, N_a, D).
  const JointLossLaw j = builtin_laws().joint;
  const double h = 0.045;
  const Synth s = joint_grid(
      [&](double N, double Na, double D, double, double) {
        return j.a * std::pow(N, -j.alpha) + j.b * std::pow(D, -j.beta) + j.c * std::pow(Na, -j.alpha) +
               h * Na / N + j.epsilon;
      },
      {"N", "N_a", "D", "loss"});
  // The 60 best of the 972 grid points by initial objective: the full grid takes ~20 min
  // under Debug ASan+UBSan; the CLI test on paper 003's tables runs the full grid.
  fit::FitSettings st;
  st.max_starts = 60;
  const auto exact = fit_text(s.csv(0), LawKind::activation, st);
  check_all(exact, {{"a", j.a}, {"alpha", j.alpha}, {"b", j.b}, {"beta", j.beta}, {"c", j.c}, {"h", h}, {"epsilon", j.epsilon}},
            1e-4);
  const double N = 9.008e9;  // largest N of Table 6
  const double ratio = std::pow(j.alpha * j.c * N / h, 1 / (1 + j.alpha)) / N;
  CHECK(value(exact.derived, "optimal_active_ratio") == doctest::Approx(ratio).epsilon(1e-4));
  const auto noisy = fit_text(s.csv(0.005), LawKind::activation, st);
  CHECK(value(noisy.coefficients, "alpha") == doctest::Approx(j.alpha).epsilon(0.1));
  CHECK(value(noisy.coefficients, "h") == doctest::Approx(h).epsilon(0.5));
}

TEST_CASE("EL law (paper 000 Eq. 4): Table 6 comes back over A and G grids" * doctest::test_suite("slow")) {
  const EfficiencyLeverageLaw el = builtin_laws().leverage;
  // Paper 000 App. B: A from 0.8 % to 50 %, G from 2 to 24 (Fig. 3), C 1e18..3e20.
  Synth s{{"A", "granularity", "C", "EL"}, {}};
  for (double A : {0.008, 0.016, 0.031, 0.0625, 0.125, 0.25, 0.5}) {
    for (double G : {2.0, 4.0, 8.0, 12.0, 16.0, 24.0}) {
      for (double C : {1e18, 3e18, 1e19, 3e19, 1e20, 3e20}) {
        s.rows.push_back({A, G, C, el.at(A, G, Flops(C))});
      }
    }
  }
  const auto exact = fit_text(s.csv(0), LawKind::leverage);
  // a_max = 5.28e16 enters only as 1/a_max ≈ 2e-17 next to numbers of order 1: no finite
  // data set can recover it, so it is not asserted (docs/fit.md).
  check_all(exact, {{"a", el.a}, {"d", el.d}, {"gamma", el.gamma}, {"beta", el.beta}, {"a_start", el.a_start}}, 1e-4);
  CHECK(value(exact.derived, "optimal_granularity") == doctest::Approx(el.optimal_granularity()).epsilon(1e-4));
  const auto noisy = fit_text(s.csv(0.005), LawKind::leverage);
  CHECK(value(noisy.derived, "optimal_granularity") == doctest::Approx(el.optimal_granularity()).epsilon(0.05));
  CHECK(value(noisy.coefficients, "d") == doctest::Approx(el.d).epsilon(0.1));
}

TEST_CASE("r*(C, S) (paper 004 Sec. 3.3) comes back over its four sparsities") {
  const OptimalRatioLaw r = builtin_laws().optimal_ratio;
  Synth s{{"C", "sparsity", "r"}, {}};
  for (double S : {0.8235, 0.9091, 0.9538, 0.9767}) {
    for (double C : {1e18, 3.16e18, 1e19, 3.16e19, 1e20, 3.16e20, 1e21}) {
      s.rows.push_back({C, S, r.optimal_ratio(Flops(C), S)});
    }
  }
  const auto exact = fit_text(s.csv(0), LawKind::optimal_ratio);
  check_all(exact,
            {{"alpha_coefficient", r.alpha_of_active_fraction.coefficient},
             {"alpha_exponent", r.alpha_of_active_fraction.exponent},
             {"beta_coefficient", r.beta_of_active_fraction.coefficient},
             {"beta_exponent", r.beta_of_active_fraction.exponent}},
            1e-4);
  const auto noisy = fit_text(s.csv(0.005), LawKind::optimal_ratio);
  CHECK(value(noisy.coefficients, "beta_coefficient") ==
        doctest::Approx(r.beta_of_active_fraction.coefficient).epsilon(0.05));
  CHECK(value(noisy.derived, "r_star") == doctest::Approx(r.optimal_ratio(Flops(1e21), 0.9538)).epsilon(0.05));
}
