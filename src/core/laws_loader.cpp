#include "moeplan/laws_loader.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <toml++/toml.h>

#include "moeplan/presets.hpp"

namespace moeplan {
namespace {

// Reads typed values out of a parsed TOML document; the first problem wins and carries
// the file, the line/column of the offending node (or of its table when missing) and
// the dotted key.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[nodiscard]] bool failed() const { return error_.has_value(); }
  [[nodiscard]] const InputError& error() const { return *error_; }

  void fail(const toml::source_region& where, std::string key, std::string reason) {
    if (!error_) {
      error_ = InputError{source_, static_cast<int>(where.begin.line),
                          static_cast<int>(where.begin.column), std::move(key),
                          std::move(reason)};
    }
  }

  const toml::table* table(const toml::table& parent, std::string_view key,
                           const std::string& path) {
    const toml::node* n = parent.get(key);
    if (!n) {
      fail(parent.source(), path, "missing table");
      return nullptr;
    }
    if (!n->is_table()) {
      fail(n->source(), path, "must be a table");
      return nullptr;
    }
    return n->as_table();
  }

  // A finite number (TOML integer or float); `positive` also rejects <= 0.
  double number(const toml::table& t, std::string_view key, const std::string& path,
                bool positive) {
    const toml::node* n = t.get(key);
    if (!n) {
      fail(t.source(), path, "missing number");
      return 0;
    }
    const auto v = n->value<double>();
    if (!v || !(n->is_integer() || n->is_floating_point())) {
      fail(n->source(), path, fmt::format("must be a number, got a {}", fmt::streamed(n->type())));
      return 0;
    }
    if (!std::isfinite(*v)) {
      fail(n->source(), path, "must be finite");
      return 0;
    }
    if (positive && !(*v > 0)) {
      fail(n->source(), path, fmt::format("must be positive, got {}", *v));
      return 0;
    }
    return *v;
  }

  int integer(const toml::table& t, std::string_view key, const std::string& path, int min) {
    const toml::node* n = t.get(key);
    if (!n) {
      fail(t.source(), path, "missing integer");
      return 0;
    }
    const auto v = n->value_exact<int64_t>();
    if (!v) {
      fail(n->source(), path, fmt::format("must be an integer, got a {}", fmt::streamed(n->type())));
      return 0;
    }
    if (*v < min || *v > 1'000'000'000) {
      fail(n->source(), path, fmt::format("must be in [{}, 1e9], got {}", min, *v));
      return 0;
    }
    return static_cast<int>(*v);
  }

  std::string string(const toml::table& t, std::string_view key, const std::string& path) {
    const toml::node* n = t.get(key);
    if (!n || !n->is_string()) {
      fail(n ? n->source() : t.source(), path, "missing string");
      return {};
    }
    return std::string(n->as_string()->get());
  }

  // Unknown keys are errors: a typo in a laws file must not silently fall back.
  void only_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                 const std::string& path) {
    for (const auto& [k, v] : t) {
      if (std::find(allowed.begin(), allowed.end(), k.str()) == allowed.end()) {
        fail(v.source(), path.empty() ? std::string(k.str()) : path + "." + std::string(k.str()),
             "unknown key");
      }
    }
  }

  // [[C, value], ...] with C > 0 strictly increasing and value > 0.
  std::vector<std::pair<double, double>> pairs(const toml::table& t, std::string_view key,
                                               const std::string& path) {
    std::vector<std::pair<double, double>> out;
    const toml::node* n = t.get(key);
    if (!n || !n->is_array() || n->as_array()->empty()) {
      fail(n ? n->source() : t.source(), path, "must be a non-empty array of [C, value] pairs");
      return out;
    }
    for (const toml::node& item : *n->as_array()) {
      const toml::array* p = item.as_array();
      std::optional<double> c, v;
      if (p && p->size() == 2) {
        c = (*p)[0].value<double>();
        v = (*p)[1].value<double>();
      }
      if (!c || !v || !std::isfinite(*c) || !std::isfinite(*v) || *c <= 0 || *v <= 0) {
        fail(item.source(), path, "each entry must be [C, value] with both positive and finite");
        return out;
      }
      if (!out.empty() && *c <= out.back().first) {
        fail(item.source(), path, "C must be strictly increasing");
        return out;
      }
      out.emplace_back(*c, *v);
    }
    return out;
  }

