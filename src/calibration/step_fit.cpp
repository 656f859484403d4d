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

// Minimises over the unit box from `u` (in place); the objective at the end. One parameter:
// a grid of the box, then a golden-section search around its best point (a Huber objective is
// flat between residuals more than 2 delta apart, where a bracketing search finds no minimum
// to converge on); more: BOBYQA from `u`.
double minimise(const Problem& p, std::span<const std::size_t> rows, Vec& u) {
  const long n = u.size();
  if (n == 0) return p.objective(rows, u);
  if (n == 1) {
    Vec w(1);
    const auto f = [&](double v) {
      w(0) = v;
      return p.objective(rows, w);
    };
    constexpr int k_grid = 100;
    double best_x = u(0), best_f = f(u(0));
    for (int i = 0; i <= k_grid; ++i) {
      const double x = double(i) / k_grid;
      if (const double fx = f(x); fx < best_f - 1e-15) {
        best_f = fx;
        best_x = x;
      }
    }
    double a = std::max(0.0, best_x - 1.0 / k_grid), b = std::min(1.0, best_x + 1.0 / k_grid);
    const double g = (std::sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a), fc = f(c), fd = f(d);
    while (b - a > 1e-9) {
      if (fc <= fd) {
        b = d, d = c, fd = fc, c = b - g * (b - a), fc = f(c);
      } else {
        a = c, c = d, fc = fd, d = a + g * (b - a), fd = f(d);
      }
    }
    const double x = fc <= fd ? c : d;
    if (const double fx = f(x); fx < best_f) {
      best_f = fx;
      best_x = x;
    }
    u(0) = best_x;
    return best_f;
  }
  const Vec lower = dlib::zeros_matrix<double>(n, 1);
  const Vec upper = dlib::ones_matrix<double>(n, 1);
  const auto f = [&](const Vec& w) { return p.objective(rows, w); };
  Vec start = u;
  try {
    return dlib::find_min_bobyqa(f, u, 2 * n + 1, lower, upper, 0.1, 1e-7, 4000);
  } catch (const dlib::error&) {  // a degenerate model step or no convergence: keep the start
    u = start;
    return p.objective(rows, u);
  }
}

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Whether moving `p` by a tenth of its range moves run `c`'s step (it is not fixed there).
bool exercises(const StepCase& c, const StepParameter& p) {
  if (is_fixed(c, p.name)) return false;
  const double v = p.get(c.options);
  const double step = 0.1 * (p.upper - p.lower);
  StepTimeOptions o = c.options;
  p.set(o, std::clamp(v + (v + step <= p.upper ? step : -step), p.lower, p.upper));
  const double base = step_term_seconds(c.model, c.counts, c.cluster, c.layout, c.options).total;
  const double moved = step_term_seconds(c.model, c.counts, c.cluster, c.layout, o).total;
  return std::abs(std::log(moved / base)) > k_exercised;
}

// A configuration, for counting distinct ones: four logs of one run are one configuration.
std::string configuration_of(const StepCase& c) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}", c.model.name, c.cluster.gpus, c.gpu, c.layout.describe(), c.precision,
                     c.options.seq_len, c.layout.global_batch);
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

// Which run exercises which parameter: moved_by[k][i] for parameter k of step_parameters()
// and run i (a parameter no run of a subset moves is left at its start in that subset's fit: a
// left-out run's prediction never borrows its own value), and how many runs move each.
struct Exercised {
  std::vector<std::vector<bool>> moved_by;
  std::vector<std::size_t> movers;
  [[nodiscard]] static std::size_t index_of(const StepParameter* p) {
    return static_cast<std::size_t>(p - step_parameters().data());
  }
  [[nodiscard]] bool moves(const StepParameter* p) const { return movers[index_of(p)] > 0; }
};

Exercised exercised_by(std::span<const StepCase> cases) {
  const std::span<const StepParameter> table = step_parameters();
  Exercised e{std::vector<std::vector<bool>>(table.size(), std::vector<bool>(cases.size())),
              std::vector<std::size_t>(table.size())};
  for (std::size_t k = 0; k < table.size(); ++k) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      e.moved_by[k][i] = exercises(cases[i], table[k]);
      e.movers[k] += e.moved_by[k][i] ? 1 : 0;
    }
  }
  return e;
}

