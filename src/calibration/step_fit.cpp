// The step model fitted to measured runs (docs/calibration.md, include/moeplan/calibration/
// step_fit.hpp). The step model is a sum of maxima of rooflines: piecewise smooth, with kinks
// where a term changes its binding rate, so the optimiser is derivative-free (dlib's BOBYQA,
// Powell 2009, box-constrained; a bounded line search for one parameter), in coordinates
// scaled to each parameter's physical range.
#include "moeplan/calibration/step_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include <dlib/optimization.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "moeplan/calibration/step_parameters.hpp"
#include "moeplan/fit/sample_statistics.hpp"

namespace moeplan::calibration {

namespace {

using Vec = dlib::matrix<double, 0, 1>;

double huber(double r, double delta) {
  const double a = std::abs(r);
  return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta);
}

// A prediction is never 0 in a fit's log: a term the model gives no time is a floor of a
// picosecond (it is checked away for measured terms before the fit; the step is never 0).
constexpr double k_floor_seconds = 1e-12;

// A parameter is exercised when moving it by a tenth of its range moves some run's step by
// more than this (relative): below it, the runs cannot inform it.
constexpr double k_exercised = 1e-6;

// Within 1 % of the range of a bound: at the bound (the data asks for more than the range).
constexpr double k_at_bound = 0.01;

// Bootstrap correlation past which two parameters are reported as not separable (the issue's
// threshold, docs/calibration.md).
constexpr double k_inseparable_correlation = 0.95;

bool is_fixed(const StepCase& c, std::string_view name) {
  return std::find(c.fixed.begin(), c.fixed.end(), name) != c.fixed.end();
}

struct Problem {
  std::span<const StepCase> cases;
  std::vector<const StepParameter*> params;
  std::vector<std::vector<std::pair<std::size_t, double>>> terms;  // per case: term index, seconds
  double delta = 0.1;

  [[nodiscard]] double value_of(std::size_t j, double u) const {
    return params[j]->lower + u * (params[j]->upper - params[j]->lower);
  }
  [[nodiscard]] double unit_of(std::size_t j, double v) const {
    return std::clamp((v - params[j]->lower) / (params[j]->upper - params[j]->lower), 0.0, 1.0);
  }
  [[nodiscard]] StepTermSeconds evaluate(std::size_t i, const Vec& u) const {
    const StepCase& c = cases[i];
    StepTimeOptions o = c.options;
    for (std::size_t j = 0; j < params.size(); ++j) {
      if (!is_fixed(c, params[j]->name)) params[j]->set(o, value_of(j, u(static_cast<long>(j))));
    }
    return step_term_seconds(c.model, c.counts, c.cluster, c.layout, o);
  }
  [[nodiscard]] double objective(std::span<const std::size_t> rows, const Vec& u) const {
    double sum = 0;
    for (std::size_t i : rows) {
      const StepTermSeconds t = evaluate(i, u);
      sum += huber(std::log(std::max(t.total, k_floor_seconds) / cases[i].measured_step_seconds), delta);
      for (const auto& [k, seconds] : terms[i]) {
        sum += huber(std::log(std::max(t.seconds[k], k_floor_seconds) / seconds), delta);
      }
    }
    return sum;
  }
};

// Minimises over the unit box from `u` (in place); the objective at the end.
double minimise(const Problem& p, std::span<const std::size_t> rows, Vec& u) {
  const long n = u.size();
  if (n == 0) return p.objective(rows, u);
  if (n == 1) {
    double x = u(0);
    const auto f = [&](double v) {
      Vec w(1);
      w(0) = v;
      return p.objective(rows, w);
    };
    const double best = dlib::find_min_single_variable(f, x, 0.0, 1.0, 1e-9, 200, 0.05);
    u(0) = x;
    return best;
  }
  const Vec lower = dlib::zeros_matrix<double>(n, 1);
  const Vec upper = dlib::ones_matrix<double>(n, 1);
  const auto f = [&](const Vec& w) { return p.objective(rows, w); };
  Vec start = u;
  try {
    return dlib::find_min_bobyqa(f, u, 2 * n + 1, lower, upper, 0.1, 1e-7, 4000);
  } catch (const dlib::bobyqa_failure&) {  // a degenerate model step: keep the start
    u = start;
    return p.objective(rows, u);
  }
}

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Which parameters some run exercises, at the runs' start values.
std::vector<const StepParameter*> exercised(std::span<const StepCase> cases,
                                            const std::vector<const StepParameter*>& candidates) {
  std::vector<const StepParameter*> out;
  for (const StepParameter* p : candidates) {
    bool moves = false;
    for (const StepCase& c : cases) {
      if (is_fixed(c, p->name)) continue;
      const double v = p->get(c.options);
      const double step = 0.1 * (p->upper - p->lower);
      StepTimeOptions o = c.options;
      p->set(o, std::clamp(v + (v + step <= p->upper ? step : -step), p->lower, p->upper));
      const double base = step_term_seconds(c.model, c.counts, c.cluster, c.layout, c.options).total;
      const double moved = step_term_seconds(c.model, c.counts, c.cluster, c.layout, o).total;
      if (std::abs(std::log(moved / base)) > k_exercised) {
        moves = true;
        break;
      }
    }
    if (moves) out.push_back(p);
  }
  return out;
}

}  // namespace

