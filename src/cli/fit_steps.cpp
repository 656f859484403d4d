// `moeplan fit steps.csv` (--law step): each row a measured run of the user's stack (a model,
// a cluster, a layout, a measured step), made into a calibration::StepCase by the flags
// `score` takes, the step model fitted to them, the fit reported and a profile written
// (docs/calibration.md).
#include "fit_steps.hpp"

#include <CLI/CLI.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "cluster_flags.hpp"
#include "common_flags.hpp"
#include "fit_report.hpp"
#include "typos.hpp"
#include "moeplan/base/bounded_read.hpp"
#include "moeplan/base/number_parse.hpp"
#include "moeplan/calibration/step_fit.hpp"
#include "moeplan/calibration/step_parameters.hpp"
#include "moeplan/calibration/step_profile.hpp"
#include "moeplan/io/megatron_args.hpp"
#include "moeplan/io/megatron_log.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/cluster_fit.hpp"
#include "output/emitters.hpp"
#include "output_file.hpp"

namespace moeplan::cli {

namespace {

// A column of the table that is a flag of `score` (and, where it has one, the Megatron-LM
// flag a launch script gives it: a row and its script must agree).
struct FlagColumn {
  const char* column;
  const char* flag;
  const char* megatron;  ///< "" : none
  const char* meaning;
};
constexpr FlagColumn k_flag_columns[] = {
    {"seq_len", "--seq-len", "--seq-length", "the run's sequence length S"},
    {"global_batch_tokens", "--global-batch-tokens", "", "tokens per optimizer step"},
    {"precision", "--precision", "", "bf16 or fp8 (the linear layers' GEMMs)"},
    {"tp", "--tp", "--tensor-model-parallel-size", "tensor parallel"},
    {"pp", "--pp", "--pipeline-model-parallel-size", "pipeline stages"},
    {"vpp", "--vpp", "--num-virtual-stages-per-pipeline-rank", "virtual stages per pipeline rank"},
    {"ep", "--ep", "--expert-model-parallel-size", "expert parallel"},
    {"etp", "--etp", "--expert-tensor-parallel-size", "expert tensor parallel"},
    {"cp", "--cp", "--context-parallel-size", "context parallel"},
    {"micro_batch_size", "--micro-batch-size", "--micro-batch-size", "sequences per micro-batch"},
};
// The other columns.
constexpr const char* k_other_columns[] = {"id",   "model", "gpus", "gpu",          "global_batch", "flags",
                                           "megatron_args", "log", "step_seconds", "tokens_per_gpu_s"};
// The measured step: exactly one of these a row.
constexpr const char* k_measures[] = {"step_seconds", "tokens_per_gpu_s", "log"};
constexpr std::string_view k_term_suffix = "_seconds";

// A Megatron-LM log is read whole: a training log of a month at one line a second is ~50 MB.
constexpr std::size_t k_max_log_bytes = std::size_t{256} << 20;

bool known_column(std::string_view c, const std::string& holdout) {
  if (c == holdout) return true;
  for (const FlagColumn& f : k_flag_columns) {
    if (c == f.column) return true;
  }
  return std::find(std::begin(k_other_columns), std::end(k_other_columns), c) != std::end(k_other_columns);
}

// "gemm_seconds" -> "gemm" when it names a measured term.
std::optional<std::string> term_of(std::string_view column) {
  if (column == "step_seconds" || !column.ends_with(k_term_suffix) || column.size() == k_term_suffix.size()) {
    return std::nullopt;
  }
  return std::string(column.substr(0, column.size() - k_term_suffix.size()));
}

// A path in a cell: as given when it exists or is absolute; else beside the CSV (a table and
// its logs and scripts travel together). A preset name stays a name.
std::string beside(const std::string& cell, const std::string& csv) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (cell.empty() || fs::path(cell).is_absolute() || fs::exists(cell, ec)) return cell;
  const fs::path dir = fs::path(csv).parent_path();
  const fs::path there = dir / cell;
  return !dir.empty() && fs::exists(there, ec) ? there.string() : cell;
}

// The last line of `text` where `flag` is given (argparse keeps the last value): 0 if none.
int line_of_flag(std::string_view text, std::string_view flag) {
  int line = 1, found = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view l = text.substr(start, end - start);
    for (std::size_t at = l.find(flag); at != std::string_view::npos; at = l.find(flag, at + 1)) {
      const std::size_t after = at + flag.size();
      if (after == l.size() || l[after] == ' ' || l[after] == '=' || l[after] == '\t' || l[after] == '\\') found = line;
    }
    if (end == text.size()) break;
    start = end + 1;
    ++line;
  }
  return found;
}