// The runs checked and their measured terms indexed into `problem`; what they were fitted on
// (GPU kinds, precisions, dispatchers, models, GPU counts) into `fit`.
std::expected<void, std::string> read_runs(std::span<const StepCase> cases, Problem& problem, StepFit& fit) {
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
    fit.models.push_back(c.model.name);
    fit.gpus_min = fit.gpus_min == 0 ? c.cluster.gpus : std::min(fit.gpus_min, c.cluster.gpus);
    fit.gpus_max = std::max(fit.gpus_max, c.cluster.gpus);
  }
  fit.gpus = sorted_unique(fit.gpus);
  fit.precisions = sorted_unique(fit.precisions);
  fit.dispatchers = sorted_unique(fit.dispatchers);
  fit.models = sorted_unique(fit.models);
  return {};
}


// The parameters to fit into `problem`: --fit-params, else the GEMM efficiency of each
// precision the runs use; warnings and notes into `fit`.
std::expected<void, std::string> choose_parameters(std::span<const StepCase> cases, const StepFitSettings& settings,
                                                   const Exercised& exercised, Problem& problem, StepFit& fit) {
  const std::span<const StepParameter> table = step_parameters();
  const auto moves = [&](const StepParameter* p) { return exercised.moves(p); };
  if (!settings.parameters.empty()) {
    for (const std::string& name : settings.parameters) {
      const StepParameter* p = find_step_parameter(name);
      if (!p) return std::unexpected(fmt::format("--fit-params: no parameter '{}' (the parameters: {})", name, step_parameter_names()));
      if (std::find(problem.params.begin(), problem.params.end(), p) != problem.params.end()) continue;
      if (!moves(p)) {
        fit.warnings.push_back(fmt::format("{}: no run exercises it (its value moves no run's step, or every run's "
                                           "flags set it): not fitted", name));
        continue;
      }
      problem.params.push_back(p);
    }
  } else {
    // The GEMM efficiency of each precision the runs use: the term that dominates a step, and
    // the one a fit of a few runs can pin down. Fitting every parameter the runs exercise
    // over-fits: on the 16 benchmark rows of docs/validation.md the left-out error rises from
    // 9 % (the defaults) to 17 % with all eight (docs/calibration.md, "The fit").
    for (const char* name : {"gemm_efficiency", "fp8_gemm_efficiency"}) {
      const StepParameter* p = find_step_parameter(name);
      if (moves(p)) problem.params.push_back(p);
    }
    std::vector<std::string> others;
    for (const StepParameter& p : table) {
      if (moves(&p) && std::find(problem.params.begin(), problem.params.end(), &p) == problem.params.end()) {
        others.emplace_back(p.name);
      }
    }
    if (!others.empty()) {
      fit.notes.push_back(fmt::format("fitted the GEMM efficiency; the runs also exercise {} (--fit-params names "
                                      "them)", fmt::join(others, ", ")));
    }
  }
  const std::size_t n = problem.params.size();
  if (n == 0) {
    return std::unexpected("no parameter to fit: none of those asked moves any run's step: either each run's modelled "
                           "step is bound by a term no parameter sets (the host term, where the host issues the "
                           "kernels slower than the GPU runs them: docs/step-model.md \"Host time\"; --host-op-us in "
                           "the flags column gives the stack's own figure), or a run's own flag, such as "
                           "--gemm-efficiency in its flags column, holds that parameter on that run");
  }
  if (n > cases.size()) {
    fit.separable = false;
    fit.warnings.push_back(fmt::format("{} parameters from {} runs: they cannot be separated; the band is widened",
                                       n, cases.size()));
  }
  // The memory-bound term reads memory_bound_scale / hbm_efficiency: only a measured optimizer
  // time (or the small GEMM-operand terms) sets hbm_efficiency apart (the H200 eager runs, step
  // times alone: hbm at its bound, the scale at 0.75; docs/calibration.md).
  const auto asked = [&](std::string_view name) {
    return std::find(problem.params.begin(), problem.params.end(), find_step_parameter(name)) != problem.params.end();
  };
  const bool optimizer_measured = std::any_of(cases.begin(), cases.end(), [](const StepCase& c) {
    return std::any_of(c.measured_terms.begin(), c.measured_terms.end(),
                       [](const auto& t) { return t.first == "optimizer"; });
  });
  if (asked("memory_bound_scale") && asked("hbm_efficiency") && !optimizer_measured) {
    fit.separable = false;
    fit.warnings.push_back("memory_bound_scale and hbm_efficiency: no run measures optimizer_seconds, the one term "
                           "that tells them apart; fit memory_bound_scale with hbm_efficiency at its default or a "
                           "flag, or give the optimizer's time; the band is widened");
  }
  for (const StepParameter* p : problem.params) {
    if (exercised.movers[Exercised::index_of(p)] == 1 && cases.size() > 1) {
      std::size_t only = 0;
      while (!exercised.moved_by[Exercised::index_of(p)][only]) ++only;
      fit.warnings.push_back(fmt::format("{} rests on one run ({}): left out, that run is predicted at its start value",
                                         p->name, cases[only].id));
    }
  }

  return {};
}

