// `moeplan plot KIND`: compute a figure's series in the core (moeplan/plot_data.hpp), then
// draw them with PLplot (src/plot, only when built with it) or write them as CSV or JSON.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fmt/format.h>
#include <cctype>
#include <expected>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "app.hpp"
#include "cluster_flags.hpp"
#include "command.hpp"
#include "common_flags.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/base/number_parse.hpp"
#include "moeplan/plot/drawn_text.hpp"
#include "moeplan/plot/plot_data.hpp"
#include "output/emitters.hpp"
#include "output_file.hpp"
#include "plot_step.hpp"
#include "report.hpp"
#ifdef MOEPLAN_HAVE_PLOTS
#include "render.hpp"
#endif

namespace moeplan::cli {

namespace {

struct PlotFlags {
  std::string kind;
  std::string residuals_file;
  std::string flops;
  std::string output;
  std::string data;
  std::string title;
  std::string laws_file;
  std::vector<std::string> models;
  std::optional<double> from, to;
  std::optional<int> points;  ///< default per kind: 41 (m-over-na, d), 61 (overtraining)
  bool blind_ok = false;
  std::optional<double> tokens;  ///< step: the training's D (or --flops C)
  std::optional<int> seq_len;    ///< step: S
  ClusterFlags cluster;  ///< frontier, step: the cluster (--gpus, --gpu, ...)
};

// A law may be plotted only against what it can see. The joint law (paper 001 Eq. 11) has
// no attention term, so against M/N_a it only ever falls (attention FLOPs turned into
// parameters); at fixed (N, N_a, D) it is blind to d, so a d sweep draws integer rounding.
// Paper 002's Figs. 5-6 come from measured losses it does not print. These two plots are
// refused unless the user asks for them knowingly.
std::string blind_law_reason(const std::string& kind) {
  if (kind == "m-over-na") {
    return "the joint law (paper 001 Eq. 11) has no attention term: against M/N_a it only "
           "falls as attention FLOPs turn into parameters, so its curve has no optimum to show "
           "(paper 002 Fig. 5 comes from losses the paper does not print)";
  }
  if (kind == "d") {
    return "at fixed (N, N_a, D) the joint law (paper 001 Eq. 11) does not see d: the curve "
           "is the integer solve's rounding (paper 002 Fig. 6 comes from losses the paper "
           "does not print)";
  }
  return "";
}

// What -o writes, from its extension: an image drawn by PLplot, or the figure's data.
enum class PlotOutput { png, svg, csv, json };

std::optional<PlotOutput> plot_output_for(std::string_view path) {
  if (const auto image = plot::image_format_for(path)) {
    return *image == plot::ImageFormat::png ? PlotOutput::png : PlotOutput::svg;
  }
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return {};
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "csv") return PlotOutput::csv;
  if (ext == "json") return PlotOutput::json;
  return {};
}

// The figure as JSON through the report emitters (never NaN: a non-finite number is null):
// {"figure": {kind, title, axes, notes}, "points": [{series, style, X, Y[, Z]}, ...]}, the
// points those of the CSV, one object per row.
std::string figure_json(const plot::Figure& f) {
  Report r;
  Section head{"figure", "Figure",
               {{"kind", "", "", f.kind, "plot kind"},
                {"title", "", "", f.title, "title"},
                {"x_key", "", "", f.x_key, "key of x in points"},
                {"x_label", "", "", f.x_label, "x axis"},
                {"log_x", "", "", f.log_x, "x axis is logarithmic"},
                {"y_key", "", "", f.y_key, "key of y in points"},
                {"y_label", "", "", f.y_label, "y axis"},
                {"log_y", "", "", f.log_y, "y axis is logarithmic"}}};
  if (!f.z_key.empty()) {
    head.fields.push_back({"z_key", "", "", f.z_key, "key of z in points"});
    head.fields.push_back({"z_label", "", "", f.z_label, "z values"});
  }
  if (!f.bars.empty()) {  // stacked bars (plot step): bar i is x = i
    std::vector<std::string> labels, units;
    for (const plot::Bar& b : f.bars) labels.push_back(b.label), units.push_back(b.unit);
    head.fields.push_back({"bar_labels", "", "", TextList(labels), "what bar i (x = i) shows"});
    head.fields.push_back({"bar_units", "", "", TextList(units), "the unit of bar i's amounts"});
    head.fields.push_back({"caption", "", "", f.caption, "the line under the title"});
  }
  head.fields.push_back({"notes", "", "", TextList(f.notes), "what the figure does not show by itself"});
  r.sections.push_back(std::move(head));
  const auto point = [&](const plot::Series& s, double x, double y, std::optional<double> z) {
    Section p{"points", "Point", {{"series", "", "", s.name, "series"},
                                  {"style", "", "", std::string(plot::to_string(s.style)), "how it is drawn"},
                                  {f.x_key, "", "", x, f.x_label},
                                  {f.y_key, "", "", y, f.y_label}}, true};
    if (!f.z_key.empty()) {
      p.fields.push_back({f.z_key, "", "", z ? Value(*z) : Value(Missing{"no z for this series"}), f.z_label});
    }
    r.sections.push_back(std::move(p));
  };
  for (const plot::Series& s : f.series) {
    if (s.style == plot::SeriesStyle::grid) {
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        for (std::size_t j = 0; j < s.y.size(); ++j) point(s, s.x[i], s.y[j], s.z[i * s.y.size() + j]);
      }
      continue;
    }
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      point(s, s.x[i], s.y[i], i < s.z.size() ? std::optional<double>(s.z[i]) : std::nullopt);
    }
  }
  std::ostringstream out;
  emit(r, Format::json, out);
  return out.str();
}

