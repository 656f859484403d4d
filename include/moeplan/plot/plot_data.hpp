#pragma once
/// The data behind `moeplan plot`: every series a picture shows, computed without any
/// plotting library so it can be tested and exported (`--data FILE.csv`). Rendering lives
/// in src/plot (moeplan_plot, PLplot), which only draws a Figure.
///
///   el                EL(A, G, C) of paper 000 Eq. 4 over activation ratio × granularity
///   m-over-na, d      paper 001 Eq. 11 loss of pipeline re-solves (paper 002 Sec. 7) with
///                     M/N_a or d swept; band = loss ≤ min·(1 + 0.001) (paper 002 Sec. 5.3, Sec. 6)
///   loss-vs-compute   paper 001 Eq. 11 loss against C for the `suggest` winner at each C,
///                     the winner at the chosen C kept fixed, and given models (D = C/M)
///   overtraining      compute overhead C_train/C − 1 against N_a / N_a,opt of the plans at
///                     the compute-optimal plan's predicted loss (paper 001 Eq. 11 on paper
///                     002's compute-optimal line, plan_price.hpp)
///   residuals         predicted against observed from `moeplan fit --residuals`
///   frontier          paper 001 Eq. 11 loss against days on a cluster: the FLOP-optimal plan
///                     and the time-optimal plan of each time (planner/time_optimal.hpp)
///   step              where the time goes: a config's step by term (step_time.hpp) and its
///                     whole training's wall days by loss (whole_training.hpp), stacked bars
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/planner/candidates.hpp"
#include "moeplan/base/errors.hpp"
#include "moeplan/laws/law_set.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/planner/model_score.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/planner/cluster_fit.hpp"
#include "moeplan/fit/runs_csv.hpp"

