// The attention core's measured rates, read from the embedded data file
// (presets/hardware/attention_rates.toml, where every figure is cited), and the seconds of the
// attention core's training work at them.
#include "moeplan/cluster/attention_rate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <toml++/toml.h>

#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"

namespace moeplan {

namespace {

constexpr std::string_view k_attention_rates_path = "hardware/attention_rates.toml";

[[noreturn]] void defect(const std::string& what) {
  throw std::logic_error("embedded preset hardware/attention_rates.toml: " + what);
}

// One measured kernel: its grid (ascending S and head dims) and its rates in TFLOP/s.
struct Kernel {
  std::string id, label;
  std::vector<std::string> gpus;
  double measured_peak = 0;  ///< TFLOP/s, the measuring GPU's dense bf16 peak
  std::vector<double> seq_lens, head_dims;
  std::vector<std::vector<double>> forward_causal, forward_full, backward_full;
};

struct AttentionTable {
  double gemm_microbenchmark_fraction = 0;
  std::vector<Kernel> kernels;
};

std::vector<double> numbers(const toml::node_view<const toml::node>& node, const std::string& what) {
  const toml::array* a = node.as_array();
  if (a == nullptr || a->empty()) defect(what + " must be a non-empty array");
  std::vector<double> out;
  for (const toml::node& v : *a) {
    const auto x = v.value<double>();
    if (!x || !(*x > 0) || !std::isfinite(*x)) defect(what + ": every value must be a positive number");
    out.push_back(*x);
  }
  return out;
}

std::vector<std::vector<double>> rows_of(const toml::table& t, std::string_view key, std::size_t rows, std::size_t cols,
                                         const std::string& kernel) {
  const toml::array* a = t[key].as_array();
  const std::string what = kernel + "." + std::string(key);
  if (a == nullptr || a->size() != rows) defect(what + ": one row per head dim it covers");
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < rows; ++i) {
    out.push_back(numbers(toml::node_view<const toml::node>((*a)[i]), what));
    if (out.back().size() != cols) defect(what + ": one value per seq_len");
  }
  return out;
}

bool ascending(const std::vector<double>& v) { return std::is_sorted(v.begin(), v.end()) && std::adjacent_find(v.begin(), v.end()) == v.end(); }

Kernel kernel_of(const toml::table& t) {
  Kernel k;
  k.id = t["id"].value<std::string>().value_or("");
  if (k.id.empty()) defect("a [[kernel]] without an id");
  k.label = t["backend"].value<std::string>().value_or("") + "; " + t["source"].value<std::string>().value_or("");
  if (const toml::array* g = t["gpus"].as_array()) {
    for (const toml::node& v : *g) k.gpus.push_back(v.value<std::string>().value_or(""));
  }
  k.measured_peak = t["measured_peak_tflops"].value<double>().value_or(0);
  if (k.gpus.empty() || !(k.measured_peak > 0)) defect(k.id + ": gpus and measured_peak_tflops");
  k.seq_lens = numbers(t["seq_lens"], k.id + ".seq_lens");
  k.head_dims = numbers(t["head_dims"], k.id + ".head_dims");
  if (!ascending(k.seq_lens) || !ascending(k.head_dims)) defect(k.id + ": seq_lens and head_dims ascending");
  k.forward_causal = rows_of(t, "forward_causal", k.head_dims.size(), k.seq_lens.size(), k.id);
  const toml::array* full = t["forward_full"].as_array();
  const std::size_t backward_rows = full != nullptr ? full->size() : 0;
  if (backward_rows == 0 || backward_rows > k.head_dims.size()) defect(k.id + ".forward_full: the first head dims' rows");
  k.forward_full = rows_of(t, "forward_full", backward_rows, k.seq_lens.size(), k.id);
  k.backward_full = rows_of(t, "backward_full", backward_rows, k.seq_lens.size(), k.id);
  return k;
}

AttentionTable read_attention_table() {
  const auto text = find_embedded_preset(k_attention_rates_path);
  if (!text) defect("missing");
  auto doc = parse_toml(*text, "<embedded:hardware/attention_rates.toml>");
  if (!doc) throw std::logic_error(doc.error().to_string());
  AttentionTable table;
  table.gemm_microbenchmark_fraction = (*doc)["gemm_microbenchmark_fraction"].value<double>().value_or(0);
  if (!(table.gemm_microbenchmark_fraction > 0 && table.gemm_microbenchmark_fraction <= 1)) {
    defect("gemm_microbenchmark_fraction must lie in (0, 1]");
  }
  const toml::array* kernels = (*doc)["kernel"].as_array();
  if (kernels == nullptr) defect("no [[kernel]]");
  for (const toml::node& k : *kernels) {
    if (const toml::table* t = k.as_table()) table.kernels.push_back(kernel_of(*t));
  }
  return table;
}

const AttentionTable& attention_table() {
  static const AttentionTable table = read_attention_table();
  return table;
}

// Where x lies on the ascending grid: the index below and the weight of the one above, in
// log2 (clamped: outside the grid, the nearest point).
std::pair<std::size_t, double> place(const std::vector<double>& grid, double x) {
  if (grid.size() == 1 || !(x > grid.front())) return {0, 0.0};
  if (x >= grid.back()) return {grid.size() - 2, 1.0};
  std::size_t i = 0;
  while (grid[i + 1] < x) ++i;
  return {i, std::log2(x / grid[i]) / std::log2(grid[i + 1] / grid[i])};
}

// A table's value at (head dim row weight, S column weight): linear in the logs of both.
double at(const std::vector<std::vector<double>>& rows, std::pair<std::size_t, double> h,
          std::pair<std::size_t, double> s) {
  const auto row = [&](std::size_t r) {
    const std::vector<double>& v = rows[std::min(r, rows.size() - 1)];
    const std::size_t c1 = std::min(s.first + 1, v.size() - 1);
    return v[s.first] + s.second * (v[c1] - v[s.first]);
  };
  if (rows.size() == 1) return row(0);
  return row(h.first) + h.second * (row(h.first + 1) - row(h.first));
}

// The causal backward of head-dim row `r` at S weight `s`: the full backward times the causal
// forward over the full forward (the file's reading of the paper's figures).
double causal_backward_row(const Kernel& k, std::size_t r, std::pair<std::size_t, double> s) {
  const std::size_t rb = std::min(r, k.backward_full.size() - 1);  // above the published: the last
  const std::pair<std::size_t, double> row{rb, 0.0};
  const std::vector<std::vector<double>> causal{k.forward_causal[rb]};
  return at(k.backward_full, row, s) * at(causal, {0, 0.0}, s) / at(k.forward_full, row, s);
}

}  // namespace

