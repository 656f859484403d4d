// Synthetic runs for the fit tests (issue 4): rows generated from a law's published
// coefficients, written as a CSV with multiplicative noise, fitted back. Shared by
// test_fit_pointwise.cpp, test_fit_curves.cpp and test_fit_laws.cpp.
#pragma once

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "moeplan/fit/fit_laws.hpp"
#include "moeplan/fit/runs_csv.hpp"

namespace moeplan::fit_test {

using fit::LawKind;

inline double normal(std::mt19937_64& rng) {
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

inline fit::FitOutcome fit_text(const std::string& text, LawKind law, fit::FitSettings s = {}) {
  auto table = parse_runs_csv(text, "synthetic.csv", [&](const std::vector<std::string>&) {
    return std::expected<std::vector<ColumnSpec>, std::string>(fit::columns_for(law, s));
  });
  REQUIRE_MESSAGE(table.has_value(), table.error().to_string());
  auto out = fit::fit_runs(*table, law, s);
  REQUIRE_MESSAGE(out.has_value(), out.error());
  return *out;
}

inline double value(const std::vector<fit::Estimate>& est, const std::string& name) {
  for (const auto& e : est) {
    if (e.name == name) return e.value;
  }
  FAIL("no estimate named " << name);
  return 0;
}

inline void check_all(const fit::FitOutcome& o, const std::map<std::string, double>& truth, double rel) {
  for (const auto& [name, v] : truth) {
    INFO(name << " fitted " << value(o.coefficients, name) << " true " << v);
    CHECK(std::abs(value(o.coefficients, name) - v) <= rel * std::abs(v));
  }
}

// Paper 001 Appendix L Table 6: the 446 (N_a, N, D, G, S) configurations of its experiments.
inline Synth joint_grid(const std::function<double(double, double, double, double, double)>& loss,
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


}  // namespace moeplan::fit_test