// fail() as the figure helpers return it.
template <class... Args>
std::unexpected<int> plot_fail(Args&&... args) {
  return std::unexpected(fail(std::forward<Args>(args)...));
}

// plot frontier: the plans of the days on the cluster; an exit status when there is none.
std::expected<plot::Figure, int> frontier_figure(const PlotFlags& f, Io& io) {
  if (!f.flops.empty()) return plot_fail(io, ExitStatus::usage, "plot frontier plans for days on the cluster: no --flops");
  if (!f.cluster.gpus) return plot_fail(io, ExitStatus::usage, "plot frontier needs --gpus and --gpu (the cluster)");
  const plot::DaysRange days{f.from, f.to, f.points.value_or(plot::DaysRange{}.points)};
  if (const std::string why = plot::days_range_problem(days); !why.empty()) return plot_fail(io, ExitStatus::usage, why);
  auto flags_cluster = cluster_from_flags(f.cluster, io);
  if (!flags_cluster) return std::unexpected(flags_cluster.error());
  auto loaded = laws_with_overlay(f.laws_file);
  if (!loaded) return plot_fail(io, loaded.error());
  auto made = plot::frontier(*loaded, SuggestOptions{}, **flags_cluster, days);
  if (!made) return plot_fail(io, ExitStatus::infeasible, "infeasible: " + made.error().to_string());
  plot::Figure figure = std::move(*made);
  if (const ClusterFitOptions& c = **flags_cluster; c.step_band) {
    // A calibrated picture says so (docs/calibration.md): the days are the profile's.
    figure.title += fmt::format(" (step profile {})", std::filesystem::path(c.step_profile).filename().string());
    io.note(fmt::format("plot frontier: steps timed with --step-profile {} (its runs spread x{:.3g} to x{:.3g}); the "
                        "days band drawn is the whole-training class's, the days being wall days",
                        c.step_profile, c.step_band->speed_ratio_min, c.step_band->speed_ratio_max));
  }
  return figure;
}

// plot step MODEL: the flags only a sweep takes are refused by name (a step has no range).
std::expected<plot::Figure, int> step_figure_of(const PlotFlags& f, Io& io) {
  const std::pair<bool, const char*> sweep_flags[] = {{f.from.has_value(), "--from"},
                                                      {f.to.has_value(), "--to"},
                                                      {f.points.has_value(), "--points"},
                                                      {f.blind_ok, "--blind-ok"},
                                                      {!f.models.empty(), "--model"}};
  for (const auto& [given, flag] : sweep_flags) {
    if (given) {
      return plot_fail(io, ExitStatus::usage,
                       fmt::format("{}: plot step draws one config's step and training (its model is the argument "
                                   "after 'step'): no sweep",
                                   flag));
    }
  }
  return step_figure({f.residuals_file, f.tokens, f.flops, f.seq_len, f.laws_file}, f.cluster, io);
}