 private:
  std::string source_;
  std::optional<InputError> error_;
};

HolisticLaws read_laws(const toml::table& doc, Reader& r) {
  HolisticLaws laws;
  r.only_keys(doc,
              {"schema", "name", "description", "fitted_range", "compute_optimal", "m_over_na",
               "n_over_na", "heads", "heads_extrapolation", "architecture", "d_law"},
              "");
  const std::string schema = r.string(doc, "schema", "schema");
  if (!r.failed() && schema != "moeplan-laws/1") {
    r.fail(doc.get("schema")->source(), "schema",
           fmt::format("expected \"moeplan-laws/1\", got \"{}\"", schema));
  }
  laws.name = r.string(doc, "name", "name");

  if (const toml::table* t = r.table(doc, "fitted_range", "fitted_range")) {
    r.only_keys(*t, {"compute_min", "compute_max"}, "fitted_range");
    laws.fitted_compute_min = r.number(*t, "compute_min", "fitted_range.compute_min", true);
    laws.fitted_compute_max = r.number(*t, "compute_max", "fitted_range.compute_max", true);
    if (!r.failed() && laws.fitted_compute_max < laws.fitted_compute_min) {
      r.fail(t->source(), "fitted_range", "compute_max is below compute_min");
    }
  }
  if (const toml::table* t = r.table(doc, "compute_optimal", "compute_optimal")) {
    r.only_keys(*t, {"m_coefficient", "m_exponent", "d_coefficient", "d_exponent"},
                "compute_optimal");
    auto& co = laws.compute_optimal;
    co.flops_per_token.coefficient = r.number(*t, "m_coefficient", "compute_optimal.m_coefficient", true);
    co.flops_per_token.exponent = r.number(*t, "m_exponent", "compute_optimal.m_exponent", true);
    co.tokens.coefficient = r.number(*t, "d_coefficient", "compute_optimal.d_coefficient", true);
    co.tokens.exponent = r.number(*t, "d_exponent", "compute_optimal.d_exponent", true);
  }
  if (const toml::table* t = r.table(doc, "m_over_na", "m_over_na")) {
    r.only_keys(*t, {"form", "coefficient", "exponent", "points"}, "m_over_na");
    const std::string form = r.string(*t, "form", "m_over_na.form");
    if (!r.failed() && form != "score-share-power-law") {
      r.fail(t->get("form")->source(), "m_over_na.form",
             fmt::format("expected \"score-share-power-law\", got \"{}\"", form));
    }
    laws.m_over_na.score_share.coefficient = r.number(*t, "coefficient", "m_over_na.coefficient", true);
    laws.m_over_na.score_share.exponent = r.number(*t, "exponent", "m_over_na.exponent", false);
    if (t->get("points")) {
      r.pairs(*t, "points", "m_over_na.points");  // provenance only; validated, not used
    }
  }
  if (const toml::table* t = r.table(doc, "n_over_na", "n_over_na")) {
    r.only_keys(*t, {"schedule"}, "n_over_na");
    laws.n_over_na.points = r.pairs(*t, "schedule", "n_over_na.schedule");
  }
  const toml::node* heads = doc.get("heads");
  if (!heads || !heads->is_array_of_tables() || heads->as_array()->empty()) {
    r.fail(heads ? heads->source() : doc.source(), "heads",
           "must be one or more [[heads]] tables (paper 002 Table 4)");
  } else {
    std::size_t i = 0;
    for (const toml::node& n : *heads->as_array()) {
      const toml::table& t = *n.as_table();
      const std::string path = fmt::format("heads[{}]", i++);
      r.only_keys(t, {"compute", "d_qkv", "n_q", "n_kv"}, path);
      HeadScheduleEntry e;
      e.compute = r.number(t, "compute", path + ".compute", true);
      e.heads.d_qkv = r.integer(t, "d_qkv", path + ".d_qkv", 1);
      e.heads.n_q = r.integer(t, "n_q", path + ".n_q", 1);
      e.heads.n_kv = r.integer(t, "n_kv", path + ".n_kv", 1);
      if (!r.failed() && !laws.heads.empty() && e.compute <= laws.heads.back().compute) {
        r.fail(t.source(), path + ".compute", "heads must be sorted by strictly increasing compute");
      }
      laws.heads.push_back(e);
    }
  }
  if (const toml::table* t = r.table(doc, "heads_extrapolation", "heads_extrapolation")) {
    r.only_keys(*t, {"d_qkv", "q_per_kv", "min_n_q", "max_n_q"}, "heads_extrapolation");
    auto& x = laws.head_extrapolation;
    x.d_qkv = r.integer(*t, "d_qkv", "heads_extrapolation.d_qkv", 1);
    x.q_per_kv = r.integer(*t, "q_per_kv", "heads_extrapolation.q_per_kv", 1);
    x.min_n_q = r.integer(*t, "min_n_q", "heads_extrapolation.min_n_q", 1);
    x.max_n_q = r.integer(*t, "max_n_q", "heads_extrapolation.max_n_q", 1);
    if (!r.failed() && x.max_n_q < x.min_n_q) {
      r.fail(t->source(), "heads_extrapolation.max_n_q", "is below min_n_q");
    }
  }
  if (const toml::table* t = r.table(doc, "architecture", "architecture")) {
    r.only_keys(*t,
                {"seq_len", "n_experts", "top_k", "n_shared_experts", "dense_ffn_ratio",
                 "vocab_size", "alignment", "tolerance"},
                "architecture");
    auto& f = laws.family_defaults;
    f.seq_len = r.integer(*t, "seq_len", "architecture.seq_len", 1);
    f.n_experts = r.integer(*t, "n_experts", "architecture.n_experts", 2);
    f.top_k = r.integer(*t, "top_k", "architecture.top_k", 1);
    f.n_shared_experts = r.integer(*t, "n_shared_experts", "architecture.n_shared_experts", 0);
    f.dense_ffn_ratio = r.number(*t, "dense_ffn_ratio", "architecture.dense_ffn_ratio", true);
    f.vocab_size = r.integer(*t, "vocab_size", "architecture.vocab_size", 0);
    laws.alignment = r.integer(*t, "alignment", "architecture.alignment", 1);
    laws.tolerance = r.number(*t, "tolerance", "architecture.tolerance", true);
    if (!r.failed() && f.top_k >= f.n_experts) {
      r.fail(t->source(), "architecture.top_k", "must be below n_experts");
    }
  }
  if (doc.get("d_law")) {
    if (const toml::table* t = r.table(doc, "d_law", "d_law")) {
      r.only_keys(*t, {"coefficient", "exponent"}, "d_law");
      laws.d_law = PowerLaw{r.number(*t, "coefficient", "d_law.coefficient", true),
                            r.number(*t, "exponent", "d_law.exponent", false)};
    }
  }
  return laws;
}

}  // namespace