double predict_step_seconds(const StepCase& c, std::span<const std::pair<std::string, double>> values) {
  StepTimeOptions o = c.options;
  for (const auto& [name, v] : values) {
    const StepParameter* p = find_step_parameter(name);
    if (p && !is_fixed(c, name)) p->set(o, v);
  }
  return step_term_seconds(c.model, c.counts, c.cluster, c.layout, o).total;
}

namespace {

std::expected<StepFit, std::string> fit_runs(std::span<const StepCase> cases, const StepFitSettings& settings) {
  StepFit fit;
  Problem problem;
  problem.cases = cases;
  problem.delta = settings.huber_delta;
  // The measured terms, by index; a term the model gives no time on that run's layout cannot
  // be fitted in log space, and would be a different quantity: refused by name.
  const std::vector<std::string> names = step_term_names();
  for (const StepCase& c : cases) {
    if (!(c.measured_step_seconds > 0) || !std::isfinite(c.measured_step_seconds)) {
      return std::unexpected(fmt::format("{}: the measured step must be a positive number of seconds", c.id));
    }
    const StepTermSeconds t = step_term_seconds(c.model, c.counts, c.cluster, c.layout, c.options);
    std::vector<std::pair<std::size_t, double>> terms;
    for (const auto& [name, seconds] : c.measured_terms) {
      const auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) {
        return std::unexpected(fmt::format("{}: no step term '{}' (the terms: {})", c.id, name, fmt::join(names, ", ")));
      }
      const auto k = static_cast<std::size_t>(it - names.begin());
      if (!(t.seconds[k] > 0)) {
        return std::unexpected(fmt::format("{}: {} measured {:.4g} s, but the model gives that term no time on this "
                                           "layout (a term it does not incur: TP 1 has no TP collectives, ...)",
                                           c.id, name, seconds));
      }
      terms.emplace_back(k, seconds);
    }
    problem.terms.push_back(std::move(terms));
    fit.gpus.push_back(c.gpu);
    fit.precisions.push_back(c.precision);
    fit.dispatchers.push_back(c.dispatcher);
  }
  fit.gpus = sorted_unique(fit.gpus);
  fit.precisions = sorted_unique(fit.precisions);
  fit.dispatchers = sorted_unique(fit.dispatchers);

  // The parameters.
  std::vector<const StepParameter*> all;
  for (const StepParameter& p : step_parameters()) all.push_back(&p);
  const std::vector<const StepParameter*> moving = exercised(cases, all);
  const auto moves = [&](const StepParameter* p) { return std::find(moving.begin(), moving.end(), p) != moving.end(); };
  if (!settings.parameters.empty()) {
    for (const std::string& name : settings.parameters) {
      const StepParameter* p = find_step_parameter(name);
      if (!p) return std::unexpected(fmt::format("--fit-params: no parameter '{}' (the parameters: {})", name, step_parameter_names()));
      if (std::find(problem.params.begin(), problem.params.end(), p) != problem.params.end()) continue;
      if (!moves(p)) {
        fit.warnings.push_back(fmt::format("{}: no run exercises it (its value moves no run's step): not fitted", name));
        continue;
      }
      problem.params.push_back(p);
    }
  } else {
    // The GEMM efficiency of each precision the runs use: the term that dominates a step, and
    // the one a fit of a few runs can pin down. Fitting every parameter the runs exercise
    // over-fits: on the 16 benchmark rows of docs/validation.md the left-out error rises from
    // 9 % (the defaults) to 17 % with all eight (docs/calibration.md, "Which parameters").
    for (const char* name : {"gemm_efficiency", "fp8_gemm_efficiency"}) {
      const StepParameter* p = find_step_parameter(name);
      if (moves(p)) problem.params.push_back(p);
    }
    if (moving.size() > problem.params.size()) {
      std::vector<std::string> others;
      for (const StepParameter* p : moving) {
        if (std::find(problem.params.begin(), problem.params.end(), p) == problem.params.end()) others.emplace_back(p->name);
      }
      fit.notes.push_back(fmt::format("fitted the GEMM efficiency; the runs also exercise {} (--fit-params names "
                                      "them)", fmt::join(others, ", ")));
    }
  }
  const std::size_t n = problem.params.size();
  if (n > cases.size()) {
    fit.separable = false;
    fit.warnings.push_back(fmt::format("{} parameters from {} runs: they cannot be separated; the band is widened",
                                       n, cases.size()));
  }

