// `moeplan plot step`: the config fitted on the cluster as `score` fits it, then drawn.
#include "plot_step.hpp"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"
#include "moeplan/io/megatron_args.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/model_score.hpp"
#include "output/printable.hpp"

namespace moeplan::cli {

namespace {

template <class... Args>
std::unexpected<int> step_plot_fail(Args&&... args) {
  return std::unexpected(fail(std::forward<Args>(args)...));
}

/// The flags' budget and S over the config's own [training], as score lays them
/// (score.cpp, with_budget): a config.json has none.
void lay_step_plot_budget(ModelConfig& m, std::optional<double> tokens, std::optional<double> flops,
                          std::optional<int> seq_len, const LawSet& laws) {
  if (!tokens && !flops && !seq_len) return;
  TrainingSetup fresh;
  fresh.seq_len = laws.holistic.family_defaults.seq_len;
  TrainingSetup t = m.training.value_or(fresh);
  if (tokens || flops) {
    t.tokens = tokens ? std::optional<Tokens>(Tokens(*tokens)) : std::nullopt;
    t.compute = flops ? std::optional<Flops>(Flops(*flops)) : std::nullopt;
  }
  if (seq_len) t.seq_len = *seq_len;
  if (t.tokens || t.compute) m.training = t;
}

}  // namespace

std::expected<plot::Figure, int> step_figure(const StepPlotFlags& f, const ClusterFlags& cluster_flags, Io& io) {
  if (f.model.empty()) {
    return step_plot_fail(io, ExitStatus::usage,
                          "plot step needs the model: a preset name, a moeplan-model TOML or a config.json "
                          "(moeplan plot step deepseek-v3.1 --gpus 2048 --gpu h800 --tokens 14.8e12 -o step.svg)");
  }
  if (f.tokens && !f.flops.empty()) {
    return step_plot_fail(io, ExitStatus::usage, "--tokens and --flops both set the budget: give one");
  }
  std::optional<double> flops;
  if (!f.flops.empty()) {
    auto C = parse_positive_finite(f.flops);
    if (!C) return step_plot_fail(io, ExitStatus::usage, "--flops: " + C.error());
    flops = *C;
  }
  auto loaded = laws_with_overlay(f.laws_file);
  if (!loaded) return step_plot_fail(io, loaded.error());
  const LawSet& laws = *loaded;
  std::optional<int> seq_len = f.seq_len;  // or a --megatron-args file's --seq-length
  std::optional<MegatronArgs> file_args;
  auto flags_cluster = cluster_from_flags(cluster_flags, io, &seq_len, &file_args);
  if (!flags_cluster) return std::unexpected(flags_cluster.error());
  if (!*flags_cluster) return step_plot_fail(io, ExitStatus::usage, "plot step needs --gpus and --gpu (the cluster)");
  ClusterFitOptions cluster = std::move(**flags_cluster);
  cluster.co_design = false;  // a given config is fitted as it is (score's)
  auto m = load_model_config(f.model);
  if (!m) return step_plot_fail(io, m.error());
  lay_step_plot_budget(*m, f.tokens, flops, seq_len, laws);
  // What score refuses before it prints (score.cpp, refused_on_cluster), in its words.
  if (file_args) {
    if (auto other = megatron_model_mismatch(*file_args, *m, cluster_flags.megatron_args)) {
      return step_plot_fail(io, *other);
    }
  }
  ModelConfig trained = *m;
  if (cluster.mtp_layers) trained.extras.num_nextn_predict_layers = *cluster.mtp_layers;
  const int S = m->training ? m->training->seq_len : 0;
  if (const std::string why = given_layout_reason(trained, cluster.cluster, cluster.search.given, S); !why.empty()) {
    return step_plot_fail(io, ExitStatus::infeasible,
                          fmt::format("{}: infeasible on {} x {}: parallel layout: {}", printable(m->name),
                                      cluster.cluster.gpus, cluster.cluster.gpu.id, why));
  }
  const ModelScore s = score_model(laws, *m);
  if (!s.D || !s.C) {
    return step_plot_fail(io, ExitStatus::usage,
                          printable(m->name) + ": plot step needs a training budget (--tokens or --flops; the "
                                               "config has no [training] table)");
  }
  if (!std::isfinite(s.C->value()) || !std::isfinite(s.D->value())) {
    return step_plot_fail(io, ExitStatus::infeasible,
                          fmt::format("{}: the training budget gives C = {:.4g} FLOPs and D = {:.4g} tokens: a figure "
                                      "past the largest double (man moeplan, LIMITS)",
                                      printable(m->name), s.C->value(), s.D->value()));
  }
  auto fit = fit_on_cluster(laws, *m, *s.D, cluster, s.C, &s.params);
  if (!fit) {
    if (const auto why = non_uniform_layers(*m)) {
      return step_plot_fail(io, ExitStatus::infeasible,
                            fmt::format("{}: not laid out on {} x {}: {}", printable(m->name), cluster.cluster.gpus,
                                        cluster.cluster.gpu.id, *why));
    }
    if (fit.error().constraint == k_batch_ramp_constraint) {  // a flag that contradicts the run: usage
      return step_plot_fail(io, ExitStatus::usage, fmt::format("{}: {}", printable(m->name), fit.error().detail));
    }
    return step_plot_fail(io, ExitStatus::infeasible,
                          fmt::format("{}: infeasible on {} x {}: {}", printable(m->name), cluster.cluster.gpus,
                                      cluster.cluster.gpu.id, fit.error().to_string()));
  }
  for (const std::string& w : fit->warnings) io.warning(printable(m->name) + ": " + w);
  plot::Figure figure = plot::step_breakdown(*fit, cluster.cluster);
  if (!cluster.step_profile.empty()) {  // a calibrated picture says so, as plot frontier's
    figure.title += fmt::format(" (step profile {})", std::filesystem::path(cluster.step_profile).filename().string());
  }
  return figure;
}

}  // namespace moeplan::cli
