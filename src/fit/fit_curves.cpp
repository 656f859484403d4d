#include "fit_curves.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "fit_autodiff.hpp"
#include "fit_text.hpp"
#include "moeplan/laws/efficiency_leverage.hpp"
#include "moeplan/fit/power_law_fit.hpp"

namespace moeplan::fit {
namespace {


// ---- paper 000 Algorithm 1 line 3: L(C) = A·C^−α + E
struct LossCurveLaw {
  static constexpr int parameters = 3;  // ln A, α, ln E
  static constexpr int inputs = 1;      // ln C
  template <class T>
  T operator()(const T* t, const double* x) const {
    using std::exp;
    return exp(t[0] - t[1] * x[0]) + exp(t[2]);
  }
};

// Rows grouped by a key, groups in order of first appearance.
template <class Key>
std::vector<std::pair<Key, std::vector<std::size_t>>> group_rows(const std::vector<Key>& keys) {
  std::vector<std::pair<Key, std::vector<std::size_t>>> groups;
  std::map<Key, std::size_t> index;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto [it, inserted] = index.emplace(keys[i], groups.size());
    if (inserted) groups.push_back({keys[i], {}});
    groups[it->second].second.push_back(i);
  }
  return groups;
}

std::optional<double> constant_in(const RunTable& t, const std::string& col,
                                  const std::vector<std::size_t>& rows) {
  if (!t.has(col)) return std::nullopt;
  const auto& v = t.col(col);
  for (std::size_t i : rows) {
    if (v[i] != v[rows.front()]) return std::nullopt;
  }
  return v[rows.front()];
}

}  // namespace

std::expected<FitOutcome, std::string> fit_loss_curves(const RunTable& t, const LawInfo& law,
                                                        const FitSettings& s) {
  const auto& family = t.text.at("family");
  const auto& C = t.col("C");
  const auto& L = t.col("loss");
  FitOutcome out;
  out.law = &law;
  out.rows = out.train_rows = t.rows;
  std::map<std::string, LossCurve> curves;
  const auto groups = group_rows(family);
  std::size_t done = 0;
  for (const auto& [name, rows] : groups) {
    std::set<double> distinct;
    for (std::size_t i : rows) distinct.insert(C[i]);
    if (distinct.size() < 4) {
      return std::unexpected(fmt::format(
          "family '{}' has {} distinct compute budget(s); L(C) = E + A·C^−α has 3 coefficients "
          "and needs at least 4", name, distinct.size()));
    }
    std::vector<double> x, y;
    for (std::size_t i : rows) {
      x.push_back(std::log(C[i]));
      y.push_back(L[i]);
    }
    AutoDiffModel<LossCurveLaw> model(x);
    Problem p{&model, y,
              {{"log_A", -20, 80, {0, 5, 10, 15, 20}},
               {"alpha", 1e-4, 3, {0.05, 0.1, 0.2, 0.3}},
               {"log_E", -20, 5, {-1, 0, 0.5, 1}}},
              ResidualSpace::log, Method::levenberg_marquardt};
    Options o;
    o.max_starts = s.max_starts;
    const std::vector<double> w(y.size(), 1.0);
    const Solution sol = minimise(p, w, o);
    const LossCurve curve{std::exp(sol.theta[0]), sol.theta[1], std::exp(sol.theta[2])};
    curves[name] = curve;
    std::vector<double> pred;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      pred.push_back(curve.at(Flops(C[rows[k]])));
      out.residuals.push_back({t.line[rows[k]], false, name, y[k], pred.back()});
    }
    CurveFit cf;
    cf.group = name;
    cf.rows = rows.size();
    cf.coefficients = {{"A", curve.coefficient, {}, {}, "L(C) = A·C^−alpha + E"},
                       {"alpha", curve.exponent, {}, {}, ""},
                       {"E", curve.floor, {}, {}, "loss floor"}};
    cf.quality = quality(y, pred);
    for (const std::string& b : sol.at_bound) {
      out.warnings.push_back(fmt::format("family '{}': {} sits on its search bound", name, b));
    }
    out.curves.push_back(std::move(cf));
    if (s.progress) s.progress("families", ++done, groups.size());
  }
  const auto dense = curves.find(s.dense_family);
  if (dense == curves.end()) {
    return std::unexpected(fmt::format(
        "no rows of the dense baseline family '{}' (set it with --dense-family); EL compares "
        "every family against it", s.dense_family));
  }
  // Algorithm 1: EL at each budget a family was trained at.
  std::string csv = "family,A,granularity,C,EL\n";
  std::size_t undefined = 0;
  for (const auto& [name, rows] : groups) {
    if (name == s.dense_family) continue;
    const auto A = constant_in(t, "A", rows);
    const auto G = constant_in(t, "granularity", rows);
    std::set<double> budgets;
    for (std::size_t i : rows) budgets.insert(C[i]);
    double last = 0;
    for (double c : budgets) {
      const auto el = efficiency_leverage_from_curves(dense->second, curves[name], Flops(c));
      if (!el) {
        ++undefined;
        continue;
      }
      csv += fmt::format("{},{},{},{},{}\n", name, A ? num(*A) : "", G ? num(*G) : "", num(c), num(*el));
      last = *el;
    }
    out.derived.push_back({"el_" + name, last, {}, {},
                           fmt::format("EL of '{}' against '{}' at its largest budget", name, s.dense_family)});
  }
  if (undefined > 0) {
    out.warnings.push_back(fmt::format(
        "{} EL point(s) undefined: the MoE loss lies below the dense curve's floor there", undefined));
  }
  out.el_points_csv = std::move(csv);
  std::vector<double> obs, pred;
  for (const ResidualRow& r : out.residuals) {
    obs.push_back(r.observed);
    pred.push_back(r.predicted);
  }
  out.train = quality(obs, pred);
  out.constant_model_rmse = mean_model_rmse(obs);
  out.solution.converged = true;
  return out;
}

