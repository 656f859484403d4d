// src/fit/fit_laws.cpp: the fit driver's holdout and bootstrap, and its refusal of data that
// cannot determine a law (moved from test_fit_recovery.cpp).
#include <doctest/doctest.h>

#include <cmath>

#include "fit/fit_synth.hpp"
#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;
using namespace moeplan::fit_test;

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
