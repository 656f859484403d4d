#include "moeplan/plot/plot_data.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/planner/model_score.hpp"
#include "moeplan/planner/plan_price.hpp"

namespace moeplan::plot {

const char* to_string(SeriesStyle s) {
  switch (s) {
    case SeriesStyle::line: return "line";
    case SeriesStyle::points: return "points";
    case SeriesStyle::marker: return "marker";
    case SeriesStyle::band: return "band";
    case SeriesStyle::grid: return "grid";
    case SeriesStyle::stack: return "stack";
  }
  return "?";
}

namespace {

std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string out = "\"";
  for (char ch : v) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

/// n points from lo to hi, evenly spaced in log (both > 0, n >= 2).
std::vector<double> log_space(double lo, double hi, int n) {
  std::vector<double> v;
  const double a = std::log(lo), b = std::log(hi);
  for (int i = 0; i < n; ++i) v.push_back(std::exp(a + (b - a) * i / (n - 1)));
  return v;
}

/// 1e22, 3e+20 → "1e22", "3e20": budgets as people write them.
std::string flops_text(double C) {
  const int e = static_cast<int>(std::floor(std::log10(C) + 1e-9));
  const double m = C / std::pow(10.0, e);
  return std::abs(m - 1) < 1e-9 ? fmt::format("1e{}", e) : fmt::format("{:.3g}e{}", m, e);
}

}  // namespace

std::string to_csv(const Figure& f) {
  const bool has_z = !f.z_key.empty();
  // Stacked bars (plot step) in units of their own: each row says its bar's unit after the amount.
  const bool bar_units = !f.bars.empty();
  std::string s = fmt::format("series,{},{}{}{}\n", f.x_key, f.y_key, bar_units ? ",unit" : "",
                              has_z ? fmt::format(",{}", f.z_key) : std::string());
  for (const Series& ser : f.series) {
    const std::string name = csv_field(ser.name);
    if (ser.style == SeriesStyle::grid) {
      for (std::size_t i = 0; i < ser.x.size(); ++i) {
        for (std::size_t j = 0; j < ser.y.size(); ++j) {
          s += fmt::format("{},{:.10g},{:.10g},{:.10g}\n", name, ser.x[i], ser.y[j],
                           ser.z[i * ser.y.size() + j]);
        }
      }
      continue;
    }
    for (std::size_t i = 0; i < ser.x.size(); ++i) {
      s += fmt::format("{},{:.10g},{:.10g}", name, ser.x[i], ser.y[i]);
      if (bar_units) {
        const auto bar = static_cast<std::size_t>(ser.x[i]);
        s += fmt::format(",{}", csv_field(bar < f.bars.size() ? f.bars[bar].unit : std::string()));
      }
      if (has_z) s += i < ser.z.size() ? fmt::format(",{:.10g}", ser.z[i]) : ",";
      s += "\n";
    }
  }
  return s;
}

std::optional<ImageFormat> image_format_for(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return {};
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "png") return ImageFormat::png;
  if (ext == "svg") return ImageFormat::svg;
  return {};
}

std::expected<Chosen, ConstraintViolation> chosen_config(const LawSet& laws,
                                                         const SuggestOptions& options) {
  const Planner planner(laws.holistic, options);
  return chosen_config(laws, planner, options.goal);
}

std::expected<Chosen, ConstraintViolation> chosen_config(const LawSet& laws, const Planner& planner,
                                                         const PlanGoal& goal) {
  auto budget = planner.resolve(goal);
  if (!budget) return std::unexpected(budget.error());
  auto plan = plan_for_budget(laws, planner, *budget);
  if (!plan) return std::unexpected(plan.error());
  Chosen c{std::move(plan->candidates.front()), {}};
  const Suggestion& w = c.candidate.suggestion;
  c.shape = expert_shape(plan_config(w));
  return c;
}

