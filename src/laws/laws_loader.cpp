#include "moeplan/laws/laws_loader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fmt/ostream.h>
#include <toml++/toml.h>

#include "moeplan/base/presets.hpp"
#include "moeplan/base/toml_reader.hpp"

namespace moeplan {
namespace {

enum class Sign { positive, any };

struct NumberField {
  std::string_view key;
  double* target;
  Sign sign = Sign::positive;
};

// Reads a section made only of numbers: every listed key is required, nothing else allowed.
void read_numbers(const toml::table& t, const std::string& section,
                  std::initializer_list<NumberField> fields, Reader& r) {
  std::vector<std::string_view> keys;
  for (const NumberField& f : fields) keys.push_back(f.key);
  r.only_keys(t, keys, section);
  for (const NumberField& f : fields) {
    *f.target = r.number(t, f.key, section + "." + std::string(f.key), f.sign == Sign::positive);
  }
}

void read_fitted_range(const toml::table& t, LawSet& s, Reader& r) {
  HolisticLaws& laws = s.holistic;
  read_numbers(t, "fitted_range",
               {{"compute_min", &laws.fitted_compute_min}, {"compute_max", &laws.fitted_compute_max}},
               r);
  if (!r.failed() && laws.fitted_compute_max < laws.fitted_compute_min) {
    r.fail(t.source(), "fitted_range", "compute_max is below compute_min");
  }
}

void read_compute_optimal(const toml::table& t, LawSet& s, Reader& r) {
  auto& co = s.holistic.compute_optimal;
  read_numbers(t, "compute_optimal",
               {{"m_coefficient", &co.flops_per_token.coefficient},
                {"m_exponent", &co.flops_per_token.exponent},
                {"d_coefficient", &co.tokens.coefficient},
                {"d_exponent", &co.tokens.exponent}},
               r);
}

void read_m_over_na(const toml::table& t, LawSet& s, Reader& r) {
  r.only_keys(t, {"form", "coefficient", "exponent", "points"}, "m_over_na");
  const std::string form = r.string(t, "form", "m_over_na.form");
  if (!r.failed() && form != "score-share-power-law") {
    r.fail(t.get("form")->source(), "m_over_na.form",
           fmt::format("expected \"score-share-power-law\", got \"{}\"", form));
  }
  auto& law = s.holistic.m_over_na.score_share;
  law.coefficient = r.number(t, "coefficient", "m_over_na.coefficient", true);
  law.exponent = r.number(t, "exponent", "m_over_na.exponent", false);
  if (t.get("points")) {
    r.pairs(t, "points", "m_over_na.points");  // provenance only; validated, not used
  }
}

void read_n_over_na(const toml::table& t, LawSet& s, Reader& r) {
  r.only_keys(t, {"schedule"}, "n_over_na");
  s.holistic.n_over_na.points = r.pairs(t, "schedule", "n_over_na.schedule");
}

void read_heads(const toml::node& heads, LawSet& s, Reader& r) {
  if (!heads.is_array_of_tables() || heads.as_array()->empty()) {
    r.fail(heads.source(), "heads", "must be one or more [[heads]] tables (paper 002 Table 4)");
    return;
  }
  std::vector<HeadScheduleEntry> out;
  std::size_t i = 0;
  for (const toml::node& n : *heads.as_array()) {
    const toml::table& t = *n.as_table();
    const std::string path = fmt::format("heads[{}]", i++);
    r.only_keys(t, {"compute", "d_qkv", "n_q", "n_kv"}, path);
    HeadScheduleEntry e;
    e.compute = r.number(t, "compute", path + ".compute", true);
    e.heads.d_qkv = r.integer(t, "d_qkv", path + ".d_qkv", 1);
    e.heads.n_q = r.integer(t, "n_q", path + ".n_q", 1);
    e.heads.n_kv = r.integer(t, "n_kv", path + ".n_kv", 1);
    if (!r.failed() && !out.empty() && e.compute <= out.back().compute) {
      r.fail(t.source(), path + ".compute", "heads must be sorted by strictly increasing compute");
    }
    out.push_back(e);
  }
  s.holistic.heads = std::move(out);
}

void read_heads_extrapolation(const toml::table& t, LawSet& s, Reader& r) {
  r.only_keys(t, {"d_qkv", "q_per_kv", "min_n_q", "max_n_q"}, "heads_extrapolation");
  auto& x = s.holistic.head_extrapolation;
  x.d_qkv = r.integer(t, "d_qkv", "heads_extrapolation.d_qkv", 1);
  x.q_per_kv = r.integer(t, "q_per_kv", "heads_extrapolation.q_per_kv", 1);
  x.min_n_q = r.integer(t, "min_n_q", "heads_extrapolation.min_n_q", 1);
  x.max_n_q = r.integer(t, "max_n_q", "heads_extrapolation.max_n_q", 1);
  if (!r.failed() && x.max_n_q < x.min_n_q) {
    r.fail(t.source(), "heads_extrapolation.max_n_q", "is below min_n_q");
  }
}

void read_architecture(const toml::table& t, LawSet& s, Reader& r) {
  r.only_keys(t,
              {"seq_len", "n_experts", "top_k", "n_shared_experts", "dense_ffn_ratio", "vocab_size",
               "alignment", "tolerance"},
              "architecture");
  HolisticLaws& laws = s.holistic;
  auto& f = laws.family_defaults;
  f.seq_len = r.integer(t, "seq_len", "architecture.seq_len", 1);
  f.n_experts = r.integer(t, "n_experts", "architecture.n_experts", 2);
  f.top_k = r.integer(t, "top_k", "architecture.top_k", 1);
  f.n_shared_experts = r.integer(t, "n_shared_experts", "architecture.n_shared_experts", 0);
  f.dense_ffn_ratio = r.number(t, "dense_ffn_ratio", "architecture.dense_ffn_ratio", true);
  f.vocab_size = r.integer(t, "vocab_size", "architecture.vocab_size", 0);
  laws.alignment = r.integer(t, "alignment", "architecture.alignment", 1);
  laws.tolerance = r.number(t, "tolerance", "architecture.tolerance", true);
  if (!r.failed() && f.top_k >= f.n_experts) {
    r.fail(t.source(), "architecture.top_k", "must be below n_experts");
  }
}

void read_d_law(const toml::table& t, LawSet& s, Reader& r) {
  PowerLaw law;
  read_numbers(t, "d_law",
               {{"coefficient", &law.coefficient}, {"exponent", &law.exponent, Sign::any}}, r);
  s.holistic.d_law = law;
}

void read_credible_shape(const toml::table& t, LawSet& s, Reader& r) {
  AspectBounds& b = s.holistic.d_over_l;
  read_numbers(t, "credible_shape", {{"d_over_l_min", &b.min}, {"d_over_l_max", &b.max}}, r);
  if (!r.failed() && b.max < b.min) {
    r.fail(t.source(), "credible_shape.d_over_l_max", "is below d_over_l_min");
  }
}

void read_ranking(const toml::table& t, LawSet& s, Reader& r) {
  read_numbers(t, "ranking", {{"d_window", &s.holistic.ranking_d_window}}, r);
}

void read_training(const toml::table& t, LawSet& s, Reader& r) {
  r.only_keys(t, {"learning_rate", "batch_size"}, "training");
  s.holistic_training.learning_rate.points = r.pairs(t, "learning_rate", "training.learning_rate");
  s.holistic_training.batch_size.points = r.pairs(t, "batch_size", "training.batch_size");
}

void read_efficiency_leverage(const toml::table& t, LawSet& s, Reader& r) {
  auto& l = s.leverage;
  read_numbers(t, "efficiency_leverage",
               {{"a", &l.a, Sign::any},
                {"d", &l.d, Sign::any},
                {"gamma", &l.gamma, Sign::any},
                {"beta", &l.beta, Sign::any},
                {"a_start", &l.a_start},
                {"a_max", &l.a_max},
                {"log_base_compute", &l.log_base_compute},
                {"log_base_granularity", &l.log_base_granularity}},
               r);
  for (auto [key, base] : {std::pair{"log_base_compute", l.log_base_compute},
                           std::pair{"log_base_granularity", l.log_base_granularity}}) {
    if (!r.failed() && base == 1.0) {
      r.fail(t.get(key)->source(), std::string("efficiency_leverage.") + key, "must not be 1");
    }
  }
}

void read_leverage_training(const toml::table& t, LawSet& s, Reader& r) {
  auto& l = s.leverage_training;
  read_numbers(t, "leverage_training",
               {{"lr_coefficient", &l.learning_rate.coefficient},
                {"lr_exponent", &l.learning_rate.exponent, Sign::any},
                {"batch_coefficient", &l.batch_tokens.coefficient},
                {"batch_exponent", &l.batch_tokens.exponent, Sign::any},
                {"moe_m_coefficient", &l.moe_flops_per_token.coefficient},
                {"moe_m_exponent", &l.moe_flops_per_token.exponent, Sign::any},
                {"moe_d_coefficient", &l.moe_tokens.coefficient},
                {"moe_d_exponent", &l.moe_tokens.exponent, Sign::any},
                {"dense_m_coefficient", &l.dense_flops_per_token.coefficient},
                {"dense_m_exponent", &l.dense_flops_per_token.exponent, Sign::any},
                {"dense_d_coefficient", &l.dense_tokens.coefficient},
                {"dense_d_exponent", &l.dense_tokens.exponent, Sign::any}},
               r);
}

void read_joint_loss(const toml::table& t, LawSet& s, Reader& r) {
  auto& j = s.joint;
  read_numbers(t, "joint_loss",
               {{"e", &j.e}, {"f", &j.f}, {"m", &j.m}, {"n", &j.n, Sign::any}, {"k", &j.k},
                {"h", &j.h}, {"a", &j.a}, {"alpha", &j.alpha}, {"b", &j.b}, {"beta", &j.beta},
                {"c", &j.c}, {"epsilon", &j.epsilon, Sign::any}},
               r);
}

void read_joint_loss_analysis(const toml::table& t, LawSet& s, Reader& r) {
  auto& a = s.joint_analysis;
  read_numbers(t, "joint_loss_analysis",
               {{"theoretical_active_experts", &a.theoretical_active_experts},
                {"theoretical_shared_ratio", &a.theoretical_shared_ratio},
                {"practical_threshold", &a.practical_threshold},
                {"active_experts_grid", &a.active_experts_grid},
                {"shared_ratio_grid", &a.shared_ratio_grid},
                {"efficiency_threshold_tight", &a.efficiency_threshold_tight},
                {"efficiency_threshold_loose", &a.efficiency_threshold_loose},
                {"efficiency_step_fraction", &a.efficiency_step_fraction}},
               r);
}

void read_activation_rate(const toml::table& t, LawSet& s, Reader& r) {
  auto& g = s.activation;
  read_numbers(t, "activation_rate",
               {{"optimum", &g.optimum},
                {"region_min", &g.beats_dense.lo},
                {"region_max", &g.beats_dense.hi},
                {"dense_ffn_ratio", &g.dense_ffn_ratio}},
               r);
  if (!r.failed() && !(g.beats_dense.lo < g.beats_dense.hi && g.beats_dense.hi <= 1)) {
    r.fail(t.source(), "activation_rate", "needs 0 < region_min < region_max <= 1");
  }
}

void read_optimal_ratio(const toml::table& t, LawSet& s, Reader& r) {
  auto& o = s.optimal_ratio;
  read_numbers(t, "optimal_ratio",
               {{"alpha_coefficient", &o.alpha_of_active_fraction.coefficient},
                {"alpha_exponent", &o.alpha_of_active_fraction.exponent, Sign::any},
                {"beta_coefficient", &o.beta_of_active_fraction.coefficient},
                {"beta_exponent", &o.beta_of_active_fraction.exponent, Sign::any}},
               r);
}

void read_allocation_loss(const toml::table& t, LawSet& s, Reader& r) {
  auto& l = s.allocation_loss;
  read_numbers(t, "allocation_loss",
               {{"a", &l.a}, {"alpha", &l.alpha}, {"b", &l.b}, {"beta", &l.beta}, {"c", &l.c},
                {"lambda", &l.lambda}, {"gamma", &l.gamma}, {"d", &l.d}, {"tau", &l.tau, Sign::any}},
               r);
}

void read_attention_share(const toml::table& t, LawSet& s, Reader& r) {
  auto& g = s.attention_share;
  read_numbers(t, "attention_share",
               {{"optimal_min", &g.optimal.lo},
                {"optimal_max", &g.optimal.hi},
                {"flat_min", &g.flat.lo},
                {"flat_max", &g.flat.hi}},
               r);
}

using TableReader = void (*)(const toml::table&, LawSet&, Reader&);

struct SectionReader {
  std::string_view key;
  TableReader read;
  bool holistic;  // part of a complete paper-002 file
};

constexpr SectionReader k_sections[] = {
    {"fitted_range", read_fitted_range, true},
    {"compute_optimal", read_compute_optimal, true},
    {"m_over_na", read_m_over_na, true},
    {"n_over_na", read_n_over_na, true},
    {"heads_extrapolation", read_heads_extrapolation, true},
    {"architecture", read_architecture, true},
    {"d_law", read_d_law, false},
    {"credible_shape", read_credible_shape, false},
    {"ranking", read_ranking, false},
    {"training", read_training, false},
    {"efficiency_leverage", read_efficiency_leverage, false},
    {"leverage_training", read_leverage_training, false},
    {"joint_loss", read_joint_loss, false},
    {"joint_loss_analysis", read_joint_loss_analysis, false},
    {"activation_rate", read_activation_rate, false},
    {"optimal_ratio", read_optimal_ratio, false},
    {"allocation_loss", read_allocation_loss, false},
    {"attention_share", read_attention_share, false},
};

// `fit runs.csv -o laws.toml` writes the fit's report (its [fit] table names the law and
// the input's md5), not a laws file: the easiest mistake to make with --out and -o.
constexpr std::string_view k_report_hint =
    "; this is a report of `moeplan fit` (what -o writes): the laws file is what "
    "`moeplan fit --out FILE` writes";

bool looks_like_fit_report(const toml::table& doc) {
  const toml::table* fit = doc["fit"].as_table();
  return fit != nullptr && fit->contains("law") && fit->contains("input_md5");
}

// Overlays every section of `doc` on `laws`; with `require_holistic`, every paper-002
// section must be present (a complete holistic file).
void read_laws(const toml::table& doc, Reader& r, LawSet& laws, const std::string& source,
               bool require_holistic) {
  if (!doc.get("schema")) {  // the first thing a laws file must say; say what it must be
    r.fail(doc.source(), "schema",
           std::string("missing: a laws file starts with schema = \"moeplan-laws/1\"") +
               (looks_like_fit_report(doc) ? std::string(k_report_hint) : std::string()));
  }
  const std::string schema = doc.get("schema") ? r.string(doc, "schema", "schema") : std::string();
  if (!r.failed() && schema != "moeplan-laws/1") {
    r.fail(doc.get("schema")->source(), "schema",
           fmt::format("expected \"moeplan-laws/1\", got \"{}\"", schema));
  }
  const std::string name = r.string(doc, "name", "name");
  std::size_t sections = 0;
  for (const auto& [key, node] : doc) {
    const std::string k(key.str());
    if (k == "schema" || k == "name" || k == "description" || k == "provenance") {
      continue;
    }
    if (k == "heads") {
      read_heads(node, laws, r);
    } else {
      const auto* reader = std::find_if(std::begin(k_sections), std::end(k_sections),
                                        [&](const SectionReader& sr) { return sr.key == k; });
      if (reader == std::end(k_sections)) {
        r.fail(node.source(), k, "unknown key (not a law section; see docs/laws-schema.md)");
        continue;
      }
      if (!node.is_table()) {
        r.fail(node.source(), k, "must be a table");
        continue;
      }
      reader->read(*node.as_table(), laws, r);
    }
    laws.provenance[k] = source;
    ++sections;
  }
  if (require_holistic) {
    for (const SectionReader& sr : k_sections) {
      if (sr.holistic && !doc.get(sr.key)) {
        r.fail(doc.source(), std::string(sr.key), "missing table");
      }
    }
    if (!doc.get("heads")) {
      r.fail(doc.source(), "heads", "must be one or more [[heads]] tables (paper 002 Table 4)");
    }
  }
  if (!r.failed() && sections == 0) {
    r.fail(doc.source(), "", "holds no law section");
  }
  if (!r.failed() && doc.get("m_over_na")) {
    laws.holistic.name = name;
  }
}

}  // namespace

std::string LawSet::source_of(const std::string& section) const {
  const auto it = provenance.find(section);
  return it == provenance.end() ? std::string("(none)") : it->second;
}

std::string LawSet::holistic_sources() const {
  std::vector<std::string> sources;
  for (const char* section : {"compute_optimal", "m_over_na", "n_over_na", "heads",
                              "heads_extrapolation", "architecture", "fitted_range", "d_law",
                              "credible_shape", "ranking"}) {
    const auto it = provenance.find(section);
    if (it != provenance.end() &&
        std::find(sources.begin(), sources.end(), it->second) == sources.end()) {
      sources.push_back(it->second);
    }
  }
  return fmt::format("{}", fmt::join(sources, " + "));
}

std::expected<LawSet, InputError> parse_laws(std::string_view text, std::string source_name,
                                             const LawSet& base) {
  auto doc = parse_toml(text, source_name);
  if (!doc) {
    InputError e = doc.error();
    // A JSON report of `fit` (-o report.json, --format json) given as --laws.
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') {
      e.reason += "; this is JSON, and a laws file is TOML (schema moeplan-laws/1) as "
                  "`moeplan fit --out FILE` writes it (-o writes the fit's report)";
    }
    return std::unexpected(std::move(e));
  }
  Reader reader(source_name);
  LawSet laws = base;
  read_laws(*doc, reader, laws, source_name, false);
  if (reader.failed()) {
    return std::unexpected(reader.error());
  }
  return laws;
}

