// A config on a cluster, and the co-design moves of a plan (docs/cluster.md).
#include "moeplan/planner/cluster_fit.hpp"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/planner/model_score.hpp"
#include "moeplan/base/work_counts.hpp"

namespace moeplan {

namespace {

// Slices of the ramp each timed at its middle batch: the batch's step time is smooth between
// them (a few micro-batches more or fewer), so 16 slices put the sum within a fraction of a
// percent of finer ones.
constexpr int k_ramp_slices = 16;

/// The ramp's tokens trained at the batches of --batch-ramp: each slice's tokens at the step
/// time of the chosen layout with that global batch, rounded as the main batch is (to whole
/// micro-batches × DP, × PP interleaved; DualPipe: an even number of micro-batches, at least
/// 2 × PP), the rest of D at the full batch; fit.ramp_extra says what it adds. A ramp longer
/// than D is cut at D: the batch grows as given and the run ends before the full batch.
/// START at or above the run's batch is an error (the constraint k_batch_ramp_constraint).
std::expected<void, ConstraintViolation> ramp_batch(ClusterFit& fit, const ParameterCounts& counts,
                                                    const StepTimeOptions& time_options,
                                                    const ClusterFitOptions& options, Tokens tokens) {
  const BatchRamp& ramp = *options.batch_ramp;
  const LayoutCandidate& best = fit.layouts.ranked.front();
  const ParallelLayout& chosen = best.layout;
  if (ramp.start_sequences >= chosen.global_batch) {
    return std::unexpected(ConstraintViolation{
        k_batch_ramp_constraint,
        fmt::format("--batch-ramp {}:{:g} starts at {} sequences, not below the run's global batch of {} sequences",
                    ramp.start_sequences, ramp.tokens, ramp.start_sequences, chosen.global_batch)});
  }
  const bool dual = chosen.dualpipe && chosen.pp > 1;
  const long long unit =
      static_cast<long long>(chosen.micro_batch) * chosen.dp * (chosen.vpp > 1 ? chosen.pp : 1) * (dual ? 2 : 1);
  const long long least = dual ? unit * chosen.pp : unit;
  const double ramp_tokens = std::min(ramp.tokens, tokens.value());
  const double reach = ramp_tokens / ramp.tokens;  // the share of the ramp the run trains
  if (!(ramp_tokens > 0) || unit <= 0) return {};
  const double span = double(chosen.global_batch) - double(ramp.start_sequences);
  // Slice k's batch, rounded as the main batch is; they grow with k.
  const auto slice_batch = [&](int k) {
    const double batch = double(ramp.start_sequences) + span * (k + 0.5) / k_ramp_slices * reach;
    return std::min(chosen.global_batch, std::max(least, std::llround(batch / double(unit)) * unit));
  };
  if (slice_batch(0) >= chosen.global_batch) {  // every slice rounds to the full batch: the ramp cannot run here
    fit.ramp_note = fmt::format("no slice runs below the full batch: its smallest step on this layout is {} sequences "
                                "(micro-batch x DP{}), the ramp's batches round to {}",
                                least, dual ? " x 2 x PP" : chosen.vpp > 1 ? " x PP" : "", chosen.global_batch);
    fit.warnings.push_back(fmt::format("--batch-ramp {}:{:g}: {}", ramp.start_sequences, ramp.tokens, fit.ramp_note));
    fit.ramp_extra = TrainingTime{};
    return {};
  }
  double seconds = 0, steps = 0;
  for (int k = 0; k < k_ramp_slices; ++k) {
    ParallelLayout at = chosen;
    at.global_batch = slice_batch(k);
    const StepTime t = step_time(fit.config, counts, options.cluster, at, time_options);
    if (!(t.tokens_per_step > 0)) return {};
    seconds += ramp_tokens / k_ramp_slices / t.tokens_per_step * t.step_seconds;
    steps += ramp_tokens / k_ramp_slices / t.tokens_per_step;
  }
  std::vector<std::string> notes;
  if (reach < 1) {
    const double end = double(ramp.start_sequences) + span * reach;
    notes.push_back(fmt::format("the ramp is longer than D = {:.4g} tokens: the run ends at {:.0f} sequences, "
                                "before the full batch of {}",
                                tokens.value(), end, chosen.global_batch));
    fit.warnings.push_back(fmt::format("--batch-ramp {}:{:g}: {}", ramp.start_sequences, ramp.tokens, notes.back()));
  }
  notes.push_back(fmt::format("slices rounded as the main batch, to multiples of {} sequences{}", unit,
                              dual ? fmt::format(", at least {} (DualPipe: 2 x PP micro-batches a rank)", least)
                                   : std::string()));
  fit.ramp_note = fmt::format("{}", fmt::join(notes, "; "));
  const StepTime& full = best.time;
  const double rest = tokens.value() - ramp_tokens;
  TrainingTime with = fit.time;
  with.seconds = seconds + rest / full.tokens_per_step * full.step_seconds;
  with.days = with.seconds / 86400.0;
  with.gpu_hours = double(options.cluster.gpus) * with.seconds / 3600.0;
  with.steps = static_cast<long long>(std::ceil(steps + rest / full.tokens_per_step));
  TrainingTime extra;
  extra.seconds = with.seconds - fit.time.seconds;
  extra.days = with.days - fit.time.days;
  extra.gpu_hours = with.gpu_hours - fit.time.gpu_hours;
  extra.steps = with.steps - fit.time.steps;
  fit.ramp_extra = extra;
  fit.time = with;
  return {};
}

// The whole-training settings given in steps (--save-interval, --eval-iters) in minutes, at the
// chosen layout's step at the full batch.
WholeTrainingOptions in_seconds_of_steps(WholeTrainingOptions w, double step_seconds) {
  if (w.checkpoint_interval_steps && !w.checkpoint_interval_minutes) {
    w.checkpoint_interval_minutes = double(*w.checkpoint_interval_steps) * step_seconds / 60.0;
  }
  if (w.eval_iters && w.eval_minutes == 0) w.eval_minutes = double(*w.eval_iters) * step_seconds / 3.0 / 60.0;
  return w;
}

}  // namespace

namespace {

// The global batch a fit asks for (search.global_batch_tokens, fit's batch and its source):
// a --megatron-args file's sequences, --global-batch-tokens, or the laws' batch at the run's
// C; capped at the training set. An error when no batch follows or D is under a sequence.
std::expected<void, ConstraintViolation> choose_global_batch(ClusterFit& fit, LayoutSearchOptions& search,
                                                             const LawSet& laws, const ClusterFitOptions& options,
                                                             std::optional<Flops> compute,
                                                             const ParameterCounts& counts, Tokens tokens) {
  const int S = fit.config.training->seq_len;
  if (search.global_batch_tokens <= 0 && options.global_batch_sequences > 0) {
    search.global_batch_tokens = options.global_batch_sequences * S;
    fit.global_batch_sequences = options.global_batch_sequences;
    fit.global_batch_source = fmt::format("given ({}: {} sequences of S = {})", options.global_batch_given_by,
                                          options.global_batch_sequences, S);
    search.exact_batch = true;
  } else if (search.global_batch_tokens <= 0) {
    // The laws' batch at the run's C (a plan's own budget; else C = M·D of this count):
    // paper 002 Table 4 inside its rows, paper 000 Eq. 5 outside (the laws say which).
    const Flops C = compute ? *compute
                            : training_budget(fit.config, flops_per_token(fit.config, counts,
                                                                          FlopsConvention::holistic_002, S).M())->C;
    const TrainingHyperparameters h = training_hyperparameters(laws, C, tokens, S);
    if (!h.global_batch_size) {
      return std::unexpected(ConstraintViolation{
          "a global batch from the laws (man moeplan, LIMITS)",
          fmt::format("at C = {:.4g} FLOPs and D = {:.4g} tokens the batch law gives no finite number of "
                      "sequences", C.value(), tokens.value())});
    }
    fit.global_batch_sequences = *h.global_batch_size;
    fit.global_batch_source = h.source == HyperparameterSource::holistic_table4
                                  ? fmt::format("paper 002 Table 4 at C = {:.3g} FLOPs, sequences of S = {}",
                                                h.compute.value_or(0), S)
                                  : fmt::format("paper 000 Eq. 5 B_opt at C = {:.3g} FLOPs, {:.3g} tokens / S = {}",
                                                h.compute.value_or(0),
                                                static_cast<double>(*h.global_batch_size) * S, S);
    search.global_batch_tokens = *h.global_batch_size * S;
  } else {
    fit.global_batch_sequences = std::max(1LL, search.global_batch_tokens / S);
    fit.global_batch_source = "given (--global-batch-tokens)";
    search.exact_batch = true;
    if (search.global_batch_tokens % S != 0) {
      // Megatron's batch is whole sequences: said, with both figures, not silently.
      fit.global_batch_source += fmt::format("; {} tokens taken as {} sequence(s) of S = {}", search.global_batch_tokens,
                                             fit.global_batch_sequences, S);
      fit.warnings.push_back(fmt::format("--global-batch-tokens {} is not a whole number of sequences of S = {} "
                                         "tokens: taken as {} sequence(s), {} tokens",
                                         search.global_batch_tokens, S, fit.global_batch_sequences,
                                         fit.global_batch_sequences * S));
    }
  }
  // One step never covers more than the training set: a batch above D / S sequences is
  // capped there, and said so (a run is then one step); less than one sequence is no run.
  if (tokens.value() < S) {
    return std::unexpected(ConstraintViolation{
        "a step within the training set (global batch x S <= D)",
        fmt::format("D = {:.4g} tokens is less than one sequence of S = {} tokens", tokens.value(), S)});
  }
  const double sequences_in_D = std::floor(tokens.value() / S);
  if (double(search.global_batch_tokens) / S > sequences_in_D) {
    fit.global_batch_source += fmt::format("; capped at the training set, D / S = {:.0f} sequences (asked {})",
                                           sequences_in_D, search.global_batch_tokens / S);
    search.global_batch_tokens = static_cast<long long>(sequences_in_D) * S;
  }
  // The training set bounds a step (a D past 2^62 sequences bounds nothing a long long holds).
  search.max_global_batch_sequences = sequences_in_D < 4e18 ? static_cast<long long>(sequences_in_D) : 0;
  return {};
}

// The chosen layout's batch against the one asked for: rounded to the layout, or raised so
// that every GPU holds a micro-batch (said on stderr too).
void note_batch_change(ClusterFit& fit, const ParallelLayout& chosen, int gpus, Tokens tokens, int S, bool exact) {
  // What the batch is a multiple of: micro-batch x DP, x PP interleaved (Megatron), x 2 and at
  // least 2 x PP micro-batches under DualPipe (dualpipe.py's asserts).
  const bool dual = chosen.dualpipe && chosen.pp > 1;
  const std::string unit = dual ? " x 2 (DualPipe: an even number of micro-batches, at least 2 x PP)"
                           : chosen.vpp > 1 ? " x PP"
                                            : "";
  if (!fit.layouts.batch_raised && chosen.global_batch != fit.layouts.requested_batch) {
    fit.global_batch_source += fmt::format("; rounded from {} to {} sequences, a multiple of micro-batch x DP{}",
                                           fit.layouts.requested_batch, chosen.global_batch, unit);
    // A batch the user gave is Megatron's --global-batch-size: no layout that fits divides it
    // (the search ranks those that do first), so the run times another batch, said on stderr.
    if (exact) {
      fit.warnings.push_back(fmt::format(
          "the given global batch of {} sequences is not a whole number of micro-batch x DP{} on any layout that "
          "fits within 10 % of the fastest (Megatron refuses such a batch): timed at {} sequences ({:+.1f} %), the nearest multiple on {}",
          fit.layouts.requested_batch, unit, chosen.global_batch,
          100.0 * (double(chosen.global_batch) / double(std::max(1LL, fit.layouts.requested_batch)) - 1.0),
          chosen.describe()));
    }
  }
  if (fit.layouts.batch_raised) {
    fit.global_batch_source += fmt::format(
        "; raised from {} to {} sequences: no layout of {} GPUs that fits keeps it (DP x micro-batch{} "
        "is above it), so the smallest batch a fitting layout takes; fewer GPUs would keep it",
        fit.layouts.requested_batch, chosen.global_batch, gpus, dual ? " x 2 x PP (DualPipe)" : unit);
    // On stderr too: a batch far above the law's changes the run (fewer, larger optimizer
    // steps) in a way the loss laws, fitted at their own batch, do not see.
    fit.warnings.push_back(fmt::format(
        "the global batch is raised from {} to {} sequences ({:.3g}x) so that {}: "
        "{:.4g} optimizer steps in all; the loss laws assume the asked batch (fewer GPUs keep it)",
        fit.layouts.requested_batch, chosen.global_batch,
        double(chosen.global_batch) / double(std::max(1LL, fit.layouts.requested_batch)),
        dual ? fmt::format("DualPipe has 2 x PP = {} micro-batches on each of the {} data-parallel ranks", 2 * chosen.pp,
                           chosen.dp)
             : fmt::format("every GPU of {} holds a micro-batch", gpus),
        std::floor(tokens.value() / (double(chosen.global_batch) * S))));
  }
}

}  // namespace

std::expected<ClusterFit, ConstraintViolation> fit_on_cluster(const LawSet& laws,
                                                              const ModelConfig& config,
                                                              Tokens tokens,
                                                              const ClusterFitOptions& options,
                                                              std::optional<Flops> compute,
                                                              const ParameterCounts* counted) {
  work::tally(work::Step::cluster_fit);
  if (const auto why = non_uniform_layers(config)) {
    return std::unexpected(ConstraintViolation{"a model the cluster model can count", *why});
  }
  ClusterFit fit;
  fit.config = config;
  if (options.mtp_layers) fit.config.extras.num_nextn_predict_layers = *options.mtp_layers;
  fit.tokens = tokens;
  if (!fit.config.training) {  // the laws' S, as score takes for a config without [training]
    fit.config.training = TrainingSetup{.tokens = {}, .compute = {},
                                        .seq_len = laws.holistic.family_defaults.seq_len, .unique_tokens = {}};
  }
  fit.config.training->tokens = tokens;
  fit.config.training->compute.reset();
  const int S = fit.config.training->seq_len;

  // The config counted once: the layout search, the step model and C = M·D share it.
  const ParameterCounts counts = counted ? *counted : count_parameters(fit.config);
  LayoutSearchOptions search = options.search;
  search.memory.seq_len = S;
  search.time.seq_len = S;
  fit.precision = search.time.precision;
  fit.fp8_param_gather = search.time.fp8_param_gather;
  fit.grad_reduce_in_bf16 = search.time.grad_reduce_in_bf16;
  fit.bf16_moments = search.time.bf16_moments;
  fit.dp_sharding = search.time.dp_sharding;
  fit.activation_fp8_input_store = search.time.activation_fp8_input_store;
  fit.load_imbalance = search.time.expert_load_factor;
  fit.given = search.given;
  fit.gemm_rates_source = options.gemm_rates_source;
  fit.attention_efficiency = options.search.time.attention_efficiency;
  fit.step_profile = options.step_profile;
  fit.step_parameter_sources = options.step_parameter_sources;
  fit.step_band = options.step_band;
  if (auto batch = choose_global_batch(fit, search, laws, options, compute, counts, tokens); !batch) {
    return std::unexpected(batch.error());
  }
  auto layouts = search_layouts(fit.config, counts, options.cluster, search);
  if (!layouts) return std::unexpected(layouts.error());
  fit.layouts = std::move(*layouts);
  if (fit.layouts.ranked.empty()) {
    return std::unexpected(ConstraintViolation{"a parallel layout", "the search kept none"});
  }
  const ParallelLayout& chosen = fit.layouts.ranked.front().layout;
  if (options.load_imbalance_given && chosen.ep == 1 && fit.config.is_moe() && fit.load_imbalance != 1) {
    fit.warnings.push_back(fmt::format("--load-imbalance {:g} does not apply on EP 1: one rank holds every expert and "
                                       "routes exactly K copies of its tokens (load 1)",
                                       fit.load_imbalance));
  }
  fit.load_imbalance = expert_rank_load(fit.load_imbalance, chosen);  // 1 on EP 1: one rank, every expert
  // What the step time applied on the chosen layout: the TP overlap needs TP > 1, the
  // pipeline-send overlap Megatron's interleaved schedule (VPP > 1).
  fit.tp_comm_overlap = search.time.tp_comm_overlap && chosen.tp > 1;
  fit.cuda_graphs = search.time.cuda_graphs;
  fit.p2p_overlap = search.time.p2p_overlap && chosen.vpp > 1;
  fit.global_batch_sequences = chosen.global_batch;
  fit.requested_batch_sequences = fit.layouts.requested_batch;
  if (double(chosen.global_batch) * S > tokens.value()) {
    return std::unexpected(ConstraintViolation{
        "a step within the training set (global batch x S <= D)",
        fmt::format("the smallest global batch a layout of {} GPUs that fits takes is {} sequences of {} "
                    "tokens, {:.4g} tokens, above D = {:.4g}: fewer GPUs, or more tokens",
                    options.cluster.gpus, chosen.global_batch, S, double(chosen.global_batch) * S,
                    tokens.value())});
  }
  note_batch_change(fit, chosen, options.cluster.gpus, tokens, S, search.exact_batch);
  auto time = training_time(fit.layouts.ranked.front().time, options.cluster, tokens);
  if (!time) return std::unexpected(time.error());
  fit.time = *time;
  if (options.batch_ramp) {
    if (auto ramped = ramp_batch(fit, counts, search.time, options, tokens); !ramped) {
      return std::unexpected(ramped.error());
    }
  }
  // A checkpoint is each rank's shard of the weights and optimizer state (Megatron's fully
  // parallel distributed checkpoint): the fp32 master, m and v the memory model counts (12
  // bytes a parameter of the shard) and the bf16 weight of the same shard (2): 14/12 of them
  // (the precision's bytes, precision_spec.hpp).
  // The most loaded GPU in memory need not hold the largest shard (its activations may weigh
  // more): at least the average, all weights and states over all GPUs.
  const PrecisionSpec& bytes = precision_spec(search.memory.precision);
  const double state_bytes = bytes.optimizer_state(search.memory.bf16_moments);
  const double checkpoint_bytes =
      std::max(fit.layouts.ranked.front().memory.bytes_of("optimizer") * (state_bytes + bytes.weight_bytes) / state_bytes,
               counts.N_with_embedding().value() * (state_bytes + bytes.weight_bytes) / options.cluster.gpus);
  const double step_seconds = fit.layouts.ranked.front().time.step_seconds;
  fit.whole = whole_training(fit.time.seconds, step_seconds, double(fit.time.steps), options.cluster.gpus,
                             checkpoint_bytes, in_seconds_of_steps(options.whole_training, step_seconds));
  fit.whole.interval_in_steps =
      options.whole_training.checkpoint_interval_steps && !options.whole_training.checkpoint_interval_minutes;
  if (!fit.whole.makes_progress) {
    fit.whole_training_problem = fmt::format(
        "{} GPUs at {:.3g} interruptions per GPU-hour fail every {:.3g} minutes, faster than a restart and half a "
        "checkpoint interval: the run makes no progress",
        options.cluster.gpus, options.whole_training.interruptions_per_gpu_hour,
        60.0 / (options.whole_training.interruptions_per_gpu_hour * options.cluster.gpus));
    fit.warnings.push_back(fit.whole_training_problem + " (the training section is null; fewer GPUs, a lower "
                                                        "--interruptions-per-gpu-hour or a shorter --restart-minutes)");
  } else if (!fit.whole.interval_from_young_daly && !fit.whole.interval_note.empty()) {
    fit.warnings.push_back(fit.whole.interval_note);  // a given interval the run cannot keep
  }
  if (options.compare_given_with_search && search.given.any()) {
    LayoutSearchOptions open = search;
    open.given = {};
    if (auto best = search_layouts(fit.config, counts, options.cluster, open);
        best && !best->ranked.empty() &&
        best->ranked.front().time.tokens_per_second > fit.layouts.ranked.front().time.tokens_per_second) {
      fit.given_slower_because = why_slower(best->ranked.front(), fit.layouts.ranked.front(), options.cluster);
      fit.searched_best = std::move(best->ranked.front());
    }
  }
  if (fit.time.days > k_max_plausible_days) {
    fit.warnings.push_back(fmt::format("the run takes {:.3g} days on {} GPUs: more than ten years, a hundred times "
                                       "any published pre-training (man moeplan, LIMITS)",
                                       fit.time.days, options.cluster.gpus));
  }
  return fit;
}

namespace {

double tokens_per_second(const ClusterFit& f) {
  return f.layouts.ranked.front().time.tokens_per_second;
}

std::string shape_of(const MoeArchitecture& a) {
  return fmt::format("d {}, d_m {}, L {}, {}/{} heads", a.d, a.d_m, a.layers(), a.family.heads.n_q,
                     a.family.heads.n_kv);
}

// A re-solve of the current plan with a tweak and extra steering constraints: the plan, or
// why there is none.
struct Trial {
  std::optional<RankedCandidate> plan;
  std::string why_not;
};

Trial try_solve(const LawSet& laws, const Planner& planner, const Suggestion& from, Tweak tweak,
                std::vector<Constraint> extra, const std::string& variant) {
  tweak.constraints = std::move(extra);
  auto s = planner.solve(from.resolved, tweak);
  if (!s) return {std::nullopt, s.error().to_string()};
  return {score_suggestion(laws, std::move(*s), variant), ""};
}

Constraint multiple_of(std::string name, int step, int (*value)(const MoeArchitecture&)) {
  return Constraint{name, true,
                    [name, step, value](const MoeArchitecture& a, const Accounting&)
                        -> std::optional<ConstraintViolation> {
                      if (value(a) % step == 0) return std::nullopt;
                      return ConstraintViolation{name, fmt::format("{} is not a multiple of {}", value(a), step)};
                    },
                    [step, value](const MoeArchitecture& a) { return value(a) % step == 0; }, {}, {}};
}

// d a multiple of `step`: a rule on d alone (the layer solve leaves other d out).
Constraint d_multiple_of(int step) {
  Constraint c = multiple_of(fmt::format("d multiple of {}", step), step, [](const MoeArchitecture& x) { return x.d; });
  c.holds_for_d = [step](int d) { return d % step == 0; };
  return c;
}

// L a multiple of `step` (PP): a rule on L alone (the layer solve leaves other L out).
Constraint layers_multiple_of(std::string name, int step) {
  Constraint c = multiple_of(std::move(name), step, [](const MoeArchitecture& x) { return x.layers(); });
  c.holds_for_layers = [step](int L) { return L % step == 0; };
  return c;
}

}  // namespace

namespace {

// The largest TP the layout search may take for these heads on this node: it tries the TP that
// divide the GPUs per node and keeps those dividing N_q and N_kv (attention shards by head).
int largest_tp_for_heads(const AttentionHeads& h, int per_node) {
  int best = 1;
  for (int tp = 1; tp <= per_node; ++tp) {
    if (per_node % tp == 0 && h.n_q % tp == 0 && h.n_kv % tp == 0) best = tp;
  }
  return best;
}

// A move not yet tried: its name and the values it starts from.
CoDesignMove named_move(std::string name, std::string from) {
  CoDesignMove m;
  m.name = std::move(name);
  m.from = std::move(from);
  return m;
}

// What one move may do and how it is judged.
struct MoveRules {
  bool no_slower = true;             ///< false: kept in the band even when no faster (alignment)
  const Planner* family = nullptr;   ///< another family's Planner (an N_e move)
  bool heads = false;                ///< the heads move: d may follow the heads, TP must grow
  int tp_before = 0;                 ///< the heads move: the chosen layout's TP before it (0: none fits)
};

// The co-design of one plan: the moves in order, each re-solved with the moves kept before it
// held, judged and reported (docs/cluster.md, "Co-design").
class CoDesigner {
 public:
  CoDesigner(const PlanContext& context, const RankedCandidate& plan, const ClusterFitOptions& options,
             FitMemo* memo)
      : context_(context), laws_(context.laws()), options_(options), memo_(memo), current_(&context.planner()) {
    out_.plan = plan;
    out_.paper_loss = plan.predicted_loss;
    paper_el_ = plan.efficiency_leverage;
    fitted_ = fit_of(plan);
  }

