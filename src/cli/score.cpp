// `moeplan score`: read model configs, run every law on each, print them side by side.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include "app.hpp"
#include "cluster_flags.hpp"
#include "command.hpp"
#include "common_flags.hpp"
#include "emit.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/planner/model_score.hpp"
#include "output/emitters.hpp"
#include "output/printable.hpp"
#include "output_file.hpp"
#include "score_report.hpp"
#include "serving_flags.hpp"

namespace moeplan::cli {

namespace {

struct ScoreFlags {
  std::vector<std::string> configs;
  std::string format = "table";
  std::string output = "-";
  std::string laws_file;
  std::string emit;  ///< "": the report; else --emit KIND of the one config
  std::optional<double> tokens, flops;  ///< a training budget for every config (--tokens/--flops)
  std::optional<int> seq_len;
  ClusterFlags cluster;  ///< --gpus, --gpu, ...: each config on a cluster
  ServingFlags serving;  ///< --serve-gpus, ...: each config on an inference node
};

/// The flags' budget and S laid over the config's own [training]: a downloaded config.json has
/// none, so the budget comes from the flags, and replaces a config's own when given. false:
/// --seq-len with no budget at all (a usage error).
bool with_budget(ModelConfig& m, const ScoreFlags& f, std::optional<int> seq_len, const LawSet& laws,
                 const std::optional<MegatronArgs>& file_args, Io& io) {
  std::optional<double> tokens = f.tokens;
  if (!tokens && !f.flops && file_args) {  // the launch script's own run length
    const int S = seq_len ? *seq_len : m.training ? m.training->seq_len : laws.holistic.family_defaults.seq_len;
    tokens = megatron_run_tokens(*file_args, S, f.cluster.global_batch_tokens);
    if (tokens) {
      io.note(fmt::format("{}: {} {}: {:.4g} tokens, the run's length (--tokens replaces it)", f.cluster.megatron_args,
                          file_args->train_samples ? "--train-samples" : "--train-iters",
                          file_args->train_samples ? *file_args->train_samples : *file_args->train_iters, *tokens));
    } else if (file_args->train_iters) {
      io.note(fmt::format("{}: --train-iters without --global-batch-size gives no token count: the run's length is "
                          "not read",
                          f.cluster.megatron_args));
    }
  }
  if (!tokens && !f.flops && !seq_len) return true;
  // Without a [training] table S is the one the score uses when there is no budget
  // (paper 002's S, the laws' [family] seq_len), so a budget does not change it.
  TrainingSetup fresh;
  fresh.seq_len = laws.holistic.family_defaults.seq_len;
  TrainingSetup t = m.training.value_or(fresh);
  if (tokens || f.flops) {
    t.tokens = tokens ? std::optional<Tokens>(Tokens(*tokens)) : std::nullopt;
    t.compute = f.flops ? std::optional<Flops>(Flops(*f.flops)) : std::nullopt;
  }
  if (seq_len) t.seq_len = *seq_len;
  if (t.tokens || t.compute) {
    m.training = t;
    return true;
  }
  // S from a --megatron-args file alone: no budget to time; --gpus says so later.
  return !f.seq_len;
}

// Why a config has no fit on the cluster, and the exit status: a --batch-ramp that contradicts
// the run's batch is a usage error (2), anything else infeasible (3).
std::pair<ExitStatus, std::string> fit_failure(const ModelConfig& m, const Cluster& cluster,
                                               const ConstraintViolation& error) {
  if (const auto why = non_uniform_layers(m)) {  // not a layout problem: the cluster model cannot take it
    return {ExitStatus::infeasible,
            fmt::format("{}: not laid out on {} x {}: {}", printable(m.name), cluster.gpus, cluster.gpu.id, *why)};
  }
  if (error.constraint == k_batch_ramp_constraint) {
    return {ExitStatus::usage, fmt::format("{}: {}", printable(m.name), error.detail)};
  }
  return {ExitStatus::infeasible, fmt::format("{}: infeasible on {} x {}: {}", printable(m.name), cluster.gpus,
                                              cluster.gpu.id, error.to_string())};
}

/// A given layout's refusal ("--tp 3: ...") names the launch script's flag where the value came
/// from a --megatron-args file and not the command line.
std::string with_file_flag(const std::string& why, const GivenLayout& given, const std::optional<MegatronArgs>& file_args,
                           const std::string& file) {
  if (!file_args) return why;
  for (const MegatronLayoutFlag& d : megatron_layout_flags()) {
    const std::string prefix = std::string(d.moeplan) + " ";
    const std::optional<int>& from_file = file_args->layout.*d.value;
    if (why.starts_with(prefix) && from_file && given.*d.value == from_file) {
      return fmt::format("{} (given by {} as {} {})", why, file, d.megatron, *from_file);
    }
  }
  return why;
}

/// Why the models cannot go on the cluster as asked, said before anything is printed (the exit
/// status; nullopt when they can): a --megatron-args file for another model, a given layout a
/// model cannot take, a model without a training budget.
std::optional<int> refused_on_cluster(const std::vector<ModelConfig>& models, const ClusterFitOptions& cluster,
                                      const std::optional<MegatronArgs>& file_args, const std::string& file, Io& io) {
  for (const ModelConfig& m : models) {
    // A launch script for another model: its layout (VPP from its --num-layers) would be
    // judged against this one, so the first flag that differs is named before anything else.
    if (file_args) {
      if (auto other = megatron_model_mismatch(*file_args, m, file)) return fail(io, *other);
    }
    // A given layout the model cannot take (TP not dividing its heads, ...): before anything
    // is printed, naming the rule.
    const int S = m.training ? m.training->seq_len : 0;
    ModelConfig trained = m;  // with --mtp-num-layers, the MTP modules the run trains (cluster_fit's)
    if (cluster.mtp_layers) trained.extras.num_nextn_predict_layers = *cluster.mtp_layers;
    if (const std::string why = given_layout_reason(trained, cluster.cluster, cluster.search.given, S); !why.empty()) {
      return fail(io, ExitStatus::infeasible,
                  fmt::format("{}: infeasible on {} x {}: parallel layout: {}", printable(m.name),
                              cluster.cluster.gpus, cluster.cluster.gpu.id,
                              with_file_flag(why, cluster.search.given, file_args, file)));
    }
    if (!m.training || (!m.training->tokens && !m.training->compute)) {
      return fail(io, ExitStatus::usage,
                  printable(m.name) + ": --gpus needs a training budget (--tokens or --flops; the "
                                      "config has no [training] table)");
    }
  }
  return std::nullopt;
}

/// The serving section of a config's report: figures, or nulls with the reason; a config that
/// does not fit the node, or whose cache cannot be counted, is named on stderr and its exit
/// status returned.
std::optional<int> add_config_serving(Report& report, const ModelConfig& m, const std::string& given_as,
                                      int seq_len, const ServingOptions& serving, Io& io) {
  ServingOptions node = serving;
  if (node.context == 0) {  // the engine's own default where config.json gives one, else S
    const ContextDefault d = engine_default_context(m, node.engine);
    node.context = d.tokens > 0 ? d.tokens : seq_len;
    node.context_source =
        d.tokens > 0 ? d.source : fmt::format("the training sequence length S = {} ({})", seq_len, d.source);
  }
  warn_context(m, node, m.training ? m.training->seq_len : 0, printable(m.name) + ": ", io);
  const auto fit = serving_fit_on_node(m, node);  // --serve-min-gpus sets node.gpus
  add_serving(report, m, fit, node);
  if (!fit) {
    return fail(io, ExitStatus::input_file, fmt::format("{}: serving: {}", printable(given_as), fit.error()));
  }
  if (!fit->fits) {
    return fail(io, ExitStatus::infeasible,
                fmt::format("{}: serving: does not fit {} x {}: {}", printable(m.name), node.gpus, node.gpu.id,
                            fit->why_not));
  }
  return std::nullopt;
}

/// The serving section of the config last in `reports`, after the checks that refuse it: a
/// --serve-args line that cannot be planned for it (the section null, the file's line named),
/// --serve-mtp on a config without MTP modules (a usage slip, not a fit: left out, named).
std::optional<int> serve_config(std::vector<Report>& reports, const ModelConfig& m, const std::string& given_as,
                                int seq_len, const ServingOptions& serving, const std::optional<ServeArgs>& file,
                                const ServingFlags& flags, Io& io) {
  if (file) {
    if (const auto code = refuse_serve_args(reports.back(), m, *file, flags, serving, seq_len, io)) return code;
  }
  if (serving.count_mtp && m.extras.num_nextn_predict_layers == 0) {
    reports.pop_back();
    return fail(io, ExitStatus::usage,
                fmt::format("{}: --serve-mtp: the model has no multi-token-prediction modules "
                            "(num_nextn_predict_layers 0)", printable(given_as)));
  }
  return add_config_serving(reports.back(), m, given_as, seq_len, serving, io);
}

int run_score(const ScoreFlags& f, Io& io) {
  if (!f.emit.empty() && !emit_count_problem(f.configs.size()).empty()) {
    return fail(io, ExitStatus::usage, emit_count_problem(f.configs.size()));
  }
  // score my-model.toml -o my-model.toml would replace the config with its report.
  InputFiles inputs = f.configs;
  inputs.push_back(f.laws_file);
  inputs.push_back(f.cluster.catalog_file);  // --gpu-catalog F -o F likewise
  inputs.push_back(f.cluster.megatron_args);
  inputs.push_back(f.cluster.gemm_table);
  if (std::string why = check_outputs({{f.output, ""}}, inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  auto loaded = laws_with_overlay(f.laws_file);
  if (!loaded) return fail(io, loaded.error());
  const LawSet& laws = *loaded;
  std::optional<int> seq_len = f.seq_len;  // or a --megatron-args file's --seq-length
  std::optional<MegatronArgs> file_args;  // a --megatron-args file's reading: its model flags
  auto flags_cluster = cluster_from_flags(f.cluster, io, &seq_len, &file_args);
  if (!flags_cluster) return flags_cluster.error();
  std::optional<ClusterFitOptions> cluster = std::move(*flags_cluster);
  if (cluster) {
    cluster->co_design = false;  // a given config is fitted as it is
    cluster->compare_given_with_search = true;  // a given layout beside the search's best
  }
  if (f.tokens && f.flops) {
    return fail(io, ExitStatus::usage, "--tokens and --flops both set the budget: give one");
  }
  std::optional<ServeArgs> serve_file;  // a --serve-args file's reading: refusals name its lines
  auto flags_serving = serving_from_flags(f.serving, f.cluster, io, &serve_file);
  if (!flags_serving) return flags_serving.error();
  const std::optional<ServingOptions> serving = *flags_serving;
  // Every config is read and scored: one that fails is reported on stderr (the message
  // names it) and left out, the others are printed, and the exit status is the first
  // failure's, so a bad file among good ones neither hides their results nor passes unseen.
  std::optional<int> first_failure;
  const auto failed = [&first_failure](int code) {
    if (!first_failure) first_failure = code;
  };
  std::vector<ModelConfig> models;
  std::vector<std::string> given_as;  // each model's argument (a file or a preset name)
  for (const std::string& c : f.configs) {
    auto m = load_model_config(c);
    if (!m) {
      failed(fail(io, m.error()));
      continue;
    }
    if (!with_budget(*m, f, seq_len, laws, file_args, io)) {
      failed(fail(io, ExitStatus::usage,
                  c + ": --seq-len needs a budget: the config has no [training] table, so give --tokens or --flops too"));
      continue;
    }
    // A given S past a learned position table: no embedding for the positions past it, and a
    // learned table cannot be extrapolated (RoPE models are not concerned).
    if (seq_len) {
      if (const auto why = position_table_problem(*m, *seq_len)) {
        failed(fail(io, ExitStatus::infeasible,
                    fmt::format("{}: {} {} {}; a learned table cannot be extrapolated", c,
                                f.seq_len ? "--seq-len" : fmt::format("--megatron-args {} --seq-length", f.cluster.megatron_args),
                                *seq_len, *why)));
        continue;
      }
    }
    models.push_back(std::move(*m));
    given_as.push_back(c);
  }
  if (models.empty()) return first_failure.value_or(static_cast<int>(ExitStatus::usage));
  if (cluster) {  // nothing to time without D: said before anything is printed
    if (const auto refused = refused_on_cluster(models, *cluster, file_args, f.cluster.megatron_args, io)) {
      return *refused;
    }
  }
  // A config on the cluster: its training D is the score's (the config's budget or the
  // flags'); without one there is nothing to time, and the config says so.
  const auto on_cluster = [&](const ModelConfig& m, std::optional<Flops> C, std::optional<Tokens> D,
                              const ParameterCounts* counted) -> std::expected<ClusterFit, std::pair<ExitStatus, std::string>> {
    using Failure = std::pair<ExitStatus, std::string>;
    if (!D) {
      return std::unexpected(
          Failure{ExitStatus::infeasible, printable(m.name) + ": --gpus needs a training budget (--tokens or --flops)"});
    }
    auto fit = fit_on_cluster(laws, m, *D, *cluster, C, counted);
    if (!fit) return std::unexpected(fit_failure(m, cluster->cluster, fit.error()));
    return std::move(*fit);
  };
  if (!f.emit.empty()) {
    std::optional<ClusterFit> fit;
    if (cluster) {
      const auto run = training_budget(models.front());
      auto got = on_cluster(models.front(), run ? std::optional(run->C) : std::nullopt,
                            run ? std::optional(run->D) : std::nullopt, nullptr);
      if (!got) return fail(io, got.error().first, got.error().second);
      fit = std::move(*got);
    }
    const std::optional<MegatronRun> run = fit ? std::optional(megatron_run(*fit, *cluster)) : std::nullopt;
    return emit_config(f.emit, models.front(), laws, f.output, io, inputs, run ? &*run : nullptr);
  }
  std::vector<Report> reports;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const ModelConfig& m = models[i];
    const ModelScore s = score_model(laws, m);
    if ((s.C && !std::isfinite(s.C->value())) || (s.D && !std::isfinite(s.D->value()))) {
      // Not a number any figure can carry (the table printed "n/a (inf)"): refused, named.
      failed(fail(io, ExitStatus::infeasible,
                  fmt::format("{}: the training budget ({}) gives C = M D = {:.4g} FLOPs and D = {:.4g} tokens: "
                              "a figure past the largest double (man moeplan, LIMITS)",
                              printable(m.name),
                              f.tokens || f.flops ? std::string(f.tokens ? "--tokens" : "--flops")
                                                  : "[training] of " + printable(given_as[i]),
                              s.C ? s.C->value() : 0.0, s.D ? s.D->value() : 0.0)));
      continue;
    }
    for (const std::string& note : s.notes) {
      io.note(printable(m.name) + ": " + note);  // a line break in the name stays escaped
    }
    reports.push_back(score_report(s, laws));
    if (cluster) {
      auto fit = on_cluster(m, s.C, s.D, &s.params);
      if (fit) {
        add_cluster_fit(reports.back(), *fit, cluster->cluster);
        for (const std::string& w : fit->warnings) io.warning(printable(m.name) + ": " + w);
      } else {
        // Left out like an unreadable config: its report without the cluster answer asked for
        // would read as a whole one to a tool that does not check the status.
        failed(fail(io, fit.error().first, fit.error().second));
        reports.pop_back();
        continue;
      }
    }
    if (serving) {
      if (const auto code = serve_config(reports, m, given_as[i], s.seq_len, *serving, serve_file, f.serving, io)) {
        failed(*code);
      }
    }
  }
  if (reports.empty()) return first_failure.value_or(static_cast<int>(ExitStatus::usage));  // nothing written
  std::ostringstream text;
  emit_many(reports, parse_format(f.format), text, style_for(f.output, io));
  const int delivered = deliver(f.output, text.str(), io, inputs);
  return delivered != 0 ? delivered : first_failure.value_or(0);
}

}  // namespace

Command score_command() {
  return {"score", "Everything the laws say about given model configs (side by side)",
          [](CLI::App& sub) -> std::function<int(Io&)> {
            auto f = std::make_shared<ScoreFlags>();
            sub.add_option("configs", f->configs,
                           "Model TOML files (schema moeplan-model/1), HF config.json files (*.json) "
                           "or preset names (moeplan presets lists them)")
                ->required();
            add_output_flags(sub, f->format, f->output, f->laws_file);
            add_emit_flag(sub, f->emit);
            sub.add_option("--tokens", f->tokens,
                           "Training tokens D for every config (replaces its [training] budget; "
                           "a config.json has none). With a budget the price section says what "
                           "training on D costs against paper 002's compute-optimal line")
                ->check(positive());
            sub.add_option("--flops", f->flops, "Training compute C instead of --tokens (D = C / M)")
                ->check(positive());
            sub.add_option("--seq-len", f->seq_len, "Training sequence length S for the attention FLOPs (default: the config's [training] seq_len, else the laws preset's [architecture] seq_len; past a learned position table's rows: exit 3)")
                ->check(positive());
            add_cluster_flags(sub, f->cluster);
            add_serving_flags(sub, f->serving, false);
            sub.footer(
                "Examples:\n"
                "  moeplan score deepseek-v3.1 kimi-k2\n"
                "  moeplan score config.json --tokens 15e12\n"
                "  moeplan score moe-mini --tokens 1e12 --format json | jq '.[0].price'\n"
                "  moeplan score my-model.toml --format json | jq '.[0].leverage'\n"
                "  moeplan score deepseek-v3.1 --emit megatron -o args.sh\n"
                "  moeplan score deepseek-v3.1 --gpus 2048 --gpu h800 --tokens 14.8e12\n"
                "  moeplan score deepseek-v3.1 --serve-gpus 8 --serve-gpu h200 --serve-context 32768\n"
                "Every config is scored; one that fails is named on stderr and the others\n"
                "are printed. Exit status: 0 ok, 2 bad flag, 3 illegal layout or no layout\n"
                "fits (the rule and the numbers named) or a --serve-args line the engine would\n"
                "not start, 4 bad config, --laws, --gemm-table, --megatron-args or --serve-args\n"
                "file or quantization_config (the first failure's), 5 cannot write -o. See man\n"
                "moeplan-score for the "
                "schema and every output key.");
            return [f](Io& io) { return run_score(*f, io); };
          }};
}

}  // namespace moeplan::cli