std::expected<Figure, ConstraintViolation> el_landscape(const LawSet& laws,
                                                        const SuggestOptions& options,
                                                        const ElGrid& grid) {
  auto chosen = chosen_config(laws, options);
  if (!chosen) return std::unexpected(chosen.error());
  const Flops C = *options.goal.compute;
  const EfficiencyLeverageLaw& el = laws.leverage;

  Figure f;
  f.kind = "el";
  f.title = fmt::format("Efficiency leverage at C = {} FLOPs (paper 000 Eq. 4)", flops_text(C.value()));
  f.x_label = "activation ratio A";
  f.y_label = "granularity 2d/d_m";
  f.z_label = "EL";
  f.x_key = "activation_ratio";
  f.y_key = "granularity";
  f.z_key = "efficiency_leverage";
  f.log_x = f.log_y = true;

  Series map{"el", SeriesStyle::grid, log_space(grid.a_min, grid.a_max, grid.a_points),
             log_space(grid.g_min, grid.g_max, grid.g_points), {}};
  for (double a : map.x) {
    for (double g : map.y) map.z.push_back(el.at(a, g, C));
  }
  f.series.push_back(std::move(map));

  const double g_opt = el.optimal_granularity();
  f.series.push_back({"G_opt", SeriesStyle::line, {grid.a_min, grid.a_max}, {g_opt, g_opt},
                      {el.at(grid.a_min, g_opt, C), el.at(grid.a_max, g_opt, C)}});
  const ExpertShape& s = chosen->shape;
  f.series.push_back({"chosen", SeriesStyle::marker, {s.activation_ratio}, {s.granularity},
                      {chosen->candidate.efficiency_leverage}});
  return f;
}

std::string sweep_range_problem(SweepVariable variable, const SweepRange& range) {
  if (range.points < 2 || range.points > k_max_sweep_points) {
    return fmt::format("--points: a sweep has 2 to {} points, got {}", k_max_sweep_points, range.points);
  }
  if (variable == SweepVariable::d) {
    for (const auto& [flag, end] : {std::pair{"--from", range.from}, std::pair{"--to", range.to}}) {
      if (end && !(*end <= k_max_sweep_d)) {
        return fmt::format("{}: d is at most {:.0f} (an int), got {:g}", flag, k_max_sweep_d, *end);
      }
    }
  }
  return "";
}

