// Parameter recovery (issue 4): runs generated from each law's published coefficients over
// the papers' own experimental ranges, fitted back. Without noise the coefficients return
// to 1e-4 relative; with 0.5 % multiplicative noise within the tolerances stated per case
// (docs/fit.md lists them and why some coefficients are not identifiable).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>

#include "moeplan/laws/efficiency_leverage.hpp"
#include "moeplan/fit/fit_laws.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/fit/runs_csv.hpp"

using namespace moeplan;
using fit::LawKind;

namespace {

double normal(std::mt19937_64& rng) {
  const double u1 = (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
  const double u2 = (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

// Builds a CSV from rows of named values, the target multiplied by (1 + noise·z).
struct Synth {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::string csv(double noise, std::uint64_t seed = 7) const {
    std::mt19937_64 rng(seed);
    std::string s = fmt::format("{}\n", fmt::join(columns, ","));
    for (const auto& r : rows) {
      for (std::size_t j = 0; j < r.size(); ++j) {
        const double v = j + 1 == r.size() ? r[j] * (1 + noise * normal(rng)) : r[j];
        s += fmt::format("{}{:.17g}", j ? "," : "", v);
      }
      s += "\n";
    }
    return s;
  }
};

fit::FitOutcome fit_text(const std::string& text, LawKind law, fit::FitSettings s = {}) {
  auto table = parse_runs_csv(text, "synthetic.csv", [&](const std::vector<std::string>&) {
    return std::expected<std::vector<ColumnSpec>, std::string>(fit::columns_for(law, s));
  });
  REQUIRE_MESSAGE(table.has_value(), table.error().to_string());
  auto out = fit::fit_runs(*table, law, s);
  REQUIRE_MESSAGE(out.has_value(), out.error());
  return *out;
}

double value(const std::vector<fit::Estimate>& est, const std::string& name) {
  for (const auto& e : est) {
    if (e.name == name) return e.value;
  }
  FAIL("no estimate named " << name);
  return 0;
}

void check_all(const fit::FitOutcome& o, const std::map<std::string, double>& truth, double rel) {
  for (const auto& [name, v] : truth) {
    INFO(name << " fitted " << value(o.coefficients, name) << " true " << v);
    CHECK(std::abs(value(o.coefficients, name) - v) <= rel * std::abs(v));
  }
}

// Paper 001 Appendix L Table 6: the 446 (N_a, N, D, G, S) configurations of its experiments.
Synth joint_grid(const std::function<double(double, double, double, double, double)>& loss,
                 std::vector<std::string> columns) {
  auto grid = read_runs_csv(MOEPLAN_TEST_DATA_DIR "/joint_moe_experiments.csv",
                            [](const std::vector<std::string>&) {
                              return std::expected<std::vector<ColumnSpec>, std::string>(
                                  std::vector<ColumnSpec>{
                                      {"N_a", ColumnKind::positive, true, "activated"},
                                      {"N", ColumnKind::positive, true, "total"},
                                      {"D", ColumnKind::positive, true, "tokens"},
                                      {"G", ColumnKind::positive, true, "activated experts"},
                                      {"S", ColumnKind::unit_closed, true, "shared share"}});
                            });
  REQUIRE(grid.has_value());
  REQUIRE(grid->rows == 446);
  Synth s{std::move(columns), {}};
  for (std::size_t i = 0; i < grid->rows; ++i) {
    const double N = grid->col("N")[i], Na = grid->col("N_a")[i], D = grid->col("D")[i];
    const double G = grid->col("G")[i], S = grid->col("S")[i];
    std::vector<double> row{N, Na, D};
    if (s.columns.size() == 6) row.insert(row.end(), {G, S});
    row.push_back(loss(N, Na, D, G, S));
    s.rows.push_back(row);
  }
  return s;
}

}  // namespace

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

TEST_CASE("holdout and bootstrap: counts, intervals around the estimate, seeded") {
  const JointLossLaw j = builtin_laws().joint;
  Synth s{{"N", "D", "loss"}, {}};
  for (double N : {1e8, 3e8, 1e9, 3e9, 1e10}) {
    for (double D : {1e10, 3e10, 1e11, 3e11}) {
      s.rows.push_back({N, D, j.epsilon + j.a * std::pow(N, -j.alpha) + j.b * std::pow(D, -j.beta)});
    }
  }
  fit::FitSettings st;
  st.max_starts = 40;
  st.holdout_fraction = 0.25;
  st.bootstrap = 30;
  st.seed = 11;
  const auto o = fit_text(s.csv(0.005), LawKind::chinchilla, st);
  CHECK(o.validation_rows == 5);
  CHECK(o.train_rows == 15);
  REQUIRE(o.validation.has_value());
  CHECK(o.validation->rows == 5);
  CHECK(o.bootstrap_done + o.bootstrap_failed == 30);
  for (const fit::Estimate& e : o.coefficients) {
    REQUIRE(e.low.has_value());
    CHECK(*e.low <= *e.high);
  }
  const auto again = fit_text(s.csv(0.005), LawKind::chinchilla, st);
  for (std::size_t k = 0; k < o.coefficients.size(); ++k) {
    CHECK(o.coefficients[k].value == again.coefficients[k].value);
    CHECK(*o.coefficients[k].low == *again.coefficients[k].low);
  }
}

TEST_CASE("degenerate data gets a message, not a fit") {
  fit::FitSettings st;
  auto fail_of = [&](const std::string& text, LawKind law) {
    auto table = parse_runs_csv(text, "d.csv", [&](const std::vector<std::string>&) {
      return std::expected<std::vector<ColumnSpec>, std::string>(fit::columns_for(law, st));
    });
    REQUIRE(table.has_value());
    auto out = fit::fit_runs(*table, law, st);
    REQUIRE_FALSE(out.has_value());
    return out.error();
  };
  CHECK(fail_of("N,D,loss\n1e8,1e10,3\n", LawKind::chinchilla) ==
        "law 'chinchilla' has 5 coefficients; 1 training row(s) cannot determine them (need at least 6)");
  CHECK(fail_of("N,D,loss\n1e8,1e10,3\n1e8,2e10,2.9\n1e8,3e10,2.8\n1e8,4e10,2.7\n1e8,5e10,2.6\n1e8,6e10,2.5\n",
                LawKind::chinchilla)
            .find("column 'N' (total non-embedding parameters) has the single value") == 0);
  CHECK(fail_of("N,D,loss\n1e8,1e10,3\n2e8,2e10,3\n3e8,3e10,3\n4e8,4e10,3\n5e8,5e10,3\n6e8,6e10,3\n",
                LawKind::chinchilla) == "column 'loss' is constant (3) in every row: there is nothing to fit");
  // Collinear inputs: D = 20 N in every run (Chinchilla's own rule of thumb).
  const std::string lockstep = fail_of(
      "N,D,loss\n1e8,2e9,3.1\n2e8,4e9,2.9\n4e8,8e9,2.7\n8e8,1.6e10,2.55\n1.6e9,3.2e10,2.4\n3.2e9,6.4e10,2.3\n",
      LawKind::chinchilla);
  CHECK(lockstep.find("columns 'N' and 'D' are collinear in log space") == 0);
  CHECK(lockstep.find("vary them independently") != std::string::npos);
}
