// Paper 003: the run tables (tests/data/moe_vs_dense_runs.csv, Appendix D Tables 8-16).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "moeplan/laws/activation_rate.hpp"
#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;

namespace {
struct Run {
  int table;
  bool moe;
  double N, N_a, r_a, M, D, C, epochs, unique, L, D_m, S, BPC;
};

std::vector<Run> runs() {
  std::ifstream in(std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv");
  REQUIRE(in);
  std::vector<Run> out;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::vector<std::string> c;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
    REQUIRE(c.size() >= 20);
    const auto num = [&](int i) { return std::stod(c[static_cast<std::size_t>(i)]); };
    out.push_back({std::stoi(c[0]), c[1] == "moe", num(2), num(3), num(4), num(5), num(6), num(7),
                   num(8), num(9), num(10), num(11), num(12), num(19)});
  }
  return out;
}

const Run& dense_2b(const std::vector<Run>& all, double C) {
  for (const Run& r : all) {
    if (r.table == 12 && r.N == 2.15e9 && std::abs(r.C / C - 1) < 0.01) return r;
  }
  FAIL("no dense 2.15B run at C = " << C);
  throw;
}
}  // namespace

TEST_CASE("M of every MoE run of Tables 8-11 recomputes from 3·(2N_a + 4·D_m·S·L)") {
  for (const Run& r : runs()) {
    if (!r.moe || r.table > 11) continue;
    CAPTURE(r.table);
    CAPTURE(r.N_a);
    const double M = moe_vs_dense_flops(Params(r.N_a), r.D_m, r.S, r.L).value();
    // Printed to 3 significant digits; Table 9's first row prints 1.70e9 where Table 8
    // prints 1.68e9 for the same model (and 1.682e9 recomputes), hence 1.5 %.
    CHECK(M == doctest::Approx(r.M).epsilon(0.015));
  }
}

TEST_CASE("R_c and the extra-data factor for Tables 8-9 (e.g. 4.6x more data at r_a = 20 %)") {
  const auto all = runs();
  const Run& dense = dense_2b(all, 9.36e20);  // the C_1 = C_0 dense baseline of Sec. 5.2
  for (const Run& r : all) {
    if (r.table != 8 && r.table != 9) continue;
    CAPTURE(r.r_a);
    const auto cmp = compare_at_equal_compute(
        moe_vs_dense_flops(Params(r.N_a), r.D_m, r.S, r.L), FlopsPerToken(dense.M));
    // R_c is about r_a times a shape factor close to 1 (Eq. 10).
    CHECK(cmp.compute_ratio == doctest::Approx(r.M / dense.M).epsilon(0.015));
    CHECK(cmp.extra_tokens_factor == doctest::Approx(1 / cmp.compute_ratio));
    if (r.table == 9) {
      // Table 9 runs sit at the dense model's C, so D_MoE/D_dense is the extra-data factor.
      CHECK(cmp.extra_tokens_factor * dense.D * (r.C / dense.C) == doctest::Approx(r.D).epsilon(0.02));
    }
    if (r.table == 9 && std::abs(r.r_a - 19.94) < 1e-9) {
      CHECK(fmt::format("{:.1f}", cmp.extra_tokens_factor) == "4.6");  // Sec. 5.2
    }
  }
}

TEST_CASE("Table 9: MoE beats the equal-C dense model exactly inside the 15-48 % region") {
  const auto all = runs();
  const ActivationRateGuide& g = builtin_laws().activation;
  const Run& dense = dense_2b(all, 9.36e20);
  int rows = 0;
  double best_bpc = 1, best_ra = 0;
  for (const Run& r : all) {
    if (r.table != 9) continue;
    ++rows;
    CAPTURE(r.r_a);
    const bool beats = r.BPC < dense.BPC;
    CHECK(beats == (activation_verdict(g, r.r_a / 100) == ActivationVerdict::in_region));
    if (r.BPC < best_bpc) {
      best_bpc = r.BPC;
      best_ra = r.r_a / 100;
    }
  }
  CHECK(rows == 12);
  CHECK(best_ra == doctest::Approx(g.optimum).epsilon(0.01));  // the green row, r_a = 19.94 %
}

TEST_CASE("epochs of the strict data-reuse runs (Tables 13-15)") {
  for (const Run& r : runs()) {
    if (r.table < 13 || r.table > 15) continue;
    CAPTURE(r.table);
    CHECK(epochs_needed(Tokens(r.D), Tokens(r.unique)) == doctest::Approx(r.epochs).epsilon(0.005));
  }
}

TEST_CASE("Eq. 10 as printed is close to, but not, the ratio of the two M's") {
  // Table 9 green row against the 2.15B dense model: α = 8848/2176, β = (D_se + K·D_e)/D_m.
  const double alpha = 8848.0 / 2176, beta = (2240.0 + 7 * 320) / 1408;
  const double printed = compute_ratio_eq10_as_printed(0.1994, alpha, beta, 2048.0 / 2176, 2048.0 / 1408);
  CHECK(1 / printed == doctest::Approx(4.6).epsilon(0.02));
  CHECK(1 / printed != doctest::Approx(1.44e10 / 3.13e9).epsilon(0.002));
}
