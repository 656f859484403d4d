#include "bench_report.hpp"
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace moeplan::cli {

namespace {

std::string shape_text(const GemmOp& op) {
  if (!op.grouped()) return fmt::format("{}x{}x{}", op.rows.front(), op.n, op.k);
  std::int64_t lo = op.rows.front(), hi = lo;
  for (std::int64_t r : op.rows) {
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  const std::string m = lo == hi ? fmt::format("{}", lo) : fmt::format("{}..{}", lo, hi);
  return fmt::format("{} x {}x{}x{}", op.rows.size(), m, op.n, op.k);
}

void add_run(Report& report, const std::string& dev, const DeviceRun& r, const ModelGemms& g,
             bool per_op, std::optional<double> training_tokens) {
  // Fractions are of the hardware peak (GPU datasheet; CPU threads x clock x FLOPs/cycle),
  // never of the measured square GEMM, and never above 1 (fraction_of).
  const char* no_peak = "no hardware peak (the CPU clock is unknown)";
  const auto fraction = [&](double rate) {
    return r.nominal_peak > 0 ? Value(fraction_of(rate, r.nominal_peak, nullptr)) : Value(Missing{no_peak});
  };
  Section s{dev + "_bench",
            fmt::format("GEMM benchmark, {} ({})", dev == "cpu" ? "CPU" : "GPU", r.precision),
            {{"device", "", "", r.device, "where it ran"},
             {"precision", "", "", r.precision, ""},
             {"peak_size", "", "", i64(r.peak_size), "n of the square GEMM timed for the peak"},
             {"measured_peak", "", "FLOP/s", r.peak_rate, "rate of that square GEMM"}}};
  s.fields.push_back({"nominal_peak", "", "FLOP/s", r.nominal_peak > 0 ? Value(r.nominal_peak) : Value(Missing{no_peak}),
                      r.nominal_peak_source});
  s.fields.push_back({"nominal_peak_source", "", "", r.nominal_peak_source, "how the hardware peak was derived"});
  s.fields.push_back({"measured_peak_fraction", "", "", fraction(r.peak_rate), "square GEMM / hardware peak"});
  s.fields.push_back({"dense_layer_seconds", "", "s", r.dense_layer_seconds, "GEMMs of one dense layer, one micro-batch"});
  s.fields.push_back({"moe_layer_seconds", "", "s", r.moe_layer_seconds, "GEMMs of one MoE layer, one micro-batch"});
  s.fields.push_back({"forward_seconds", "", "s", r.forward_seconds, "all layers' GEMMs, one micro-batch forward"});
  const bool gpu = dev == "gpu";  // the one-screen table shows both devices' rates
  s.fields.push_back({"tokens_per_second", "", "tokens/s", r.tokens_per_second, "forward GEMM throughput", false,
                      gpu ? Summary::speed_gpu_tokens_per_second : Summary::speed_cpu_tokens_per_second});
  s.fields.push_back({"rate", "", "FLOP/s", r.rate, "forward GEMM FLOPs / forward_seconds", false,
                      gpu ? Summary::speed_gpu_rate : Summary::speed_cpu_rate});
  s.fields.push_back({"fraction_of_peak", "", "", fraction(r.rate), "of the hardware peak (at most 1)", false,
                      gpu ? Summary::speed_gpu_fraction_of_peak : Summary::speed_cpu_fraction_of_peak});
  if (training_tokens) {
    const char* untimed = "the forward GEMMs were not all timed";
    const bool ok = r.forward_seconds > 0 && r.errors.empty();
    const double seconds = ok ? training_gemm_seconds(r, g, *training_tokens) : 0;
    s.fields.push_back({"training_gemm_device_hours", "", "h", ok ? Value(seconds / 3600) : Value(Missing{untimed}),
                        "GEMM-only estimate on this device: 3 x forward GEMM time x D/T; no attention "
                        "scores, optimiser or communication"});
    s.fields.push_back({"training_mfu_gemm_only", "", "", ok ? fraction(r.rate) : Value(Missing{untimed}),
                        "training GEMM FLOPs / (those hours x hardware peak); GEMM-only"});
  }
  if (!r.notes.empty()) {
    s.fields.push_back({"notes", "", "", fmt::format("{}", fmt::join(r.notes, "; ")), "read the figures with these"});
  }
  for (const std::string& e : r.errors) s.fields.push_back({"error", "", "", e, "op not timed"});
  report.sections.push_back(std::move(s));
  if (!per_op) return;
  for (const auto* layer : {&r.dense_layer, &r.moe_layer}) {
    for (const TimedOp& t : *layer) {
      const GemmOp& op = t.op;
      const int count = op.layer == LayerKind::dense ? g.dense_layers : g.moe_layers;
      report.sections.push_back(
          {fmt::format("{}_{}_{}", dev, to_string(op.layer), op.name),
           fmt::format("{} {} layer: {} {}", dev == "cpu" ? "CPU" : "GPU", to_string(op.layer),
                       op.name, op.description),
           {{"shape", "", "", shape_text(op), op.grouped() ? "experts x m x n x k (grouped)" : "m x n x k"},
            {"flops", "", "FLOPs", op.flops(), "one layer, one micro-batch: sum of 2 m n k"},
            {"layers", "", "", i64(count), "layers with this GEMM"},
            {"timed_rows", "", "", static_cast<std::int64_t>(t.timed_rows.empty() ? 0 : *std::max_element(t.timed_rows.begin(), t.timed_rows.end())),
             t.sliced() ? "rows of the largest timed call (a slice of m)" : "rows of the largest timed call"},
            {"timed_rows_each", "", "", fmt::format("{}", fmt::join(t.timed_rows, "|")),
             "rows of each timed call, '|'-separated (one per grouped member)"},
            {"timed_n", "", "", static_cast<std::int64_t>(t.timed_n),
             t.timed_n != op.n ? "columns of the timed call (a slice of n)" : "columns of the timed call"},
            {"median_seconds", "", "s", t.timing.median_s, fmt::format("median of {} runs", t.timing.reps)},
            {"spread", "", "", t.timing.reps > 1 ? Value(t.timing.spread()) : Value(Missing{"one timing round: no spread"}),
             "(max - min) / median"},
            {"rate", "", "FLOP/s", t.rate, t.kernel},
            {"fraction_of_peak", "", "", r.nominal_peak > 0 ? Value(t.fraction_of_peak) : Value(Missing{no_peak}),
             "of the hardware peak (at most 1)"},
            {"seconds", "", "s", t.seconds, "the whole op, one micro-batch"}}});
    }
  }
}

}  // namespace

void add_bench(Report& report, const BenchResult& result, bool per_op,
               std::optional<double> training_tokens) {
  const ModelGemms& g = result.gemms;
  report.sections.push_back(
      {"gemm", "GEMMs of one micro-batch (forward)",
       {{"tokens", "T", "tokens", static_cast<std::int64_t>(g.tokens), "tokens per micro-batch"},
        {"dense_layers", "L_d", "", i64(g.dense_layers), ""},
        {"moe_layers", "L_m", "", i64(g.moe_layers), ""},
        {"flops", "", "FLOPs", g.flops(), "all layers' GEMMs, router included"},
        {"flops_per_token_n_active", "", "FLOPs/token", g.flops_counted_in_n_active() / static_cast<double>(g.tokens),
         "without the router: = 2 N_a"},
        {"routing_skew", "", "", g.routing_skew, "Zipf exponent of the routed rows (0: balanced)"},
        {"gpu_status", "", "", result.gpu_status, "the GPU run, or why there is none"}}});
  if (result.cpu) add_run(report, "cpu", *result.cpu, g, per_op, training_tokens);
  if (result.gpu) add_run(report, "gpu", *result.gpu, g, per_op, training_tokens);
}

void add_alignment(Report& report, const AlignmentResult& a) {
  const AlignmentVariant& c = a.variants[a.chosen];
  // 0: not compared (untimed, or too few rounds to tell a speedup from noise).
  const auto speed = [&](double x) -> Value {
    if (x > 0) return x;
    return Missing{"not compared: see decision"};
  };
  const MoeArchitecture& arch = c.candidate.suggestion.solution.arch;
  report.sections.push_back(
      {"alignment", "Hardware-aware rounding (--align auto; paper 002 near-optimal band)",
       {{"chosen", "", "", c.is_proposal ? std::string("proposal") : c.candidate.variant,
         "the proposal, unless an in-band variant is faster beyond the timing noise", false,
         Summary::speed_alignment_chosen},
        {"decision", "", "", a.decision, "why, with the chosen or closest variant's speedup range", false,
         Summary::speed_alignment_decision},
        {"hidden_size", "d", "", i64(arch.d), ""},
        {"expert_ffn_size", "d_m", "", i64(arch.d_m), ""},
        {"dense_ffn_size", "d_d", "", i64(arch.d_d), ""},
        {"loss_change", "dL/L", "", c.loss_change, "against the lowest predicted loss of the variants", false,
         Summary::speed_alignment_loss_change},
        {"speedup", "", "", speed(c.speedup), "GEMM time to spend C: proposal / chosen (median of paired rounds)",
         false, Summary::speed_alignment_speedup},
        {"speedup_low", "", "", speed(c.speedup_low), "lowest paired-round speedup"},
        {"speedup_high", "", "", speed(c.speedup_high), "highest paired-round speedup"},
        {"timed_on", "", "", a.timed_on, "device whose timings decided"},
        {"paired_rounds", "", "", static_cast<std::int64_t>(a.rounds),
         "interleaved CPU rounds giving paired samples (0: GPU, bounds from fastest/slowest runs)"},
        {"min_gain", "", "", a.min_gain, "median speedup a variant needs, besides winning every round"},
        {"band", "", "", a.band, "paper 002 Sec. 5.3-5.4: loss within 0.1 % of the minimum"},
        {"variants", "", "", static_cast<std::int64_t>(a.variants.size()), "the proposal and its aligned variants"}}});
  report.sections.back().fields.push_back({"skipped", "", "", TextList(a.skipped), "variants not feasible, or repeats"});
  for (std::size_t i = 0; i < a.variants.size(); ++i) {
    const AlignmentVariant& v = a.variants[i];
    const Suggestion& s = v.candidate.suggestion;
    const MoeArchitecture& x = s.solution.arch;
    Section sec{"aligned", fmt::format("Variant {}{}", i + 1, i == a.chosen ? " (chosen)" : ""),
                {{"variant", "", "", v.is_proposal ? std::string("proposal") : v.candidate.variant, ""},
                 {"hidden_size", "d", "", i64(x.d), ""},
                 {"num_dense_layers", "L_d", "", i64(x.L_d), ""},
                 {"num_moe_layers", "L_m", "", i64(x.L_m), ""},
                 {"expert_ffn_size", "d_m", "", i64(x.d_m), ""},
                 {"dense_ffn_size", "d_d", "", i64(x.d_d), ""},
                 {"m_over_na", "M/N_a", "", s.solution.accounting.m_over_na(), ""},
                 {"predicted_loss", "loss", "nats/token", v.candidate.predicted_loss, "paper 001 Eq. 11 at D = C/M"},
                 {"loss_change", "dL/L", "", v.loss_change, ""},
                 {"in_band", "", "", v.in_band, "dL/L <= band"}},
                true};
    for (const auto& [dev, run] : {std::pair{"cpu", v.timing ? &v.timing->cpu : nullptr},
                                   {"gpu", v.timing ? &v.timing->gpu : nullptr}}) {
      if (run && *run && (*run)->errors.empty()) {
        // Uncompared variants get no rate either: one sample's figure is noise on display.
        const bool compared = v.speedup > 0;
        sec.fields.push_back({std::string(dev) + "_tokens_per_second", "", "tokens/s",
                              compared ? Value((*run)->tokens_per_second) : speed(0), "forward GEMMs"});
        sec.fields.push_back({std::string(dev) + "_rate", "", "FLOP/s",
                              compared ? Value((*run)->rate) : speed(0), "forward GEMMs"});
      }
    }
    sec.fields.push_back({"budget_seconds", "", "s", v.budget_seconds,
                          "GEMM time to spend C on one device: 3 D t_fwd / T"});
    sec.fields.push_back({"speedup", "", "", speed(v.speedup), "proposal's GEMM time to spend C / this one's (median of paired rounds)"});
    sec.fields.push_back({"speedup_low", "", "", speed(v.speedup_low), "lowest paired-round speedup (the spread)"});
    sec.fields.push_back({"speedup_high", "", "", speed(v.speedup_high), "highest paired-round speedup (the spread)"});
    sec.fields.push_back({"faster_beyond_noise", "", "", v.faster_beyond_noise,
                          "in band, faster in every round and by at least min_gain at the median"});
    report.sections.push_back(std::move(sec));
  }
}

}  // namespace moeplan::cli