struct RowContext {
  const RunTable& table;
  std::size_t row;
  const std::string& csv;
  [[nodiscard]] int line() const { return static_cast<int>(table.line[row]); }
  [[nodiscard]] int column_of(std::string_view name) const {
    const auto it = std::find(table.header.begin(), table.header.end(), name);
    return it == table.header.end() ? 0 : static_cast<int>(it - table.header.begin()) + 1;
  }
  [[nodiscard]] std::string cell(const std::string& name) const {
    const auto it = table.text.find(name);
    if (it == table.text.end()) return "";
    std::string s = it->second[row];
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
  }
  [[nodiscard]] InputError error(std::string_view column, std::string reason) const {
    return InputError{csv, line(), column.empty() ? 0 : column_of(column), std::string(column), std::move(reason)};
  }
};

// What a row gave besides its case, for the report.
struct RowInfo {
  std::string model, layout, measured_from, gpu;
  int gpus = 0;
};

// The row's words as score's command line.
std::expected<std::vector<std::string>, InputError> row_arguments(const RowContext& r) {
  std::vector<std::string> args{"--tokens", "1e12"};  // a budget to fit with; the step does not depend on it
  for (const char* required : {"gpus", "gpu"}) {
    if (r.cell(required).empty()) return std::unexpected(r.error(required, "empty cell (a value is required)"));
  }
  args.insert(args.end(), {"--gpus", r.cell("gpus"), "--gpu", r.cell("gpu")});
  for (const FlagColumn& f : k_flag_columns) {
    if (const std::string v = r.cell(f.column); !v.empty()) args.insert(args.end(), {f.flag, v});
  }
  if (const std::string gb = r.cell("global_batch"); !gb.empty()) {
    if (!r.cell("global_batch_tokens").empty()) {
      return std::unexpected(r.error("global_batch", "give global_batch (sequences) or global_batch_tokens, not both"));
    }
    const auto sequences = parse_positive_finite(gb);
    const auto S = parse_positive_finite(r.cell("seq_len"));
    if (!sequences) return std::unexpected(r.error("global_batch", sequences.error()));
    if (!S) return std::unexpected(r.error("global_batch", "needs seq_len (global_batch_tokens = global_batch x seq_len)"));
    args.insert(args.end(), {"--global-batch-tokens", fmt::format("{:.17g}", *sequences * *S)});
  }
  std::istringstream words(r.cell("flags"));
  for (std::string w; words >> w;) args.push_back(w);
  if (const std::string file = r.cell("megatron_args"); !file.empty()) {
    args.insert(args.end(), {"--megatron-args", beside(file, r.csv)});
  }
  return args;
}

// A row's layout cell and its launch script must say the same: the script's value for each
// column the row gives (argparse's last), else the script's file:line names both.
std::optional<InputError> script_contradiction(const RowContext& r, const MegatronArgs& a, const std::string& script) {
  auto text = read_bounded(script, k_max_config_bytes, "a Megatron-LM launch script");
  const std::string body = text ? *text : std::string();
  const auto check = [&](const FlagColumn& f, std::optional<long long> file_value) -> std::optional<InputError> {
    const std::string v = r.cell(f.column);
    if (v.empty() || !file_value) return std::nullopt;
    const auto row_value = parse_positive_finite(v);
    if (row_value && *row_value == static_cast<double>(*file_value)) return std::nullopt;
    return InputError{script, line_of_flag(body, f.megatron), 0, f.megatron,
                      fmt::format("{}, but {}:{} column {} says {}", *file_value, r.csv, r.line(), f.column, v)};
  };
  const auto as_ll = [](std::optional<int> x) { return x ? std::optional<long long>(*x) : std::nullopt; };
  for (const FlagColumn& f : k_flag_columns) {
    const std::string_view c = f.column;
    std::optional<long long> file_value;
    if (c == "seq_len") file_value = as_ll(a.seq_length);
    if (c == "tp") file_value = as_ll(a.layout.tp);
    if (c == "pp") file_value = as_ll(a.layout.pp);
    if (c == "vpp") file_value = as_ll(a.layout.vpp);
    if (c == "ep") file_value = as_ll(a.layout.ep);
    if (c == "etp") file_value = as_ll(a.layout.etp);
    if (c == "cp") file_value = as_ll(a.layout.cp);
    if (c == "micro_batch_size") file_value = as_ll(a.layout.micro_batch);
    if (auto e = check(f, file_value)) return e;
  }
  if (const std::string gb = r.cell("global_batch"); !gb.empty() && a.global_batch) {
    if (auto e = check({"global_batch", "", "--global-batch-size", ""}, a.global_batch)) return e;
  }
  if (const std::string p = r.cell("precision"); !p.empty() && a.precision && p != to_string(*a.precision)) {
    const bool fp8 = *a.precision == Precision::fp8;
    return InputError{script, line_of_flag(body, fp8 ? "--fp8-format" : "--bf16"), 0, fp8 ? "--fp8-format" : "--bf16",
                      fmt::format("{}, but {}:{} column precision says {}", to_string(*a.precision), r.csv, r.line(), p)};
  }
  return std::nullopt;
}

