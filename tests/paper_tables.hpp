#pragma once
// Published numbers of paper 002 used by several tests, and the transcription of its
// Appendix F.3 configuration tables (tests/data/holistic_configs.csv, copied from
// shared/reference; the paper is the authority).
#include <map>
#include <string>
#include <vector>

#include "moeplan/model/architecture.hpp"

namespace paper002 {

struct Table2Row {
  double C;          // FLOPs
  std::string M;     // GFLOPs/token, as printed
  std::string D;     // billion tokens, as printed
};
/// Table 2: the six compute-optimal (C, M, D) combinations.
const std::vector<Table2Row>& table2();

/// Table 4 heads at a scale; throws for other scales.
moeplan::AttentionHeads table4_heads(double C);

/// M of Table 2 / Table 4 at a scale, FLOPs/token.
double table2_M(double C);

struct ConfigRow {
  int table;
  double C;
  int d, L_d, d_d, L_m, d_m, L;
};
/// All 667 rows of Tables 5–21.
const std::vector<ConfigRow>& config_rows();

/// The paper's fixed settings (Sec. 3.4, 4.2.2): S = 8192, N_e = 288, K = 8, one shared
/// expert, d_d = 3d, V = 152064, written here from the paper (the preset must agree:
/// test_laws_loader.cpp), with no heads.
moeplan::ArchitectureFamily family();

/// The architecture of a row with the paper's fixed settings (family()) and Table 4 heads.
moeplan::MoeArchitecture architecture_of(const ConfigRow& row);

/// Median of a non-empty sample.
double median(std::vector<double> v);

/// The optimum behind a Sec. 6 table (16..21): its C, and the medians of the rows'
/// recomputed M/N_a and N/N_a (rows differ only by integer rounding).
struct Sec6Optimum {
  double C;
  double m_over_na;
  double n_over_na;
};
Sec6Optimum sec6_optimum(int table);

}  // namespace paper002