// plot residuals FILE: the residuals of a fit.
std::expected<plot::Figure, int> residuals_figure_of(const PlotFlags& f, Io& io) {
  auto table = plot::read_residuals_csv(f.residuals_file);
  if (!table) return plot_fail(io, table.error());
  if (table->rows == 0) return std::unexpected(fail(io, ExitStatus::input_file, f.residuals_file + ": no rows"));
  return plot::residuals_figure(*table);
}

// The law figures (el, m-over-na, d, overtraining, loss-vs-compute) at --flops.
std::expected<plot::Figure, int> law_figure(const PlotFlags& f, Io& io) {
  if (const std::string why = blind_law_reason(f.kind); !why.empty()) {
    if (!f.blind_ok) {
      return plot_fail(io, ExitStatus::usage,
                  "plot " + f.kind + ": " + why + "; pass --blind-ok to draw it anyway");
    }
    io.warning("plot " + f.kind + " (--blind-ok): " + why);
  }
  if (f.flops.empty()) return plot_fail(io, ExitStatus::usage, "plot " + f.kind + " needs --flops");
  auto C = parse_positive_finite(f.flops);
  if (!C) return plot_fail(io, ExitStatus::usage, "--flops: " + C.error());
  // Bounded work: a range is refused before any of it is computed.
  const plot::SweepVariable swept = f.kind == "d" ? plot::SweepVariable::d : plot::SweepVariable::m_over_na;
  const plot::SweepRange sweep{f.from, f.to, f.points.value_or(plot::SweepRange{}.points)};
  const plot::ComputeRange compute{f.from, f.to, 4};
  const plot::SizeRatioRange sizes{f.from, f.to, f.points};
  if (const std::string why = f.kind == "loss-vs-compute" ? plot::compute_range_problem(*C, compute)
                              : f.kind == "overtraining"  ? plot::size_ratio_range_problem(sizes)
                              : f.kind == "el"           ? std::string()
                                                         : plot::sweep_range_problem(swept, sweep);
      !why.empty()) {
    return plot_fail(io, ExitStatus::usage, why);
  }
  auto loaded = laws_with_overlay(f.laws_file);
  if (!loaded) return plot_fail(io, loaded.error());
  const LawSet& laws = *loaded;
  SuggestOptions o;
  o.goal.compute = Flops(*C);
  std::expected<plot::Figure, ConstraintViolation> made;
  if (f.kind == "el") {
    made = plot::el_landscape(laws, o);
  } else if (f.kind == "m-over-na" || f.kind == "d") {
    made = plot::loss_sweep(laws, o, swept, sweep);
  } else if (f.kind == "overtraining") {
    made = plot::overtraining(laws, o, sizes);
  } else {
    std::vector<ModelConfig> models;
    for (const std::string& name : f.models) {
      auto m = load_model_config(name);
      if (!m) return plot_fail(io, m.error());
      models.push_back(std::move(*m));
    }
    made = plot::loss_versus_compute(laws, o, models, compute);
  }
  if (!made) return plot_fail(io, ExitStatus::infeasible, "infeasible: " + made.error().to_string());
  return std::move(*made);
}

