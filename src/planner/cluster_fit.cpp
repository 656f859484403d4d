// A config on a cluster, and the co-design moves of a plan (docs/cluster.md).
#include "moeplan/planner/cluster_fit.hpp"

#include <cmath>

#include <fmt/format.h>

#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/planner/model_score.hpp"
#include "moeplan/base/work_counts.hpp"

namespace moeplan {

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
  fit.load_imbalance = search.time.expert_load_factor;
  fit.given = search.given;
  fit.gemm_rates_source = options.gemm_rates_source;
  if (search.global_batch_tokens <= 0 && options.global_batch_sequences > 0) {
    search.global_batch_tokens = options.global_batch_sequences * S;
    fit.global_batch_sequences = options.global_batch_sequences;
    fit.global_batch_source = fmt::format("given ({}: {} sequences of S = {})", options.global_batch_given_by,
                                          options.global_batch_sequences, S);
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
  auto layouts = search_layouts(fit.config, counts, options.cluster, search);
  if (!layouts) return std::unexpected(layouts.error());
  fit.layouts = std::move(*layouts);
  if (fit.layouts.ranked.empty()) {
    return std::unexpected(ConstraintViolation{"a parallel layout", "the search kept none"});
  }
  const ParallelLayout& chosen = fit.layouts.ranked.front().layout;
  // What the step time applied on the chosen layout: the TP overlap needs TP > 1, the
  // pipeline-send overlap Megatron's interleaved schedule (VPP > 1).
  fit.tp_comm_overlap = search.time.tp_comm_overlap && chosen.tp > 1;
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
  if (!fit.layouts.batch_raised && chosen.global_batch != fit.layouts.requested_batch) {
    fit.global_batch_source += fmt::format("; rounded from {} to {} sequences, a multiple of micro-batch x DP{}",
                                           fit.layouts.requested_batch, chosen.global_batch,
                                           chosen.vpp > 1 ? " x PP" : "");
  }
  if (fit.layouts.batch_raised) {
    fit.global_batch_source += fmt::format(
        "; raised from {} to {} sequences: no layout of {} GPUs that fits keeps it (DP x micro-batch{} "
        "is above it), so the smallest batch a fitting layout takes; fewer GPUs would keep it",
        fit.layouts.requested_batch, chosen.global_batch, options.cluster.gpus,
        chosen.vpp > 1 ? " x PP" : "");
    // On stderr too: a batch far above the law's changes the run (fewer, larger optimizer
    // steps) in a way the loss laws, fitted at their own batch, do not see.
    fit.warnings.push_back(fmt::format(
        "the global batch is raised from {} to {} sequences ({:.3g}x) so that every GPU of {} holds a micro-batch: "
        "{:.4g} optimizer steps in all; the loss laws assume the asked batch (fewer GPUs keep it)",
        fit.layouts.requested_batch, chosen.global_batch,
        double(chosen.global_batch) / double(std::max(1LL, fit.layouts.requested_batch)), options.cluster.gpus,
        std::floor(tokens.value() / (double(chosen.global_batch) * S))));
  }
  auto time = training_time(fit.layouts.ranked.front().time, options.cluster, tokens);
  if (!time) return std::unexpected(time.error());
  fit.time = *time;
  // A checkpoint is each rank's shard of the weights and optimizer state (Megatron's fully
  // parallel distributed checkpoint): the fp32 master, m and v the memory model counts (12
  // bytes a parameter of the shard) and the bf16 weight of the same shard (2): 14/12 of them.
  // The most loaded GPU in memory need not hold the largest shard (its activations may weigh
  // more): at least the average, all weights and states over all GPUs.
  const double state_bytes = search.memory.bf16_moments ? 8.0 : 12.0;
  const double checkpoint_bytes =
      std::max(fit.layouts.ranked.front().memory.bytes_of("optimizer") * (state_bytes + 2.0) / state_bytes,
               counts.N_with_embedding().value() * (state_bytes + 2.0) / options.cluster.gpus);
  fit.whole = whole_training(fit.time.seconds, fit.layouts.ranked.front().time.step_seconds, options.cluster.gpus,
                             checkpoint_bytes, options.whole_training);
  if (!fit.whole.makes_progress) {
    fit.whole_training_problem = fmt::format(
        "{} GPUs at {:.3g} interruptions per GPU-hour fail every {:.3g} minutes, faster than a restart and half a "
        "checkpoint interval: the run makes no progress",
        options.cluster.gpus, options.whole_training.interruptions_per_gpu_hour,
        60.0 / (options.whole_training.interruptions_per_gpu_hour * options.cluster.gpus));
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

std::expected<CoDesignedPlan, ConstraintViolation> co_design(const PlanContext& context,
                                                             const RankedCandidate& plan,
                                                             const ClusterFitOptions& options) {
  const LawSet& laws = context.laws();
  const Planner& planner = context.planner();
  CoDesignedPlan out;
  out.plan = plan;
  out.paper_loss = plan.predicted_loss;
  const auto config_of = [](const RankedCandidate& c) {
    ModelConfig m = to_model_config(c.suggestion.solution.arch, c.suggestion.tokens);
    m.name = "the plan";
    return m;
  };
  auto fitted = fit_on_cluster(laws, config_of(plan), plan.suggestion.tokens, options);
  if (!options.co_design) {
    if (!fitted) return std::unexpected(fitted.error());
    out.fit = std::move(*fitted);
    return out;
  }
  const auto loss_change = [&](const RankedCandidate& c) {
    return (c.predicted_loss - out.paper_loss) / out.paper_loss;
  };
  // Take a trial when it stays in the band and trains no slower (or makes a layout fit
  // where none did); report it either way.
  Tweak tweak;
  std::vector<Constraint> held;  // the moves kept so far, held by every later re-solve
  // `no_slower` false: kept whenever it is in the band and fits (hardware alignment, whose
  // gain the flat GEMM efficiency of the step model cannot see).
  const Planner* current = &planner;  // the family's planner; another after an N_e move
  // `reshape_ok`: the move changes what the solve must fit (the heads), so the re-solved
  // d_m and L move with it by design; the band alone judges it (issue 32: heads that block TP).
  const auto consider = [&](CoDesignMove move, const Tweak& t, const std::vector<Constraint>& extra,
                            bool no_slower = true, const Planner* family = nullptr, bool reshape_ok = false) {
    std::vector<Constraint> all = held;
    all.insert(all.end(), extra.begin(), extra.end());
    const Planner& use = family ? *family : *current;
    Trial trial = try_solve(laws, use, out.plan.suggestion, t, all, move.name);
    if (!trial.plan) {
      move.why = "no plan meets it: " + trial.why_not;
      out.moves.push_back(move);
      return;
    }
    move.to = shape_of(trial.plan->suggestion.solution.arch);
    move.loss_change = loss_change(*trial.plan);
    // A move rounds the plan; one that redesigns it (another family's solve can land on a
    // different d and d_m/d) is not co-design, whatever the joint law says: the joint law
    // cannot see d or d_m (docs/design.md, "Ranking").
    const MoeArchitecture& was = out.plan.suggestion.solution.arch;
    const MoeArchitecture& now = trial.plan->suggestion.solution.arch;
    if (!reshape_ok &&
        (std::abs(double(now.d) / was.d - 1) > 0.1 || std::abs(double(now.d_m) / was.d_m - 1) > 0.15 ||
         std::abs(double(now.layers()) / was.layers() - 1) > 0.1)) {
      move.why = fmt::format("reshapes the plan (d {} -> {}, d_m {} -> {}, L {} -> {}): more than a rounding",
                             was.d, now.d, was.d_m, now.d_m, was.layers(), now.layers());
      out.moves.push_back(move);
      return;
    }
    if (move.loss_change > options.band) {
      move.why = fmt::format("outside the near-optimal band: loss +{:.3f} % > {:.1f} % (paper 002 Sec. 5.3)",
                             100 * move.loss_change, 100 * options.band);
      out.moves.push_back(move);
      return;
    }
    auto trial_fit = fit_on_cluster(laws, config_of(*trial.plan), trial.plan->suggestion.tokens, options);
    if (!trial_fit) {
      move.why = "its layouts do not fit: " + trial_fit.error().to_string();
      out.moves.push_back(move);
      return;
    }
    if (no_slower && fitted && tokens_per_second(*trial_fit) < tokens_per_second(*fitted) * (1 - 1e-9)) {
      move.why = fmt::format("trains slower: {:.4g} vs {:.4g} tokens/s", tokens_per_second(*trial_fit),
                             tokens_per_second(*fitted));
      out.moves.push_back(move);
      return;
    }
    move.kept = true;
    if (family) current = family;
    move.why = fitted ? fmt::format("in the band, {:+.2f} % tokens/s",
                                    100 * (tokens_per_second(*trial_fit) / tokens_per_second(*fitted) - 1))
                      : "in the band, and a layout now fits";
    tweak = t;
    held = all;
    out.plan = std::move(*trial.plan);
    fitted = std::move(trial_fit);
    out.moves.push_back(move);
  };

  // A move whose condition already holds: reported, nothing re-solved.
  const auto already = [&](CoDesignMove move, std::string why) {
    move.to = move.from;
    move.loss_change = loss_change(out.plan);
    move.kept = true;
    move.why = std::move(why);
    out.moves.push_back(std::move(move));
  };
  // 1. d to a multiple of 128 and d_m of 64 (GEMM tiles of 128 and 64 columns; paper 002
  //    Sec. 5.4 names exactly this rounding as the use of the band).
  {
    const MoeArchitecture& a = out.plan.suggestion.solution.arch;
    CoDesignMove move{"d multiple of 128, d_m of 64", shape_of(a), "", 0, false, ""};
    if (a.d % 128 == 0 && a.d_m % 64 == 0 && a.d_d % 64 == 0) {
      already(move, "already");
    } else {
      Tweak t = tweak;
      t.alignment = 64;
      std::vector<Constraint> aligned{d_multiple_of(128)};
      // With the layer count the current layout's PP divides, when it has one (moving d moves
      // L = d/rho too, and a pipeline that lost its even split would price the alignment).
      if (fitted) {
        const int pp = fitted->layouts.ranked.front().layout.pp;
        if (pp > 1 && a.layers() % pp == 0) {
          std::vector<Constraint> with_pp = aligned;
          with_pp.push_back(layers_multiple_of(fmt::format("L multiple of PP = {}", pp), pp));
          Trial both = try_solve(laws, *current, out.plan.suggestion, t, with_pp, move.name);
          if (both.plan && loss_change(*both.plan) <= options.band) aligned = std::move(with_pp);
        }
      }
      consider(move, t, aligned, false);
    }
  }
  // 2. N_e to a multiple of 64, so that EP can grow with the cluster in powers of two (EP
  //    must divide N_e, and EP x ETP the data-parallel GPUs, a power of two on most
  //    clusters: 288 = 2^5 x 9 stops EP at 32). N_e is the family's (paper 002 Sec. 4.2.2
  //    fixes it by engineering choice, not by a law), so the move re-plans the family with
  //    the nearest multiples of 64 and is kept in the band when it trains faster, or fits
  //    where nothing did.
  {
    const int ne = out.plan.suggestion.solution.arch.family.n_experts;
    if (ne > 64 && ne % 64 != 0 && !planner.options().n_experts) {
      const std::vector<int> options_ne{ne / 64 * 64, (ne / 64 + 1) * 64};
      for (int candidate : options_ne) {
        const Planner& moved_family = context.with_experts(candidate);  // built once per command
        const std::size_t before = out.moves.size();
        CoDesignMove move{"N_e multiple of 64 (room for EP)", fmt::format("N_e {}", ne), "", 0, false, ""};
        consider(move, tweak, {}, true, &moved_family);
        out.moves.back().to = fmt::format("N_e {}: {}", candidate, out.moves.back().to);
        if (out.moves.size() > before && out.moves.back().kept) break;  // `current` is moved_family now
      }
    }
  }
  // 3. Query and key/value heads to multiples of the node's TP (attention shards by KV head),
  //    also when no layout fits yet: heads that only TP 1 divides are often why (past Table 4,
  //    97 KV heads on 1,048,576 H100 left every layout 0.5 TB short per GPU).
  {
    const AttentionHeads h = out.plan.suggestion.solution.arch.family.heads;
    const int tp_full = options.cluster.gpus_per_node;
    const std::string tp_now = fitted ? fmt::format("TP {}", fitted->layouts.ranked.front().layout.tp)
                                      : std::string("no layout fits");
    CoDesignMove move{"N_q, N_kv multiples of TP", fmt::format("{}/{} heads ({})", h.n_q, h.n_kv, tp_now), "", 0, false, ""};
    int step = 1;
    while (step * 2 <= tp_full) step *= 2;
    if (h.n_kv % step == 0) {
      already(move, fmt::format("already: TP up to {} divides the heads", step));
    } else {
      const int n_kv = (h.n_kv + step - 1) / step * step;
      const int n_q = std::max(n_kv, (h.n_q * n_kv + h.n_kv - 1) / h.n_kv / n_kv * n_kv);
      Tweak t = tweak;
      t.heads = AttentionHeads{n_q, n_kv, h.d_qkv};
      // More heads re-solve d_m and L to the same (M, N_a, N) targets: the band decides.
      consider(move, t, {}, true, nullptr, true);
    }
  }
  // 4. L to a multiple of PP (even stages: no short first/last stage, no idle GPU-time).
  if (fitted) {
    const ParallelLayout& lay = fitted->layouts.ranked.front().layout;
    const int L = out.plan.suggestion.solution.arch.layers();
    CoDesignMove move{"L multiple of PP", fmt::format("L {} (PP {})", L, lay.pp), "", 0, false, ""};
    if (L % lay.pp == 0) {
      already(move, "already");
    } else {
      const Constraint c = layers_multiple_of("L multiple of PP", lay.pp);
      consider(move, tweak, {c});
    }
  }
  // 5. N_e and EP: the search only takes EP dividing N_e, so this is a check, not a move
  //    (N_e is the family's, paper 002 Sec. 4.2.2, not a solved integer).
  if (fitted) {
    const ParallelLayout& lay = fitted->layouts.ranked.front().layout;
    const int ne = out.plan.suggestion.solution.arch.family.n_experts;
    out.moves.push_back(CoDesignMove{"EP divides N_e", fmt::format("N_e {} (EP {})", ne, lay.ep),
                                     fmt::format("N_e {} (EP {})", ne, lay.ep), loss_change(out.plan), true,
                                     "holds: the search only takes EP dividing N_e"});
  }
  if (!fitted) return std::unexpected(fitted.error());
  out.fit = std::move(*fitted);
  return out;
}

}  // namespace moeplan