// The measured step of a row, in seconds, and where it came from.
std::expected<std::pair<double, std::string>, InputError> measured_step(const RowContext& r, double tokens_per_step,
                                                                        long long batch_sequences, int gpus,
                                                                        double model_flops_per_token,
                                                                        int skip_iterations, const Io& io) {
  std::vector<const char*> given;
  for (const char* m : k_measures) {
    if (!r.cell(m).empty()) given.push_back(m);
  }
  if (given.size() != 1) {
    return std::unexpected(r.error(given.empty() ? "" : given[1],
                                   given.empty() ? "no measured step: give step_seconds, tokens_per_gpu_s or log"
                                                 : fmt::format("{} measured steps ({}): give one", given.size(),
                                                               fmt::join(given, ", "))));
  }
  const std::string_view m = given.front();
  if (m == "log") {
    const std::string path = beside(r.cell("log"), r.csv);
    auto text = read_bounded(path, k_max_log_bytes, "a Megatron-LM training log");
    if (!text) {
      InputError e = text.error();
      e.reason = fmt::format("{} (the log of {}:{})", e.reason, r.csv, r.line());
      return std::unexpected(e);
    }
    auto log = read_megatron_log(*text, path, skip_iterations);
    if (!log) return std::unexpected(log.error());
    for (const std::string& w : log->warnings) io.warning(w);
    if (log->world_size && *log->world_size != gpus) {
      return std::unexpected(InputError{path, log->world_size_line, 0, "world size",
                                        fmt::format("{}, but {}:{} column gpus says {}", *log->world_size, r.csv,
                                                    r.line(), gpus)});
    }
    if (log->global_batch && *log->global_batch != batch_sequences) {
      return std::unexpected(InputError{path, 0, 0, "global batch size",
                                        fmt::format("{} sequences in the iterations timed, but the run of {}:{} has {}",
                                                    *log->global_batch, r.csv, r.line(), batch_sequences)});
    }
    if (log->median_tflops_per_gpu) {
      // Megatron counts its own FLOPs (its formula, recompute not counted): a cross-check.
      const double ours = model_flops_per_token * tokens_per_step / log->median_step_seconds / gpus / 1e12;
      const double ratio = *log->median_tflops_per_gpu / ours;
      const std::string say = fmt::format("{}:{}: the log's throughput {:.1f} TFLOP/s/GPU is {:.2f}x moeplan's model "
                                          "FLOPs at its median step ({:.1f} TFLOP/s/GPU; Megatron counts its own)",
                                          r.csv, r.line(), *log->median_tflops_per_gpu, ratio, ours);
      // Megatron's FLOP count and moeplan's differ by the attention and head conventions, a few
      // per cent on these models (1.03 on docs/examples/calibration); past 1.3x the log is of
      // another model, sequence or batch (an engineering threshold for a warning).
      if (ratio < 1 / 1.3 || ratio > 1.3) {
        io.warning(say + ": is the log of this model, sequence and batch?");
      } else {
        io.detail(say);
      }
    }
    return std::pair{log->median_step_seconds,
                     fmt::format("log {}: median of {} iterations ({}-{}), first {} skipped", path, log->used,
                                 log->first_used, log->last_used, log->skipped)};
  }
  const auto v = parse_positive_finite(r.cell(std::string(m)));
  if (!v) return std::unexpected(r.error(m, v.error()));
  if (m == "step_seconds") return std::pair{*v, std::string("step_seconds")};
  return std::pair{tokens_per_step / (*v * gpus), std::string("tokens_per_gpu_s")};
}