int run_plot(const PlotFlags& f, Io& io) {
  const auto output = plot_output_for(f.output);
  if (!output) {
    return fail(io, ExitStatus::usage,
                "-o: '" + f.output + "' must end in .png or .svg (the image format), or .csv or "
                ".json (the figure's data)");
  }
#ifndef MOEPLAN_HAVE_PLOTS
  if (*output == PlotOutput::png || *output == PlotOutput::svg) {
    return fail(io, ExitStatus::usage,
                "moeplan was built without PLplot (install libplplot-dev plplot-driver-cairo and "
                "rebuild); -o FILE.csv or FILE.json writes the figure's data without it");
  }
#endif
  const bool residuals = f.kind == "residuals";
  const bool step = f.kind == "step";
  if (residuals && f.residuals_file.empty()) {
    return fail(io, ExitStatus::usage, "plot residuals needs the CSV of 'moeplan fit --residuals FILE'");
  }
  if (!residuals && !step && !f.residuals_file.empty()) {
    return fail(io, ExitStatus::usage, "only 'plot residuals' takes a file argument (and 'plot step' a model)");
  }
  if (!step && (f.tokens || f.seq_len)) {
    return fail(io, ExitStatus::usage,
                fmt::format("{}: only 'plot step' takes a training's tokens and sequence length",
                            f.tokens ? "--tokens" : "--seq-len"));
  }
  if (f.from && f.to && !(*f.from < *f.to)) {
    return fail(io, ExitStatus::usage, "--from must be below --to");
  }
  if (!is_valid_utf8(f.title)) return fail(io, ExitStatus::usage, "--title: not UTF-8 text");
  if (f.title.size() > plot::k_max_drawn_text_bytes) {  // drawn: PLplot's bound (drawn_text.hpp)
    return fail(io, ExitStatus::usage,
                fmt::format("--title: {} bytes; a drawn text holds at most {} bytes", f.title.size(),
                            plot::k_max_drawn_text_bytes));
  }
  // The destinations before the work: neither output may be an input (plot residuals
  // res.csv --data res.csv), a write-protected file, or the other output.
  InputFiles inputs{f.residuals_file, f.laws_file, f.cluster.catalog_file, f.cluster.megatron_args,
                    f.cluster.gemm_table};
  inputs.insert(inputs.end(), f.models.begin(), f.models.end());
  const auto outputs = [&](std::string main, std::string data) {
    std::vector<OutputFile> files{{f.output, std::move(main), "-o"}};
    if (!f.data.empty()) files.push_back({f.data, std::move(data), "--data"});
    return files;
  };
  if (std::string why = check_outputs(outputs("", ""), inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }

  const bool frontier = f.kind == "frontier";
  if (!frontier && !step && (f.cluster.given() || !f.cluster.catalog_file.empty())) {
    return fail(io, ExitStatus::usage, "only 'plot frontier' and 'plot step' take the cluster flags (--gpus, --gpu, ...)");
  }
  std::expected<plot::Figure, int> made = frontier    ? frontier_figure(f, io)
                                          : step      ? step_figure_of(f, io)
                                          : residuals ? residuals_figure_of(f, io)
                                                      : law_figure(f, io);
  if (!made) return made.error();
  plot::Figure figure = std::move(*made);
  if (!f.title.empty()) figure.title = f.title;
  for (const std::string& note : figure.notes) io.note(note);

  std::string main;
  if (*output == PlotOutput::csv) {
    main = plot::to_csv(figure);
  } else if (*output == PlotOutput::json) {
    main = figure_json(figure);
  } else {
#ifdef MOEPLAN_HAVE_PLOTS
    // The image's texts within what PLplot draws (a model's long name, say), said on stderr;
    // the data keeps them whole.
    plot::Figure shown = figure;
    for (const std::string& note : plot::shorten_drawn_texts(shown)) io.note(note);
    auto drawn = plot::render(shown, *output == PlotOutput::png ? plot::ImageFormat::png : plot::ImageFormat::svg);
    // Not a file problem: PLplot (its module) is missing here, as in a build without it.
    if (!drawn) {
      return fail(io, ExitStatus::usage,
                  "cannot draw " + f.output + ": " + drawn.error() +
                      "; -o FILE.csv or FILE.json writes the figure's data without it");
    }
    main = std::move(*drawn);
#endif
  }
  const std::string data = f.data.empty() ? "" : plot::to_csv(figure);
  if (std::string why = write_outputs(outputs(std::move(main), data), io.out, inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  return static_cast<int>(ExitStatus::ok);
}

}  // namespace

Command plot_command() {
  return {
      "plot", "Draw a law's landscape, a near-optimal band, the overhead of leaving the compute-optimal line, fit residuals, the loss-days frontier or where a training's time goes (PNG, SVG, or the data as CSV or JSON)",
      [](CLI::App& sub) -> std::function<int(Io&)> {
        auto f = std::make_shared<PlotFlags>();
        sub.add_option("kind", f->kind,
                       "el | m-over-na | d | loss-vs-compute | overtraining | residuals | frontier | step "
                       "(see man moeplan-plot)")
            ->required()
            ->check(CLI::IsMember(
                {"el", "m-over-na", "d", "loss-vs-compute", "overtraining", "residuals", "frontier", "step"}));
        sub.add_option("file", f->residuals_file,
                       "residuals: the CSV written by 'moeplan fit --residuals FILE'; step: the model (preset "
                       "name, moeplan-model TOML or config.json)");
        sub.add_option("--output,-o", f->output,
                       "Output file: .png or .svg draws the figure, .csv or .json writes its data "
                       "(the extension picks)")
            ->required()
            ->check(not_empty_path());
        sub.add_option("--flops,-C", f->flops,
                       "Training compute budget C in FLOPs (all kinds but residuals and frontier; step: "
                       "the training's C, or --tokens)")
            ->check(positive());
        sub.add_option("--tokens", f->tokens,
                       "step: training tokens D (replaces the config's [training] budget; a config.json has none)")
            ->check(positive());
        sub.add_option("--seq-len", f->seq_len,
                       "step: training sequence length S (default: the config's [training] seq_len, else the laws "
                       "preset's)")
            ->check(positive());
        sub.add_option("--data", f->data, "Also write the plotted series as CSV ('-' = stdout)")
            ->check(not_empty_path());
        sub.add_option("--title", f->title,
                       fmt::format("Replace the figure's title (at most {} bytes)", plot::k_max_drawn_text_bytes));
        sub.add_option("--laws", f->laws_file,
                       "Laws TOML overlaying the embedded laws section by section")
            ->check(not_empty_path());
        sub.add_option("--model,-m", f->models,
                       "loss-vs-compute: also draw this model (preset name or TOML file; "
                       "repeatable)");
        sub.add_option("--from", f->from,
                       "Sweep start: M/N_a, d, C, N_a/N_a,opt or days (default 6 + (x - 6)/4 for the "
                       "chosen M/N_a x, d_min of the feasible interval, C/1000, 0.1, 1 day)")
            ->check(positive());
        sub.add_option("--to", f->to,
                       "Sweep end (default 6 + 4 (x - 6), d_max of the feasible interval, 100 C, "
                       "2, 100 days); loss-vs-compute spans at most 30 decades, overtraining 0.001 to 100")
            ->check(positive());
        sub.add_flag("--blind-ok", f->blind_ok,
                     "m-over-na, d: draw the joint law's loss although it cannot see what is "
                     "swept (refused without this flag; see man moeplan-plot)");
        sub.add_option("--points", f->points,
                       "Sweep points for m-over-na and d [41], sizes for overtraining [61], times for "
                       "frontier [9]")
            ->check(number_in(2, plot::k_max_sweep_points));
        sub.footer(
            "Examples:\n"
            "  moeplan plot el --flops 1e22 -o el.png\n"
            "  moeplan plot m-over-na --flops 1e22 --blind-ok -o m.svg --data m.csv\n"
            "  moeplan plot loss-vs-compute --flops 1e22 -m moe-mini -o loss.png\n"
            "  moeplan plot overtraining --flops 1e22 -o overtraining.png\n"
            "  moeplan plot overtraining --flops 1e22 -o overtraining.csv\n"
            "  moeplan plot residuals res.csv -o res.png\n"
            "  moeplan plot frontier --gpus 64 --gpu h100 -o frontier.png --data frontier.csv\n"
            "  moeplan plot step deepseek-v3.1 --gpus 2048 --gpu h800 --tokens 14.8e12 -o step.svg\n"
            "Exit status: 0 ok, 2 bad flag or built without PLplot, 3 infeasible, 4 bad\n"
            "input file, 5 cannot write -o or --data. See man moeplan-plot.");
        add_cluster_flags(sub, f->cluster);
        return [f](Io& io) { return run_plot(*f, io); };
      }};
}

}  // namespace moeplan::cli
