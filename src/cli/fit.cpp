// `moeplan fit RUNS.csv`: read the runs, fit one law, report it, optionally write a laws
// file that `suggest --laws` and `score --laws` use.
#include <CLI/CLI.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <sstream>

#include "app.hpp"
#include "command.hpp"
#include "common_flags.hpp"
#include "fit_report.hpp"
#include "fit_steps.hpp"
#include "moeplan/fit/fit_laws.hpp"
#include "moeplan/base/number_parse.hpp"
#include "moeplan/fit/runs_csv.hpp"
#include "output/emitters.hpp"
#include "output_file.hpp"

namespace moeplan::cli {
namespace {

struct FitFlags {
  std::string runs;
  std::string law;
  std::vector<std::string> columns;  // LAW=CSV
  double huber_delta = 1e-3;
  std::string objective = "huber";
  std::size_t starts = 0;
  std::size_t max_iterations = 5000;
  std::string holdout;
  std::size_t bootstrap = 0;
  double confidence = 0.95;
  std::uint64_t seed = 1;
  std::string dense_family = "dense";
  std::optional<double> reference_n, reference_c;
  std::string residuals, points, out;
  std::string format = "table";
  std::string output = "-";
  // The step law (a steps table, docs/calibration.md):
  std::vector<std::string> fit_params;
  int skip_iterations = 10;
  const CLI::Option* huber_delta_flag = nullptr;  ///< given: the step law takes it; else its own 0.1
  const CLI::Option* bootstrap_flag = nullptr;    ///< given: the step law takes it; else its own 100
};

// A one-line bar redrawn in place; only on a terminal (a pipe or a log gets nothing).
class Progress {
 public:
  Progress(std::ostream& err, bool enabled) : err_(err), enabled_(enabled) {}
  void operator()(std::string_view stage, std::size_t done, std::size_t total) {
    if (!enabled_ || total == 0) return;
    const std::size_t pct = 100 * done / total;
    if (pct == last_pct_ && done != total && stage == last_stage_) return;
    last_pct_ = pct;
    last_stage_ = stage;
    const std::size_t filled = 30 * done / total;
    err_ << fmt::format("\r{:<10} [{:<30}] {:>3}% {}/{}", stage, std::string(filled, '#'), pct,
                        done, total)
         << (done == total ? "\n" : "") << std::flush;
  }

 private:
  std::ostream& err_;
  bool enabled_;
  std::size_t last_pct_ = 101;
  std::string last_stage_;
};


int run_fit(const FitFlags& f, Io& io) {
  fit::FitSettings settings;
  settings.huber_delta = f.huber_delta;
  settings.objective = f.objective == "huber-nll" ? fit::Objective::huber_nll : fit::Objective::huber;
  settings.max_starts = f.starts;
  settings.max_iterations = f.max_iterations;
  settings.bootstrap = f.bootstrap;
  settings.confidence = f.confidence;
  settings.seed = f.seed;
  settings.dense_family = f.dense_family;
  settings.reference_params = f.reference_n;
  settings.reference_compute = f.reference_c;
  if (!f.holdout.empty()) {
    // A number is a random validation share; anything else names a flag column.
    const bool numeric = f.holdout.find_first_not_of("0123456789.eE+-") == std::string::npos &&
                         f.holdout.find_first_of("0123456789") != std::string::npos;
    if (auto frac = parse_positive_finite(f.holdout); frac || numeric) {
      if (!frac || *frac >= 1) {
        return fail(io, ExitStatus::usage,
                    "--holdout: a fraction must lie in (0, 1), got '" + f.holdout + "'");
      }
      settings.holdout_fraction = *frac;
    } else {
      settings.holdout_column = f.holdout;
    }
  }
  CsvReadOptions csv;
  for (const std::string& c : f.columns) {
    const auto eq = c.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == c.size()) {
      return fail(io, ExitStatus::usage,
                  fmt::format("--column {}: expected LAW_NAME=CSV_NAME, e.g. loss=BPC", c));
    }
    csv.renames[c.substr(0, eq)] = c.substr(eq + 1);
  }