std::expected<HolisticLaws, InputError> parse_holistic_laws(std::string_view text,
                                                            std::string source_name) {
  toml::table doc;
  try {
    doc = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    return std::unexpected(InputError{source_name, static_cast<int>(e.source().begin.line),
                                      static_cast<int>(e.source().begin.column), "",
                                      std::string(e.description())});
  }
  Reader reader(source_name);
  HolisticLaws laws = read_laws(doc, reader);
  if (reader.failed()) {
    return std::unexpected(reader.error());
  }
  laws.source = std::move(source_name);
  return laws;
}

std::expected<HolisticLaws, InputError> load_holistic_laws_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::unexpected(InputError{path, 0, 0, "", "cannot open file"});
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return std::unexpected(InputError{path, 0, 0, "", "read error"});
  }
  return parse_holistic_laws(text.str(), path);
}

const HolisticLaws& builtin_holistic_laws() {
  static const HolisticLaws laws = [] {
    const auto text = find_embedded_preset("laws/holistic.toml");
    auto parsed = parse_holistic_laws(text.value_or(""), "<embedded:laws/holistic.toml>");
    if (!parsed) {
      // A build defect, not a user error; the test suite parses this preset.
      throw std::logic_error("embedded preset is invalid: " + parsed.error().to_string());
    }
    return *parsed;
  }();
  return laws;
}

}  // namespace moeplan
