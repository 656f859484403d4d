#include "paper_tables.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace paper002 {

const std::vector<Table2Row>& table2() {
  static const std::vector<Table2Row> rows = {
      {1e18, "0.2672", "3.7420"},  {3e18, "0.4856", "6.1775"},  {1e19, "0.9345", "10.7004"},
      {3e19, "1.6983", "17.6649"}, {1e20, "3.2681", "30.5985"}, {3e20, "5.9390", "50.5138"}};
  return rows;
}

moeplan::AttentionHeads table4_heads(double C) {
  // Table 4 (Appendix F.1): d_qkv, N_q, N_kv per scale.
  static const std::map<double, moeplan::AttentionHeads> heads = {
      {1e18, {4, 2, 64}},   {3e18, {8, 4, 64}},   {1e19, {8, 4, 64}},
      {3e19, {8, 4, 128}},  {1e20, {8, 4, 128}},  {3e20, {16, 8, 128}}};
  return heads.at(C);
}

double table2_M(double C) {
  static const std::map<double, double> M = {{1e18, 0.2672e9}, {3e18, 0.4856e9},
                                             {1e19, 0.9345e9}, {3e19, 1.6983e9},
                                             {1e20, 3.2681e9}, {3e20, 5.9390e9}};
  return M.at(C);
}

const std::vector<ConfigRow>& config_rows() {
  static const std::vector<ConfigRow> rows = [] {
    std::ifstream in(MOEPLAN_TEST_DATA_DIR "/holistic_configs.csv");
    if (!in) {
      throw std::runtime_error("cannot open " MOEPLAN_TEST_DATA_DIR "/holistic_configs.csv");
    }
    std::vector<ConfigRow> out;
    std::string line;
    std::getline(in, line);  // header: table,section,C,d,L_d,d_d,L_m,d_m,L
    while (std::getline(in, line)) {
      std::istringstream s(line);
      std::string cell[9];
      for (auto& c : cell) {
        std::getline(s, c, ',');
      }
      out.push_back({std::stoi(cell[0]), std::stod(cell[2]), std::stoi(cell[3]),
                     std::stoi(cell[4]), std::stoi(cell[5]), std::stoi(cell[6]),
                     std::stoi(cell[7]), std::stoi(cell[8])});
    }
    return out;
  }();
  return rows;
}

moeplan::ArchitectureFamily family() {
  return {.heads = {}, .seq_len = 8192, .n_experts = 288, .top_k = 8, .n_shared_experts = 1,
          .dense_ffn_ratio = 3, .vocab_size = 152064};
}

moeplan::MoeArchitecture architecture_of(const ConfigRow& row) {
  moeplan::MoeArchitecture a;
  a.family = family();
  a.family.heads = table4_heads(row.C);
  a.d = row.d;
  a.L_d = row.L_d;
  a.L_m = row.L_m;
  a.d_d = row.d_d;
  a.d_m = row.d_m;
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Sec6Optimum sec6_optimum(int table) {
  std::vector<double> x, y;
  double C = 0;
  for (const auto& row : config_rows()) {
    if (row.table == table) {
      C = row.C;
      const moeplan::Accounting a = moeplan::account(architecture_of(row));
      x.push_back(a.m_over_na());
      y.push_back(a.n_over_na());
    }
  }
  return {C, median(x), median(y)};
}

}  // namespace paper002