  std::expected<CoDesignedPlan, ConstraintViolation> run() {
    if (options_.co_design) {
      align();
      experts();
      heads();
      layers();
      expert_parallel_check();
    }
    if (!fitted_) {
      // The moves that might have made it fit and were refused as reshapes, with why.
      ConstraintViolation v = fitted_.error();
      for (const CoDesignMove& m : out_.moves) {
        if (m.outside_el_band) v.detail += fmt::format("; co-design's {} ({}) was refused: {}", m.name, m.to, m.why);
      }
      return std::unexpected(std::move(v));
    }
    out_.fit = std::move(*fitted_);
    return std::move(out_);
  }

 private:
  static ModelConfig config_of(const RankedCandidate& c) {
    ModelConfig m = plan_config(c.suggestion);
    m.name = "the plan";
    return m;
  }
  // The plan's fit: the memo's when it kept one, else fitted (and kept).
  FitMemo::Fit fit_of(const RankedCandidate& c) const {
    if (memo_) {
      if (const FitMemo::Fit* kept = memo_->find(c.suggestion)) return *kept;
    }
    FitMemo::Fit f = fit_on_cluster(laws_, config_of(c), c.suggestion.tokens, options_);
    if (memo_) memo_->keep(c.suggestion, f);
    return f;
  }
  double loss_change(const RankedCandidate& c) const { return (c.predicted_loss - out_.paper_loss) / out_.paper_loss; }
  double el_change(const RankedCandidate& c) const {
    return paper_el_ > 0 ? c.efficiency_leverage / paper_el_ - 1 : 0;
  }
  int pp_now() const { return fitted_ ? fitted_->layouts.ranked.front().layout.pp : 1; }
  int tp_now() const { return fitted_ ? fitted_->layouts.ranked.front().layout.tp : 0; }
  int alignment_of(const RankedCandidate& c) const { return std::max(1, c.suggestion.alignment); }