std::expected<LawSet, InputError> load_laws_file(const std::string& path, const LawSet& base) {
  auto text = read_file(path);
  if (!text) {
    return std::unexpected(text.error());
  }
  return parse_laws(*text, path, base);
}

namespace {

// The embedded law presets, in overlay order: later files overlay earlier ones; each holds the
// sections of one paper.
constexpr std::array<const char*, 5> k_law_presets = {"laws/holistic.toml", "laws/efficiency_leverage.toml",
                                                      "laws/joint_moe.toml", "laws/moe_vs_dense.toml",
                                                      "laws/allocation.toml"};

}  // namespace

const LawSet& builtin_laws() {
  static const LawSet laws = [] {
    LawSet set;
    for (const char* path : k_law_presets) {
      const std::string name = std::string("<embedded:") + path + ">";
      auto parsed = parse_laws(find_embedded_preset(path).value_or(""), name, set);
      if (!parsed) {
        throw std::logic_error("embedded preset is invalid: " + parsed.error().to_string());
      }
      set = std::move(*parsed);
    }
    return set;
  }();
  return laws;
}

std::expected<HolisticLaws, InputError> parse_holistic_laws(std::string_view text,
                                                            std::string source_name) {
  auto doc = parse_toml(text, source_name);
  if (!doc) {
    return std::unexpected(doc.error());
  }
  Reader reader(source_name);
  LawSet laws;
  read_laws(*doc, reader, laws, source_name, true);
  if (reader.failed()) {
    return std::unexpected(reader.error());
  }
  return laws.holistic;
}