  std::optional<fit::LawKind> kind;
  std::string law_choice = "--law";
  bool steps = f.law == "step";  // a steps table: the step model, not a law (fit_steps.hpp)
  if (!f.law.empty() && !steps) kind = fit::find_law(f.law)->kind;
  const auto choose = [&](const std::vector<std::string>& header)
      -> std::expected<std::vector<ColumnSpec>, std::string> {
    if (steps || (!kind && is_step_table(header))) {
      if (!steps) law_choice = "detected from the columns";
      steps = true;
      return step_table_columns(header);
    }
    if (!kind) {
      auto detected = fit::detect_law(header);
      if (!detected) return std::unexpected(detected.error());
      kind = *detected;
      law_choice = "detected from the columns";
    }
    return fit::columns_for(*kind, settings);
  };
  // The destinations first: a fit can take minutes, and `fit runs.csv -o runs.csv` must not
  // cost them (nor the runs).
  const InputFiles inputs{f.runs};
  const auto outputs = [&](std::string laws, std::string residuals, std::string points,
                           std::string report) {
    std::vector<OutputFile> files;
    if (!f.out.empty()) files.push_back({f.out, std::move(laws), "--out"});
    if (!f.residuals.empty()) files.push_back({f.residuals, std::move(residuals), "--residuals"});
    if (!f.points.empty()) files.push_back({f.points, std::move(points), "--points"});
    files.push_back({f.output, std::move(report), "-o"});  // stdout (or -o) last
    return files;
  };
  if (std::string why = check_outputs(outputs("", "", "", ""), inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  auto table = read_runs_csv(f.runs, choose, csv);
  if (!table) {
    io.err << "moeplan: error: " << f.runs << ": cannot fit; nothing was written:\n"
           << table.error().to_string() << "\n";
    return static_cast<int>(ExitStatus::input_file);
  }
  if (steps) {
    if (!f.points.empty()) return fail(io, ExitStatus::usage, "--points: only law 'loss-curves' produces EL points");
    if (std::string why = step_parameters_problem(f.fit_params); !why.empty()) {
      return fail(io, ExitStatus::usage, why);
    }
    if (law_choice != "--law") io.note("law 'step' chosen from the columns (a steps table: gpus and a measured step)");
    StepFitRequest q;
    q.csv = f.runs;
    q.parameters = f.fit_params;
    if (f.huber_delta_flag && f.huber_delta_flag->count() > 0) q.huber_delta = f.huber_delta;
    if (f.bootstrap_flag && f.bootstrap_flag->count() > 0) q.bootstrap = f.bootstrap;
    q.confidence = f.confidence;
    q.seed = f.seed;
    q.skip_iterations = f.skip_iterations;
    if (settings.holdout_fraction > 0) {
      return fail(io, ExitStatus::usage, "--holdout: the step law holds out a COLUMN's rows, not a random fraction");
    }
    q.holdout_column = settings.holdout_column;
    q.out = f.out;
    q.residuals = f.residuals;
    q.format = f.format;
    q.output = f.output;
    return run_fit_steps(*table, q, io);
  }
  if (!f.fit_params.empty()) return fail(io, ExitStatus::usage, "--fit-params: only the step law (a steps table) fits the step model's parameters");
  const fit::LawInfo* law = &fit::law_info(*kind);
  // Refuse outputs the law cannot produce before spending time on the fit.
  if (!f.out.empty() && law->planner_section.empty()) {
    std::vector<std::string> writers;
    for (const fit::LawInfo& l : fit::fit_laws()) {
      if (!l.planner_section.empty()) writers.push_back(l.name);
    }
    return fail(io, ExitStatus::usage,
                fmt::format("--out: law '{}' has no section the planner reads (laws that do: {}); "
                            "use --format toml for its full result",
                            law->name, fmt::join(writers, ", ")));
  }
  if (!f.points.empty() && *kind != fit::LawKind::loss_curves) {
    return fail(io, ExitStatus::usage, "--points: only law 'loss-curves' produces EL points");
  }
  if (law_choice != "--law") {
    io.note(fmt::format("law '{}' chosen from the columns ({}); use --law to pick another",
                        law->name, law->title));
  }
  Progress progress(io.err, io.verbosity != Verbosity::quiet && isatty(STDERR_FILENO) != 0);
  settings.progress = [&](std::string_view stage, std::size_t d, std::size_t n) { progress(stage, d, n); };

  auto outcome = fit::fit_runs(*table, *kind, settings);
  if (!outcome) {
    return fail(io, ExitStatus::input_file,
                fmt::format("{}: cannot fit law '{}': {}; nothing was written", f.runs, law->name,
                            outcome.error()));
  }
  for (const std::string& w : outcome->warnings) io.warning(w);
  const FitContext ctx{f.runs, table->md5, law_choice, &settings};

  // Everything is produced before anything is written, so a failure writes nothing.
  const std::string laws_text = f.out.empty() ? "" : fitted_laws_toml(*outcome, ctx, utc_now());
  std::ostringstream text;
  emit(fit_report(*outcome, ctx), parse_format(f.format), text, style_for(f.output, io));
  const std::vector<OutputFile> files =
      outputs(laws_text, f.residuals.empty() ? "" : residuals_csv(*outcome), outcome->el_points_csv,
              text.str());
  if (std::string why = write_outputs(files, io.out, inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  return static_cast<int>(ExitStatus::ok);
}

}  // namespace

std::string utc_now() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                     std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()));
}

Command fit_command() {
  return {"fit", "Fit a scaling law to your own training runs (CSV); --out feeds suggest/score",
          [](CLI::App& sub) -> std::function<int(Io&)> {
            auto f = std::make_shared<FitFlags>();
            std::vector<std::string> law_names;
            for (const fit::LawInfo& l : fit::fit_laws()) law_names.push_back(l.name);
            law_names.push_back("step");  // the step model (a steps table), docs/calibration.md
            sub.add_option("runs", f->runs, "CSV of training runs, one row per run (man moeplan-fit)")
                ->required();
            sub.add_option("--law", f->law, "Law to fit (default: detected from the columns)")
                ->check(CLI::IsMember(law_names));
            sub.add_option("--column", f->columns,
                           "Use CSV column CSV_NAME as the law's LAW_NAME, e.g. loss=BPC (repeatable)")
                ->type_name("LAW=CSV");
            sub.add_option("--objective", f->objective,
                           "huber: Σ Huber_δ(r) (Hoffmann et al.); huber-nll: Huber negative "
                           "log-likelihood with a fitted scale σ, δ in units of σ (Besiroglu "
                           "et al. 2024); see man moeplan-fit")
                ->check(CLI::IsMember({"huber", "huber-nll"}))
                ->capture_default_str();
            f->huber_delta_flag = sub.add_option("--huber-delta", f->huber_delta,
                                                 "Huber δ on log residuals (the step law: 0.1 unless given)")
                                      ->check(positive())
                                      ->capture_default_str();
            sub.add_option("--starts", f->starts,
                           "Optimise from the K best grid points by initial objective (0: all)")
                ->check(whole_number(1000000))
                ->capture_default_str();
            sub.add_option("--max-iterations", f->max_iterations,
                           "Iteration cap per optimiser run (a capped best start is warned about)")
                ->check(positive())
                ->capture_default_str();
            sub.add_option("--holdout", f->holdout,
                           "Validation split: a FRACTION in (0,1) drawn with --seed, or a COLUMN "
                           "whose 1/true/validation rows are held out");
            f->bootstrap_flag = sub.add_option("--bootstrap", f->bootstrap,
                                               "Resamples for percentile confidence intervals (0: none; the step "
                                               "law: 100 unless given)")
                                    ->check(whole_number(100000))
                                    ->capture_default_str();
            sub.add_option("--fit-params", f->fit_params,
                           "The step law: the parameters to fit, comma-separated (default: the GEMM efficiency of "
                           "each precision the runs use; man moeplan-fit lists them)")
                ->delimiter(',');
            sub.add_option("--skip-iterations", f->skip_iterations,
                           "The step law: a Megatron-LM log's first iterations left out of the median (warm-up)")
                ->transform(decimal_whole())->check(CLI::Range(0, 1000000))
                ->capture_default_str();
            sub.add_option("--confidence", f->confidence, "Confidence level of the intervals")
                ->check(number_in(0.5, 0.999))
                ->capture_default_str();
            sub.add_option("--seed", f->seed, "Seed of the holdout split and the bootstrap")
                ->check(whole_number(9007199254740992ULL))  // 2^53: exact as a double
                ->capture_default_str();
            sub.add_option("--dense-family", f->dense_family,
                           "loss-curves: family name of the dense baseline")
                ->capture_default_str();
            sub.add_option("--reference-n", f->reference_n,
                           "N at which N_a/N optima are derived (default: largest N in the data)")
                ->check(positive());
            sub.add_option("--reference-c", f->reference_c,
                           "C at which r* is derived (default: largest C in the data)")
                ->check(positive());
            sub.add_option("--out", f->out,
                           "Write the fitted laws as a laws TOML (moeplan-laws/1) for --laws, or the step law's "
                           "profile (moeplan-step-profile/1) for --step-profile; -o writes the report")
                ->check(not_empty_path());
            sub.add_option("--residuals", f->residuals, "Write per-run residuals as CSV")
                ->check(not_empty_path());
            sub.add_option("--points", f->points, "loss-curves: write the EL points as CSV")
                ->check(not_empty_path());
            add_format_flags(sub, f->format, f->output);
            sub.footer(
                "Examples:\n"
                "  moeplan fit runs.csv --out my-laws.toml && moeplan suggest --flops 1e22 --laws my-laws.toml\n"
                "  moeplan fit runs.csv --law joint --holdout 0.2 --bootstrap 200 --seed 7\n"
                "  moeplan fit tables.csv --law activation --column loss=BPC --format json\n"
                "  moeplan fit steps.csv --out my-stack.toml && moeplan score m.toml --gpus 64 --gpu h100 "
                "--step-profile my-stack.toml\n"
                "Exit status: 0 ok, 2 bad flag, 4 bad CSV or data that cannot be fitted,\n"
                "5 cannot write a file. See man moeplan-fit for the CSV schema and the laws.");
            return [f](Io& io) { return run_fit(*f, io); };
          }};
}

}  // namespace moeplan::cli