  // Why a trial is more than a rounding of the plan, or "" when it is one. A move rounds the
  // plan; one that redesigns it (another family's solve can land on a different d and d_m/d) is
  // not co-design, whatever the joint law says: the joint law (paper 001 Eq. 11) sees neither
  // d, depth nor attention (docs/design.md, "Ranking"). d by more than 10 % is a redesign (the
  // heads move aside: d follows the heads' feasible interval). L by more than one pipeline step
  // or d_m by more than one alignment step is kept only inside paper 002's 0.1 % band (Sec.
  // 5.3-5.4) measured by paper 000's EL (Eq. 4), which sees granularity 2d/d_m; else refused.
  std::string reshape_refusal(const RankedCandidate& trial, const MoveRules& rules, bool& reshaped) const {
    const MoeArchitecture& was = out_.plan.suggestion.solution.arch;
    const MoeArchitecture& now = trial.suggestion.solution.arch;
    const std::string shapes = fmt::format("d {} -> {}, d_m {} -> {}, L {} -> {}", was.d, now.d, was.d_m, now.d_m,
                                           was.layers(), now.layers());
    if (!rules.heads && std::abs(double(now.d) / was.d - 1) > 0.1) {
      return fmt::format("reshapes the plan ({}): d moves by more than 10 %, more than a rounding", shapes);
    }
    const int pp = pp_now(), step = std::max(alignment_of(out_.plan), alignment_of(trial));
    const int dL = std::abs(now.layers() - was.layers()), dm = std::abs(now.d_m - was.d_m);
    reshaped = dL > pp || dm > step;
    if (!reshaped) return "";
    const double el = el_change(trial);
    if (el >= -options_.band) return "";
    std::string past;  // which step it passed, and by how much
    if (dL > pp) past = fmt::format("L by {} > one PP step of {}", dL, pp);
    if (dm > step) past += fmt::format("{}d_m by {} > one alignment step of {}", past.empty() ? "" : ", ", dm, step);
    return fmt::format("reshapes the plan ({}; {}): EL {:.4g} -> {:.4g} ({:+.3f} %), outside paper 002's {:.1f} % band "
                       "measured by paper 000's EL (the joint law cannot see depth or attention)",
                       shapes, past, paper_el_, trial.efficiency_leverage, 100 * el, 100 * options_.band);
  }