namespace moeplan::plot {

enum class SeriesStyle {
  line,    ///< joined points
  points,  ///< scatter
  marker,  ///< one highlighted point (the chosen config, the minimum)
  band,    ///< the points inside a near-optimal band; drawn as a shaded x-interval
  grid,    ///< x (nx values) × y (ny values) → z[i·ny + j]; drawn as a shaded map
  stack,   ///< segments of stacked bars: x the bar (an index into Figure::bars), y the
           ///< segment's amount in that bar's unit, z its share of the bar; stacked in series order
};
const char* to_string(SeriesStyle s);

struct Series {
  std::string name;  ///< the CSV "series" column and the legend text
  SeriesStyle style = SeriesStyle::line;
  std::vector<double> x, y;
  std::vector<double> z;  ///< grid only: z[i·y.size() + j] belongs to (x[i], y[j])
};

/// One bar of a stacked-bar figure (kind step): its axis caption and the unit of its amounts.
struct Bar {
  std::string label;  ///< "one step, the busiest pipeline stage"
  std::string unit;   ///< "s", "days"
};

struct Figure {
  std::string kind;                   ///< "el", "m-over-na", "d", "loss-vs-compute", "overtraining", "residuals", "frontier", "step"
  std::string title;
  std::string x_label, y_label, z_label;  ///< axis captions, plain text
  std::string x_key, y_key, z_key;        ///< CSV column names (z_key empty: no z column)
  bool log_x = false, log_y = false;
  /// When set, the y range follows this series alone (others are clipped): a model far
  /// from its compute-optimal size must not flatten the curve the plot is about.
  std::string y_range_series;
  /// When set, the drawn y axis stops here: a curve that runs off towards a pole (the
  /// overhead of a model too small to reach a loss) is clipped in the image, never in the
  /// data, so it does not flatten the part that matters.
  std::optional<double> y_max;
  std::vector<Series> series;
  std::vector<std::string> notes;     ///< for stderr (infeasible sweep points, …)
  /// One short line drawn in the image under the title: what the picture shows that a
  /// reader could take for an error (a curve below zero). Empty: none.
  std::string caption;
  /// Stacked bars (SeriesStyle::stack): bar i is x = i; each drawn on its own axis in its unit.
  std::vector<Bar> bars;
  /// Inline: the PLplot module (src/plot/plplot_module.hpp) draws with the header alone.
  [[nodiscard]] const Series* find(std::string_view name) const {
    for (const Series& s : series) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }
};

/// Long-format CSV: `series,<x_key>,<y_key>[,<z_key>]`, one row per point, grids expanded
/// row by row; numbers with 10 significant digits.
std::string to_csv(const Figure& figure);

enum class ImageFormat { png, svg };
/// From the file name's extension (.png, .svg, any case); nullopt for anything else.
std::optional<ImageFormat> image_format_for(std::string_view path);

/// The configuration `moeplan suggest` prints for these options: the first of
/// rank_candidates, with its expert shape (paper 000 A and granularity).
struct Chosen {
  RankedCandidate candidate;
  ExpertShape shape;
};
std::expected<Chosen, ConstraintViolation> chosen_config(const LawSet& laws,
                                                         const SuggestOptions& options);
/// The same with the family's Planner given (one for every budget of a figure): `goal` planned.
std::expected<Chosen, ConstraintViolation> chosen_config(const LawSet& laws, const Planner& planner,
                                                         const PlanGoal& goal);

struct ElGrid {
  double a_min = 1.0 / 512, a_max = 0.5;  ///< activation ratio A, log-spaced
  double g_min = 2, g_max = 64;           ///< granularity 2·d/d_m, log-spaced
  int a_points = 73, g_points = 61;
};
/// Series "el" (grid: A, granularity, EL at options.compute), "chosen" (marker at the
/// winner's A and granularity, y = granularity, and the EL there as z), and "G_opt"
/// (line: the EL-maximising granularity 2^(−β/2γ) across the A range).
std::expected<Figure, ConstraintViolation> el_landscape(const LawSet& laws,
                                                        const SuggestOptions& options,
                                                        const ElGrid& grid = {});

/// What loss_sweep varies: M/N_a (`m-over-na`) or d (`d`).
enum class SweepVariable { m_over_na, d };

/// A sweep range; unset ends default to 0.5× and 2× the pipeline's own value.
struct SweepRange {
  std::optional<double> from, to;
  int points = 41;
};
/// The most points of an m-over-na or d sweep (each is a pipeline solve, ~0.2 ms measured):
/// the work of a sweep is bounded by its points, whatever its range.
inline constexpr int k_max_sweep_points = 10000;
/// d is an int: a d sweep's ends stay below this.
inline constexpr double k_max_sweep_d = 2147483647.0;
/// "" when `range` is one loss_sweep draws, else the reason (naming --points, --from or --to).
std::string sweep_range_problem(SweepVariable variable, const SweepRange& range);
/// Relative width of the near-optimal band: loss ≤ min·(1 + 0.001) (paper 002 Sec. 5.3 / Fig. 5 for
/// M/N_a, Sec. 6 / Fig. 6 for d).
inline constexpr double k_near_optimal_band = 0.001;

/// Sweep of M/N_a (`m-over-na`) or of d (`d`, aligned to the suggestion's alignment).
/// Series: "loss" (line, feasible points only), "band" (the sweep points within the band),
/// "minimum" (marker), "chosen" (marker: the winner's M/N_a target or d and its loss).
std::expected<Figure, ConstraintViolation> loss_sweep(const LawSet& laws,
                                                      const SuggestOptions& options,
                                                      SweepVariable variable,
                                                      const SweepRange& range = {});

struct ComputeRange {
  std::optional<double> from, to;  ///< default C/1000 and C·100
  int points_per_decade = 4;
};
/// The widest loss-vs-compute range: each budget is a whole ranked suggest (up to 0.25 s
/// measured past 1e30 FLOPs), so 30 decades (121 budgets at 4 per decade) stay within half
/// a minute; the default range spans 5.
inline constexpr double k_max_compute_decades = 30;
/// "" when `range` around the budget C (ends defaulted) is one loss_versus_compute draws,
/// else the reason (naming --from/--to and the bound).
std::string compute_range_problem(double C, const ComputeRange& range);
/// Series "suggest" (the winner re-chosen at each C), "suggest @ C kept fixed" (the
/// winner at options.compute, D = C/M), one line per model (D = C/M, M by the paper 002 App. A
/// convention) and "chosen" (marker). Budgets where the pipeline is infeasible are skipped.
std::expected<Figure, ConstraintViolation> loss_versus_compute(
    const LawSet& laws, const SuggestOptions& options, const std::vector<ModelConfig>& models,
    const ComputeRange& range = {});

/// The sizes `overtraining` draws, as N_a / N_a,opt (log-spaced; ratio 1 is always added
/// inside the range).
struct SizeRatioRange {
  std::optional<double> from, to;  ///< default 0.1 and 2
  std::optional<int> points;       ///< default 61
};
inline constexpr double k_default_min_size_ratio = 0.1, k_default_max_size_ratio = 2.0;
inline constexpr int k_default_size_ratio_points = 61;
/// The widest size range: the search for a shape budget spans 1e-12 C to 1e6 C, which
/// reaches N_a / N_a,opt beyond 1e-3 to 1e2 at every budget (paper 002's N_a grows about as
/// C'^0.5). Sizes too small to reach the loss at all are left out with a note.
inline constexpr double k_min_size_ratio = 1e-3, k_max_size_ratio = 100;
/// "" when `range` is one overtraining draws, else the reason (naming --from, --to or --points).
std::string size_ratio_range_problem(const SizeRatioRange& range);

/// Series "plans at the compute-optimal loss" (line: x = N_a / N_a,opt, y = C_train / C − 1, z = the tokens D of
/// each plan) from equal_loss_curve (plan_price.hpp) on paper 002's compute-optimal line for
/// the family of `options`, and "compute-optimal" (marker at x = 1, y = 0, z = D_opt) when 1
/// lies in the range. Notes say where the overhead is negative (the joint law's optimum along
/// D is not paper 002's D_opt) and how many sizes have no plan at that loss.
std::expected<Figure, ConstraintViolation> overtraining(const LawSet& laws, const SuggestOptions& options,
                                                        const SizeRatioRange& range = {});

/// Reads the CSV of `moeplan fit --residuals` (columns observed, predicted, split).
std::expected<RunTable, CsvErrors> read_residuals_csv(const std::string& path);
/// Series "train" and "validation" (points: observed, predicted; empty ones dropped)
/// and "y = x" (line across the data's range).
Figure residuals_figure(const RunTable& table);

/// The days a frontier spans: log-spaced from `from` to `to` (defaults 1 and 100 days).
struct DaysRange {
  std::optional<double> from, to;
  int points = 9;
};
/// Each point is a whole time search (up to ~0.6 s on 2048 GPUs), so at most 41 points.
inline constexpr int k_max_frontier_points = 41;
/// "" when the range is one frontier draws (k_min_plan_days <= from < to <= k_max_plan_days),
/// else the reason.
std::string days_range_problem(const DaysRange& range);
/// Series "FLOP-optimal" and "time-optimal": the predicted loss (paper 001 Eq. 11) of the
/// largest compute-optimal plan that trains within each time and of the lowest-loss plan in it
/// (plan_time_optimal), on `cluster`; x is days. A time with no plan is left out (a note).
std::expected<Figure, ConstraintViolation> frontier(const LawSet& laws, const SuggestOptions& options,
                                                   const ClusterFitOptions& cluster, const DaysRange& range);

/// plot step: where the time of a config's training goes on its cluster (issue 48 item 5), from
/// the fit score prints (fit_on_cluster). Bar 0, "one step" in seconds: one series per term of
/// the chosen layout's step time, in its order (StepTime::terms, whatever terms the step model
/// has), summing to step_seconds. Bar 1, "whole training" in wall days: "full-batch steps", "batch ramp" (ClusterFit::ramp_extra), "checkpoint saves", "evaluations",
/// "restarts", "lost work" (WholeTraining), summing to wall_days; left out, with a note, when
/// the run makes no progress. Zero segments are kept in the data. The step model times the
/// busiest pipeline stage alone: no bar per rank, and the caption says so when PP > 1.
Figure step_breakdown(const ClusterFit& fit, const Cluster& cluster);

}  // namespace moeplan::plot