std::expected<Figure, ConstraintViolation> loss_sweep(const LawSet& laws,
                                                      const SuggestOptions& options,
                                                      SweepVariable variable,
                                                      const SweepRange& range) {
  if (std::string why = sweep_range_problem(variable, range); !why.empty()) {
    return std::unexpected(ConstraintViolation{"sweep range", why});
  }
  auto chosen = chosen_config(laws, options);
  if (!chosen) return std::unexpected(chosen.error());
  const Suggestion& w = chosen->candidate.suggestion;
  const bool is_d = variable == SweepVariable::d;
  // The curve goes through the chosen config: the sweep keeps its heads and N/N_a (and its
  // M/N_a when d is swept); d follows its rule (median of the feasible interval) otherwise.
  SuggestOptions base = options;
  base.heads = w.solution.arch.family.heads;
  base.n_over_na = w.n_over_na_target;
  if (is_d) base.m_over_na = w.m_over_na_target;
  // Defaults: d over the chosen config's feasible interval; M/N_a over
  // 6 + [0.25, 4]·(M/N_a − 6), since Eq. 12 (M = 6 N_a + attention) leaves nothing for
  // attention at M/N_a = 6.
  const double lo = range.from.value_or(is_d ? w.d_interval.d_min : 6 + (w.m_over_na_target - 6) * 0.25);
  const double hi = range.to.value_or(is_d ? w.d_interval.d_max : 6 + (w.m_over_na_target - 6) * 4.0);
  const int n = range.points;
  std::vector<double> xs;
  for (int i = 0; i < n; ++i) {
    const double x = lo + (hi - lo) * i / (n - 1);
    if (!is_d) {
      xs.push_back(x);
      continue;
    }
    const double aligned = std::max(1.0, std::round(x / w.alignment)) * w.alignment;
    if (xs.empty() || aligned != xs.back()) xs.push_back(aligned);
  }
  // The chosen value itself is always a sweep point, so the curve passes through the star.
  const double chosen_x = is_d ? double(w.solution.arch.d) : w.m_over_na_target;
  if (chosen_x > lo && chosen_x < hi) {
    xs.insert(std::upper_bound(xs.begin(), xs.end(), chosen_x), chosen_x);
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  }

  Figure f;
  f.kind = is_d ? "d" : "m-over-na";
  f.title = fmt::format("Predicted loss (paper 001 Eq. 11) vs {} at C = {} FLOPs",
                        is_d ? "d" : "M/N_a", flops_text(options.goal.compute->value()));
  f.x_label = is_d ? "hidden size d" : "M/N_a (FLOPs per token per active parameter)";
  f.y_label = "predicted loss (paper 001 Eq. 11)";
  f.x_key = is_d ? "d" : "m_over_na";
  f.y_key = "loss";

  Series loss{"loss", SeriesStyle::line, {}, {}, {}};
  int infeasible = 0;
  for (double x : xs) {
    if (x == chosen_x) {  // the chosen config itself (past Table 4 a rounded shape no re-solve gives)
      loss.x.push_back(x);
      loss.y.push_back(chosen->candidate.predicted_loss);
      continue;
    }
    SuggestOptions o = base;
    if (is_d) {
      o.d = static_cast<int>(x);
    } else {
      o.m_over_na = x;
      if (x == chosen_x) o.d = w.solution.arch.d;  // the ranking's d, not the median's
    }
    auto s = suggest(laws.holistic, o);
    if (!s) {
      ++infeasible;
      continue;
    }
    loss.x.push_back(x);
    loss.y.push_back(score_suggestion(laws, std::move(*s), "").predicted_loss);
  }
  if (infeasible > 0) {
    f.notes.push_back(fmt::format("{} of {} sweep points are infeasible and not plotted",
                                  infeasible, xs.size()));
  }
  if (loss.x.empty()) {
    return std::unexpected(ConstraintViolation{
        "sweep", fmt::format("no feasible {} in [{:.4g}, {:.4g}]", f.x_key, lo, hi)});
  }
  const auto min_it = std::min_element(loss.y.begin(), loss.y.end());
  const std::size_t imin = static_cast<std::size_t>(min_it - loss.y.begin());
  const double limit = *min_it * (1 + k_near_optimal_band);
  Series band{"band", SeriesStyle::band, {}, {}, {}};
  for (std::size_t i = 0; i < loss.x.size(); ++i) {
    if (loss.y[i] <= limit) {
      band.x.push_back(loss.x[i]);
      band.y.push_back(loss.y[i]);
    }
  }
  if (imin == 0 || imin + 1 == loss.x.size()) {
    f.notes.push_back(fmt::format(
        "the lowest loss is at the end of the feasible sweep ({} = {:.4g}): the law keeps "
        "falling beyond it, so this is no interior optimum",
        f.x_key, loss.x[imin]));
  }
  Series minimum{"minimum", SeriesStyle::marker, {loss.x[imin]}, {loss.y[imin]}, {}};
  Series mark{"chosen", SeriesStyle::marker, {chosen_x}, {chosen->candidate.predicted_loss}, {}};
  f.series.push_back(std::move(loss));
  f.series.push_back(std::move(band));
  f.series.push_back(std::move(minimum));
  f.series.push_back(std::move(mark));
  return f;
}

std::string compute_range_problem(double C, const ComputeRange& range) {
  const double lo = range.from.value_or(C / 1e3), hi = range.to.value_or(C * 1e2);
  // The ends as the user sees them: given, or the defaults around --flops.
  const std::string ends = fmt::format("{}{:g}..{:g}{}", range.from ? "" : "C/1000 = ",
                                       lo, hi, range.to ? "" : " = 100 C");
  if (!(lo > 0) || !std::isfinite(hi)) {
    return fmt::format("--from/--to: the range {} is not a range of finite budgets", ends);
  }
  if (!(lo < hi)) return fmt::format("--from/--to: the range {} is empty (--from must be below --to)", ends);
  const double decades = std::log10(hi) - std::log10(lo);
  if (decades > k_max_compute_decades) {
    return fmt::format("--from/--to: the range {} spans {:.4g} decades; at most {:g} ({} budgets at {} "
                       "per decade, each a full suggest)",
                       ends, decades, k_max_compute_decades,
                       static_cast<int>(k_max_compute_decades) * range.points_per_decade + 1,
                       range.points_per_decade);
  }
  return "";
}