  Trial solve(const std::string& name, const Tweak& t, const std::vector<Constraint>& extra, const Planner& use) const {
    return try_solve(laws_, use, out_.plan.suggestion, t, extra, name);
  }

  // Take a trial when it stays in the band and trains no slower (or makes a layout fit where
  // none did); report it either way.
  void consider(CoDesignMove move, const Tweak& t, const std::vector<Constraint>& extra, const MoveRules& rules) {
    std::vector<Constraint> all = held_;
    all.insert(all.end(), extra.begin(), extra.end());
    Trial trial = solve(move.name, t, all, rules.family ? *rules.family : *current_);
    if (!trial.plan) return refuse(std::move(move), "no plan meets it: " + trial.why_not);
    move.to = shape_of(trial.plan->suggestion.solution.arch);
    move.loss_change = loss_change(*trial.plan);
    move.el_change = el_change(*trial.plan);
    if (std::string why = reshape_refusal(*trial.plan, rules, move.reshaped); !why.empty()) {
      move.outside_el_band = move.reshaped;  // (else d moved by more than 10 %)
      return refuse(std::move(move), std::move(why));
    }
    if (move.loss_change > options_.band) {
      return refuse(std::move(move), fmt::format("outside the near-optimal band: loss +{:.3f} % > {:.1f} % (paper 002 "
                                                 "Sec. 5.3)",
                                                 100 * move.loss_change, 100 * options_.band));
    }
    auto trial_fit = fit_of(*trial.plan);
    if (!trial_fit) return refuse(std::move(move), "its layouts do not fit: " + trial_fit.error().to_string());
    if (rules.heads && rules.tp_before > 0 && trial_fit->layouts.ranked.front().layout.tp <= rules.tp_before) {
      return refuse(std::move(move), fmt::format("serves nothing: its layout takes TP {} (was TP {}), so the heads "
                                                 "that TP must divide do not bind",
                                                 trial_fit->layouts.ranked.front().layout.tp, rules.tp_before));
    }
    if (rules.no_slower && fitted_ && tokens_per_second(*trial_fit) < tokens_per_second(*fitted_) * (1 - 1e-9)) {
      return refuse(std::move(move), fmt::format("trains slower: {:.4g} vs {:.4g} tokens/s",
                                                 tokens_per_second(*trial_fit), tokens_per_second(*fitted_)));
    }
    move.kept = true;
    if (rules.family) current_ = rules.family;
    move.why = fitted_ ? fmt::format("in the band, {:+.2f} % tokens/s",
                                     100 * (tokens_per_second(*trial_fit) / tokens_per_second(*fitted_) - 1))
                       : "in the band, and a layout now fits";
    if (move.reshaped) {
      move.why += fmt::format("; L or d_m past one step, kept inside the band by EL ({:+.3f} %)", 100 * move.el_change);
    }
    tweak_ = t;
    held_ = all;
    out_.plan = std::move(*trial.plan);
    fitted_ = std::move(trial_fit);
    out_.moves.push_back(std::move(move));
  }