namespace {

struct ScaleCurve {
  double C = 0;
  Eigen::Vector3d coef;  // m-over-na: a, b, c; hidden-size: p, q, r
  double x_opt = 0, loss_opt = 0, band_low = 0, band_high = 0;
};

// Roots of α x² + β x + γ (real, ascending), or nothing.
std::optional<std::pair<double, double>> roots(double a, double b, double c) {
  const double disc = b * b - 4 * a * c;
  if (a == 0 || disc < 0) return std::nullopt;
  const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
  double r1 = q / a, r2 = c / q;
  if (r1 > r2) std::swap(r1, r2);
  return std::pair{r1, r2};
}

}  // namespace

std::expected<FitOutcome, std::string> fit_scale_curves(const RunTable& t, const LawInfo& law,
                                                        const FitSettings& s) {
  const bool m_form = law.kind == LawKind::m_over_na;
  const std::string xname = m_form ? "m_over_na" : "d";
  const auto& C = t.col("C");
  const auto& X = t.col(xname);
  const auto& L = t.col("loss");
  FitOutcome out;
  out.law = &law;
  out.rows = out.train_rows = t.rows;
  std::vector<ScaleCurve> scales;
  std::vector<double> obs, pred;
  for (const auto& [c, rows] : group_rows(C)) {
    std::set<double> distinct;
    for (std::size_t i : rows) distinct.insert(X[i]);
    if (distinct.size() < 4) {
      return std::unexpected(fmt::format(
          "compute scale C = {:.4g} has {} distinct {} value(s); the per-scale curve has 3 "
          "coefficients and needs at least 4", c, distinct.size(), xname));
    }
    Eigen::MatrixXd design(static_cast<Eigen::Index>(rows.size()), 3);
    Eigen::VectorXd y(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double x = X[rows[k]];
      const auto r = static_cast<Eigen::Index>(k);
      if (m_form && !(x > 6)) {
        return std::unexpected(fmt::format("{}:{}: m_over_na must exceed 6 (paper 002 Eq. 5), got {}",
                                           t.source, t.line[rows[k]], x));
      }
      design.row(r) << (m_form ? 1 / (x - 6) : x * x), x, 1.0;
      y(r) = L[rows[k]];
    }
    ScaleCurve sc;
    sc.C = c;
    sc.coef = design.colPivHouseholderQr().solve(y);
    const double a = sc.coef(0), b = sc.coef(1), cc = sc.coef(2);
    const auto at = [&](double x) { return m_form ? a / (x - 6) + b * x + cc : a * x * x + b * x + cc; };
    if (m_form ? !(a > 0 && b > 0) : !(a > 0)) {
      return std::unexpected(fmt::format(
          "C = {:.4g}: the fitted curve has no interior minimum ({}); the sweep does not "
          "bracket the optimum", c,
          m_form ? fmt::format("needs a > 0 and b > 0, got a = {:.4g}, b = {:.4g}", a, b)
                 : fmt::format("needs a positive d² coefficient, got {:.4g}", a)));
    }
    sc.x_opt = m_form ? 6 + std::sqrt(a / b) : -b / (2 * a);
    sc.loss_opt = at(sc.x_opt);
    const double target = sc.loss_opt * (1 + s.band);
    // m-over-na: a/(x−6) + bx + c = T ⇔ b x² + (c − T − 6b) x + a − 6(c − T) = 0.
    const auto edges = m_form ? roots(b, cc - target - 6 * b, a - 6 * (cc - target))
                              : roots(a, b, cc - target);
    if (!edges) return std::unexpected(fmt::format("C = {:.4g}: no near-optimal band", c));
    std::tie(sc.band_low, sc.band_high) = *edges;
    std::vector<double> yy, pp;
    for (std::size_t i : rows) {
      yy.push_back(L[i]);
      pp.push_back(at(X[i]));
      out.residuals.push_back({t.line[i], false, fmt::format("C={:.4g}", c), L[i], pp.back()});
      obs.push_back(L[i]);
      pred.push_back(pp.back());
    }
    CurveFit cf;
    cf.group = fmt::format("C={:.4g}", c);
    cf.rows = rows.size();
    const char* names[3] = {m_form ? "a" : "p", m_form ? "b" : "q", m_form ? "c" : "r"};
    for (int j = 0; j < 3; ++j) cf.coefficients.push_back({names[j], sc.coef(j), {}, {}, ""});
    cf.derived = {{xname + "_opt", sc.x_opt, {}, {}, "minimum of the fitted curve"},
                  {"loss_opt", sc.loss_opt, {}, {}, ""},
                  {"band_low", sc.band_low, {}, {}, fmt::format("loss within {:g} % of the minimum", 100 * s.band)},
                  {"band_high", sc.band_high, {}, {}, ""}};
    cf.quality = quality(yy, pp);
    out.curves.push_back(std::move(cf));
    scales.push_back(sc);
  }
  if (scales.size() < 2) {
    return std::unexpected(fmt::format("only {} compute scale(s); the power laws across scales need at least 2",
                                       scales.size()));
  }
  std::vector<double> cs, opt, lo, hi;
  for (const ScaleCurve& sc : scales) {
    cs.push_back(sc.C);
    opt.push_back(sc.x_opt);
    lo.push_back(sc.band_low);
    hi.push_back(sc.band_high);
  }
  const auto low_fit = fit_power_law(cs, lo);
  const auto high_fit = fit_power_law(cs, hi);
  if (!low_fit || !high_fit) {
    return std::unexpected("the near-optimal band across scales: " + (low_fit ? high_fit.error() : low_fit.error()));
  }
  const PowerLaw low = *low_fit;
  const PowerLaw high = *high_fit;
  std::string toml;
  if (m_form) {
    const auto m_fit = derive_m_over_na_law(cs, opt);
    if (!m_fit) return std::unexpected("the M/N_a law across scales: " + m_fit.error());
    const MOverNaLaw m = *m_fit;
    out.coefficients = {{"coefficient", m.score_share.coefficient, {}, {}, "s(C) = coefficient·C^exponent, M/N_a = 6/(1 − s)"},
                        {"exponent", m.score_share.exponent, {}, {}, ""}};
    toml = fmt::format("[m_over_na]\n# Paper 002 Sec. 5.3 refitted: per-scale optima of L = a/(x-6) + b*x + c,\n"
                       "# as the score-share power law of presets/laws/holistic.toml.\n"
                       "form = \"score-share-power-law\"\ncoefficient = {}\nexponent = {}\npoints = [\n",
                       num(m.score_share.coefficient), num(m.score_share.exponent));
    for (const ScaleCurve& sc : scales) toml += fmt::format("  [{}, {}],\n", num(sc.C), num(sc.x_opt));
    toml += "]\n";
  } else {
    const auto d_fit = fit_power_law(cs, opt);
    if (!d_fit) return std::unexpected("the d law across scales: " + d_fit.error());
    const PowerLaw d = *d_fit;
    out.coefficients = {{"coefficient", d.coefficient, {}, {}, "d_opt(C) = coefficient·C^exponent"},
                        {"exponent", d.exponent, {}, {}, ""}};
    toml = fmt::format("[d_law]\n# Paper 002 Sec. 6 refitted: power law of the per-scale quadratic minima.\n"
                       "coefficient = {}\nexponent = {}\n", num(d.coefficient), num(d.exponent));
  }
  toml += fmt::format("# near-optimal band (loss within {:g} %): {} low = {} * C^{}, high = {} * C^{}\n",
                      100 * s.band, xname, num(low.coefficient), num(low.exponent),
                      num(high.coefficient), num(high.exponent));
  out.derived = {{"band_low_coefficient", low.coefficient, {}, {}, xname + " lower band edge = coefficient·C^exponent"},
                 {"band_low_exponent", low.exponent, {}, {}, ""},
                 {"band_high_coefficient", high.coefficient, {}, {}, xname + " upper band edge"},
                 {"band_high_exponent", high.exponent, {}, {}, ""}};
  out.planner_toml = std::move(toml);
  out.train = quality(obs, pred);
  out.constant_model_rmse = mean_model_rmse(obs);
  out.solution.converged = true;
  return out;
}

}  // namespace moeplan::fit
