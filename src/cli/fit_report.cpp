#include "fit_report.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cmath>
#include <sstream>

#include "app.hpp"

namespace moeplan::cli {
namespace {

void add_estimates(Report& r, const std::string& key, const std::string& title,
                   const std::vector<fit::Estimate>& est) {
  if (est.empty()) return;
  Section s{key, title, {}};
  bool any_interval = false;
  for (const fit::Estimate& e : est) {
    if (!e.undefined_reason.empty()) {
      s.fields.push_back({e.name, e.name, "", Missing{e.undefined_reason}, e.description});
      continue;
    }
    s.fields.push_back({e.name, e.name, "", e.value, e.description});
    any_interval = any_interval || e.low.has_value();
  }
  r.sections.push_back(std::move(s));
  if (!any_interval) return;
  Section lo{key + "_low", title + " — interval low", {}};
  Section hi{key + "_high", title + " — interval high", {}};
  for (const fit::Estimate& e : est) {
    if (!e.low) continue;
    lo.fields.push_back({e.name, e.name, "", *e.low, "bootstrap percentile"});
    hi.fields.push_back({e.name, e.name, "", *e.high, "bootstrap percentile"});
  }
  r.sections.push_back(std::move(lo));
  r.sections.push_back(std::move(hi));
}

void add_quality(Section& s, const std::string& prefix, const fit::Quality& q) {
  s.fields.push_back({prefix + "rows", "rows", "runs", i64(static_cast<int>(q.rows)), ""});
  s.fields.push_back({prefix + "r2", "R²", "", q.r2, "1 − SS_res/SS_tot"});
  s.fields.push_back({prefix + "rmse", "RMSE", "target units", q.rmse, ""});
  s.fields.push_back({prefix + "mean_abs_error", "MAE", "target units", q.mean_abs_error,
                      "the papers' average loss error"});
  s.fields.push_back({prefix + "max_abs_residual", "max |res|", "target units", q.max_abs_residual, ""});
  s.fields.push_back({prefix + "max_rel_residual", "max |res|/y", "", q.max_rel_residual, ""});
}

}  // namespace

Report fit_report(const fit::FitOutcome& o, const FitContext& c) {
  const fit::FitSettings& s = *c.settings;
  Report r;
  Section fit{"fit", "Fit", {}};
  fit.fields = {
      {"law", "law", "", o.law->name, c.law_choice},
      {"formula", "formula", "", o.law->title, ""},
      {"method", "method", "", o.method.empty() ? o.law->method : o.method, ""},
      {"input", "input", "", c.source, ""},
      {"input_md5", "md5", "", c.md5, ""},
      {"rows", "rows", "runs", i64(static_cast<int>(o.rows)), ""},
      {"train_rows", "train", "runs", i64(static_cast<int>(o.train_rows)), ""},
      {"validation_rows", "validation", "runs", i64(static_cast<int>(o.validation_rows)), ""},
  };
  if (o.curves.empty()) {
    const fit::Solution& sol = o.solution;
    fit.fields.insert(fit.fields.end(), {
        {"objective_kind", "objective", "", std::string(s.objective == fit::Objective::huber_nll ? "huber-nll" : "huber"),
         s.objective == fit::Objective::huber_nll ? "Huber negative log-likelihood, scale fitted (--objective)"
                                                  : "sum of Huber losses (--objective)"},
        {"huber_delta", "δ", "", s.huber_delta,
         s.objective == fit::Objective::huber_nll ? "Huber threshold, in units of the fitted scale σ"
                                                  : "Huber threshold on log residuals"},
        {"starts", "starts", "", i64(static_cast<int>(sol.starts)), "grid points optimised from"},
        {"converged_starts", "converged", "", i64(static_cast<int>(sol.converged_starts)), ""},
        {"converged", "best converged", "", sol.converged, ""},
        {"iterations", "iterations", "", i64(static_cast<int>(sol.iterations)), "of the best start"},
        {"objective", "objective", "", sol.objective,
         s.objective == fit::Objective::huber_nll ? "negative log-likelihood at the optimum"
                                                  : "Huber sum (or ½Σr² for LM) at the optimum"},
        {"polished", "LM polish", "", sol.polished,
         "whether a least-squares polish finished the fit (only when every residual lies within δ)"},
        {"seed", "seed", "", static_cast<std::int64_t>(s.seed), ""},
        {"bootstrap", "bootstrap", "", i64(static_cast<int>(o.bootstrap_done)), "successful resamples"},
        {"confidence", "confidence", "", s.confidence, "level of the _low/_high percentile intervals"},
    });
  }
  r.sections.push_back(std::move(fit));
  Section q{"quality", "Quality (training rows)", {}};
  add_quality(q, "", o.train);
  q.fields.push_back({"constant_model_rmse", "RMSE of mean", "target units", o.constant_model_rmse,
                      "predicting the mean: the bar to beat"});
  r.sections.push_back(std::move(q));
  if (o.validation) {  // held-out rows have their own section: never under "training rows"
    Section v{"validation", "Quality (validation rows, held out by --holdout)", {}};
    add_quality(v, "", *o.validation);
    r.sections.push_back(std::move(v));
  }
  add_estimates(r, "coefficients", "Coefficients", o.coefficients);
  add_estimates(r, "derived", "Derived", o.derived);
  for (std::size_t k = 0; k < o.curves.size(); ++k) {
    const fit::CurveFit& cf = o.curves[k];
    Section s2{"curves", "Curve " + cf.group, {}, true};
    s2.fields.push_back({"group", "group", "", cf.group, ""});
    for (const fit::Estimate& e : cf.coefficients) s2.fields.push_back({e.name, e.name, "", e.value, e.description});
    for (const fit::Estimate& e : cf.derived) s2.fields.push_back({e.name, e.name, "", e.value, e.description});
    s2.fields.push_back({"r2", "R²", "", cf.quality.r2, ""});
    s2.fields.push_back({"rmse", "RMSE", "", cf.quality.rmse, ""});
    r.sections.push_back(std::move(s2));
  }
  // Always present, empty or not, so the CSV header is the same on every run.
  r.sections.push_back({"warnings", "Warnings", {{"messages", "!", "", TextList(o.warnings), ""}}});
  return r;
}

std::string fitted_laws_toml(const fit::FitOutcome& o, const FitContext& c,
                             const std::string& date_utc) {
  if (o.planner_toml.empty()) return {};
  // Keys and strings through toml++ (it escapes paths and prose); the law sections come
  // pre-formatted with their citation comments, which a TOML serialiser would drop.
  toml::table provenance{
      {"tool", std::string("moeplan ") + MOEPLAN_VERSION},
      {"input", c.source},
      {"input_md5", c.md5},
      {"date", date_utc},
      {"rows", static_cast<std::int64_t>(o.rows)},
      {"train_rows", static_cast<std::int64_t>(o.train_rows)},
      {"validation_rows", static_cast<std::int64_t>(o.validation_rows)},
      {"law", o.law->name},
      {"method", o.method.empty() ? o.law->method : o.method},
      {"huber_delta", c.settings->huber_delta},
      {"seed", static_cast<std::int64_t>(c.settings->seed)},
      {"starts", static_cast<std::int64_t>(o.solution.starts)},
      {"objective", o.solution.objective},
      {"converged", o.solution.converged},
      {"r2", o.train.r2},
      {"rmse", o.train.rmse},
  };
  if (o.validation) provenance.insert("validation_rmse", o.validation->rmse);
  if (o.bootstrap_done > 0) provenance.insert("bootstrap", static_cast<std::int64_t>(o.bootstrap_done));
  // Every fitted coefficient and derived value (the law sections below carry only what the
  // planner reads, e.g. Chinchilla's A, α, B, β, E only through Eq. 2's coefficients).
  // The loader skips [provenance], so these are a record, not an overlay.
  const auto table_of = [](const std::vector<fit::Estimate>& est) {
    toml::table t;
    for (const fit::Estimate& e : est) {
      if (std::isfinite(e.value)) t.insert(e.name, e.value);
    }
    return t;
  };
  if (!o.coefficients.empty()) provenance.insert("coefficients", table_of(o.coefficients));
  if (!o.derived.empty()) provenance.insert("derived", table_of(o.derived));
  const toml::table doc{{"schema", "moeplan-laws/1"},
                        {"name", "fit-" + o.law->name},
                        {"description", o.law->title},
                        {"provenance", std::move(provenance)}};
  std::ostringstream text;
  text << "# Laws fitted by `moeplan fit` (" << o.law->name
       << "). Use with: moeplan suggest --laws FILE, moeplan score --laws FILE.\n"
       << "# Only the law sections below replace the embedded ones; every other law stays as "
          "published.\n"
       << doc << "\n\n"
       << o.planner_toml;
  return text.str();
}

std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string out = "\"";
  for (char ch : v) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string residuals_csv(const fit::FitOutcome& o) {
  // RFC 4180 quoting for the one free-text column (family names may hold commas).
  const auto field = csv_field;
  std::string s = "line,split,group,observed,predicted,residual,relative_residual\n";
  for (const fit::ResidualRow& r : o.residuals) {
    const double e = r.predicted - r.observed;
    s += fmt::format("{},{},{},{:.10g},{:.10g},{:.6g},{:.6g}\n", r.line,
                     r.validation ? "validation" : "train", field(r.group), r.observed,
                     r.predicted, e, e / r.observed);
  }
  return s;
}

}  // namespace moeplan::cli