  void refuse(CoDesignMove move, std::string why) {
    move.why = std::move(why);
    out_.moves.push_back(std::move(move));
  }

  // A move whose condition already holds: reported, nothing re-solved.
  void already(CoDesignMove move, std::string why) {
    move.to = move.from;
    move.loss_change = loss_change(out_.plan);
    move.el_change = el_change(out_.plan);
    move.kept = true;
    move.why = std::move(why);
    out_.moves.push_back(std::move(move));
  }

  // 1. d to a multiple of 128 and d_m of 64 (GEMM tiles of 128 and 64 columns; paper 002 Sec.
  //    5.4 names exactly this rounding as the use of the band). Kept whenever in the band and a
  //    layout fits: the flat GEMM efficiency of the step model cannot see its gain.
  void align() {
    const MoeArchitecture& a = out_.plan.suggestion.solution.arch;
    CoDesignMove move = named_move("d multiple of 128, d_m of 64", shape_of(a));
    if (a.d % 128 == 0 && a.d_m % 64 == 0 && a.d_d % 64 == 0) return already(move, "already");
    Tweak t = tweak_;
    t.alignment = 64;
    std::vector<Constraint> aligned{d_multiple_of(128)};
    // With the layer count the current layout's PP divides, when it has one (moving d moves
    // L = d/rho too, and a pipeline that lost its even split would price the alignment).
    if (const int pp = pp_now(); fitted_ && pp > 1 && a.layers() % pp == 0) {
      std::vector<Constraint> with_pp = aligned;
      with_pp.push_back(layers_multiple_of(fmt::format("L multiple of PP = {}", pp), pp));
      Trial both = solve(move.name, t, with_pp, *current_);
      if (both.plan && loss_change(*both.plan) <= options_.band) aligned = std::move(with_pp);
    }
    consider(move, t, aligned, MoveRules{.no_slower = false});
  }

