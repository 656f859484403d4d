// The law catalogue of `moeplan fit`, column detection, and the pointwise fitting flow:
// split (holdout), grid fit, quality, bootstrap intervals, warnings, residuals.
#include "moeplan/fit/fit_laws.hpp"
#include "moeplan/fit/sample_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "fit_curves.hpp"
#include "fit_pointwise.hpp"

namespace moeplan::fit {
namespace {

ColumnSpec positive(const char* name, const char* meaning) {
  return {name, ColumnKind::positive, true, meaning};
}

const ColumnSpec kN = positive("N", "total non-embedding parameters");
const ColumnSpec kNa = positive("N_a", "activated non-embedding parameters per token");
const ColumnSpec kD = positive("D", "training tokens");
const ColumnSpec kC = positive("C", "training compute, FLOPs");
const ColumnSpec kLoss = positive("loss", "final validation loss (any consistent unit: nats, BPC)");

}  // namespace

const std::vector<LawInfo>& fit_laws() {
  static const std::vector<LawInfo> laws = {
      {LawKind::chinchilla, "chinchilla",
       "L(N, D) = E + A/N^α + B/D^β (Hoffmann et al. 2022; paper 001 Eq. 4)",
       {kN, kD, kLoss},
       "Huber (δ) on log residuals, L-BFGS-B from the Hoffmann et al. App. D.2 grid (4500 starts)",
       "compute_optimal"},
      {LawKind::activation, "activation",
       "L(N, D, N_a) = a/N^α + b/D^β + c/N_a^α + h·N_a/N + ε (paper 001 Eq. 7)",
       {kN, kNa, kD, kLoss,
        {"C", ColumnKind::positive, false, "training compute, FLOPs (for the equal-compute optimum)"}},
       "Huber (δ) on log residuals, L-BFGS-B from a 972-point grid",
       ""},
      {LawKind::joint, "joint",
       "L(N, D, N_a, G, S) (paper 001 Eq. 11, Table 2)",
       {kN, kNa, kD, positive("G", "activated experts per token, shared included (paper 001 Eq. 2)"),
        {"S", ColumnKind::unit_closed, true, "shared share of activated experts n_s/G (paper 001 Eq. 3)"},
        kLoss},
       "Huber (δ) on log residuals, L-BFGS-B from a 324-point grid, LM polish",
       "joint_loss"},
      {LawKind::loss_curves, "loss-curves",
       "L(C) = E + A·C^−α per family, then EL = C_dense(L_MoE(C))/C (paper 000 Algorithm 1)",
       {{"family", ColumnKind::text, true, "architecture name; the dense baseline is --dense-family"},
        kC, kLoss,
        {"A", ColumnKind::unit_open, false, "activation ratio of the family (for EL points)"},
        {"granularity", ColumnKind::positive, false, "2d/d_expert of the family (for EL points)"}},
       "least squares on log L by Levenberg–Marquardt from an 80-point grid, per family",
       ""},
      {LawKind::leverage, "leverage",
       "EL(A, G, C) = Â^(a + d·log10 C + γ(log2 G)² + β log2 G) (paper 000 Eq. 1, 4; Table 6)",
       {{"A", ColumnKind::unit_open, true, "activation ratio (E_a + E_s)/(E + E_s)"},
        positive("granularity", "2d/d_expert (paper 000's G)"), kC,
        positive("EL", "efficiency leverage C_dense/C_MoE")},
       "Huber (δ) on log residuals, L-BFGS-B from a 144-point grid (paper 000 Sec. 4.2)",
       "efficiency_leverage"},
      {LawKind::optimal_ratio, "optimal-ratio",
       "r*(C, S) = α_r·C^β_r, α_r = a(1−S)^p, β_r = b(1−S)^q (paper 004 Sec. 3.3)",
       {kC, {"sparsity", ColumnKind::unit_right_open, true,
             "paper 004's S: fraction of inactive experts (E − E_act)/E"},
        positive("r", "optimal expert/attention FLOPs ratio at (C, S)")},
       "least squares on log r by Levenberg–Marquardt from a 24-point grid",
       "optimal_ratio"},
      {LawKind::m_over_na, "m-over-na",
       "per scale L = a/(x−6) + b·x + c, x = M/N_a; then power laws of x_opt and the band (paper 002 Sec. 5.3)",
       {kC, positive("m_over_na", "M/N_a, FLOPs per token over activated parameters (> 6)"), kLoss},
       "linear least squares per scale, log–log least squares across scales",
       "m_over_na"},
      {LawKind::hidden_size, "hidden-size",
       "per scale L = p·d² + q·d + r; then power laws of d_opt and the band (paper 002 Sec. 6)",
       {kC, positive("d", "hidden size"), kLoss},
       "linear least squares per scale, log–log least squares across scales",
       "d_law"},
  };
  return laws;
}

const LawInfo* find_law(std::string_view name) {
  for (const LawInfo& l : fit_laws()) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

const LawInfo& law_info(LawKind kind) {
  for (const LawInfo& l : fit_laws()) {
    if (l.kind == kind) return l;
  }
  throw std::logic_error("law_info: a LawKind without a catalogue entry");
}

std::expected<LawKind, std::string> detect_law(const std::vector<std::string>& header) {
  const std::set<std::string> h(header.begin(), header.end());
  const auto all = [&](std::initializer_list<const char*> names) {
    return std::ranges::all_of(names, [&](const char* n) { return h.contains(n); });
  };
  // Most specific first: a table with G and S is a joint-law table even though it also
  // has the columns of Eq. 7 and of Chinchilla.
  if (all({"EL"})) return LawKind::leverage;
  if (all({"r", "sparsity"})) return LawKind::optimal_ratio;
  if (all({"m_over_na", "loss"})) return LawKind::m_over_na;
  if (all({"N", "N_a", "D", "G", "S", "loss"})) return LawKind::joint;
  if (all({"N", "N_a", "D", "loss"})) return LawKind::activation;
  if (all({"N", "D", "loss"})) return LawKind::chinchilla;
  if (all({"d", "C", "loss"})) return LawKind::hidden_size;
  if (all({"family", "C", "loss"})) return LawKind::loss_curves;
  std::string why = "no law matches these columns; each law needs:";
  for (const LawInfo& l : fit_laws()) {
    std::vector<std::string> req;
    for (const ColumnSpec& c : l.columns) {
      if (c.required) req.push_back(c.name);
    }
    why += fmt::format("\n  {:<14} {}", l.name, fmt::join(req, ", "));
  }
  return std::unexpected(why + "\n(rename columns with --column LAW_NAME=CSV_NAME, or pick --law)");
}

std::vector<ColumnSpec> columns_for(LawKind law, const FitSettings& settings) {
  std::vector<ColumnSpec> cols = law_info(law).columns;
  if (!settings.holdout_column.empty()) {
    cols.push_back({settings.holdout_column, ColumnKind::flag, true,
                    "holdout flag: 1/true/validation marks a validation row"});
  }
  return cols;
}

namespace {

// Uniform index in [0, n) from a 64-bit draw, identical on every platform (unlike
// std::uniform_int_distribution, whose algorithm the standard leaves open); the modulo
// bias is below n/2^64.
std::size_t draw(std::mt19937_64& rng, std::size_t n) {
  return static_cast<std::size_t>(rng() % n);
}

std::vector<double> holdout_weights(const RunTable& t, const FitSettings& s, std::mt19937_64& rng) {
  std::vector<double> w(t.rows, 1.0);
  if (!s.holdout_column.empty()) {
    const auto& flag = t.col(s.holdout_column);
    for (std::size_t i = 0; i < t.rows; ++i) w[i] = flag[i] != 0 ? 0.0 : 1.0;
  } else if (s.holdout_fraction > 0) {
    std::vector<std::size_t> order(t.rows);
    for (std::size_t i = 0; i < t.rows; ++i) order[i] = i;
    for (std::size_t i = t.rows; i > 1; --i) std::swap(order[i - 1], order[draw(rng, i)]);
    const auto k = static_cast<std::size_t>(std::lround(s.holdout_fraction * static_cast<double>(t.rows)));
    for (std::size_t i = 0; i < k; ++i) w[order[i]] = 0.0;
  }
  return w;
}

// Degenerate data gets a message, not a garbage fit: too few rows for the coefficients,
// a constant target, an input that never varies, or two inputs that vary in lockstep
// (their effects cannot be separated).
std::optional<std::string> degenerate(const RunTable& t, const LawInfo& law,
                                      std::size_t train_rows, std::size_t coefficients,
                                      const std::string& target) {
  if (train_rows <= coefficients) {
    return fmt::format("law '{}' has {} coefficients; {} training row(s) cannot determine them "
                       "(need at least {})",
                       law.name, coefficients, train_rows, coefficients + 1);
  }
  for (const ColumnSpec& c : law.columns) {
    if (c.kind == ColumnKind::text || !c.required) continue;
    const auto& v = t.col(c.name);
    if (std::ranges::all_of(v, [&](double x) { return x == v.front(); })) {
      if (c.name == target) {
        return fmt::format("column '{}' is constant ({}) in every row: there is nothing to fit",
                           c.name, v.front());
      }
      return fmt::format("column '{}' ({}) has the single value {} in every row: law '{}' "
                         "cannot separate its effect; vary it or fit a law without it",
                         c.name, c.meaning, v.front(), law.name);
    }
  }
  // Two inputs that move in lockstep (e.g. D = 20·N in every run) cannot have their
  // effects told apart: the fit would trade one exponent against the other. Power laws act
  // on logs, so positive columns are compared in log space.
  std::vector<std::pair<const ColumnSpec*, std::vector<double>>> inputs;
  for (const ColumnSpec& c : law.columns) {
    if (c.kind == ColumnKind::text || c.kind == ColumnKind::flag || !c.required || c.name == target) continue;
    std::vector<double> v = t.col(c.name);
    if (c.kind == ColumnKind::positive) {
      for (double& x : v) x = std::log(x);
    }
    inputs.emplace_back(&c, std::move(v));
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (std::size_t j = i + 1; j < inputs.size(); ++j) {
      const double r = correlation(inputs[i].second, inputs[j].second);
      if (std::abs(r) >= 1 - 1e-10) {
        const bool logs = inputs[i].first->kind == ColumnKind::positive;
        return fmt::format("columns '{}' and '{}' are collinear{} in every row (correlation {:.12g}): "
                           "law '{}' cannot separate their effects; vary them independently",
                           inputs[i].first->name, inputs[j].first->name,
                           logs ? " in log space" : "", r, law.name);
      }
    }
  }
  return std::nullopt;
}

std::string target_of(LawKind k) {
  switch (k) {
    case LawKind::leverage: return "EL";
    case LawKind::optimal_ratio: return "r";
    default: return "loss";
  }
}

// An optimum the data never came near, or an interval wider than the value, is stated: the
// fit extrapolates there (a held-out joint fit once put S_opt at 15 with S in [0, 0.33]).
void flag_extrapolated_optima(const RunTable& t, FitOutcome& out) {
  const auto span = [&](const std::string& optimum) -> std::optional<std::pair<std::string, std::pair<double, double>>> {
    const auto range_of = [&](const std::vector<double>& v) {
      return std::pair{*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end())};
    };
    if (optimum == "G_opt" && t.numeric.contains("G")) return std::pair{std::string("G"), range_of(t.col("G"))};
    if (optimum == "S_opt" && t.numeric.contains("S")) return std::pair{std::string("S"), range_of(t.col("S"))};
    if (optimum.rfind("optimal_active_ratio", 0) == 0 && t.numeric.contains("N_a") && t.numeric.contains("N")) {
      std::vector<double> ratio;
      for (std::size_t i = 0; i < t.rows; ++i) ratio.push_back(t.col("N_a")[i] / t.col("N")[i]);
      return std::pair{std::string("N_a/N"), range_of(ratio)};
    }
    return std::nullopt;
  };
  for (const Estimate& e : out.derived) {
    if (!std::isfinite(e.value)) continue;
    if (auto r = span(e.name)) {
      const auto [lo, hi] = r->second;
      if (e.value < lo || e.value > hi) {
        out.warnings.push_back(fmt::format(
            "{} = {:.4g} lies outside the data's {} range [{:.4g}, {:.4g}]: the law is "
            "extrapolated there, so treat it as a direction, not a value",
            e.name, e.value, r->first, lo, hi));
      }
    }
  }
  for (const std::vector<Estimate>* set : {&out.coefficients, &out.derived}) {
    for (const Estimate& e : *set) {
      if (e.low && e.high && std::isfinite(e.value) && *e.high - *e.low > std::abs(e.value)) {
        out.warnings.push_back(fmt::format(
            "{}: the bootstrap interval [{:.4g}, {:.4g}] is wider than the value {:.4g}; the "
            "data do not pin it down",
            e.name, *e.low, *e.high, e.value));
      }
    }
  }
}

std::expected<FitOutcome, std::string> fit_pointwise(const RunTable& t, const LawInfo& info,
                                                     const FitSettings& s) {
  PointwiseLaw law = make_pointwise_law(info.kind, t, s);
  Problem problem{law.model.get(), law.target, law.parameters, law.space, law.method, s.objective};
  std::mt19937_64 rng(s.seed);
  const std::vector<double> w = holdout_weights(t, s, rng);
  FitOutcome out;
  out.law = &info;
  out.rows = t.rows;
  for (double x : w) (x > 0 ? out.train_rows : out.validation_rows) += 1;
  if (auto why = degenerate(t, info, out.train_rows, law.parameters.size(), target_of(info.kind))) {
    return std::unexpected(*why);
  }
  Options o;
  o.huber_delta = s.huber_delta;
  o.max_starts = s.max_starts;
  o.max_iterations = s.max_iterations;
  if (s.progress) o.progress = [&](std::size_t d, std::size_t n) { s.progress("grid", d, n); };
  out.solution = minimise(problem, w, o);
  const Solution& sol = out.solution;
  if (sol.objective >= 1e29) {
    return std::unexpected(fmt::format(
        "law '{}': no grid start reached a point where the law is defined for every row "
        "(prediction ≤ 0 everywhere tried); the data do not look like this law", info.name));
  }
  out.method = info.method;
  if (s.objective == Objective::huber_nll && law.method == Method::huber_lbfgs) {
    out.method += fmt::format("; objective: Huber negative log-likelihood with a fitted scale "
                              "(δ = {:g} in units of σ)", s.huber_delta);
  }
  if (s.max_starts > 0 && sol.starts == s.max_starts) {
    out.method += fmt::format("; optimised from the best {} of them by initial objective (--starts)",
                              sol.starts);
  }
  const std::vector<double> coef = law.coefficients(sol.theta);
  const std::vector<double> der = law.derived(coef);
  for (std::size_t j = 0; j < coef.size(); ++j) {
    out.coefficients.push_back({law.coefficient_names[j].name, coef[j], {}, {},
                                law.coefficient_names[j].description});
  }
  // A derived value outside its law's domain is no result: null with the reason.
  const auto why_undefined = [&](std::size_t j, double value, const std::vector<double>& c) {
    const DerivedName& named = law.derived_names[j];
    std::string why = named.domain ? named.domain(value, c) : std::string();
    if (why.empty() && !std::isfinite(value)) why = "the formula is undefined at the fitted coefficients";
    return why;
  };
  for (std::size_t j = 0; j < der.size(); ++j) {
    Estimate e;
    e.name = law.derived_names[j].name;
    e.value = der[j];
    e.description = law.derived_names[j].description;
    e.undefined_reason = why_undefined(j, der[j], coef);
    if (!e.undefined_reason.empty()) e.value = std::numeric_limits<double>::quiet_NaN();
    out.derived.push_back(std::move(e));
  }
  out.train = quality(problem, sol.theta, w);
  if (out.validation_rows > 0) {
    std::vector<double> vw(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) vw[i] = w[i] > 0 ? 0.0 : 1.0;
    out.validation = quality(problem, sol.theta, vw);
  }
  {  // the bar to beat: predicting the training mean
    std::vector<double> train_y;
    for (std::size_t i = 0; i < t.rows; ++i) {
      if (w[i] > 0) train_y.push_back(law.target[i]);
    }
    out.constant_model_rmse = mean_model_rmse(train_y);
  }
  for (std::size_t i = 0; i < t.rows; ++i) {
    out.residuals.push_back({t.line[i], w[i] == 0, "", law.target[i],
                             law.model->predict(sol.theta.data(), i, nullptr)});
  }

  // Warnings: the optimiser's own doubts, stated plainly.
  if (!sol.converged) {
    out.warnings.push_back(fmt::format(
        "the best start stopped at the iteration cap (--max-iterations {} per optimiser run; "
        "{} iterations over its screening and refinement runs) before meeting the tolerance",
        s.max_iterations, sol.iterations));
  }
  for (const std::string& p : sol.at_bound) {
    out.warnings.push_back(fmt::format("{} sits on its search bound: the optimum may lie outside "
                                       "the range moeplan searches (docs/fit.md)", p));
  }
  if (sol.near_best_starts > 1 && sol.near_best_spread > 0.01) {
    out.warnings.push_back(fmt::format(
        "{} grid starts end within 0.01 % of the best objective but disagree on {} by {:.3g}: "
        "these data do not pin that coefficient down",
        sol.near_best_starts, sol.near_best_spread_parameter, sol.near_best_spread));
  }
  if (out.train.r2 <= 0) {
    out.warnings.push_back("R² ≤ 0: the law predicts no better than the mean loss");
  }

  // Bootstrap: resample the training rows with replacement, refit from the full-data
  // optimum, and take percentile intervals of every coefficient and derived value.
  if (s.bootstrap > 0) {
    std::vector<std::size_t> train;
    for (std::size_t i = 0; i < t.rows; ++i) {
      if (w[i] > 0) train.push_back(i);
    }
    std::vector<std::vector<double>> coef_samples(coef.size()), der_samples(der.size());
    Options bo = o;
    bo.progress = nullptr;
    for (std::size_t b = 0; b < s.bootstrap; ++b) {
      std::vector<double> bw(t.rows, 0.0);
      for (std::size_t k = 0; k < train.size(); ++k) bw[train[draw(rng, train.size())]] += 1;
      const Solution bs = refine(problem, bw, sol.theta, bo);
      if (s.progress) s.progress("bootstrap", b + 1, s.bootstrap);
      if (bs.objective >= 1e29) {
        ++out.bootstrap_failed;
        continue;
      }
      const std::vector<double> bc = law.coefficients(bs.theta);
      const std::vector<double> bd = law.derived(bc);
      for (std::size_t j = 0; j < bc.size(); ++j) coef_samples[j].push_back(bc[j]);
      for (std::size_t j = 0; j < bd.size(); ++j) {
        if (why_undefined(j, bd[j], bc).empty()) der_samples[j].push_back(bd[j]);
      }
      ++out.bootstrap_done;
    }
    const double lo = (1 - s.confidence) / 2, hi = 1 - lo;
    const auto fill = [&](std::vector<Estimate>& est, const std::vector<std::vector<double>>& samples) {
      for (std::size_t j = 0; j < est.size(); ++j) {
        if (samples[j].size() < 2 || !est[j].undefined_reason.empty()) continue;
        est[j].low = percentile(samples[j], lo);
        est[j].high = percentile(samples[j], hi);
      }
    };
    fill(out.coefficients, coef_samples);
    fill(out.derived, der_samples);
    if (out.bootstrap_failed > 0) {
      out.warnings.push_back(fmt::format("{} of {} bootstrap refits failed and were left out",
                                         out.bootstrap_failed, s.bootstrap));
    }
  }
  flag_extrapolated_optima(t, out);
  out.planner_toml = law.planner_toml(coef, der);
  return out;
}

}  // namespace

std::expected<FitOutcome, std::string> fit_runs(const RunTable& table, LawKind kind,
                                                const FitSettings& settings) {
  const LawInfo& info = law_info(kind);
  switch (kind) {
    case LawKind::loss_curves: return fit_loss_curves(table, info, settings);
    case LawKind::m_over_na:
    case LawKind::hidden_size: return fit_scale_curves(table, info, settings);
    default: return fit_pointwise(table, info, settings);
  }
}

}  // namespace moeplan::fit