  // The start: the runs' values (the first run's where they differ; the defaults in practice).
  Vec u0(static_cast<long>(n));
  for (std::size_t j = 0; j < n; ++j) u0(static_cast<long>(j)) = problem.unit_of(j, problem.params[j]->get(cases[0].options));
  std::vector<std::size_t> all_rows(cases.size());
  std::iota(all_rows.begin(), all_rows.end(), std::size_t{0});

  // The fit: from the start and from a few seeded points, the best kept.
  std::mt19937_64 rng(settings.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Vec best = u0;
  double best_objective = minimise(problem, all_rows, best);
  constexpr int k_extra_starts = 4;
  for (int s = 0; s < k_extra_starts && n > 0; ++s) {
    Vec u(static_cast<long>(n));
    for (long j = 0; j < u.size(); ++j) u(j) = unit(rng);
    const double obj = minimise(problem, all_rows, u);
    if (obj < best_objective - 1e-12) {
      best_objective = obj;
      best = u;
    }
  }
  fit.objective = best_objective;
  std::vector<std::pair<std::string, double>> fitted;
  for (std::size_t j = 0; j < n; ++j) {
    FittedParameter fp;
    fp.name = problem.params[j]->name;
    fp.start = problem.value_of(j, u0(static_cast<long>(j)));
    fp.value = problem.value_of(j, best(static_cast<long>(j)));
    fp.lower = problem.params[j]->lower;
    fp.upper = problem.params[j]->upper;
    const double b = best(static_cast<long>(j));
    fp.at_bound = b < k_at_bound || b > 1 - k_at_bound;
    if (fp.at_bound) {
      fit.separable = false;
      fit.warnings.push_back(fmt::format("{} sits at its bound ({:.4g} in [{:g}, {:g}]): the runs ask for more than its "
                                         "physical range (a cost the model lacks, or runs of another kind)",
                                         fp.name, fp.value, fp.lower, fp.upper));
    }
    fit.parameters.push_back(fp);
    fitted.emplace_back(fp.name, fp.value);
  }
  const std::size_t total_work = settings.bootstrap + (cases.size() > 1 ? cases.size() : 0);
  std::size_t done = 0;

  // Bootstrap: the runs resampled with replacement, refitted from the optimum.
  if (settings.bootstrap > 0 && cases.size() > 1 && n > 0) {
    std::vector<std::vector<double>> samples(n);
    std::uniform_int_distribution<std::size_t> pick(0, cases.size() - 1);
    for (std::size_t b = 0; b < settings.bootstrap; ++b) {
      std::vector<std::size_t> rows(cases.size());
      for (std::size_t& r : rows) r = pick(rng);
      Vec u = best;
      minimise(problem, rows, u);
      for (std::size_t j = 0; j < n; ++j) samples[j].push_back(problem.value_of(j, u(static_cast<long>(j))));
      if (settings.progress) settings.progress("bootstrap", ++done, total_work);
    }
    const double tail = (1 - settings.confidence) / 2;
    for (std::size_t j = 0; j < n; ++j) {
      fit.parameters[j].low = fit::percentile(samples[j], tail);
      fit.parameters[j].high = fit::percentile(samples[j], 1 - tail);
    }
    // A parameter the resamples move by less than a thousandth of its range is pinned down:
    // the correlation of such jitter (the optimiser's tolerance) says nothing.
    const auto pinned = [&](std::size_t j) {
      const auto [lo, hi] = std::minmax_element(samples[j].begin(), samples[j].end());
      return *hi - *lo < 1e-3 * (problem.params[j]->upper - problem.params[j]->lower);
    };
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = a + 1; b < n; ++b) {
        if (pinned(a) || pinned(b)) continue;
        const double r = fit::correlation(samples[a], samples[b]);
        if (std::abs(r) > k_inseparable_correlation) {
          fit.separable = false;
          fit.warnings.push_back(fmt::format("{} and {} cannot be separated by these runs (bootstrap correlation "
                                             "{:.2f}): their sum or ratio is fitted, not each",
                                             fit.parameters[a].name, fit.parameters[b].name, r));
        }
      }
    }
  }

  // Every run: predicted at the start, at the fit, and from a fit on the others.
  for (std::size_t i = 0; i < cases.size(); ++i) {
    FittedRun r;
    r.id = cases[i].id;
    r.measured = cases[i].measured_step_seconds;
    r.predicted_default = problem.evaluate(i, u0).total;
    r.predicted = problem.evaluate(i, best).total;
    if (cases.size() > 1) {
      std::vector<std::size_t> others;
      for (std::size_t k = 0; k < cases.size(); ++k) {
        if (k != i) others.push_back(k);
      }
      Vec u = best;
      minimise(problem, others, u);
      r.predicted_left_out = problem.evaluate(i, u).total;
      if (settings.progress) settings.progress("leave-one-out", ++done, total_work);
    }
    fit.runs.push_back(r);
  }

  // The band: predicted speed over measured speed of the left-out predictions.
  const ValidationSpread& model = step_model_validation_spread();
  if (cases.size() == 1) {
    fit.band = model;
    fit.band.source = "one run: no leave-one-out; the step model's validation spread (docs/validation.md)";
    fit.warnings.push_back("one run: the fit cannot be checked on another; the band is the step model's validation "
                           "spread");
  } else {
    double lo = 1e300, hi = 0;
    for (const FittedRun& r : fit.runs) {
      const double ratio = r.measured / *r.predicted_left_out;
      lo = std::min(lo, ratio);
      hi = std::max(hi, ratio);
    }
    fit.band.runs = static_cast<int>(cases.size());
    fit.band.speed_ratio_min = lo;
    fit.band.speed_ratio_max = hi;
    fit.band.source = fmt::format("leave-one-out over {} runs", cases.size());
    std::string why;
    if (cases.size() < 3) why = "fewer than 3 runs";
    if (!fit.separable) why += (why.empty() ? "" : "; ") + std::string("parameters not separable or at a bound");
    if (!why.empty()) {
      fit.band.speed_ratio_min = std::min(lo, model.speed_ratio_min);
      fit.band.speed_ratio_max = std::max(hi, model.speed_ratio_max);
      fit.band.source += fmt::format(", widened to the step model's validation spread ({})", why);
    }
  }
  return fit;
}

}  // namespace

