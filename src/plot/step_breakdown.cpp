// plot step: where the time of a training goes, the step by term and the whole training by
// loss (issue 48 item 5), from the fit `score` prints; nothing computed here but shares.
#include <fmt/format.h>

#include "moeplan/plot/plot_data.hpp"

namespace moeplan::plot {

namespace {

/// One segment of bar `bar`: a series of its own, so each term has its colour and legend line.
void add_segment(Figure& f, std::string name, int bar, double amount, double total) {
  f.series.push_back(Series{std::move(name), SeriesStyle::stack, {double(bar)}, {amount},
                            {total > 0 ? amount / total : 0.0}});
}

/// "14.8T" for a token count (the title's).
std::string tokens_text(double tokens) {
  const std::pair<double, const char*> units[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}};
  for (const auto& [scale, suffix] : units) {
    if (tokens >= scale) return fmt::format("{:.3g}{}", tokens / scale, suffix);
  }
  return fmt::format("{:.3g}", tokens);
}

}  // namespace

Figure step_breakdown(const ClusterFit& fit, const Cluster& cluster) {
  const LayoutCandidate& chosen = fit.layouts.ranked.front();
  const StepTime& step = chosen.time;
  Figure f;
  f.kind = "step";
  f.title = fmt::format("{}: where the time of {} tokens goes on {} x {}", fit.config.name,
                        tokens_text(fit.tokens.value()), cluster.gpus, cluster.gpu.id);
  f.x_label = "bar";
  f.x_key = "bar";
  f.y_label = "amount, in its bar's unit";
  f.y_key = "amount";
  f.z_label = "share of its bar";
  f.z_key = "share";
  const ParallelLayout& layout = chosen.layout;
  // The step model times the critical path of the busiest pipeline stage (step_time.hpp):
  // there is no figure for another rank to draw a bar of (issue 48 asks for one per rank where
  // they differ; the caption says why there is none rather than invent them).
  f.caption = layout.pp > 1 ? fmt::format("{}; the step of the busiest of {} pipeline stages: the step model times no other rank, so no bar per rank",
                                          layout.describe(), layout.pp)
                            : layout.describe();
  if (layout.pp > 1) {
    f.notes.push_back(fmt::format("plot step: the step drawn is that of the busiest of {} pipeline stages, the only "
                                  "one the step model times: no bar per rank",
                                  layout.pp));
  }
  // Bar 0: the steady step, the step model's terms in its order (whatever terms it has).
  f.bars.push_back({"one step, busiest stage, steady state", "s"});
  for (const StepTerm& t : step.terms) add_segment(f, t.name, 0, t.seconds, step.step_seconds);
  // Bar 1: the whole training's wall days (whole_training.hpp), the steady state first.
  const WholeTraining& w = fit.whole;
  if (!w.makes_progress) {
    f.notes.push_back("plot step: no whole-training bar: " + fit.whole_training_problem);
    f.caption += "; no whole-training bar: the cluster fails faster than the run makes progress";
    return f;
  }
  f.bars.push_back({"whole training, wall time", "days"});
  const double day = 86400.0;
  const double ramp = fit.ramp_extra ? fit.ramp_extra->seconds : 0.0;
  const std::pair<const char*, double> parts[] = {{"full-batch steps", w.steady_seconds - ramp},
                                                  {"batch ramp", ramp},
                                                  {"checkpoint saves", w.checkpoint_seconds},
                                                  {"evaluations", w.eval_seconds},
                                                  {"restarts", w.restart_seconds},
                                                  {"lost work", w.lost_work_seconds}};
  for (const auto& [name, seconds] : parts) add_segment(f, name, 1, seconds / day, w.wall_days);
  return f;
}

}  // namespace moeplan::plot
