// `moeplan suggest`: parse flags, run the core pipeline, format the result.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "app.hpp"
#include "bench_report.hpp"
#include "cluster_flags.hpp"
#include "command.hpp"
#include "common_flags.hpp"
#include "emit.hpp"
#include "moeplan/planner/candidates.hpp"
#include "moeplan/planner/goal_plan.hpp"
#include "moeplan/gemm/gemm_bench.hpp"
#include "moeplan/alignment/hardware_alignment.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/base/number_parse.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/planner/plan_price.hpp"
#include "moeplan/planner/plan_request.hpp"
#include "moeplan/planner/serving_goal.hpp"
#include "output/emitters.hpp"
#include "output_file.hpp"
#include "report.hpp"
#include "serving_flags.hpp"

namespace moeplan::cli {

namespace {

struct SuggestFlags {
  std::string flops;
  std::string format = "table";
  std::string output = "-";
  std::string laws_file;
  std::string emit;  ///< "": the report; else --emit KIND (no benchmark)
  std::optional<int> d, n_q, n_kv, d_qkv;
  std::optional<double> m_over_na, n_over_na, dense_ffn_ratio, tolerance;
  std::optional<int> seq_len, n_experts, top_k, n_shared, vocab;
  std::string align;  ///< "" (laws' default), a positive integer, or "auto"
  std::string rank_by = "paper002";
  std::string d_over_l;  ///< "" (laws' range) or LO:HI
  int top = 5;  ///< --candidates
  std::optional<std::string> old_top;  ///< --top, refused: it read like --top-k
  std::vector<std::string> bench_flags;  ///< benchmark settings given on the command line
  bool no_bench = false;
  bool full = false;
  bool no_gpu = false;
  double bench_seconds = 2.0;
  std::int64_t micro_batch_tokens = 8192;
  // The plan goal (plan_goal.hpp): --flops above, and these.
  std::optional<double> tokens, active_params, flops_per_token, total_params, inference_tokens;
  ClusterFlags cluster;        ///< --gpus, --gpu, ...: fit the plan onto a cluster
  std::optional<double> days;  ///< with --gpus: C from the cluster's speed and this time
  std::optional<double> gpu_hours;  ///< --gpu-hours H: the same as --days H / (24 G)
  std::optional<double> target_loss;  ///< --target-loss L: the least GPU-hours on the cluster to reach it
  std::string objective = "time";  ///< --objective: time (lowest loss in the time) or flops (largest compute-optimal plan)
  ServingFlags serving;        ///< --serve-gpus, ...: the plan on an inference node (--serve-fit: capped to fit)
};

// The old --tokens was the benchmark's micro-batch (at most 2^24); training on so few
// tokens plans nothing, so such a value is the old flag, and the message says where it went.
constexpr double k_old_micro_batch_max = 16777216;

// The goal the flags fix, without --flops (a sweep sets it per budget).
PlanGoal goal_from_flags(const SuggestFlags& f) {
  PlanGoal g;
  if (f.tokens) g.tokens = Tokens(*f.tokens);
  if (f.active_params) g.active_params = Params(*f.active_params);
  if (f.flops_per_token) g.flops_per_token = FlopsPerToken(*f.flops_per_token);
  if (f.total_params) g.total_params_cap = Params(*f.total_params);
  if (f.inference_tokens) g.inference_tokens = Tokens(*f.inference_tokens);
  return g;
}

// Flags → options shared by one budget and a sweep; an error is a usage message.
std::expected<SuggestOptions, std::string> options_from_flags(const SuggestFlags& f) {
  SuggestOptions o;
  const int heads_given = f.n_q.has_value() + f.n_kv.has_value() + f.d_qkv.has_value();
  if (heads_given != 0 && heads_given != 3) {
    return std::unexpected("--n-q, --n-kv and --d-qkv go together: give all three");
  }
  o.d = f.d;
  o.m_over_na = f.m_over_na;
  o.n_over_na = f.n_over_na;
  if (heads_given == 3) {
    o.heads = AttentionHeads{*f.n_q, *f.n_kv, *f.d_qkv};
  }
  o.seq_len = f.seq_len;
  o.n_experts = f.n_experts;
  o.top_k = f.top_k;
  o.n_shared_experts = f.n_shared;
  o.vocab_size = f.vocab;
  o.dense_ffn_ratio = f.dense_ffn_ratio;
  if (!f.align.empty() && f.align != "auto") {
    auto a = parse_positive_finite(f.align);
    if (!a || *a != std::floor(*a) || *a > 65536) {
      return std::unexpected("--align: expected 'auto' or a whole number from 1 to 65536, got '" + f.align + "'");
    }
    o.alignment = static_cast<int>(*a);
  }
  o.tolerance = f.tolerance;
  if (!f.d_over_l.empty()) {
    const auto colon = f.d_over_l.find(':');
    auto lo = parse_positive_finite(f.d_over_l.substr(0, colon));
    auto hi = colon == std::string::npos ? lo : parse_positive_finite(f.d_over_l.substr(colon + 1));
    if (colon == std::string::npos || !lo || !hi || *hi < *lo) {
      return std::unexpected("--d-over-l: expected LO:HI with 0 < LO <= HI, got '" + f.d_over_l + "'");
    }
    o.d_over_l = AspectBounds{*lo, *hi};
  }
  return o;
}

// The goal and price sections of a plan whose goal is not a plain --flops C.
void add_goal_and_price(Report& r, const Suggestion& s, const OptimalLine& line, const PlanGoal& goal) {
  if (s.resolved.kind == GoalKind::compute_optimal && !s.resolved.total_params_cap) return;
  add_goal_and_price(r, s, price_plan(line, s, goal.inference_tokens));
}

// The plan of a budget with none: its budget, feasible = false and why. The data formats
// hold it as a row like the others (JSON fills the other sections with null, CSV leaves
// their cells empty), so one bad budget never takes the rest of the sweep with it.
Report infeasible_plan(double C, const std::string& reason) {
  Report r;
  r.sections.push_back({"budget", "Budget (paper 002 Eq. 2)",
                        {{"compute", "C", "FLOPs", C, "training compute budget", true},
                         {"feasible", "", "", false, "a plan exists at this budget"},
                         {"reason", "", "", reason, "why there is no plan"}}});
  return r;
}

// suggest --laws F -o F (or --gpu-catalog F -o F) would replace an input with the plan.
InputFiles inputs_of(const SuggestFlags& f) { return {f.laws_file, f.cluster.catalog_file, f.cluster.megatron_args, f.cluster.gemm_table}; }

// One row per budget: a schedule a team can read (table) or feed to tools (json/toml/csv:
// the full suggest report of each budget, the keys of a single `suggest`, plus
// budget.feasible and budget.reason, "" for a plan). A budget without a plan gets a row
// saying why, and the exit status 3.
int run_sweep(const SuggestFlags& f, const std::vector<double>& budgets, SuggestOptions o,
              RankRule rule, const LawSet& law_set, Io& io) {
  if (!f.emit.empty()) return fail(io, ExitStatus::usage, "--emit takes one budget, not a sweep");
  if (f.align == "auto") return fail(io, ExitStatus::usage, "--align auto takes one budget, not a sweep");
  if (f.cluster.given()) {
    const std::string flag = f.cluster.gpus || f.cluster.first_given_flag().empty() ? "--gpus"
                                                                                  : f.cluster.first_given_flag();
    return fail(io, ExitStatus::usage, flag + " (a cluster) takes one budget, not a sweep");
  }
  if (f.serving.given()) return fail(io, ExitStatus::usage, "--serve-gpus takes one budget, not a sweep");
  if (!f.no_bench) io.note("a sweep does not benchmark (run suggest on one budget for timings)");
  std::vector<Report> reports;
  std::vector<SweepRow> rows;           // the same budgets, typed, for the table
  std::vector<std::string> infeasible;  // the budgets without a plan
  std::size_t outside_fit = 0, past_table = 0, moved = 0;
  std::vector<std::string> rule_warnings, other_warnings;
  const HolisticLaws& laws = law_set.holistic;
  const PlanContext context(law_set, o);  // one family: its anchor is computed once
  const OptimalLine& line = context.line();
  for (double C : budgets) {
    o.goal.compute = Flops(C);
    auto planned = plan_goal(context, o.goal, rule, f.top > 0, nullptr);
    if (!planned) {
      infeasible.push_back(shortest_scientific(C));
      reports.push_back(infeasible_plan(C, planned.error().to_string()));
      rows.push_back({Flops(C), std::nullopt, planned.error().to_string()});
      continue;
    }
    const Ranking* plan = &planned->ranking;
    const RankedCandidate& w = plan->candidates.front();
    outside_fit += C < laws.fitted_compute_min || C > laws.fitted_compute_max;
    past_table += w.suggestion.extrapolation.has_value();
    moved += w.variant != "pipeline optimum";
    rule_warnings = plan->warnings;
    for (const std::string& warning : w.suggestion.warnings) {  // e.g. the S note, once
      if (std::find(other_warnings.begin(), other_warnings.end(), warning) == other_warnings.end()) {
        other_warnings.push_back(warning);
      }
    }
    Report r = suggest_report(w.suggestion, law_set);
    add_goal_and_price(r, w.suggestion, line, o.goal);
    // Where an infeasible budget has them, so every row of a CSV has the same header.
    std::vector<Field>& budget_fields = r.sections.front().fields;
    budget_fields.insert(budget_fields.begin() + 1, {{"feasible", "", "", true, "a plan exists at this budget"},
                                       {"reason", "", "", std::string(), "why there is no plan"}});
    add_ranking(r, *plan, static_cast<std::size_t>(f.top));
    reports.push_back(std::move(r));
    rows.push_back({Flops(C), w, ""});
  }
  // One summary instead of a warning per budget.
  for (const std::string& warning : rule_warnings) io.warning(warning);
  for (const std::string& warning : other_warnings) io.warning(warning);
  if (outside_fit > 0) {
    io.warning(fmt::format("{} of {} budgets lie outside the fitted range {:.3g}..{:.3g} FLOPs: "
                           "every law is extrapolated there",
                           outside_fit, budgets.size(), laws.fitted_compute_min, laws.fitted_compute_max));
  }
  if (past_table > 0) {
    io.warning(fmt::format("{} of {} budgets lie past Table 4's last row: their plans keep the "
                           "shape of the plan there, M/N_a from Eq. 5 and extrapolated heads "
                           "(docs/design.md)",
                           past_table, budgets.size()));
  }
  if (moved > 0) {
    io.warning(fmt::format("{} of {} winners are ranking variants, not the pipeline optimum "
                           "(ranking.variant in the data formats)",
                           moved, budgets.size()));
  }
  const Format format = parse_format(f.format);
  std::ostringstream text;
  if (format == Format::table) {
    text << sweep_table(rows);
  } else {  // JSON is an array (TOML [[plans]]), also for a one-budget sweep
    emit_many(reports, format, text, style_for(f.output, io), "plans");
  }
  if (const int written = deliver(f.output, text.str(), io, inputs_of(f)); written != 0) return written;
  if (infeasible.empty()) return static_cast<int>(ExitStatus::ok);
  return fail(io, ExitStatus::infeasible,
              fmt::format("{} of {} budgets have no plan: {} (each one's row says why)",
                          infeasible.size(), budgets.size(), fmt::join(infeasible, ", ")));
}

// A benchmark setting where nothing is timed would be silently ignored: refuse it.
std::string ignored_bench_flag(const SuggestFlags& f, bool sweep) {
  if (f.bench_flags.empty()) return "";
  const std::string& flag = f.bench_flags.front();
  if (f.no_bench) return flag + " sets the benchmark that --no-bench skips: give one of them";
  if (sweep) return flag + ": a sweep does not benchmark (run suggest on one budget for timings)";
  if (!f.emit.empty()) return flag + ": --emit writes a config and does not benchmark";
  return "";
}

// stderr: the printed plan's warnings, and why its L is below a smaller budget's (Table 4).
void report_plan_notes(Io& io, const Suggestion& chosen) {
  for (const std::string& w : plan_notes(chosen)) io.warning(w);
  if (const std::string n = layers_note(chosen); !n.empty()) io.note(n);
}

// stderr: each co-design move that changed the plan, and each reshape refused by EL's band.
void note_co_design(Io& io, const std::vector<CoDesignMove>& moves) {
  for (const CoDesignMove& m : moves) {
    if (m.kept && m.from != m.to) {
      io.note(fmt::format("co-design: {}: {} -> {} (loss {:+.4f} %)", m.name, m.from, m.to, 100 * m.loss_change));
    }
    if (m.outside_el_band) io.note(fmt::format("co-design: {}: refused: {}", m.name, m.why));
  }
}

// The request the command line describes, its budgets (a list or sweep: more than one) and
// whether they are a list; on a flag that does not parse, or goals that contradict each other,
// the exit status after the message.
struct SuggestRequest {
  PlanRequest request;
  std::vector<double> budgets;
  bool list = false;
};

std::expected<SuggestRequest, int> request_from_flags(const SuggestFlags& f, Io& io, bool objective_given) {
  const auto usage = [&io](const std::string& why) { return std::unexpected(fail(io, ExitStatus::usage, why)); };
  if (f.old_top) {
    return usage("--top was renamed --candidates (how many ranked candidates to list); the "
                 "activated experts K are --top-k");
  }
  if (f.tokens && *f.tokens <= k_old_micro_batch_max) {
    return usage(fmt::format("--tokens is the training tokens D now (got {:g}, too few to train a "
                             "model on); the benchmark's micro-batch is --micro-batch-tokens",
                             *f.tokens));
  }
  SuggestRequest out;
  PlanRequest& r = out.request;
  auto flags_cluster = cluster_from_flags(f.cluster, io);
  if (!flags_cluster) return std::unexpected(flags_cluster.error());
  r.cluster = std::move(*flags_cluster);
  auto flags_serving = serving_from_flags(f.serving, f.cluster, io);
  if (!flags_serving) return std::unexpected(flags_serving.error());
  r.serving = *flags_serving;
  if (!f.flops.empty()) {
    auto budgets = parse_budget_list(f.flops);
    if (!budgets) return usage("--flops: " + budgets.error());
    out.budgets = *budgets;
  }
  auto options = options_from_flags(f);
  if (!options) return usage(options.error());
  r.options = *options;
  r.options.goal = goal_from_flags(f);
  if (!out.budgets.empty()) r.options.goal.compute = Flops(out.budgets.front());
  const auto rule = parse_rank_rule(f.rank_by);
  if (!rule) return usage("--rank-by: expected paper002, el or joint-loss, got '" + f.rank_by + "'");
  r.rule = *rule;
  r.rank = f.top > 0;
  r.align_auto = f.align == "auto";
  r.days = f.days;
  r.gpu_hours = f.gpu_hours;
  r.target_loss = f.target_loss;
  r.objective = f.objective == "flops" ? TimeObjective::flops : TimeObjective::time;
  r.objective_given = objective_given;
  r.serve_fit = f.serving.fit;
  if (auto why = r.problem()) return usage(*why);
  out.list = f.flops.find_first_of(":,") != std::string::npos;
  if (const std::string why = ignored_bench_flag(f, out.list); !why.empty()) return usage(why);
  if (r.align_auto && f.no_bench) return usage("--align auto times the aligned variants; it cannot go with --no-bench");
  return out;
}

// stderr: how the goal's search went (--serve-fit, --target-loss, --days).
void note_request(Io& io, const PlanRequest& request, const PlannedRequest& planned) {
  if (const std::optional<ServeFitPlan>& fitted = planned.serve_fit) {
    const ServingOptions& node = *request.serving;
    if (fitted->cap) {
      io.note(fmt::format("--serve-fit: N capped at {:.4g} so the plan fits {} x {} ({} plans tried); the uncapped plan "
                          "(N = {:.4g}) does not: {}",
                          fitted->cap->value(), node.gpus, node.gpu.id, fitted->plans_tried,
                          fitted->uncapped_N.value(), fitted->uncapped_fit ? fitted->uncapped_fit->why_not : ""));
    } else {
      io.note(fmt::format("--serve-fit: the plan fits {} x {} as it is (no cap needed)", node.gpus, node.gpu.id));
    }
  }
  const Cluster* cluster = request.cluster ? &request.cluster->cluster : nullptr;
  if (const std::optional<TargetLossResult>& reached = planned.target_loss) {
    io.note(fmt::format("--target-loss {:g}: {:.4g} wall GPU-hours ({:.3g} wall days) on {} x {}; the compute-optimal line "
                        "reaches it at C* = {:.4g} FLOPs, this plan trains on {:.4g} ({} plans timed)",
                        *request.target_loss, reached->plan.gpu_hours, reached->plan.days, cluster->gpus,
                        cluster->gpu.id, reached->compute_optimal_compute.value(),
                        reached->training_compute.value(), reached->plans_evaluated));
  }
  if (const std::optional<TimeOptimalResult>& best = planned.time_optimal) {
    io.note(best->resolved
                ? fmt::format("--objective time: {:.3g} % lower predicted loss than the FLOP-optimal plan in the same time "
                              "({} plans timed)",
                              100 * best->loss_gain, best->plans_evaluated)
                : fmt::format("--objective time: no plan beats the FLOP-optimal one by paper 002's 0.1 % band ({} plans "
                              "timed): it stands",
                              best->plans_evaluated));
  }
  if (const std::optional<DaysSearch>& search = planned.days_search) {
    const double days = *request.time_days();
    const double took = planned.plan.on_cluster->fit.planning_days();
    if (took < 0.98 * days && search->next_up.value() > 0) {
      io.note(fmt::format("--days {:g}: the largest plan within it takes {:.4g} wall days; the next one up (C = {:.4g}) {}",
                          days, took, search->next_up.value(),
                          search->next_up_days
                              ? fmt::format("takes {:.4g} wall days (plans and layouts step, not glide)", *search->next_up_days)
                              : "has " + search->next_up_problem));
    }
    io.detail(fmt::format("--days {:g}: C = {:.4g} FLOPs ({:.3g} wall days on the cluster; {} plans tried from the "
                          "bound {:.3g} FLOPs at MFU 1 of the precision's peak)",
                          days, plan_suggestion(planned.plan).resolved.C.value(), took, search->plans_tried,
                          search->upper_bound.value()));
    for (const auto& [C, what] : search->tried) io.detail(fmt::format("--days: C = {:.4g} FLOPs: {}", C, what));
  }
}

// The printed plan and its timings: --align auto's fastest variant, or the plan and its
// benchmark (none with --no-bench or --emit).
struct TimedChoice {
  const GoalPlan* plan = nullptr;
  std::optional<BenchResult> timed;
  std::optional<AlignmentResult> aligned;
  [[nodiscard]] const Suggestion& chosen() const {
    return aligned ? aligned->variants[aligned->chosen].candidate.suggestion : plan_suggestion(*plan);
  }
};

std::expected<TimedChoice, int> time_choice(const SuggestFlags& f, const PlanContext& context, const GoalPlan& plan,
                                            Io& io) {
  io.detail("goal: " + plan_suggestion(plan).resolved.how);
  for (const std::string& w : plan.ranking.warnings) io.warning(w);
  io.detail(fmt::format("{} candidate(s) scored; winner: {} ({})", plan.ranking.candidates.size(),
                        plan.ranking.candidates.front().variant, plan.ranking.decided_by));
  BenchOptions bench;
  bench.tokens = f.micro_batch_tokens;
  bench.cpu_seconds = f.bench_seconds;
  bench.gpu = !f.no_gpu;
  TimedChoice out{&plan, std::nullopt, std::nullopt};
  if (plan.on_cluster) note_co_design(io, plan.on_cluster->moves);
  if (f.align == "auto") {
    out.aligned = align_for_hardware(context.laws(), context.planner(), plan.ranking.candidates.front(),
                                     AlignmentOptions{.bench = bench});
    io.note("--align auto: " + out.aligned->decision);
    out.timed = out.aligned->variants[out.aligned->chosen].timing;
  } else if (!f.no_bench && f.emit.empty()) {
    io.detail(fmt::format("benchmark: T = {} tokens, CPU budget {} s (--no-bench skips it)",
                          f.micro_batch_tokens, f.bench_seconds));
    const Suggestion& chosen = out.chosen();
    auto gemms = model_gemms(plan_config(chosen), f.micro_batch_tokens);
    if (!gemms) return std::unexpected(fail(io, ExitStatus::internal_error, "bench: " + gemms.error()));
    out.timed = run_gemm_bench(*gemms, bench);
  }
  return out;
}

// The report of the printed plan: its sections, its ranking, timings, cluster and goal sections.
Report plan_report(const SuggestFlags& f, const PlanContext& context, const PlanRequest& request,
                   const PlannedRequest& planned, const TimedChoice& t, Io& io) {
  const Suggestion& chosen = t.chosen();
  const std::optional<CoDesignedPlan>& on_cluster = planned.plan.on_cluster;
  Report report = suggest_report(chosen, context.laws());
  add_goal_and_price(report, chosen, context.line(), request.options.goal);
  // The ranking section describes the printed plan: after co-design, its loss and EL are the
  // moved plan's (the runner-up and the candidates stay the planner's ranking).
  Ranking shown = planned.plan.ranking;
  if (on_cluster && std::any_of(on_cluster->moves.begin(), on_cluster->moves.end(),
                                [](const CoDesignMove& m) { return m.kept && m.from != m.to; })) {
    shown.candidates.front() = on_cluster->plan;
    shown.decided_by += "; then co-design moved the winner (co_design sections)";
  }
  add_ranking(report, shown, static_cast<std::size_t>(f.top));
  if (t.aligned) add_alignment(report, *t.aligned);
  if (t.timed) add_bench(report, *t.timed, true, chosen.tokens.value());
  if (on_cluster) {
    add_cluster_fit(report, on_cluster->fit, request.cluster->cluster, request.time_days());
    for (const std::string& w : on_cluster->fit.warnings) io.warning(w);
    add_co_design(report, *on_cluster);
  }
  // The time goals' days are wall days (ClusterFit::planning_days): the spread of whole trainings.
  const ValidationSpread& wall_band = whole_training_validation_spread();
  if (planned.time_optimal) add_time_optimal(report, *planned.time_optimal, wall_band);
  if (planned.flop_optimal) add_flop_optimal(report, *planned.flop_optimal, wall_band);
  if (planned.target_loss) add_target_loss(report, *planned.target_loss, wall_band);
  return report;
}

// The serving section of the printed plan; why it does not fit the node (exit 3 after
// printing), or nullopt.
std::optional<std::string> add_plan_serving(Report& report, const Suggestion& chosen, const PlanRequest& request,
                                            const PlannedRequest& planned, Io& io) {
  ServingOptions node = *request.serving;
  const ModelConfig served = plan_config(chosen);
  if (node.context == 0) {
    node.context = chosen.solution.arch.family.seq_len;
    node.context_source = "the planned model's training sequence length S";
  }
  warn_context(served, node, chosen.solution.arch.family.seq_len, "", io);
  const auto fit = serving_fit(served, node);
  add_serving(report, served, fit, node);
  Section& sec = report.sections.back();
  if (const std::optional<ServeFitPlan>& capped = planned.serve_fit) {
    sec.fields.push_back({"serve_fit_cap", "N_cap", "params",
                          capped->cap ? Value(capped->cap->value()) : Value(Missing{"the plan fits uncapped"}),
                          "the cap on N --serve-fit set", false, Summary::none});
    sec.fields.push_back({"uncapped_N", "N uncapped", "params", capped->uncapped_N.value(),
                          "paper 002's N (no embeddings) of the plan without the serving cap", false, Summary::none});
  }
  if (fit && !fit->fits) return fit->why_not;
  return std::nullopt;
}

int run_suggest(const SuggestFlags& f, Io& io, bool objective_given) {
  auto parsed = request_from_flags(f, io, objective_given);
  if (!parsed) return parsed.error();
  const PlanRequest& request = parsed->request;
  // The destination before the work (a benchmark takes seconds).
  if (std::string why = check_outputs({{f.output, ""}}, inputs_of(f)); !why.empty()) {
    return fail(io, ExitStatus::output_file, why);
  }
  auto loaded = laws_with_overlay(f.laws_file);
  if (!loaded) return fail(io, loaded.error());
  const LawSet& law_set = *loaded;
  io.detail("laws: " + law_set.holistic_sources());
  if (parsed->list) return run_sweep(f, parsed->budgets, request.options, request.rule, law_set, io);

  const PlanContext context(law_set, request.options);  // the family's Planner and line, built once
  auto planned = plan_request(context, request);
  if (!planned) return fail(io, planned.error().usage ? ExitStatus::usage : ExitStatus::infeasible, planned.error().message);
  note_request(io, request, *planned);
  if (planned->infeasible_on_cluster) return fail(io, ExitStatus::infeasible, *planned->infeasible_on_cluster);
  std::optional<CoDesignedPlan>& on_cluster = planned->plan.on_cluster;
  auto choice = time_choice(f, context, planned->plan, io);
  if (!choice) return choice.error();
  const Suggestion& chosen = choice->chosen();
  // The warnings of the printed config (its heads, its extrapolation), not the pipeline's.
  report_plan_notes(io, chosen);
  if (!f.emit.empty()) {
    const std::optional<MegatronRun> run =
        on_cluster ? std::optional(megatron_run(on_cluster->fit, *request.cluster)) : std::nullopt;
    return emit_config(f.emit, plan_config(chosen), law_set, f.output, io, inputs_of(f), run ? &*run : nullptr);
  }
  const std::optional<BenchResult>& timed = choice->timed;
  // The cluster's GEMMs at the rate this machine's GPU measured, when it is the target GPU.
  if (on_cluster && timed && timed->gpu) {
    if (auto refit = refit_at_measured_rate(law_set, on_cluster->fit, *request.cluster, timed->gpu->rate,
                                            timed->gpu->device)) {
      io.note(fmt::format("cluster: GEMMs at the {:.0f} TFLOP/s measured on {} (not peak x efficiency)",
                          timed->gpu->rate / 1e12, timed->gpu->device));
      on_cluster->fit = std::move(*refit);
    }
  }
  if (timed && !timed->gpu && !f.no_gpu) io.note("no GPU run: " + timed->gpu_status);
  Report report = plan_report(f, context, request, *planned, *choice, io);
  // The plan does not fit the node: exit 3 after printing.
  const std::optional<std::string> serving_miss =
      request.serving ? add_plan_serving(report, chosen, request, *planned, io) : std::nullopt;
  std::ostringstream text;
  const Format format = parse_format(f.format);
  if (format == Format::table && !f.full) {
    emit(compact_suggest_report(report, chosen), format, text, style_for(f.output, io));
    text << "\n(--full for every section: targets, accounting, provenance, candidates, per-GEMM\n"
            " timings; --format json|toml|csv for tools)\n";
  } else {
    emit(report, format, text, style_for(f.output, io));
  }
  if (const int written = deliver(f.output, text.str(), io, inputs_of(f)); written != 0) return written;
  if (serving_miss) {
    return fail(io, ExitStatus::infeasible,
                fmt::format("serving: the plan does not fit {} x {}: {} (--serve-fit caps the plan to fit)",
                            request.serving->gpus, request.serving->gpu.id, *serving_miss));
  }
  return static_cast<int>(ExitStatus::ok);
}

// "[default]" after each family flag's description, read from the built-in laws preset (the
// one place those values are declared, with their sources) when suggest is parsed, so that
// other commands do not parse the preset and --help cannot drift from the laws.
void add_law_defaults(CLI::App& sub) {
  sub.preparse_callback([&sub](std::size_t) {
    const HolisticLaws& laws = builtin_laws().holistic;
    const ArchitectureFamily& f = laws.family_defaults;
    const std::pair<const char*, std::string> defaults[] = {
        {"--seq-len", fmt::format("{}", f.seq_len)},
        {"--experts", fmt::format("{}", f.n_experts)},
        {"--top-k", fmt::format("{}", f.top_k)},
        {"--shared-experts", fmt::format("{}", f.n_shared_experts)},
        {"--vocab", fmt::format("{}", f.vocab_size)},
        {"--dense-ffn-ratio", fmt::format("{:g}", f.dense_ffn_ratio)},
        {"--align", fmt::format("{}", laws.alignment)},
        {"--d-over-l", fmt::format("{:g}:{:g}", laws.d_over_l.min, laws.d_over_l.max)},
        {"--tolerance", fmt::format("{:g}", laws.tolerance)}};
    for (const auto& [name, value] : defaults) {
      CLI::Option* o = sub.get_option(name);
      o->description(o->get_description() + " [" + value + ", laws preset]");
    }
  });
}

}  // namespace

Command suggest_command() {
  return {
      "suggest", "MoE architecture for a training budget (paper 002 Sec. 7): compute-optimal, or for a token budget, a size, a size cap or an inference load",
      [](CLI::App& sub) -> std::function<int(Io&)> {
        auto f = std::make_shared<SuggestFlags>();
        sub.add_option("--flops,-C", f->flops,
                       "Training compute budget C in FLOPs, e.g. 1e22 (> 0, finite); a list "
                       "1e20,1e21 or a sweep START:STOP:STEP in decades (1e20:1e24:0.5) prints "
                       "one plan per budget. Alone: the compute-optimal plan (paper 002 Eq. 2)")
            ->check(budget_list());
        sub.add_option("--tokens,-D", f->tokens,
                       "Training tokens D: with --flops, M = C / D; with --active-params or "
                       "--flops-per-token, C = M D (more than 2^24; the benchmark's micro-batch "
                       "is --micro-batch-tokens)")
            ->check(positive());
        sub.add_option("--active-params", f->active_params,
                       "Active non-embedding parameters N_a of the plan (with --tokens or "
                       "--flops): the shape of the compute-optimal plan of that N_a")
            ->check(positive());
        sub.add_option("--flops-per-token", f->flops_per_token,
                       "Training FLOPs per token M (instead of --active-params)")
            ->check(positive());
        sub.add_option("--total-params", f->total_params,
                       "Cap on total non-embedding parameters N (the memory a deployment has): "
                       "with --flops alone the largest plan under it when the compute-optimal "
                       "one is larger; with the other forms a constraint (exit 3 if broken)")
            ->check(positive());
        sub.add_option("--inference-tokens", f->inference_tokens,
                       "Lifetime inference tokens T (with --flops C): the plan at the compute-"
                       "optimal plan's predicted loss with the least training + inference FLOPs "
                       "(Sardana et al. 2024, for an MoE)")
            ->check(positive());
        add_output_flags(sub, f->format, f->output, f->laws_file);
        add_emit_flag(sub, f->emit);
        sub.add_option("--candidates", f->top,
                       "Rank candidates around the optimum and list the best N (0: print "
                       "the pipeline optimum unranked)")
            ->check(whole_number(2147483647))
            ->capture_default_str();
        // Its old name, hidden: "--top 4" was taken by people who meant --top-k 4.
        sub.add_option("--top", f->old_top)->group("");
        sub.add_option("--rank-by", f->rank_by,
                       "Ranking rule: paper002 (the pipeline's d among shapes that keep the "
                       "law's targets; EL breaks near ties), el (highest EL in the d window; "
                       "EL sees granularity only), joint-loss (paper 001 loss over every "
                       "variant, M/N_a moves too; blind to attention FLOPs)")
            ->capture_default_str();
        sub.add_option("--d", f->d, "Fix the hidden size d (multiple of --align)")
            ->check(positive());
        sub.add_option("--m-over-na", f->m_over_na, "Fix M/N_a instead of the law (> 6)")
            ->check(positive());
        sub.add_option("--n-over-na", f->n_over_na,
                       "Fix N/N_a instead of the Appendix F.4 schedule")
            ->check(positive());
        sub.add_option("--n-q", f->n_q, "Query heads N_q (with --n-kv, --d-qkv)")
            ->check(positive());
        sub.add_option("--n-kv", f->n_kv, "Key/value heads N_kv")->check(positive());
        sub.add_option("--d-qkv", f->d_qkv, "Head size d_qkv")->check(positive());
        // The family's defaults are the laws preset's ([architecture], [credible_shape]):
        // their descriptions are filled from it when suggest is parsed (add_law_defaults).
        sub.add_option("--seq-len", f->seq_len, "Sequence length S")->check(positive());
        sub.add_option("--experts", f->n_experts, "Routed experts N_e")->check(positive());
        sub.add_option("--top-k", f->top_k, "Activated routed experts K")->check(positive());
        sub.add_option("--shared-experts", f->n_shared, "Shared experts per MoE layer")
            ->check(whole_number(2147483647));
        sub.add_option("--vocab", f->vocab, "Vocabulary size V")->check(whole_number(2147483647));
        sub.add_option("--dense-ffn-ratio", f->dense_ffn_ratio, "d_d / d")->check(positive());
        sub.add_option("--align", f->align,
                       "d and d_m are multiples of this; 'auto': time the 64/128-aligned "
                       "neighbours of the winner and take the fastest whose predicted loss is "
                       "within 0.1 % of the best (paper 002 near-optimal band)");
        sub.add_option("--d-over-l", f->d_over_l,
                       "Credible aspect ratios LO:HI; a plan outside is refused (exit 3)");
        sub.add_option("--tolerance", f->tolerance, "Largest relative miss of the M, N_a, N targets")
            ->check(positive());
        add_law_defaults(sub);
        sub.add_flag("--full", f->full,
                     "Table: print every section, not the one-screen summary (data formats "
                     "always hold everything)");
        sub.add_flag("--no-bench", f->no_bench,
                     "Do not time the winner's GEMMs (output is then fully deterministic)");
        sub.add_option("--bench-seconds", f->bench_seconds,
                       "CPU time budget of the GEMM benchmark (all --align auto variants together)")
            ->check(number_in(0.01, 3600.0))
            ->capture_default_str();
        sub.add_option("--micro-batch-tokens", f->micro_batch_tokens,
                       "Tokens per micro-batch for the benchmark's GEMMs")
            ->transform(decimal_whole())->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 24))
            ->capture_default_str();
        sub.add_flag("--no-gpu", f->no_gpu, "Benchmark on the CPU only");
        add_cluster_flags(sub, f->cluster);
        add_serving_flags(sub, f->serving, true);
        sub.add_option("--days", f->days,
                       "With --gpus and --gpu: plan for this many days on the cluster (instead of --flops): "
                       "the lowest predicted loss within them (--objective time, the default) or the largest "
                       "budget C whose compute-optimal plan trains within them (--objective flops)")
            ->check(number_in(k_min_plan_days, k_max_plan_days))
            ->group("Cluster (docs/cluster.md)");
        sub.add_option("--gpu-hours", f->gpu_hours,
                       "With --gpus and --gpu: the time as GPU-hours, the same as --days H / (24 G)")
            ->check(number_in(0.001, 1e12))
            ->group("Cluster (docs/cluster.md)");
        sub.add_option("--target-loss", f->target_loss,
                       "With --gpus and --gpu: the plan that reaches this predicted loss (paper 001's joint law, "
                       "nats/token) in the fewest GPU-hours on the cluster, beside the compute-optimal C* for it "
                       "(section target_loss; docs/time-optimal.md)")
            ->check(positive())
            ->group("Cluster (docs/cluster.md)");
        sub.add_option("--objective", f->objective,
                       "With --days or --gpu-hours: time (the lowest predicted loss in the time: families and "
                       "sizes on their layouts, D = tokens/s x time, beside the FLOP-optimal plan; sections "
                       "time_optimal and flop_optimal; docs/time-optimal.md) or flops (the largest "
                       "compute-optimal plan the cluster trains in the time, paper 002)")
            ->check(CLI::IsMember({"flops", "time"}))
            ->capture_default_str()
            ->group("Cluster (docs/cluster.md)");
        sub.footer(
            "Examples:\n"
            "  moeplan suggest --flops 1e22\n"
            "  moeplan suggest --flops 1e22 --align auto\n"
            "  moeplan suggest --tokens 15e12 --active-params 37e9 --no-bench\n"
            "  moeplan suggest --flops 3e24 --tokens 15e12 --no-bench\n"
            "  moeplan suggest --flops 1e23 --total-params 30e9 --no-bench\n"
            "  moeplan suggest --flops 3e24 --inference-tokens 1e13 --no-bench\n"
            "  moeplan suggest --flops 1e20:1e24:0.5 --format csv\n"
            "  moeplan suggest --flops 3e21 --format json | jq .config\n"
            "  moeplan suggest --flops 1e20 --d 1536 --format csv\n"
            "  moeplan suggest --flops 1e22 --emit hf-config -o config.json\n"
            "  moeplan suggest --flops 1e24 --gpus 2048 --gpu h100 --no-bench\n"
            "  moeplan suggest --gpus 1024 --gpu h100 --days 60 --no-bench\n"
            "  moeplan suggest --gpus 64 --gpu h100 --days 7 --objective flops --no-bench\n"
            "  moeplan suggest --gpus 256 --gpu h100 --target-loss 2.2 --no-bench\n"
            "  moeplan suggest --flops 1e24 --serve-gpus 8 --serve-gpu h100 --no-bench\n"
            "  moeplan suggest --flops 1e24 --serve-fit --serve-gpus 8 --serve-gpu h100 \\\n"
            "      --serve-context 32768 --no-bench\n"
            "Exit status: 0 ok, 2 bad flag, 3 infeasible (the constraint is named on\n"
            "stderr; a sweep prints every budget, those without a plan with the reason),\n"
            "4 bad --laws or --gpu-catalog file, 5 cannot write -o (never over an input). See\n"
            "man moeplan-suggest.");
        const std::vector<const CLI::Option*> bench_settings{
            sub.get_option("--bench-seconds"), sub.get_option("--micro-batch-tokens"), sub.get_option("--no-gpu")};
        const CLI::Option* objective = sub.get_option("--objective");
        return [f, bench_settings, objective](Io& io) {
          for (const CLI::Option* o : bench_settings) {  // given ones, for ignored_bench_flag
            if (o->count() > 0) f->bench_flags.push_back(o->get_name());
          }
          return run_suggest(*f, io, objective->count() > 0);
        };
      }};
}

}  // namespace moeplan::cli