std::expected<Figure, ConstraintViolation> loss_versus_compute(
    const LawSet& laws, const SuggestOptions& options, const std::vector<ModelConfig>& models,
    const ComputeRange& range) {
  const double C0 = options.goal.compute->value();
  if (std::string why = compute_range_problem(C0, range); !why.empty()) {
    return std::unexpected(ConstraintViolation{"compute range", why});
  }
  // One Planner for every budget of the figure (the options differ in C alone).
  const Planner planner(laws.holistic, options);
  auto chosen = chosen_config(laws, planner, options.goal);
  if (!chosen) return std::unexpected(chosen.error());
  const double lo = range.from.value_or(C0 / 1e3), hi = range.to.value_or(C0 * 1e2);
  const int n = std::max(2, static_cast<int>(std::lround(std::log10(hi / lo) *
                                                         range.points_per_decade)) + 1);
  const std::vector<double> Cs = log_space(lo, hi, n);

  Figure f;
  f.kind = "loss-vs-compute";
  f.title = "Predicted loss vs training compute (paper 001 Eq. 11, D = C/M)";
  f.x_label = "training compute C (FLOPs)";
  f.y_label = "predicted loss";
  f.x_key = "compute";
  f.y_key = "loss";
  f.log_x = true;
  f.y_range_series = "suggest";

  Series best{"suggest", SeriesStyle::line, {}, {}, {}};
  int infeasible = 0;
  for (double C : Cs) {
    PlanGoal goal = options.goal;
    goal.compute = Flops(C);
    auto c = chosen_config(laws, planner, goal);
    if (!c) {
      ++infeasible;
      continue;
    }
    best.x.push_back(C);
    best.y.push_back(c->candidate.predicted_loss);
  }
  if (infeasible > 0) {
    f.notes.push_back(fmt::format("suggest is infeasible at {} of {} budgets; not plotted",
                                  infeasible, Cs.size()));
  }
  f.series.push_back(std::move(best));

  const JointLossLaw& j = laws.joint;
  const Suggestion& w = chosen->candidate.suggestion;
  const Accounting& acc = w.solution.accounting;
  Series fixed{fmt::format("suggest @ {} kept fixed", flops_text(C0)), SeriesStyle::line, {}, {}, {}};
  for (double C : Cs) {
    fixed.x.push_back(C);
    fixed.y.push_back(j.loss(acc.N, Tokens(C / acc.M.value()), acc.N_a,
                             chosen->shape.active_experts, chosen->shape.shared_ratio));
  }
  f.series.push_back(std::move(fixed));
  // Which law draws the curves, and why another config can sit below the plan's: the plan
  // is chosen by paper 002's pipeline, and the joint law cannot see attention or d.
  f.notes.push_back(
      "loss is the joint MoE law's (paper 001 Eq. 11, nats/token on its data); suggest's plan is "
      "chosen by paper 002's pipeline, not by this law, which has no attention term and cannot "
      "see d at fixed (N, N_a, D): a config drawn below the suggest line is better by this law "
      "only (man moeplan-suggest, RANKING)");

  for (const ModelConfig& m : models) {
    if (!m.is_moe()) {
      f.notes.push_back(m.name + " is dense: the joint MoE law does not apply; not plotted");
      continue;
    }
    const ParameterCounts p = count_parameters(m);
    const ExpertShape shape = expert_shape(m);
    const int seq = m.training ? m.training->seq_len : laws.holistic.family_defaults.seq_len;
    const FlopsPerToken M = flops_per_token(m, FlopsConvention::holistic_002, seq).M();
    Series s{m.name, SeriesStyle::line, {}, {}, {}};
    for (double C : Cs) {
      s.x.push_back(C);
      s.y.push_back(j.loss(p.N, Tokens(C / M.value()), p.N_a, shape.active_experts,
                           shape.shared_ratio));
    }
    f.series.push_back(std::move(s));
  }
  f.series.push_back({"chosen", SeriesStyle::marker, {C0}, {chosen->candidate.predicted_loss}, {}});
  return f;
}