std::expected<HolisticLaws, InputError> load_holistic_laws_file(const std::string& path) {
  auto text = read_file(path);
  if (!text) {
    return std::unexpected(text.error());
  }
  return parse_holistic_laws(*text, path);
}

const HolisticLaws& builtin_holistic_laws() { return builtin_laws().holistic; }

std::expected<LawSet, InputError> laws_with_overlay(const std::string& path) {
  if (path.empty()) return builtin_laws();
  auto loaded = load_laws_file(path, builtin_laws());
  if (!loaded && !std::filesystem::exists(path)) {
    // `--laws holistic` reads as a preset's name: say that the presets are always loaded and
    // how to overlay them, instead of only "cannot open file".
    std::string names;
    bool is_preset = false;
    for (const char* preset : k_law_presets) {
      const std::string_view p(preset), stem = p.substr(5, p.size() - 5 - 5);  // "laws/" ... ".toml"
      names += (names.empty() ? "" : ", ") + std::string(stem);
      is_preset = is_preset || path == stem || path == p;
    }
    InputError e = loaded.error();
    e.reason = fmt::format("{}; --laws takes a TOML file that overlays the embedded laws ({}), which are "
                            "always loaded{}; 'moeplan presets show NAME > my-laws.toml' writes one to edit",
                            e.reason, names,
                            is_preset ? fmt::format(": '{}' is one of them, nothing to give", path) : "");
    return std::unexpected(e);
  }
  return loaded;
}

}  // namespace moeplan
