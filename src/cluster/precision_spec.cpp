// The training precisions read from their data file (presets/hardware/precisions.toml, where
// every figure is cited): one PrecisionSpec per Precision.
#include "moeplan/cluster/precision_spec.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"

namespace moeplan {

namespace {

constexpr std::string_view k_precisions_path = "hardware/precisions.toml";

constexpr std::array<std::string_view, 15> k_precision_keys = {
    "gemm_peak_key",     "gemm_operand_bytes", "weight_bytes",        "copy_bytes",   "cast_bytes",
    "activation_bytes",  "gathered_bytes",     "gradient_bytes",      "bf16_gradient_bytes", "master_bytes",
    "moment_bytes",      "bf16_moment_bytes",  "all_to_all_bytes",    "deepep_dispatch_bytes", "param_gather"};
constexpr std::array<std::string_view, 3> k_param_gather_keys = {"weight_bytes", "copy_bytes", "gathered_bytes"};

// A byte count: a number, >= 0 (0: none of the kind); `positive` where 0 makes no sense.
double bytes_of(Reader& r, const toml::table& t, std::string_view key, const std::string& table, bool positive) {
  const std::string path = fmt::format("{}.{}", table, key);
  const double v = r.number(t, key, path, false);
  if (r.failed()) return 0;
  const toml::node* n = t.get(key);
  if (v < 0) {
    r.fail(n->source(), path, fmt::format("bytes must be >= 0, got {:g}", v));
  } else if (positive && !(v > 0)) {
    r.fail(n->source(), path, "bytes must be positive");
  }
  return v;
}

PrecisionSpec spec_of(Reader& r, const toml::table& t, Precision p) {
  PrecisionSpec s;
  s.precision = p;
  s.name = to_string(p);
  const std::string& n = s.name;
  r.only_keys(t, k_precision_keys, n);
  s.gemm_peak_key = r.string(t, "gemm_peak_key", n + ".gemm_peak_key");
  s.gemm_peak = gpu_peak_field(s.gemm_peak_key);
  if (!r.failed() && s.gemm_peak == nullptr) {
    r.fail(t.get("gemm_peak_key")->source(), n + ".gemm_peak_key",
           fmt::format("\"{}\" is not a GPU catalog peak: bf16_dense_tflops or fp8_dense_tflops", s.gemm_peak_key));
  }
  s.gemm_operand_bytes = bytes_of(r, t, "gemm_operand_bytes", n, true);
  s.weight_bytes = bytes_of(r, t, "weight_bytes", n, true);
  s.copy_bytes = bytes_of(r, t, "copy_bytes", n, false);
  s.cast_bytes = bytes_of(r, t, "cast_bytes", n, false);
  s.activation_bytes = bytes_of(r, t, "activation_bytes", n, true);
  s.gathered_bytes = bytes_of(r, t, "gathered_bytes", n, true);
  s.gradient_bytes = bytes_of(r, t, "gradient_bytes", n, true);
  s.bf16_gradient_bytes = bytes_of(r, t, "bf16_gradient_bytes", n, true);
  s.master_bytes = bytes_of(r, t, "master_bytes", n, true);
  s.moment_bytes = bytes_of(r, t, "moment_bytes", n, true);
  s.bf16_moment_bytes = bytes_of(r, t, "bf16_moment_bytes", n, true);
  s.all_to_all_bytes = bytes_of(r, t, "all_to_all_bytes", n, true);
  s.deepep_dispatch_bytes = bytes_of(r, t, "deepep_dispatch_bytes", n, true);
  if (t.contains("param_gather")) {
    const std::string g = n + ".param_gather";
    if (const toml::table* pg = r.table(t, "param_gather", g)) {
      r.only_keys(*pg, k_param_gather_keys, g);
      PrecisionSpec::ParamGather gather;
      gather.weight_bytes = bytes_of(r, *pg, "weight_bytes", g, true);
      gather.copy_bytes = bytes_of(r, *pg, "copy_bytes", g, false);
      gather.gathered_bytes = bytes_of(r, *pg, "gathered_bytes", g, true);
      s.param_gather = gather;
    }
  }
  return s;
}

PrecisionSpecs read_embedded_precisions() {
  const auto text = find_embedded_preset(k_precisions_path);
  if (!text) throw std::logic_error("embedded preset hardware/precisions.toml is missing");
  auto specs = read_precision_specs(*text, "<embedded:hardware/precisions.toml>");
  if (!specs) throw std::logic_error(specs.error().to_string());
  return *specs;
}

}  // namespace

const char* to_string(Precision p) {
  switch (p) {
    case Precision::bf16: return "bf16";
    case Precision::fp8: return "fp8";
  }
  return "bf16";
}

std::optional<Precision> parse_precision(std::string_view text) {
  for (Precision p : k_precisions) {
    if (text == to_string(p)) return p;
  }
  return std::nullopt;
}

std::expected<PrecisionSpecs, InputError> read_precision_specs(std::string_view text, const std::string& source) {
  auto doc = parse_toml(text, source);
  if (!doc) return std::unexpected(doc.error());
  Reader r(source);
  std::array<std::string_view, 2 + k_precisions.size()> top = {"schema", "description"};
  for (std::size_t i = 0; i < k_precisions.size(); ++i) top[2 + i] = to_string(k_precisions[i]);
  r.only_keys(*doc, top, "");
  PrecisionSpecs out;
  for (Precision p : k_precisions) {
    const std::string name = to_string(p);
    if (const toml::table* t = r.table(*doc, name, name)) out.specs[static_cast<std::size_t>(p)] = spec_of(r, *t, p);
    if (r.failed()) return std::unexpected(r.error());
  }
  if (r.failed()) return std::unexpected(r.error());
  return out;
}

const PrecisionSpec& precision_spec(Precision p) {
  static const PrecisionSpecs specs = read_embedded_precisions();
  return specs.of(p);
}

}  // namespace moeplan