std::string size_ratio_range_problem(const SizeRatioRange& range) {
  const int points = range.points.value_or(k_default_size_ratio_points);
  if (points < 2 || points > k_max_sweep_points) {
    return fmt::format("--points: overtraining draws 2 to {} sizes, got {}", k_max_sweep_points, points);
  }
  for (const auto& [flag, end] : {std::pair{"--from", range.from}, std::pair{"--to", range.to}}) {
    if (end && !(*end >= k_min_size_ratio && *end <= k_max_size_ratio)) {
      return fmt::format("{}: overtraining draws N_a / N_a,opt from {:g} to {:g}, got {:g}", flag,
                         k_min_size_ratio, k_max_size_ratio, *end);
    }
  }
  const double lo = range.from.value_or(k_default_min_size_ratio);
  const double hi = range.to.value_or(k_default_max_size_ratio);
  if (!(lo < hi)) {
    return fmt::format("--from/--to: the size range {:g}..{:g} is empty (--from must be below --to)", lo, hi);
  }
  return "";
}

std::expected<Figure, ConstraintViolation> overtraining(const LawSet& laws, const SuggestOptions& options,
                                                        const SizeRatioRange& range) {
  if (std::string why = size_ratio_range_problem(range); !why.empty()) {
    return std::unexpected(ConstraintViolation{"size range", why});
  }
  const Flops C = *options.goal.compute;
  const Planner planner(laws.holistic, options);
  const OptimalLine line(laws, planner);
  const auto optimum = planner.targets(C);
  if (!optimum) return std::unexpected(optimum.error());
  const auto loss = line.optimal_loss(C);
  if (!loss) {
    return std::unexpected(ConstraintViolation{"a loss for the compute-optimal plan at C",
                                               "the joint law has none at this budget"});
  }
  const double lo = range.from.value_or(k_default_min_size_ratio);
  const double hi = range.to.value_or(k_default_max_size_ratio);
  const int n = range.points.value_or(k_default_size_ratio_points);
  const std::vector<EqualLossPoint> curve = equal_loss_curve(line, C, lo, hi, n);

  Figure f;
  f.kind = "overtraining";
  f.title = fmt::format("C = {}: paper 001 Eq. 11 on paper 002's compute-optimal line",
                        flops_text(C.value()));
  f.x_label = "model size N_a / N_a,opt (active parameters)";
  f.y_label = "compute overhead C_train / C - 1";
  f.z_label = "training tokens D";
  f.x_key = "active_ratio";
  f.y_key = "overhead";
  f.z_key = "tokens";
  f.log_x = true;
  Series equal{"plans at the compute-optimal loss", SeriesStyle::line, {}, {}, {}};
  for (const EqualLossPoint& p : curve) {
    equal.x.push_back(p.active_ratio);
    equal.y.push_back(p.overhead);
    equal.z.push_back(p.D.value());
  }
  const std::size_t asked = equal_loss_ratios(lo, hi, n).size();
  if (equal.x.size() < asked) {
    f.notes.push_back(fmt::format(
        "{} of the sizes asked for have no plan at the compute-optimal loss {:.5g} (no shape "
        "budget of that N_a, or a model too small to reach the loss at any D): not plotted",
        asked - equal.x.size(), *loss));
  }
  if (equal.x.empty()) {
    return std::unexpected(ConstraintViolation{
        "overtraining", fmt::format("no size in N_a / N_a,opt = {:g}..{:g} reaches the compute-optimal "
                                    "loss {:.5g} at C = {:.4g}", lo, hi, *loss, C.value())});
  }
  // Where the curve dips below zero: the two laws do not share an optimum (plan_price.hpp).
  // Ratio 1 itself is 0 up to the searches' tolerance, so "below" means below -1e-9.
  double neg_lo = 0, neg_hi = 0, least = 0, least_at = 0;
  for (std::size_t i = 0; i < equal.x.size(); ++i) {
    if (!(equal.y[i] < -1e-9)) continue;
    if (neg_lo == 0) neg_lo = equal.x[i];
    neg_hi = equal.x[i];
    if (equal.y[i] < least) least = equal.y[i], least_at = equal.x[i];
  }
  if (least < 0) {
    const auto joint = line.joint_optimum_tokens_ratio(C);
    f.notes.push_back(fmt::format(
        "the overhead is negative for N_a / N_a,opt from {:.3g} to {:.3g} (least {:.3g} % at {:.3g}): "
        "the joint law (paper 001 Eq. 11) puts its own optimum along D at {} paper 002's D_opt, so by "
        "that law plans between the two optima reach the compute-optimal loss with less compute "
        "(docs/plan-goals.md Sec. 3); the curve is drawn as the laws give it",
        neg_lo, neg_hi, 100 * least, least_at,
        joint ? fmt::format("{:.3g} x", *joint) : std::string("an unknown multiple of")));
    f.caption = fmt::format("below 0 for N_a/N_a,opt {:.3g} to {:.3g} (least {:.3g} %): the joint law's "
                            "optimum is at {} D_opt",
                            neg_lo, neg_hi, 100 * least,
                            joint ? fmt::format("{:.3g}", *joint) : std::string("some other"));
  }
  // Towards the smallest model that reaches the loss at all, the overhead runs off to a
  // pole: the picture stops at +200 % (3x the compute), the data keeps every point.
  constexpr double k_drawn_overhead = 2.0;
  if (const auto top = std::max_element(equal.y.begin(), equal.y.end()); *top > k_drawn_overhead) {
    f.y_max = k_drawn_overhead;
    const auto above = std::count_if(equal.y.begin(), equal.y.end(),
                                     [&](double y) { return y > k_drawn_overhead; });
    f.notes.push_back(fmt::format(
        "{} of the plotted sizes need more than {:g} x the compute (overhead up to {:.4g} at "
        "N_a / N_a,opt = {:.3g}): the image stops at an overhead of {:g}, the data (-o .csv/.json, "
        "--data) has every point",
        above, 1 + k_drawn_overhead, *top, equal.x[static_cast<std::size_t>(top - equal.y.begin())],
        k_drawn_overhead));
  }
  f.series.push_back(std::move(equal));
  if (lo <= 1 && 1 <= hi) {
    const double D_opt = (C / line.optimal_flops_per_token(C)).value();
    f.series.push_back({"compute-optimal", SeriesStyle::marker, {1.0}, {0.0}, {D_opt}});
  }
  return f;
}

