// The attention core's measured rates, read from the embedded data file
// (presets/hardware/attention_rates.toml, where every figure is cited), and the seconds of the
// attention core's training work at them.
#include "moeplan/cluster/attention_rate.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <span>
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

// Strictly ascending: no neighbour at or below the one before it.
bool ascending(const std::vector<double>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end();
}

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

// The measured kernel that stands for `gpu` (by catalog id), or nullptr.
const Kernel* kernel_for(const GpuSpec& gpu) {
  for (const Kernel& k : attention_table().kernels) {
    if (std::find(k.gpus.begin(), k.gpus.end(), gpu.id) != k.gpus.end()) return &k;
  }
  return nullptr;
}

// Where x lies on the ascending grid: the index below and the weight of the one above, in
// log2 (clamped: outside the grid, the nearest point; NaN: the first).
std::pair<std::size_t, double> place(std::span<const double> grid, double x) {
  if (grid.size() == 1 || !(x > grid.front())) return {0, 0.0};
  if (x >= grid.back()) return {grid.size() - 2, 1.0};
  std::size_t i = 0;
  while (grid[i + 1] < x) ++i;
  return {i, std::log2(x / grid[i]) / std::log2(grid[i + 1] / grid[i])};
}

// One row's value at the S weight `s`.
double lerp_row(const std::vector<double>& v, std::pair<std::size_t, double> s) {
  const std::size_t c1 = std::min(s.first + 1, v.size() - 1);
  return v[s.first] + s.second * (v[c1] - v[s.first]);
}

// A table's value at head dim `head_dim` and S weight `s`: linear in log2 of the head dim
// between the rows of `dims` (the first rows.size() of the kernel's head dims), the nearest row
// outside them.
double at(const std::vector<std::vector<double>>& rows, const std::vector<double>& dims, double head_dim,
          std::pair<std::size_t, double> s) {
  if (rows.size() == 1) return lerp_row(rows[0], s);
  const auto h = place(std::span(dims).first(rows.size()), head_dim);
  const double a = lerp_row(rows[h.first], s), b = lerp_row(rows[h.first + 1], s);
  return a + h.second * (b - a);
}

}  // namespace

std::optional<AttentionRates> attention_rates(const GpuSpec& gpu, double seq_len, double head_dim) {
  const Kernel* found = kernel_for(gpu);
  if (found == nullptr) return std::nullopt;
  const Kernel& k = *found;
  const auto s = place(k.seq_lens, seq_len);
  const double fc = at(k.forward_causal, k.head_dims, head_dim, s);
  // Above the head dims with a published backward, the backward and the unmasked forward
  // follow the causal forward from the last of them (the file's reading).
  const double last = k.head_dims[k.backward_full.size() - 1];
  const double follow = head_dim > last ? fc / at(k.forward_causal, k.head_dims, last, s) : 1.0;
  const double ff = at(k.forward_full, k.head_dims, head_dim, s) * follow;
  const double bf = at(k.backward_full, k.head_dims, head_dim, s) * follow;
  // The causal backward: the full one times the causal over the full forward.
  const double bc = bf * fc / ff;
  // TFLOP/s on the measuring GPU -> the same fraction of this GPU's bf16 peak.
  const double scale = gpu.bf16_dense_flops / k.measured_peak;
  return AttentionRates{fc * scale, bc * scale, ff * scale, bf * scale, k.label};
}

std::optional<std::pair<double, double>> attention_seq_range(const GpuSpec& gpu) {
  const Kernel* k = kernel_for(gpu);
  if (k == nullptr) return std::nullopt;
  return std::pair{k->seq_lens.front(), k->seq_lens.back()};
}

std::string attention_rates_source(const GpuSpec& gpu) {
  const Kernel* k = kernel_for(gpu);
  if (k == nullptr) return "bf16 GEMM ceiling: no measured attention kernel for this GPU (presets/hardware/attention_rates.toml)";
  return "measured: " + k->label +
         " (presets/hardware/attention_rates.toml), read at S/CP and the head dim, as a fraction of the measuring GPU's peak";
}

double attention_causal_share(int cp) { return cp > 1 ? 1.0 / (2.0 * cp) : 1.0; }

double attention_core_seconds(double scores_flops, const AttentionRates& rates, double causal_share,
                              double* forward_seconds) {
  const double f = scores_flops / 3.0;  // FlashAttention's forward count of Eq. 11's work
  const double c = std::clamp(causal_share, 0.0, 1.0);
  const auto over = [](double flops, double rate) {
    if (!(flops > 0)) return 0.0;
    return rate > 0 ? flops / rate : std::numeric_limits<double>::infinity();
  };
  const double forward = over(c * f, rates.forward_causal) + over((1.0 - c) * f, rates.forward_full);
  const double backward = over(c * 2.5 * f, rates.backward_causal) + over((1.0 - c) * 2.5 * f, rates.backward_full);
  if (forward_seconds != nullptr) *forward_seconds = forward;
  return forward + backward;
}

}  // namespace moeplan
