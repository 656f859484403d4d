#include "moeplan/planner/model_score.hpp"
#include "moeplan/planner/candidates.hpp"
#include "moeplan/planner/planner.hpp"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "moeplan/model/architecture.hpp"
#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/planner/holistic_targets.hpp"
#include "moeplan/base/work_counts.hpp"

namespace moeplan {

ExpertShape expert_shape(const ModelConfig& m) {
  ExpertShape s;
  if (!m.is_moe()) {
    // Per-layer widths (Nemotron-NAS): their mean over the layers that have an FFN.
    double widths = 0, ffns = 0;
    for (const auto& [l, n] : m.layer_census()) {
      if (l.ffn == FfnKind::none) continue;
      widths += n * (l.dense_width > 0 ? l.dense_width : m.intermediate_size);
      ffns += n;
    }
    s.granularity = widths > 0 ? 2.0 * m.hidden_size / (widths / ffns) : 0.0;
    return s;  // A = 1: a dense model is its own dense counterpart
  }
  const double K = m.num_experts_per_tok, E = m.n_routed_experts, sh = m.n_shared_experts;
  s.activation_ratio = (K + sh) / (E + sh);
  s.granularity = 2.0 * m.hidden_size / m.moe_intermediate_size;
  s.active_experts = K + sh;
  s.shared_ratio = sh / (K + sh);
  s.sparsity = 1.0 - s.activation_ratio;
  return s;
}

namespace {

/// Paper 002's family of a config (its heads, S, experts, d_d/d, V), or why the config lies
/// outside it. The holistic check and the price read this one family. `defaults` (the laws')
/// gives what the config does not: γ when it has no dense layer.
std::expected<ArchitectureFamily, std::string> paper002_family(const ModelConfig& m, int seq_len,
                                                               const ArchitectureFamily& defaults) {
  if (!m.is_moe()) return std::unexpected(std::string("dense model (paper 002 plans MoE models)"));
  if (m.latent_attention) {
    return std::unexpected(std::string("latent attention (paper 002 Eq. 6 assumes GQA)"));
  }
  if (m.gqa_q_lora_rank > 0) {
    return std::unexpected(std::string("a low-rank query (paper 002 Eq. 6 assumes a full-rank GQA query)"));
  }
  if (const auto outside = m.outside_law_architecture(); !outside.empty()) {
    return std::unexpected("layers paper 002's Eq. 3 does not count: " + outside.front());
  }
  if (m.n_shared_experts > 0 && m.shared_width() != m.moe_intermediate_size) {
    return std::unexpected(std::string("shared expert width differs from d_m (paper 002 Eq. 9)"));
  }
  ArchitectureFamily f = defaults;
  f.heads = {m.num_attention_heads, m.num_key_value_heads, m.head_size()};
  f.seq_len = seq_len;
  f.n_experts = m.n_routed_experts;
  f.top_k = m.num_experts_per_tok;
  f.n_shared_experts = m.n_shared_experts;
  // γ = d_d / d sizes the dense layers; a model without any (Qwen3-MoE: every layer MoE,
  // intermediate_size unused) keeps the laws' γ, which then sizes nothing.
  if (m.dense_layers() > 0) f.dense_ffn_ratio = double(m.intermediate_size) / m.hidden_size;
  f.vocab_size = m.vocab_size;
  return f;
}

/// `planner` is the family's (non-null whenever `family` holds one).
HolisticCheck check_holistic(const LawSet& laws, const ModelConfig& m, const ModelScore& s,
                             const std::expected<ArchitectureFamily, std::string>& family,
                             const Planner* planner) {
  HolisticCheck h;
  h.tolerance = laws.holistic.tolerance;
  if (!family) {
    h.why_not = family.error();
  } else if (!s.C) {
    h.why_not = "no training budget ([training] tokens or compute)";
  }
  if (!h.why_not.empty()) {
    return h;
  }
  h.in_family = true;
  MoeArchitecture arch;
  arch.family = *family;
  arch.d = m.hidden_size;
  arch.L_d = m.dense_layers();
  arch.L_m = m.moe_layers();
  arch.d_d = m.intermediate_size;
  arch.d_m = m.moe_intermediate_size;
  // The targets suggest would aim for with this model's family (one function for both).
  auto t = planner->targets(*s.C);
  if (!t) {
    h.in_family = false;
    h.why_not = "no paper-002 targets at this budget: " + t.error().to_string();
    return h;
  }
  h.m_over_na_target = t->m_over_na;
  h.n_over_na_target = t->n_over_na;
  h.targets = t->targets;
  const LayerSolution e = evaluate_against(arch, h.targets);  // Eq. 3 residuals
  h.error_M = e.error_M;
  h.error_N_a = e.error_N_a;
  h.error_N = e.error_N;
  h.within_tolerance = e.max_abs_error() <= h.tolerance;
  return h;
}

/// The config's own N, N_a (paper 002 Eq. 3, no embeddings) and G, S (paper 001 Eq. 2-3) in
/// the joint law (paper 001 Eq. 11) on D, against paper 002's compute-optimal line for its
/// family at C = M·D (plan_price.hpp).
std::expected<PlanPrice, std::string> price_of(const LawSet& laws, const ModelScore& s,
                                               const std::expected<ArchitectureFamily, std::string>& family,
                                               const Planner* planner) {
  if (!s.C || !s.D) return std::unexpected(std::string("no training budget"));
  if (!std::isfinite(s.C->value()) || !std::isfinite(s.D->value())) {
    return std::unexpected(std::string("the training budget is not a finite number"));
  }
  if (!family || !s.holistic.in_family) {
    // Outside paper 002's family there is no compute-optimal line to compare with, but the
    // config's own figures (and the joint law's loss, for an MoE) stand.
    PlanPrice p;
    const double loss = s.config.is_moe()
                            ? laws.joint.loss(s.params.N, *s.D, s.params.N_a, s.shape.active_experts,
                                              s.shape.shared_ratio)
                            : NAN;
    p.plan = figures_of(s.params.N, s.params.N_a, s.params.embedding, s.flops.M(), *s.D, loss);
    p.overhead_note = "no compute-optimal line to compare with: outside paper 002's family (" +
                      (family ? s.holistic.why_not : family.error()) + ")";
    return p;
  }
  const OptimalLine line(laws, *planner);
  return price_config(line, s.params.N, s.params.N_a, s.params.embedding, s.flops.M(), *s.D,
                      s.shape.active_experts, s.shape.shared_ratio);
}

void add_allocation_notes(const LawSet& laws, ModelScore& s) {
  if (!s.C || !s.optimal_ratio) return;
  const double S = s.shape.sparsity;
  const double r_star = *s.optimal_ratio;
  // Sec. 7 guideline: S > 95 % favours r < 1, S < 90 % favours r > 1.
  if (S > 0.95 && r_star >= 1) {
    s.notes.push_back(fmt::format(
        "paper 004 Sec. 7 says high sparsity (S > 95 %) favours r < 1, but its formula "
        "(Sec. 3.3) gives r* = {:.3g} at S = {:.2f} %, C = {:.3g}; moeplan reports the formula",
        r_star, 100 * S, s.C->value()));
  }
  if (S < 0.90 && r_star <= 1) {
    s.notes.push_back(fmt::format(
        "paper 004 Sec. 7 says low sparsity (S < 90 %) favours r > 1, but its formula gives "
        "r* = {:.3g} at S = {:.2f} %, C = {:.3g}; moeplan reports the formula",
        r_star, 100 * S, s.C->value()));
  }
  // Sec. 6.1: "when S decreases from 97.67% to 82.35%, r* grows by over 40%".
  const double grow = laws.optimal_ratio.optimal_ratio(*s.C, 0.8235) /
                          laws.optimal_ratio.optimal_ratio(*s.C, 0.9767) - 1.0;
  if (grow <= 0.40) {
    s.notes.push_back(fmt::format(
        "paper 004 Sec. 6.1 says r* grows by over 40 % from S = 97.67 % to 82.35 %; its "
        "formula gives {:+.1f} % at C = {:.3g}",
        100 * grow, s.C->value()));
  }
}

}  // namespace

RankingLaws ranking_laws(const LawSet& laws, Params N, Params N_a, Tokens D, Flops C,
                         const ExpertShape& shape) {
  return {laws.joint.loss(N, D, N_a, shape.active_experts, shape.shared_ratio),
          laws.leverage.at(shape.activation_ratio, shape.granularity, C)};
}

ModelScore score_model(const LawSet& laws, const ModelConfig& m) {
  work::tally(work::Step::model_score);
  ModelScore s;
  s.config = m;
  s.params = count_parameters(m);
  s.shape = expert_shape(m);
  s.seq_len = m.training ? m.training->seq_len : laws.holistic.family_defaults.seq_len;
  if (!m.training) {
    s.notes.push_back(fmt::format(
        "no [training] table: attention FLOPs use S = {} and budget-dependent laws are skipped",
        s.seq_len));
  }
  // The four conventions from the one count above (flops_conventions.hpp).
  s.flops = flops_per_token(m, s.params, FlopsConvention::holistic_002, s.seq_len);
  s.flops_leverage_000 = flops_per_token(m, s.params, FlopsConvention::leverage_000, s.seq_len);
  s.flops_moe_vs_dense_003 = flops_per_token(m, s.params, FlopsConvention::moe_vs_dense_003, s.seq_len);
  s.flops_allocation_004 = flops_per_token(m, s.params, FlopsConvention::allocation_004, s.seq_len);
  const FlopsPerToken M = s.flops.M();
  if (const auto run = training_budget(m, M)) {
    s.C = run->C;
    s.D = run->D;
  }

  // Paper 000: EL and its optimum granularity; paper 001: the joint law's loss (MoE only).
  s.optimal_granularity = laws.leverage.optimal_granularity();
  if (s.C && s.D) {
    const RankingLaws r = ranking_laws(laws, s.params.N, s.params.N_a, *s.D, *s.C, s.shape);
    s.efficiency_leverage = r.efficiency_leverage;
    if (m.is_moe()) s.predicted_loss = r.predicted_loss;
  }
  for (std::string& note : implausible_figures(s.predicted_loss, m.vocab_size, s.D, s.params.N_a)) {
    s.notes.push_back(std::move(note));
  }

  // Paper 001: joint law and its implications (N, N_a without embeddings, Eq. 2–3).
  const JointLossLaw& j = laws.joint;
  const JointLawAnalysis& ja = laws.joint_analysis;
  s.active_ratio = s.params.N_a.value() / s.params.N.value();
  s.optimal_active_experts = j.optimal_active_experts();
  s.optimal_shared_ratio = j.optimal_shared_ratio();
  s.active_ratio_theoretical =
      j.theoretical_active_ratio(s.params.N, ja.theoretical_active_experts, ja.theoretical_shared_ratio);
  s.active_ratio_efficient_tight = j.efficiency_aware_active_ratio(
      s.params.N, ja.theoretical_active_experts, ja.theoretical_shared_ratio,
      ja.efficiency_threshold_tight, ja.efficiency_step_fraction);
  s.active_ratio_efficient_loose = j.efficiency_aware_active_ratio(
      s.params.N, ja.theoretical_active_experts, ja.theoretical_shared_ratio,
      ja.efficiency_threshold_loose, ja.efficiency_step_fraction);
  s.active_experts_range = snap_inward(
      j.practical_active_experts(s.params.N, s.params.N_a, ja.practical_threshold),
      ja.active_experts_grid);
  s.shared_ratio_range = snap_inward(
      j.practical_shared_ratio(s.params.N, s.params.N_a, ja.practical_threshold),
      ja.shared_ratio_grid);

  // Paper 004: r, r*, Eq. 2; paper 000 F.4 attention share.
  s.expert_attention_ratio = s.flops_allocation_004.expert_to_attention();
  s.attention_share_000 = s.flops_leverage_000.attention_share();
  if (s.C && m.is_moe()) {
    s.optimal_ratio = laws.optimal_ratio.optimal_ratio(*s.C, s.shape.sparsity);
    const double R = std::abs(s.expert_attention_ratio - *s.optimal_ratio) / *s.optimal_ratio;
    s.allocation_loss = laws.allocation_loss.loss(s.params.N, *s.D, s.shape.sparsity,
                                                  s.expert_attention_ratio, R);
  }
  add_allocation_notes(laws, s);

  // Paper 003: activation rate and the equal-N dense twin.
  s.activation_verdict = activation_verdict(laws.activation, s.active_ratio);
  s.versus_dense = compare_at_equal_compute(
      s.flops_moe_vs_dense_003.M(),
      equal_size_dense_flops(laws.activation, s.params.N, m.hidden_size, s.seq_len));
  if (m.training && m.training->unique_tokens && s.D) {
    s.epochs = epochs_needed(*s.D, *m.training->unique_tokens);
  }

  // Training hyper-parameters and allocation.
  if (s.C) {
    const double C = s.C->value();
    const LeverageTrainingLaws& t = laws.leverage_training;
    s.learning_rate_000 = t.learning_rate(C);
    s.batch_tokens_000 = t.batch_tokens(C);
    s.moe_M_opt_000 = FlopsPerToken(t.moe_flops_per_token(C));
    s.moe_D_opt_000 = Tokens(t.moe_tokens(C));
    s.dense_M_opt_000 = FlopsPerToken(t.dense_flops_per_token(C));
    s.dense_D_opt_000 = Tokens(t.dense_tokens(C));
    if (!laws.holistic_training.empty()) {
      s.learning_rate_002 = laws.holistic_training.learning_rate.at(C);
      s.batch_size_002 = laws.holistic_training.batch_size.at(C);
    }
  }

  const auto family = paper002_family(m, s.seq_len, laws.holistic.family_defaults);
  std::optional<Planner> planner;  // the family's, for the holistic check and the price
  if (family) planner.emplace(laws.holistic, family_options(*family));
  const Planner* p = planner ? &*planner : nullptr;
  s.holistic = check_holistic(laws, m, s, family, p);
  s.price = price_of(laws, s, family, p);
  s.outside_laws = m.outside_law_architecture();
  for (const std::string& kind : s.outside_laws) {
    s.notes.push_back("architecture the papers' laws were not fitted on (uniform softmax-attention "
                      "MoEs only): " + kind + "; EL, the joint law, r*, paper 003's region, the "
                      "price and the hyper-parameter laws are extrapolated to it (law_scope in each section)");
  }
  if (m.latent_attention) {
    s.notes.push_back("latent attention: projection FLOPs use the real MLA weights in every "
                      "convention (the papers' formulas assume GQA)");
  }
  return s;
}

std::optional<TrainingBudget> training_budget(const ModelConfig& m, FlopsPerToken M) {
  if (!m.training || (!m.training->tokens && !m.training->compute)) return std::nullopt;
  if (m.training->tokens) return TrainingBudget{M * *m.training->tokens, *m.training->tokens};  // C = M·D
  return TrainingBudget{*m.training->compute, *m.training->compute / M};
}

std::optional<TrainingBudget> training_budget(const ModelConfig& m) {
  if (!m.training) return std::nullopt;
  return training_budget(m, flops_per_token(m, FlopsConvention::holistic_002, m.training->seq_len).M());
}

TrainingHyperparameters training_hyperparameters(const LawSet& laws, const ModelConfig& m) {
  const auto run = training_budget(m);
  if (!run) return {};
  return training_hyperparameters(laws, run->C, run->D, m.training->seq_len);
}

}  // namespace moeplan