// Bootstrap: the runs resampled with replacement, each refitted by `fit_subset`; a percentile
// interval per parameter, and the pairs the resamples cannot tell apart warned about.
template <typename FitSubset>
void bootstrap_intervals(std::span<const StepCase> cases, const StepFitSettings& settings, const Problem& problem,
                         const FitSubset& fit_subset, std::mt19937_64& rng, StepFit& fit,
                         const std::function<void()>& tick) {
  const std::size_t n = problem.params.size();
  {
    std::vector<std::vector<double>> samples(n);
    std::uniform_int_distribution<std::size_t> pick(0, cases.size() - 1);
    for (std::size_t b = 0; b < settings.bootstrap; ++b) {
      std::vector<std::size_t> rows(cases.size());
      for (std::size_t& r : rows) r = pick(rng);
      const Vec u = fit_subset(rows);
      for (std::size_t j = 0; j < n; ++j) samples[j].push_back(problem.value_of(j, u(static_cast<long>(j))));
      tick();
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

}

// The band: predicted speed over measured speed of the left-out predictions, min to max,
// widened to the step model's validation spread where the fit cannot vouch for it.
void set_band(std::span<const StepCase> cases, std::size_t folds, StepFit& fit) {
  // The band: predicted speed over measured speed of the left-out predictions, min to max.
  const ValidationSpread& model = step_model_validation_spread();
  std::vector<std::string> configurations;
  for (const StepCase& c : cases) configurations.push_back(configuration_of(c));
  const std::size_t distinct = sorted_unique(configurations).size();
  if (cases.size() == 1) {
    fit.band = model;
    fit.band.kind = ValidationSpread::Kind::profile;  // the profile's band, though its figures are the model's
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
    fit.band.source = folds == cases.size() ? fmt::format("leave-one-out over {} runs", cases.size())
                                            : fmt::format("{}-fold cross-validation over {} runs", folds, cases.size());
    std::string why;
    if (distinct < 3) why = fmt::format("{} distinct configuration{}", distinct, distinct == 1 ? "" : "s");
    if (!fit.separable) why += (why.empty() ? "" : "; ") + std::string("parameters not separable or at a bound");
    if (distinct < 3) {
      fit.warnings.push_back(fmt::format("{} distinct configuration{} (model, GPUs, layout, precision, sequence, batch): "
                                         "the left-out spread says little; the band is widened",
                                         distinct, distinct == 1 ? "" : "s"));
    }
    if (!why.empty()) {
      fit.band.speed_ratio_min = std::min(lo, model.speed_ratio_min);
      fit.band.speed_ratio_max = std::max(hi, model.speed_ratio_max);
      fit.band.source += fmt::format(", widened to the step model's validation spread ({})", why);
    }
  }
}

std::expected<StepFit, std::string> fit_runs(std::span<const StepCase> cases, const StepFitSettings& settings) {
  StepFit fit;
  Problem problem;
  problem.cases = cases;
  problem.delta = settings.huber_delta;
  if (auto read = read_runs(cases, problem, fit); !read) return std::unexpected(read.error());
  const Exercised exercised = exercised_by(cases);
  if (auto chosen = choose_parameters(cases, settings, exercised, problem, fit); !chosen) {
    return std::unexpected(chosen.error());
  }
  const std::size_t n = problem.params.size();
  // The start: the defaults (a run's own flag holds a parameter on that run, not the start).
  const StepTimeOptions defaults;
  Vec u0(static_cast<long>(n));
  for (std::size_t j = 0; j < n; ++j) u0(static_cast<long>(j)) = problem.unit_of(j, problem.params[j]->get(defaults));
  std::vector<std::size_t> all_rows(cases.size());
  std::iota(all_rows.begin(), all_rows.end(), std::size_t{0});
  // A fit on a subset of the runs, from the start; parameters no run of the subset moves stay there.
  const auto fit_subset = [&](std::span<const std::size_t> rows) {
    Vec u = u0;
    minimise(problem, rows, u);
    for (std::size_t j = 0; j < n; ++j) {
      const auto& by = exercised.moved_by[Exercised::index_of(problem.params[j])];
      if (std::none_of(rows.begin(), rows.end(), [&](std::size_t i) { return by[i]; })) {
        u(static_cast<long>(j)) = u0(static_cast<long>(j));
      }
    }
    return u;
  };

  // The fit: from the start and from a few seeded points, the best kept.
  std::mt19937_64 rng(settings.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Vec best = u0;
  double best_objective = minimise(problem, all_rows, best);
  constexpr int k_extra_starts = 4;
  for (int s = 0; s < k_extra_starts; ++s) {
    Vec u(static_cast<long>(n));
    for (long j = 0; j < u.size(); ++j) u(j) = unit(rng);
    const double obj = minimise(problem, all_rows, u);
    if (obj < best_objective - 1e-12) {
      best_objective = obj;
      best = u;
    }
  }
  fit.objective = best_objective;
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
  }
  // Cross-validation folds: each run left out alone (leave-one-out) up to k_max_folds runs;
  // past that, k_max_folds folds of every k_max_folds-th run, so the work stays linear in the runs.
  constexpr std::size_t k_max_folds = 20;
  const std::size_t folds = cases.size() > 1 ? std::min(cases.size(), k_max_folds) : 0;
  const std::size_t total_work = settings.bootstrap + folds;
  std::size_t done = 0;

  if (settings.bootstrap > 0 && cases.size() > 1) {
    bootstrap_intervals(cases, settings, problem, fit_subset, rng, fit, [&] {
      if (settings.progress) settings.progress("bootstrap", ++done, total_work);
    });
  }

  // Every run: predicted at the start, at the fit, and from a fit on the other folds.
  for (std::size_t i = 0; i < cases.size(); ++i) {
    FittedRun r;
    r.id = cases[i].id;
    r.measured = cases[i].measured_step_seconds;
    r.predicted_default = problem.evaluate(i, u0).total;
    r.predicted = problem.evaluate(i, best).total;
    fit.runs.push_back(r);
  }
  for (std::size_t k = 0; k < folds; ++k) {
    std::vector<std::size_t> others, held;
    for (std::size_t i = 0; i < cases.size(); ++i) (i % folds == k ? held : others).push_back(i);
    const Vec u = fit_subset(others);
    for (std::size_t i : held) fit.runs[i].predicted_left_out = problem.evaluate(i, u).total;
    if (settings.progress) settings.progress(folds == cases.size() ? "leave-one-out" : "cross-validation", ++done, total_work);
  }

  set_band(cases, folds, fit);
  return fit;
}

}  // namespace

std::expected<StepFit, std::string> fit_step_model(std::span<const StepCase> cases, const StepFitSettings& settings) {
  std::vector<StepCase> train;
  std::vector<std::size_t> train_index, held_index;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].held_out) {
      held_index.push_back(i);
    } else {
      train.push_back(cases[i]);
      train_index.push_back(i);
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
  // Every run in the order given: the fitted ones, and the held-out ones predicted.
  std::vector<FittedRun> ordered(cases.size());
  for (std::size_t k = 0; k < train_index.size(); ++k) ordered[train_index[k]] = fit->runs[k];
  for (std::size_t i : held_index) {
    FittedRun& r = ordered[i];
    r.id = cases[i].id;
    r.held_out = true;
    r.measured = cases[i].measured_step_seconds;
    r.predicted_default = predict_step_seconds(cases[i], starts);
    r.predicted = predict_step_seconds(cases[i], values);
  }
  fit->runs = std::move(ordered);
  return fit;
}

}  // namespace moeplan::calibration