// One row as a measured run.
// A holdout cell: true for 1/true/yes/validation, false for 0/false/no/train or empty.
std::expected<bool, InputError> held_out(const RowContext& r, const std::string& column) {
  if (column.empty()) return false;
  std::string v = r.cell(column);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (v == "1" || v == "true" || v == "yes" || v == "validation") return true;
  if (v.empty() || v == "0" || v == "false" || v == "no" || v == "train") return false;
  return std::unexpected(r.error(column, fmt::format("'{}' is not 1/true/yes/validation or 0/false/no/train", v)));
}

std::expected<std::pair<calibration::StepCase, RowInfo>, InputError> step_case(const RowContext& r, const LawSet& laws,
                                                                               int skip_iterations, const Io& io) {
  const std::string model_cell = r.cell("model");
  if (model_cell.empty()) return std::unexpected(r.error("model", "empty cell (a preset, a model TOML or a config.json)"));
  auto args = row_arguments(r);
  if (!args) return std::unexpected(args.error());
  CLI::App app{"a row of a steps table"};
  ClusterFlags flags;
  std::optional<int> seq_len;
  std::optional<double> tokens;
  add_cluster_flags(app, flags);
  app.add_option("--seq-len", seq_len)->transform(decimal_whole())->check(CLI::Range(1, 1 << 24));
  app.add_option("--tokens", tokens);
  std::vector<std::string> reversed(args->rbegin(), args->rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return std::unexpected(r.error(r.cell("flags").empty() ? "" : "flags", e.what()));
  }
  // A row is a run: a profile or a GEMM table is how to predict, not what was run.
  for (const char* not_a_run : {"--step-profile", "--gemm-table"}) {
    if (flags.flag_given(not_a_run)) {
      return std::unexpected(r.error("flags", fmt::format("{} is not a property of a run (give it to the command "
                                                          "that predicts with the fit)", not_a_run)));
    }
  }
  std::ostringstream said;
  Io row_io{said, said, {}, io.verbosity};
  std::optional<MegatronArgs> file_args;
  auto options = cluster_from_flags(flags, row_io, &seq_len, &file_args);
  const auto said_text = [&said] {
    std::string s = said.str();
    if (s.starts_with("moeplan: error: ")) s.erase(0, 16);
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  if (!options || !*options) return std::unexpected(r.error("", said_text()));
  std::istringstream lines(said.str());
  for (std::string line; std::getline(lines, line);) io.detail(fmt::format("{}:{}: {}", r.csv, r.line(), line));
  ClusterFitOptions o = std::move(**options);
  o.co_design = false;
  if (file_args) {
    if (auto e = script_contradiction(r, *file_args, beside(r.cell("megatron_args"), r.csv))) return std::unexpected(*e);
  }
  auto m = load_model_config(beside(model_cell, r.csv));
  if (!m) {
    InputError e = m.error();
    e.reason = fmt::format("{} (model of {}:{})", e.reason, r.csv, r.line());
    return std::unexpected(e);
  }
  if (file_args) {
    if (auto other = megatron_model_mismatch(*file_args, *m, beside(r.cell("megatron_args"), r.csv))) {
      return std::unexpected(*other);
    }
  }
  if (!seq_len) return std::unexpected(r.error("seq_len", "missing: the run's sequence length (or a megatron_args "
                                                          "file's --seq-length)"));
  // A step of another batch is another step: the run's batch is part of the measurement.
  if (!flags.global_batch_tokens && !(file_args && file_args->global_batch)) {
    return std::unexpected(r.error("global_batch", "missing: the run's global batch (global_batch in sequences, "
                                                   "global_batch_tokens, or a megatron_args file's "
                                                   "--global-batch-size)"));
  }
  m->training = TrainingSetup{.tokens = Tokens(1e12), .compute = {}, .seq_len = *seq_len, .unique_tokens = {}};
  // The run ran: where moeplan's memory model puts its layout over the HBM, it is timed as
  // given all the same (a memory estimate is not what the fit is about), and said.
  auto fit = fit_on_cluster(laws, *m, Tokens(1e12), o, std::nullopt, nullptr);
  if (!fit) {
    ClusterFitOptions roomy = o;
    roomy.cluster.gpu.hbm_bytes *= 1e6;
    auto again = fit_on_cluster(laws, *m, Tokens(1e12), roomy, std::nullopt, nullptr);
    if (!again) return std::unexpected(r.error("", fmt::format("not laid out: {}", fit.error().to_string())));
    io.warning(fmt::format("{}:{}: moeplan's memory model does not fit this layout on the {} ({}); the run is timed "
                           "as given",
                           r.csv, r.line(), o.cluster.gpu.id, fit.error().to_string()));
    fit = std::move(again);
  }
  if (const std::string searched = fit->given.searched_names(); !searched.empty()) {
    io.note(fmt::format("{}:{}: {} not given: the search's choice is timed, not necessarily the run's (give the "
                        "run's layout: columns tp, pp, vpp, ep, etp, cp, micro_batch_size, or flags such as "
                        "--recompute none)",
                           r.csv, r.line(), searched));
  }
  const LayoutCandidate& best = fit->layouts.ranked.front();
  if (best.layout.global_batch != fit->requested_batch_sequences) {
    return std::unexpected(r.error(
        r.cell("global_batch").empty() ? "" : "global_batch",
        fmt::format("the run's global batch of {} sequences is not a whole number of micro-batches x DP on its layout "
                    "({} x {}): Megatron refuses it (moeplan would time {} sequences)",
                    fit->requested_batch_sequences, best.layout.micro_batch, best.layout.dp, best.layout.global_batch)));
  }
  calibration::StepCase c;
  const std::string id = r.cell("id");
  c.id = id.empty() ? fmt::format("{}:{}", r.csv, r.line()) : id;
  c.model = fit->config;
  c.counts = count_parameters(fit->config);
  c.cluster = o.cluster;
  c.layout = best.layout;
  c.options = o.search.time;
  c.options.seq_len = fit->config.training->seq_len;
  c.options.expert_load_factor = fit->load_imbalance;
  for (const calibration::StepParameter& p : calibration::step_parameters()) {
    const bool forced = p.name == "load_imbalance" && file_args && file_args->force_load_balancing;
    if (flags.flag_given(p.flag) || forced) c.fixed.emplace_back(p.name);
  }
  const double check = step_term_seconds(c.model, c.counts, c.cluster, c.layout, c.options).total;
  if (std::abs(check / best.time.step_seconds - 1) > 1e-9) {
    throw std::logic_error(fmt::format("fit steps: {} timed {} s as a case but {} s in the search", c.id, check,
                                       best.time.step_seconds));
  }
  auto measured = measured_step(r, best.time.tokens_per_step, best.layout.global_batch, o.cluster.gpus,
                                best.time.model_flops_per_token,
                                skip_iterations, io);
  if (!measured) return std::unexpected(measured.error());
  c.measured_step_seconds = measured->first;
  // Faster than the GPUs' dense peak in the run's precision: not a measurement of this run.
  const double peak_seconds = best.time.model_flops_per_token * best.time.tokens_per_step /
                              (o.cluster.gpus * dense_peak(o.cluster.gpu, o.search.time.precision));
  if (c.measured_step_seconds < peak_seconds) {
    return std::unexpected(r.error(
        "", fmt::format("a step of {:.4g} s ({}) is faster than the {} GPUs' dense {} peak allows ({:.4g} s for the "
                        "model's FLOPs: MFU {:.2f} > 1): not this run",
                        c.measured_step_seconds, measured->second, o.cluster.gpus, to_string(o.search.time.precision),
                        peak_seconds, peak_seconds / c.measured_step_seconds)));
  }
  for (const std::string& column : r.table.header) {
    const auto term = term_of(column);
    if (!term) continue;
    const std::string v = r.cell(column);
    if (v.empty()) continue;
    const auto seconds = parse_positive_finite(v);
    if (!seconds) return std::unexpected(r.error(column, seconds.error()));
    // One step's kernels of a term run within that step: a longer term is not of this step.
    if (*seconds > c.measured_step_seconds * (1 + 1e-9)) {
      return std::unexpected(r.error(column, fmt::format("{:.4g} s is longer than the step it is part of ({:.4g} s, {})",
                                                         *seconds, c.measured_step_seconds, measured->second)));
    }
    c.measured_terms.emplace_back(*term, *seconds);
  }
  c.gpu = o.cluster.gpu.id;
  c.precision = to_string(o.search.time.precision);
  c.dispatcher = o.search.time.a2a_node_dedup ? "deepep" : "alltoall";
  RowInfo info{m->name, best.layout.describe(), measured->second, o.cluster.gpu.id, o.cluster.gpus};
  return std::pair{std::move(c), std::move(info)};
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// |predicted speed / measured speed - 1| = |measured / predicted - 1| in step seconds.
double speed_error(double measured, double predicted) { return std::abs(measured / predicted - 1); }

Report step_fit_report(const calibration::StepFit& fit, const std::vector<RowInfo>& info, const StepFitRequest& q,
                       const std::string& md5) {
  Report report;
  std::vector<double> before, after, left_out, held;
  for (const calibration::FittedRun& r : fit.runs) {
    if (r.held_out) {
      held.push_back(speed_error(r.measured, r.predicted));
      continue;
    }
    before.push_back(speed_error(r.measured, r.predicted_default));
    after.push_back(speed_error(r.measured, r.predicted));
    if (r.predicted_left_out) left_out.push_back(speed_error(r.measured, *r.predicted_left_out));
  }
  std::vector<std::string> names;
  for (const calibration::FittedParameter& p : fit.parameters) names.push_back(p.name);
  const Value no_left_out = Missing{"one run fitted: no leave-one-out"};
  Section s{"step_fit", "Step model fitted to measured runs (docs/calibration.md)", {}};
  s.fields = {
      {"csv", "", "", q.csv, "the runs"},
      {"md5", "", "", md5, "of its bytes"},
      {"runs", "", "", static_cast<std::int64_t>(fit.runs.size()), "measured runs"},
      {"parameters", "", "", TextList(names), "fitted (--fit-params, or chosen from the runs)"},
      {"huber_delta", "δ", "", q.huber_delta, "Huber threshold on log residuals"},
      {"objective", "", "", fit.objective, "Σ Huber_δ of the log residuals at the fit"},
      {"separable", "", "", fit.separable,
       "yes: no two parameters correlated past 0.95 and none at a bound; no: see warnings"},
      {"median_error_default", "", "", median(before), "median |predicted/measured speed - 1| with the defaults"},
      {"median_error_fitted", "", "", median(after), "the same at the fit (in-sample)"},
      {"median_error_left_out", "", "", left_out.empty() ? no_left_out : Value(median(left_out)),
       "the same, each run predicted from a fit on the others"},
      {"max_error_left_out", "", "",
       left_out.empty() ? no_left_out : Value(*std::max_element(left_out.begin(), left_out.end())), "the largest"},
      {"median_error_held_out", "", "", held.empty() ? Value(Missing{"no run held out (--holdout COLUMN)"}) : Value(median(held)),
       "the same over the held-out runs, predicted from the fit"},
      {"band_speed_ratio_min", "", "", fit.band.speed_ratio_min, "predicted/measured speed, the least (the profile's band)"},
      {"band_speed_ratio_max", "", "", fit.band.speed_ratio_max, "the largest"},
      {"band_source", "", "", fit.band.source, ""},
      {"fitted_on_gpus", "", "", TextList(fit.gpus), ""},
      {"fitted_on_precisions", "", "", TextList(fit.precisions), ""},
      {"fitted_on_dispatchers", "", "", TextList(fit.dispatchers), ""},
      {"warnings", "", "", TextList(fit.warnings), ""},
      {"notes", "", "", TextList(fit.notes), ""},
  };
  report.sections.push_back(std::move(s));
  for (const calibration::FittedParameter& p : fit.parameters) {
    const Value none = Missing{q.bootstrap == 0 ? "--bootstrap 0" : "one run: no bootstrap"};
    report.sections.push_back(
        {"parameter", "Parameter " + p.name,
         {{"name", "", "", p.name, std::string(calibration::find_step_parameter(p.name)->meaning)},
          {"value", "", "", p.value, "fitted"},
          {"start", "", "", p.start, "the default (or the runs' flags') it started from"},
          {"low", "", "", p.low ? Value(*p.low) : none, fmt::format("bootstrap {:g} % interval", 100 * q.confidence)},
          {"high", "", "", p.high ? Value(*p.high) : none, ""},
          {"lower_bound", "", "", p.lower, "physical range"},
          {"upper_bound", "", "", p.upper, ""},
          {"at_bound", "", "", p.at_bound, "within 1 % of the range of a bound"}},
         true});
  }
  for (std::size_t i = 0; i < fit.runs.size(); ++i) {
    const calibration::FittedRun& r = fit.runs[i];
    report.sections.push_back(
        {"run", "Run " + r.id,
         {{"id", "", "", r.id, ""},
          {"held_out", "", "", r.held_out, "not fitted on (--holdout): predicted_fitted is a prediction"},
          {"model", "", "", info[i].model, ""},
          {"gpus", "", "", static_cast<std::int64_t>(info[i].gpus), ""},
          {"gpu", "", "", info[i].gpu, ""},
          {"layout", "", "", info[i].layout, "as timed"},
          {"measured_from", "", "", info[i].measured_from, ""},
          {"measured_step", "", "s", r.measured, ""},
          {"predicted_default", "", "s", r.predicted_default, "with the defaults"},
          {"predicted_fitted", "", "s", r.predicted, "at the fit"},
          {"predicted_left_out", "", "s",
           r.predicted_left_out ? Value(*r.predicted_left_out) : r.held_out ? Value(Missing{"held out"}) : no_left_out,
           "from a fit on the other runs"},
          {"speed_ratio_default", "", "", r.measured / r.predicted_default, "predicted/measured speed, defaults"},
          {"speed_ratio_fitted", "", "", r.measured / r.predicted, "predicted/measured speed, at the fit"},
          {"speed_ratio_left_out", "", "",
           r.predicted_left_out ? Value(r.measured / *r.predicted_left_out) : r.held_out ? Value(Missing{"held out"}) : no_left_out,
           "predicted/measured speed, left out"}},
         true});
  }
  return report;
}

// The laws' residuals CSV (fit_report.hpp), so `moeplan plot residuals` draws it: observed is the
// measured step, predicted the fit's (a held-out run's is a prediction: split validation);
// the defaults' and the left-out predictions beside them.
std::string residuals_csv(const calibration::StepFit& fit, const std::vector<RowInfo>& info) {
  std::string s = "line,split,group,observed,predicted,residual,relative_residual,predicted_default,predicted_left_out\n";
  for (std::size_t i = 0; i < fit.runs.size(); ++i) {
    const calibration::FittedRun& r = fit.runs[i];
    const double e = r.predicted - r.measured;
    s += fmt::format("{},{},{},{:.10g},{:.10g},{:.6g},{:.6g},{:.10g},{}\n", r.id.substr(r.id.rfind(':') + 1),
                     r.held_out ? "validation" : "train", csv_field(info[i].model), r.measured, r.predicted, e,
                     e / r.measured, r.predicted_default,
                     r.predicted_left_out ? fmt::format("{:.10g}", *r.predicted_left_out) : std::string());
  }
  return s;
}

}  // namespace

std::string step_parameters_problem(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (!calibration::find_step_parameter(n)) {
      return fmt::format("--fit-params: {} is not a step-model parameter (the parameters: {})",
                         n.empty() ? std::string("an empty name") : fmt::format("'{}'", n), calibration::step_parameter_names());
    }
  }
  return "";
}

