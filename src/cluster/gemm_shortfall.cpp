// The measured shortfall of GEMM shapes (include/moeplan/cluster/gemm_shortfall.hpp), read once
// from the embedded presets/hardware/gemm_shortfall.toml.
#include "moeplan/cluster/gemm_shortfall.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <toml++/toml.h>

#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"

namespace moeplan {

namespace {

constexpr std::string_view k_path = "hardware/gemm_shortfall.toml";

struct ShortfallTable {
  std::vector<std::string> gpus;
  std::string source;
  std::map<Precision, GemmShortfall> by_precision;
};

[[noreturn]] void broken(const std::string& why) {
  throw std::logic_error("embedded preset hardware/gemm_shortfall.toml: " + why);
}

// One precision's rows: a full grid of (n, k), each once.
GemmShortfall grid_of(const toml::array& rows, const std::string& name) {
  std::map<std::pair<double, double>, double> at;
  for (const toml::node& node : rows) {
    const toml::table* row = node.as_table();
    if (row == nullptr) broken(name + ": a row is not a table");
    const auto n = (*row)["n"].value<double>(), k = (*row)["k"].value<double>();
    const auto ratio = (*row)["measured_over_model"].value<double>();
    if (!n || !k || !ratio || !(*n > 0) || !(*k > 0) || !(*ratio > 0)) broken(name + ": n, k, measured_over_model > 0");
    if (!at.emplace(std::pair{*n, *k}, *ratio).second) broken(name + ": a shape given twice");
  }
  GemmShortfall g;
  for (const auto& [nk, ratio] : at) {
    if (std::find(g.ns.begin(), g.ns.end(), nk.first) == g.ns.end()) g.ns.push_back(nk.first);
    if (std::find(g.ks.begin(), g.ks.end(), nk.second) == g.ks.end()) g.ks.push_back(nk.second);
  }
  std::sort(g.ns.begin(), g.ns.end());
  std::sort(g.ks.begin(), g.ks.end());
  if (g.ns.size() * g.ks.size() != at.size() || g.ns.size() < 2 || g.ks.size() < 2) {
    broken(name + ": the rows are not a full grid of at least 2 x 2 shapes");
  }
  for (double n : g.ns) {
    for (double k : g.ks) g.log_ratios.push_back(std::log(at.at({n, k})));
  }
  for (double n : g.ns) g.log_ns.push_back(std::log(n));
  for (double k : g.ks) g.log_ks.push_back(std::log(k));
  return g;
}

ShortfallTable read_table() {
  const auto text = find_embedded_preset(k_path);
  if (!text) broken("missing");
  auto doc = parse_toml(*text, "<embedded:hardware/gemm_shortfall.toml>");
  if (!doc) throw std::logic_error(doc.error().to_string());
  ShortfallTable t;
  t.source = (*doc)["source"].value<std::string>().value_or("");
  if (const toml::array* gpus = (*doc)["gpus"].as_array()) {
    for (const toml::node& g : *gpus) t.gpus.push_back(g.value<std::string>().value_or(""));
  }
  if (t.gpus.empty() || t.source.empty()) broken("gpus and source");
  for (const Precision p : {Precision::bf16, Precision::fp8}) {
    const std::string name = to_string(p);
    if (const toml::array* rows = (*doc)[name].as_array()) t.by_precision.emplace(p, grid_of(*rows, name));
  }
  return t;
}

const ShortfallTable& table() {
  static const ShortfallTable t = read_table();
  return t;
}

// Where x lies on the ascending grid (its logarithms `logs`): the cell's lower index and the
// weight of its upper end in log x, held at the edges.
std::pair<std::size_t, double> locate(const std::vector<double>& grid, const std::vector<double>& logs, double x) {
  if (x <= grid.front()) return {0, 0.0};
  if (x >= grid.back()) return {grid.size() - 2, 1.0};
  const auto upper = static_cast<std::size_t>(std::upper_bound(grid.begin(), grid.end(), x) - grid.begin());
  const std::size_t i = upper - 1;
  return {i, (std::log(x) - logs[i]) / (logs[i + 1] - logs[i])};
}

}  // namespace

double GemmShortfall::factor(double n, double k) const {
  if (ns.size() < 2 || ks.size() < 2 || !(n > 0) || !(k > 0)) return 1.0;
  const auto [i, wn] = locate(ns, log_ns, n);
  const auto [j, wk] = locate(ks, log_ks, k);
  const auto at = [&](std::size_t a, std::size_t b) { return log_ratios[a * ks.size() + b]; };
  const double log_ratio = (1 - wn) * ((1 - wk) * at(i, j) + wk * at(i, j + 1)) +
                           wn * ((1 - wk) * at(i + 1, j) + wk * at(i + 1, j + 1));
  return std::min(1.0, std::exp(log_ratio));
}

const GemmShortfall* measured_gemm_shortfall(const GpuSpec& gpu, Precision precision) {
  const ShortfallTable& t = table();
  if (std::find(t.gpus.begin(), t.gpus.end(), gpu.id) == t.gpus.end()) return nullptr;
  const auto it = t.by_precision.find(precision);
  return it == t.by_precision.end() ? nullptr : &it->second;
}

const std::string& gemm_shortfall_source() { return table().source; }

}  // namespace moeplan