std::expected<StepFit, std::string> fit_step_model(std::span<const StepCase> cases, const StepFitSettings& settings) {
  std::vector<StepCase> train;
  std::vector<const StepCase*> held;
  for (const StepCase& c : cases) {
    if (c.held_out) {
      held.push_back(&c);
    } else {
      train.push_back(c);
    }
  }
  if (train.empty()) return std::unexpected(cases.empty() ? "no measured run to fit" : "every run is held out: none to fit");
  auto fit = fit_runs(train, settings);
  if (!fit) return fit;
  std::vector<std::pair<std::string, double>> values, starts;
  for (const FittedParameter& p : fit->parameters) {
    values.emplace_back(p.name, p.value);
    starts.emplace_back(p.name, p.start);
  }
  for (const StepCase* c : held) {
    FittedRun r;
    r.id = c->id;
    r.held_out = true;
    r.measured = c->measured_step_seconds;
    r.predicted_default = predict_step_seconds(*c, starts);
    r.predicted = predict_step_seconds(*c, values);
    fit->runs.push_back(r);
  }
  // In the order of the table.
  std::vector<FittedRun> ordered;
  for (const StepCase& c : cases) {
    const auto it = std::find_if(fit->runs.begin(), fit->runs.end(), [&](const FittedRun& r) { return r.id == c.id; });
    if (it != fit->runs.end()) ordered.push_back(*it);
  }
  if (ordered.size() == fit->runs.size()) fit->runs = std::move(ordered);
  return fit;
}

}  // namespace moeplan::calibration