bool is_step_table(const std::vector<std::string>& header) {
  const auto has = [&](const char* c) { return std::find(header.begin(), header.end(), c) != header.end(); };
  // No law's table has a cluster: gpus with a measurement, or with the model and its GPU (a
  // misspelt measurement column is then named, not "no law matches").
  return has("gpus") && (has("step_seconds") || has("tokens_per_gpu_s") || has("log") || (has("model") && has("gpu")));
}

std::vector<ColumnSpec> step_table_columns(const std::vector<std::string>& header) {
  std::vector<ColumnSpec> specs;
  for (const std::string& c : header) specs.push_back({c, ColumnKind::text, false, ""});
  for (const char* c : {"model", "gpus", "gpu"}) {
    if (std::find(header.begin(), header.end(), c) == header.end()) {
      specs.push_back({c, ColumnKind::text, true, c == std::string_view("model") ? "a preset, model TOML or config.json"
                                                  : c == std::string_view("gpus") ? "GPUs of the run"
                                                                                  : "GPU kind, from the catalog"});
    }
  }
  return specs;
}

int run_fit_steps(const RunTable& table, const StepFitRequest& q, Io& io) {
  // The header: every column known, a *_seconds one a step term.
  const std::vector<std::string> terms = step_term_names();
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    const std::string& c = table.header[i];
    if (known_column(c, q.holdout_column)) continue;
    if (const auto term = term_of(c)) {
      if (std::find(terms.begin(), terms.end(), *term) == terms.end()) {
        return fail(io, InputError{q.csv, 1, static_cast<int>(i) + 1, c,
                                   fmt::format("no step term '{}' (a term column is TERM_seconds, TERM one of {})",
                                               *term, fmt::join(terms, ", "))});
      }
      continue;
    }
    // A near miss of a known column (tp_size, step_second) is a typo whose value would be
    // dropped and searched instead: refused. Any other column is the user's own (notes, tags).
    std::vector<std::string> known;
    for (const FlagColumn& f : k_flag_columns) known.emplace_back(f.column);
    for (const char* o : k_other_columns) known.emplace_back(o);
    // Near: one edit away, or the same letters but case and separators (a column of the
    // user's own two edits from a known one, "class" beside "flags", is theirs).
    const auto bare = [](std::string w) {
      std::erase_if(w, [](char ch) { return ch == '_' || ch == '-' || ch == ' '; });
      std::transform(w.begin(), w.end(), w.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      return w;
    };
    std::vector<std::string> near = nearest_words(c, known);
    std::erase_if(near, [&](const std::string& k) {
      return edit_distance(c, k) > 1 && bare(c) != bare(k) && !(c.size() >= 4 && k.starts_with(c));
    });
    for (const std::string& k : known) {
      if (near.empty() && k.size() >= 2 && (c.starts_with(k + "_") || c.ends_with("_" + k))) near.push_back(k);
    }
    if (!near.empty()) {
      return fail(io, InputError{q.csv, 1, static_cast<int>(i) + 1, c,
                                 fmt::format("not a column of a steps table: did you mean {}? (columns: man "
                                             "moeplan-fit, \"The step model\")",
                                             either_of(near, ""))});
    }
    io.warning(fmt::format("{}: column '{}' is not read (a steps table's columns: man moeplan-fit)", q.csv, c));
  }
  auto laws = laws_with_overlay("");
  if (!laws) return fail(io, laws.error());
  std::vector<calibration::StepCase> cases;
  std::vector<RowInfo> info;
  std::vector<InputError> errors;
  if (!q.holdout_column.empty() &&
      std::find(table.header.begin(), table.header.end(), q.holdout_column) == table.header.end()) {
    return fail(io, InputError{q.csv, 1, 0, q.holdout_column, "--holdout: no such column"});
  }
  std::map<std::string, int> id_lines;
  for (std::size_t row = 0; row < table.rows; ++row) {
    const RowContext r{table, row, q.csv};
    if (const std::string id = r.cell("id"); !id.empty()) {
      if (const auto [at, fresh] = id_lines.emplace(id, r.line()); !fresh) {
        errors.push_back(r.error("id", fmt::format("'{}' names line {} already: an id names one run", id, at->second)));
        continue;
      }
    }
    auto c = step_case(r, *laws, q.skip_iterations, io);
    auto held = held_out(r, q.holdout_column);
    if (!c || !held) {
      errors.push_back(!c ? c.error() : held.error());
      continue;
    }
    c->first.held_out = *held;
    cases.push_back(std::move(c->first));
    info.push_back(std::move(c->second));
  }
  if (!errors.empty()) {
    io.err << "moeplan: error: " << q.csv << ": cannot fit the step model; nothing was written:\n";
    for (const InputError& e : errors) io.err << e.to_string() << "\n";
    return static_cast<int>(ExitStatus::input_file);
  }
  calibration::StepFitSettings settings;
  settings.parameters = q.parameters;
  settings.huber_delta = q.huber_delta;
  settings.bootstrap = q.bootstrap;
  settings.confidence = q.confidence;
  settings.seed = q.seed;
  const bool bar = io.verbosity != Verbosity::quiet && isatty(STDERR_FILENO) != 0;
  settings.progress = [&](std::string_view stage, std::size_t done, std::size_t total) {
    if (bar) io.err << fmt::format("\r{:<14} {}/{}", stage, done, total) << (done == total ? "\n" : "") << std::flush;
  };
  auto fit = calibration::fit_step_model(cases, settings);
  if (!fit) return fail(io, ExitStatus::input_file, fmt::format("{}: cannot fit the step model: {}; nothing was written",
                                                                q.csv, fit.error()));
  for (const std::string& w : fit->warnings) io.warning(w);
  for (const std::string& n : fit->notes) io.note(n);
  std::ostringstream text;
  emit(step_fit_report(*fit, info, q, table.md5), parse_format(q.format), text, style_for(q.output, io));
  std::vector<OutputFile> files;
  if (!q.out.empty()) {
    files.push_back({q.out, calibration::step_profile_toml(*fit, {q.csv, table.md5, utc_now(), MOEPLAN_VERSION}),
                     "--out"});
  }
  if (!q.residuals.empty()) files.push_back({q.residuals, residuals_csv(*fit, info), "--residuals"});
  files.push_back({q.output, text.str(), "-o"});
  InputFiles inputs{q.csv};
  for (std::size_t row = 0; row < table.rows; ++row) {
    const RowContext r{table, row, q.csv};
    for (const char* c : {"model", "megatron_args", "log"}) {
      if (!r.cell(c).empty()) inputs.push_back(beside(r.cell(c), q.csv));
    }
  }
  if (std::string why = write_outputs(files, io.out, inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  return static_cast<int>(ExitStatus::ok);
}

}  // namespace moeplan::cli