  // 2. N_e to a multiple of 64, so that EP can grow with the cluster in powers of two (EP must
  //    divide N_e, and EP x ETP the data-parallel GPUs, a power of two on most clusters: 288 =
  //    2^5 x 9 stops EP at 32). N_e is the family's (paper 002 Sec. 4.2.2 fixes it by
  //    engineering choice, not by a law), so the move re-plans the family with the nearest
  //    multiples of 64 and is kept in the band when it trains faster, or fits where nothing did.
  void experts() {
    const int ne = out_.plan.suggestion.solution.arch.family.n_experts;
    if (ne <= 64 || ne % 64 == 0 || context_.planner().options().n_experts) return;
    for (const int candidate : {ne / 64 * 64, (ne / 64 + 1) * 64}) {
      const Planner& moved_family = context_.with_experts(candidate);  // built once per command
      CoDesignMove move = named_move("N_e multiple of 64 (room for EP)", fmt::format("N_e {}", ne));
      consider(move, tweak_, {}, MoveRules{.family = &moved_family});
      out_.moves.back().to = fmt::format("N_e {}: {}", candidate, out_.moves.back().to);
      if (out_.moves.back().kept) break;  // `current_` is moved_family now
    }
  }

  // 3. Query and key/value heads to multiples of a power-of-two TP the node offers (attention
  //    shards by KV head), only where the heads bind TP: the layout took the largest TP the
  //    heads allow, or no layout fits yet (heads that only TP 1 divides are often why: past
  //    Table 4, 97 KV heads on 1,048,576 H100 left every layout 0.5 TB short per GPU). A layout
  //    that took less TP than the heads allow gains nothing from more heads. The largest step
  //    first (the largest power of two dividing the GPUs per node), then each half above what the
  //    heads allow: fewer added heads move L and d_m less (the reshape rule above).
  void heads() {
    const AttentionHeads h = out_.plan.suggestion.solution.arch.family.heads;
    const int per_node = options_.cluster.gpus_per_node;
    const int tp = tp_now(), allowed = largest_tp_for_heads(h, per_node);
    const CoDesignMove move = named_move("N_q, N_kv multiples of TP",
                                         fmt::format("{}/{} heads ({})", h.n_q, h.n_kv,
                                                     fitted_ ? fmt::format("TP {}", tp) : std::string("no layout fits")));
    int largest = 1;  // the largest power of two dividing the GPUs per node (a TP the search offers)
    while (per_node % (largest * 2) == 0) largest *= 2;
    if (h.n_kv % largest == 0 && h.n_q % largest == 0) {
      return already(move, fmt::format("already: TP up to {} divides the heads", largest));
    }
    if (fitted_ && tp < allowed) {
      return already(move, fmt::format("not moved: the layout takes TP {} where the heads allow up to TP {}; more heads "
                                       "would serve no TP it uses",
                                       tp, allowed));
    }
    if (fitted_ && allowed >= largest) {
      return already(move, fmt::format("not moved: the heads allow TP {} already", allowed));
    }
    int tried_kv = 0;
    for (int step = largest; step > allowed && step >= 2; step /= 2) {
      const int n_kv = (h.n_kv + step - 1) / step * step;
      const int n_q = std::max(n_kv, (h.n_q * n_kv + h.n_kv - 1) / h.n_kv / n_kv * n_kv);
      if (n_kv == tried_kv) continue;  // the same heads as the larger step's
      tried_kv = n_kv;
      Tweak t = tweak_;
      t.heads = AttentionHeads{n_q, n_kv, h.d_qkv};
      // More heads re-solve d_m and L to the same (M, N_a, N) targets: judged as any reshape.
      consider(move, t, {}, MoveRules{.heads = true, .tp_before = fitted_ ? tp : 0});
      if (out_.moves.back().kept) return;
    }
  }