std::optional<AttentionRates> attention_rates(const GpuSpec& gpu, double seq_len, double head_dim,
                                              double sustained_gemm_flops) {
  const AttentionTable& table = attention_table();
  for (const Kernel& k : table.kernels) {
    if (std::find(k.gpus.begin(), k.gpus.end(), gpu.id) == k.gpus.end()) continue;
    const auto s = place(k.seq_lens, seq_len);
    const auto h = place(k.head_dims, head_dim);
    const double forward = at(k.forward_causal, h, s);
    const double b0 = causal_backward_row(k, h.first, s);
    const double b1 = causal_backward_row(k, h.first + 1, s);
    const double backward = b0 + h.second * (b1 - b0);
    // TFLOP/s at the measuring GPU's boost clocks -> this GPU at the step model's GEMM clocks.
    const double scale = 1e12 / k.measured_peak * sustained_gemm_flops / (table.gemm_microbenchmark_fraction * 1e12);
    return AttentionRates{forward * scale, backward * scale, k.label};
  }
  return std::nullopt;
}

double attention_core_seconds(double scores_flops, const AttentionRates& rates, double* forward_seconds) {
  const double forward_flops = scores_flops / 3.0;
  const double forward = rates.forward > 0 ? forward_flops / rates.forward : 0.0;
  const double backward = rates.backward > 0 ? 2.5 * forward_flops / rates.backward : 0.0;
  if (forward_seconds != nullptr) *forward_seconds = forward;
  return forward + backward;
}

}  // namespace moeplan
