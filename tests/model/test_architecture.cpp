// Paper 002 Eq. 3–4 and Appendix A (Eq. 6–12) against the paper's own configurations.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "moeplan/model/architecture.hpp"
#include "paper_tables.hpp"

using namespace moeplan;

TEST_CASE("a worked example of Appendix A") {
  // Table 16, first row: C = 1e18, d = 288, L_d = 8, d_d = 864, L_m = 2, d_m = 1136, L = 10,
  // heads (N_q, N_kv, d_qkv) = (4, 2, 64). By hand:
  //   attention  2·288·64·(4+2)·10      =  2,211,840   (Eq. 6)
  //   dense      3·288·864·8            =  5,971,968   (Eq. 7)
  //   MoE active 3·288·1136·(8+1)·2     = 17,667,072   (Eq. 8 + 9)
  //   N_a = 25,850,880;  N = N_a + 3·288·1136·280·2 = 25,850,880 + 549,642,240 = 575,493,120
  //   M = 6·N_a + 6·8192·4·64·10 = 155,105,280 + 125,829,120 = 280,934,400
  const auto& row = paper002::config_rows().at(
      [] {
        const auto& rows = paper002::config_rows();
        for (std::size_t i = 0; i < rows.size(); ++i) {
          if (rows[i].table == 16 && rows[i].d == 288) return i;
        }
        return rows.size();
      }());
  const Accounting a = account(paper002::architecture_of(row));
  CHECK(a.N_a.value() == 25'850'880.0);
  CHECK(a.N.value() == 575'493'120.0);
  CHECK(a.M.value() == 280'934'400.0);
  CHECK(a.M_attention_scores.value() == 125'829'120.0);
}

namespace {
// How far each table's recomputed M strays from its scale's Table 2 target. The paper says
// it kept M within 5 % (Table 4 note); its Sec. 6 tables stay within 8.5 %, Sec. 4.3/5.3
// tables and Tables 9, 11, 14 within 15 %, and Tables 10, 12, 13 reach -16 %..+19 %
// (shared/reference/README.md: those rows probably used other heads than Table 4 lists).
double m_tolerance(int table) {
  if (table >= 16) return 0.085;
  if (table == 10 || table == 12 || table == 13) return 0.20;
  return 0.15;
}
}  // namespace

TEST_CASE("every configuration of Tables 5-21 recomputes consistently") {
  const auto& rows = paper002::config_rows();
  REQUIRE(rows.size() == 667);
  std::map<int, double> worst;
  for (const auto& row : rows) {
    CAPTURE(row.table);
    CAPTURE(row.d);
    CHECK(row.d_d == 3 * row.d);            // Sec. 4.2.2: d_d = 3d
    CHECK(row.L == row.L_d + row.L_m);      // Eq. 3: L = L_d + L_m
    const MoeArchitecture arch = paper002::architecture_of(row);
    const Accounting a = account(arch);
    const double err = a.M.value() / paper002::table2_M(row.C) - 1.0;
    worst[row.table] = std::max(worst[row.table], std::abs(err));
    CHECK(std::abs(err) <= m_tolerance(row.table));

    // Eq. 4 must agree with Eq. 3/10: N_a and N from M, d and the compute shares.
    const auto& h = arch.family.heads;
    const double M = a.M.value();
    const double Na_eq4 = M / 6.0 * (1.0 - a.r_a / (1.0 + 2.0 * row.d * (1.0 + double(h.n_kv) / h.n_q) / 8192.0));
    const double N_eq4 = Na_eq4 + M * a.r_m / 6.0 * (288.0 - 8.0) / (8.0 + 1.0);
    CHECK(Na_eq4 == doctest::Approx(a.N_a.value()).epsilon(1e-12));
    CHECK(N_eq4 == doctest::Approx(a.N.value()).epsilon(1e-12));
    CHECK(a.r_a + a.r_d + a.r_m == doctest::Approx(1.0).epsilon(1e-12));
    // Eq. 5 ranges.
    CHECK(a.m_over_na() > 6.0);
    CHECK(a.n_over_na() > 1.0);
    CHECK(a.n_over_na() < max_n_over_na(arch.family));
  }
  for (const auto& [table, w] : worst) {
    MESSAGE("Table " << table << ": max |M/M_target - 1| = " << w);
  }
}

TEST_CASE("N/N_a's upper bound is (N_e+1)/(K+1) = 289/9 for the paper's family") {
  const ArchitectureFamily f = paper002::family();  // N_e = 288, K = 8, one shared expert
  CHECK(max_n_over_na(f) == doctest::Approx(289.0 / 9.0));
}
