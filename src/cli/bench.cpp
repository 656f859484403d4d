// `moeplan bench`: time the GEMMs of model configs on the CPU and, when there is one, a GPU.
#include <CLI/CLI.hpp>
#include <memory>
#include <sstream>

#include "app.hpp"
#include "bench_report.hpp"
#include "moeplan/model/flops_conventions.hpp"
#include "command.hpp"
#include "common_flags.hpp"
#include "moeplan/cluster/gemm_table.hpp"
#include "moeplan/gemm/gemm_bench.hpp"
#include "moeplan/io/model_loader.hpp"
#include "output/emitters.hpp"
#include "output_file.hpp"

namespace moeplan::cli {

namespace {

struct BenchFlags {
  std::vector<std::string> configs;
  std::string format = "table";
  std::string output = "-";
  std::int64_t tokens = 8192;  ///< --micro-batch-tokens
  std::optional<std::string> old_tokens;  ///< --tokens, refused: it is the training D elsewhere
  double seconds = 5.0;
  int threads = 0;
  int reps = 5;
  std::int64_t min_rows = 256;
  double routing_skew = 0;
  bool no_gpu = false;
  bool no_cpu = false;
  bool summary = false;
  std::string gemm_table_out;  ///< --gemm-table-out FILE: the GPU's measured rates, for --gemm-table
};

/// The GPU run's GEMMs as rows of a --gemm-table (gemm_table.hpp): one per timed shape, a
/// grouped one at its largest member's rows; bf16, the GPU path's precision.
void add_table_rows(const DeviceRun& gpu, std::vector<GemmTableRow>& rows) {
  for (const auto* layer : {&gpu.dense_layer, &gpu.moe_layer}) {
    for (const TimedOp& t : *layer) {
      if (!(t.rate > 0) || t.op.rows.empty()) continue;
      const auto most = *std::max_element(t.op.rows.begin(), t.op.rows.end());
      rows.push_back({gpu.device, Precision::bf16, double(t.op.rows.size()), double(most), double(t.op.n),
                      double(t.op.k), t.rate, 0});
    }
  }
}

// D of a config with a [training] budget (tokens, or compute / M), for the training estimate.
std::optional<double> training_tokens(const ModelConfig& m) {
  if (!m.training) return std::nullopt;
  if (m.training->tokens) return m.training->tokens->value();
  const double M = flops_per_token(m, FlopsConvention::holistic_002, m.training->seq_len).M().value();
  return m.training->compute->value() / M;
}

int run_bench(const BenchFlags& f, Io& io) {
  if (f.old_tokens) {
    return fail(io, ExitStatus::usage,
                "--tokens was renamed --micro-batch-tokens (the benchmark's micro-batch); "
                "--tokens is the training tokens D in suggest and score");
  }
  if (f.no_cpu && f.no_gpu) return fail(io, ExitStatus::usage, "--no-cpu and --no-gpu leave nothing to run");
  // More threads than CPUs only time-slice, and a peak counted from them would be fiction.
  if (const int cpus = available_cpu_threads(); f.threads > cpus) {
    return fail(io, ExitStatus::usage,
                fmt::format("--threads {}: this process may run on {} CPU(s) (its affinity mask); "
                            "give at most {}, or 0 for all", f.threads, cpus, cpus));
  }
  // The destination before the timing (seconds): never one of the configs.
  const InputFiles& inputs = f.configs;
  std::vector<OutputFile> outputs = {{f.output, ""}};
  if (!f.gemm_table_out.empty()) outputs.push_back({f.gemm_table_out, "", "--gemm-table-out"});
  if (std::string why = check_outputs(outputs, inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  // The table is the GPU's rates: said before anything is timed when there is no GPU.
  if (!f.gemm_table_out.empty()) {
    if (f.no_gpu) return fail(io, ExitStatus::usage, "--gemm-table-out needs the GPU run; --no-gpu skips it");
    if (const GpuDevice gpu = gpu_device(); !gpu.usable) {
      return fail(io, ExitStatus::infeasible,
                  "--gemm-table-out needs a GPU run (the table is the GPU's measured rates): " + gpu.status);
    }
  }
  // Read every config first: one bad file fails the whole command and times nothing.
  std::vector<std::pair<ModelConfig, ModelGemms>> models;
  for (const std::string& c : f.configs) {
    auto m = load_model_config(c);
    if (!m) return fail(io, m.error());
    if (const auto why = non_uniform_layers(*m)) {
      return fail(io, ConstraintViolation{c + ": GEMM shapes of the counted model", *why});
    }
    auto g = model_gemms(*m, f.tokens, f.routing_skew);
    if (!g) return fail(io, ExitStatus::input_file, c + ": " + g.error());
    models.emplace_back(std::move(*m), std::move(*g));
  }
  BenchOptions o;
  o.tokens = f.tokens;
  o.cpu_seconds = f.seconds / static_cast<double>(models.size());
  o.threads = f.threads;
  o.reps = f.reps;
  o.min_rows = f.min_rows;
  o.cpu = !f.no_cpu;
  o.gpu = !f.no_gpu;
  std::vector<Report> reports;
  std::vector<GemmTableRow> table;
  bool said_gpu = false;
  for (const auto& [model, gemms] : models) {
    const BenchResult r = run_gemm_bench(gemms, o);
    if (!o.cpu && !r.gpu) {  // --no-cpu, and no GPU here: nothing would be timed
      return fail(io, ExitStatus::usage, "--no-cpu leaves nothing to run: no GPU run is possible (" +
                                             r.gpu_status + ")");
    }
    if (!r.gpu && o.gpu && !said_gpu) {
      io.note("no GPU run: " + r.gpu_status);
      said_gpu = true;
    }
    if (r.gpu) add_table_rows(*r.gpu, table);
    if (!f.gemm_table_out.empty() && !r.gpu) {
      return fail(io, ExitStatus::infeasible,
                  "--gemm-table-out needs a GPU run (the table is the GPU's measured rates): " + r.gpu_status);
    }
    Report report;
    report.sections.push_back({"model", "Model", {{"name", "", "", model.name, ""}}});
    add_bench(report, r, !f.summary, training_tokens(model));
    reports.push_back(std::move(report));
  }
  std::ostringstream text;
  emit_many(reports, parse_format(f.format), text, style_for(f.output, io));
  if (f.gemm_table_out.empty()) return deliver(f.output, text.str(), io, inputs);
  // The report and the table, all or nothing.
  outputs[0].text = text.str();
  outputs[1].text = gemm_table_csv(table);
  if (std::string why = write_outputs(outputs, io.out, inputs); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  return static_cast<int>(ExitStatus::ok);
}

}  // namespace

Command bench_command() {
  return {
      "bench", "Time a config's GEMM shapes on the CPU (Eigen fp32) and GPU (cuBLAS bf16)",
      [](CLI::App& sub) -> std::function<int(Io&)> {
        auto f = std::make_shared<BenchFlags>();
        sub.add_option("configs", f->configs,
                       "Model TOML files (schema moeplan-model/1) or preset names")
            ->required();
        add_format_flags(sub, f->format, f->output);
        sub.add_option("--micro-batch-tokens", f->tokens, "Tokens per micro-batch T")
            ->transform(decimal_whole())->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 24))
            ->capture_default_str();
        sub.add_option("--tokens", f->old_tokens)->group("");  // the old name, refused
        sub.add_option("--seconds", f->seconds,
                       "CPU time budget for all configs together (shapes too big for it "
                       "are timed on a slice of their rows)")
            ->check(number_in(0.01, 3600.0))
            ->capture_default_str();
        sub.add_option("--threads", f->threads, "CPU threads (0: all; at most the CPUs this process may use)")
            ->check(whole_number(2147483647))
            ->capture_default_str();
        sub.add_option("--reps", f->reps, "Timed runs per shape (the median is reported)")
            ->check(number_in(1, 1000))
            ->capture_default_str();
        sub.add_option("--min-rows", f->min_rows,
                       "Smallest row slice a CPU shape is timed on, unless the budget cannot hold "
                       "it (then down to 16, noted); fewer rows understate the rate")
            ->transform(decimal_whole())->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 24))
            ->capture_default_str();
        sub.add_option("--routing-skew", f->routing_skew,
                       "Zipf exponent s of the routed tokens: expert i gets a share ~ 1/(i+1)^s "
                       "(at most T rows each); 0 is balanced routing. Shows what imbalance costs")
            ->check(number_in(0.0, 16.0))
            ->capture_default_str();
        sub.add_flag("--no-gpu", f->no_gpu, "Skip the GPU run");
        sub.add_flag("--no-cpu", f->no_cpu, "Skip the CPU run");
        sub.add_flag("--summary", f->summary, "Per-device totals only, no per-GEMM sections");
        sub.add_option("--gemm-table-out", f->gemm_table_out,
                       "Also write the GPU's measured rate of every shape as a CSV for "
                       "'score/suggest --gemm-table' (needs a GPU run; exit 3 without one)")
            ->check(not_empty_path());
        sub.footer(
            "Examples:\n"
            "  moeplan bench deepseek-v3.1\n"
            "  moeplan bench my-model.toml --micro-batch-tokens 4096 --seconds 10 --format json\n"
            "  moeplan bench qwen3-30b-a3b --routing-skew 1.0 --summary\n"
            "Exit status: 0 ok, 2 bad flag, 3 --gemm-table-out without a usable GPU, 4 bad config,\n"
            "5 cannot write -o. See man moeplan-bench.");
        return [f](Io& io) { return run_bench(*f, io); };
      }};
}

}  // namespace moeplan::cli
