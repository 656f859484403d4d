// `moeplan plot KIND`: compute a figure's series in the core (moeplan/plot_data.hpp), then
// draw them with PLplot (src/plot, only when built with it) and optionally export them.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>

#include "app.hpp"
#include "command.hpp"
#include "common_flags.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/base/number_parse.hpp"
#include "moeplan/plot/plot_data.hpp"
#include "output_file.hpp"
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
  int points = 41;
  bool blind_ok = false;
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

int run_plot(const PlotFlags& f, Io& io) {
#ifndef MOEPLAN_HAVE_PLOTS
  (void)f;
  return fail(io, ExitStatus::usage,
              "moeplan was built without PLplot (install libplplot-dev plplot-driver-cairo and "
              "rebuild)");
#else
  const auto format = plot::image_format_for(f.output);
  if (!format) {
    return fail(io, ExitStatus::usage,
                "-o: '" + f.output + "' must end in .png or .svg (the image format)");
  }
  const bool residuals = f.kind == "residuals";
  if (residuals != !f.residuals_file.empty()) {
    return fail(io, ExitStatus::usage,
                residuals ? "plot residuals needs the CSV of 'moeplan fit --residuals FILE'"
                          : "only 'plot residuals' takes a file argument");
  }
  if (f.from && f.to && !(*f.from < *f.to)) {
    return fail(io, ExitStatus::usage, "--from must be below --to");
  }
  // The destinations before the work: neither output may be an input (plot residuals
  // res.csv --data res.csv), a write-protected file, or the other output.
  InputFiles inputs{f.residuals_file, f.laws_file};
  inputs.insert(inputs.end(), f.models.begin(), f.models.end());
  const auto outputs = [&](std::string image, std::string data) {
    std::vector<OutputFile> files{{f.output, std::move(image), "-o"}};
    if (!f.data.empty()) files.push_back({f.data, std::move(data), "--data"});
    return files;
  };
  if (std::string why = check_outputs(outputs("", ""), inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }

  plot::Figure figure;
  if (residuals) {
    auto table = plot::read_residuals_csv(f.residuals_file);
    if (!table) return fail(io, table.error());
    figure = plot::residuals_figure(*table);
    if (table->rows == 0) return fail(io, ExitStatus::input_file, f.residuals_file + ": no rows");
  } else {
    if (const std::string why = blind_law_reason(f.kind); !why.empty()) {
      if (!f.blind_ok) {
        return fail(io, ExitStatus::usage,
                    "plot " + f.kind + ": " + why + "; pass --blind-ok to draw it anyway");
      }
      io.warning("plot " + f.kind + " (--blind-ok): " + why);
    }
    if (f.flops.empty()) return fail(io, ExitStatus::usage, "plot " + f.kind + " needs --flops");
    auto C = parse_positive_finite(f.flops);
    if (!C) return fail(io, ExitStatus::usage, "--flops: " + C.error());
    // Bounded work: a range is refused before any of it is computed.
    const plot::SweepVariable swept = f.kind == "d" ? plot::SweepVariable::d : plot::SweepVariable::m_over_na;
    const plot::SweepRange sweep{f.from, f.to, f.points};
    const plot::ComputeRange compute{f.from, f.to, 4};
    if (const std::string why = f.kind == "loss-vs-compute" ? plot::compute_range_problem(*C, compute)
                                : f.kind == "el"           ? std::string()
                                                           : plot::sweep_range_problem(swept, sweep);
        !why.empty()) {
      return fail(io, ExitStatus::usage, why);
    }
    auto loaded = laws_with_overlay(f.laws_file);
    if (!loaded) return fail(io, loaded.error());
    const LawSet& laws = *loaded;
    SuggestOptions o;
    o.goal.compute = Flops(*C);
    std::expected<plot::Figure, ConstraintViolation> made;
    if (f.kind == "el") {
      made = plot::el_landscape(laws, o);
    } else if (f.kind == "m-over-na" || f.kind == "d") {
      made = plot::loss_sweep(laws, o, swept, sweep);
    } else {
      std::vector<ModelConfig> models;
      for (const std::string& name : f.models) {
        auto m = load_model_config(name);
        if (!m) return fail(io, m.error());
        models.push_back(std::move(*m));
      }
      made = plot::loss_versus_compute(laws, o, models, compute);
    }
    if (!made) return fail(io, ExitStatus::infeasible, "infeasible: " + made.error().to_string());
    figure = std::move(*made);
  }
  if (!f.title.empty()) figure.title = f.title;
  for (const std::string& note : figure.notes) io.note(note);

  auto image = plot::render(figure, *format);
  if (!image) return fail(io, ExitStatus::output_file, "-o: " + image.error());
  const std::string data = f.data.empty() ? "" : plot::to_csv(figure);
  if (std::string why = write_outputs(outputs(std::move(*image), data), io.out, inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  return static_cast<int>(ExitStatus::ok);
#endif
}

}  // namespace

Command plot_command() {
  return {
      "plot", "Draw a law's landscape, a near-optimal band or fit residuals (PNG or SVG)",
      [](CLI::App& sub) -> std::function<int(Io&)> {
        auto f = std::make_shared<PlotFlags>();
        sub.add_option("kind", f->kind,
                       "el | m-over-na | d | loss-vs-compute | residuals (see man moeplan-plot)")
            ->required()
            ->check(CLI::IsMember({"el", "m-over-na", "d", "loss-vs-compute", "residuals"}));
        sub.add_option("file", f->residuals_file,
                       "residuals only: the CSV written by 'moeplan fit --residuals FILE'");
        sub.add_option("--output,-o", f->output, "Image file; .png or .svg picks the format")
            ->required()
            ->check(not_empty_path());
        sub.add_option("--flops,-C", f->flops,
                       "Training compute budget C in FLOPs (all kinds but residuals)")
            ->check(positive());
        sub.add_option("--data", f->data, "Also write the plotted series as CSV ('-' = stdout)")
            ->check(not_empty_path());
        sub.add_option("--title", f->title, "Replace the figure's title");
        sub.add_option("--laws", f->laws_file,
                       "Laws TOML overlaying the embedded laws section by section");
        sub.add_option("--model,-m", f->models,
                       "loss-vs-compute: also draw this model (preset name or TOML file; "
                       "repeatable)");
        sub.add_option("--from", f->from,
                       "Sweep start: M/N_a, d or C (default 6 + (x - 6)/4 for the chosen "
                       "M/N_a x, d_min of the feasible interval, C/1000)")
            ->check(positive());
        sub.add_option("--to", f->to,
                       "Sweep end (default 6 + 4 (x - 6), d_max of the feasible interval, 100 C); "
                       "loss-vs-compute spans at most 30 decades")
            ->check(positive());
        sub.add_flag("--blind-ok", f->blind_ok,
                     "m-over-na, d: draw the joint law's loss although it cannot see what is "
                     "swept (refused without this flag; see man moeplan-plot)");
        sub.add_option("--points", f->points, "Sweep points for m-over-na and d")
            ->check(number_in(2, plot::k_max_sweep_points))
            ->capture_default_str();
        sub.footer(
            "Examples:\n"
            "  moeplan plot el --flops 1e22 -o el.png\n"
            "  moeplan plot m-over-na --flops 1e22 --blind-ok -o m.svg --data m.csv\n"
            "  moeplan plot loss-vs-compute --flops 1e22 -m moe-mini -o loss.png\n"
            "  moeplan plot residuals res.csv -o res.png\n"
            "Exit status: 0 ok, 2 bad flag or built without PLplot, 3 infeasible, 4 bad\n"
            "input file, 5 cannot write -o or --data. See man moeplan-plot.");
        return [f](Io& io) { return run_plot(*f, io); };
      }};
}

}  // namespace moeplan::cli