  // 4. L to a multiple of PP (even stages: no short first/last stage, no idle GPU-time).
  void layers() {
    if (!fitted_) return;
    const int pp = pp_now(), L = out_.plan.suggestion.solution.arch.layers();
    CoDesignMove move = named_move("L multiple of PP", fmt::format("L {} (PP {})", L, pp));
    if (L % pp == 0) return already(move, "already");
    consider(move, tweak_, {layers_multiple_of("L multiple of PP", pp)}, MoveRules{});
  }

  // 5. N_e and EP: the search only takes EP dividing N_e, so this is a check, not a move (N_e
  //    is the family's, paper 002 Sec. 4.2.2, not a solved integer).
  void expert_parallel_check() {
    if (!fitted_) return;
    const int ep = fitted_->layouts.ranked.front().layout.ep;
    const int ne = out_.plan.suggestion.solution.arch.family.n_experts;
    const std::string at = fmt::format("N_e {} (EP {})", ne, ep);
    already(named_move("EP divides N_e", at), "holds: the search only takes EP dividing N_e");
  }

  const PlanContext& context_;
  const LawSet& laws_;
  const ClusterFitOptions& options_;
  FitMemo* memo_;  // the search's fits by plan, or null
  CoDesignedPlan out_;
  double paper_el_ = 0;
  std::expected<ClusterFit, ConstraintViolation> fitted_;
  Tweak tweak_;
  std::vector<Constraint> held_;  // the moves kept so far, held by every later re-solve
  const Planner* current_;        // the family's planner; another after an N_e move
};

}  // namespace

std::expected<CoDesignedPlan, ConstraintViolation> co_design(const PlanContext& context,
                                                             const RankedCandidate& plan,
                                                             const ClusterFitOptions& options, FitMemo* memo) {
  return CoDesigner(context, plan, options, memo).run();
}

// Every field of MoeArchitecture and its ArchitectureFamily (model/architecture.hpp), and the
// tokens: what config_of builds the fitted config from. A field added there belongs here too.
FitMemo::Key FitMemo::key_of(const Suggestion& plan) {
  const MoeArchitecture& a = plan.solution.arch;
  const ArchitectureFamily& f = a.family;
  return {a.d, a.L_d, a.L_m, a.d_d, a.d_m, f.heads.n_q, f.heads.n_kv, f.heads.d_qkv, f.seq_len, f.n_experts,
          f.top_k, f.n_shared_experts, f.dense_ffn_ratio, f.vocab_size, plan.tokens.value()};
}

const FitMemo::Fit* FitMemo::find(const Suggestion& plan) const {
  const auto it = fits_.find(key_of(plan));
  return it == fits_.end() ? nullptr : &it->second;
}

void FitMemo::keep(const Suggestion& plan, const Fit& fit) { fits_.emplace(key_of(plan), fit); }

}  // namespace moeplan