std::expected<RunTable, CsvErrors> read_residuals_csv(const std::string& path) {
  const ColumnChooser choose = [](const std::vector<std::string>&)
      -> std::expected<std::vector<ColumnSpec>, std::string> {
    return std::vector<ColumnSpec>{
        {"observed", ColumnKind::positive, true, "observed target (loss)"},
        {"predicted", ColumnKind::positive, true, "the fitted law's prediction"},
        {"split", ColumnKind::flag, false, "train or validation"},
    };
  };
  return read_runs_csv(path, choose);
}

Figure residuals_figure(const RunTable& t) {
  Figure f;
  f.kind = "residuals";
  f.title = "Fit residuals: predicted vs observed";
  f.x_label = "observed";
  f.y_label = "predicted";
  f.x_key = "observed";
  f.y_key = "predicted";
  Series train{"train", SeriesStyle::points, {}, {}, {}};
  Series validation{"validation", SeriesStyle::points, {}, {}, {}};
  const std::vector<double>& obs = t.col("observed");
  const std::vector<double>& pred = t.col("predicted");
  const bool has_split = t.has("split");
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < t.rows; ++i) {
    Series& s = has_split && t.col("split")[i] != 0 ? validation : train;
    s.x.push_back(obs[i]);
    s.y.push_back(pred[i]);
    lo = std::min({lo, obs[i], pred[i]});
    hi = std::max({hi, obs[i], pred[i]});
  }
  for (Series* s : {&train, &validation}) {
    if (!s->x.empty()) f.series.push_back(std::move(*s));
  }
  if (t.rows > 0) f.series.push_back({"y = x", SeriesStyle::line, {lo, hi}, {lo, hi}, {}});
  return f;
}

}  // namespace moeplan::plot
