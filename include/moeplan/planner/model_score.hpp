#pragma once
/// Everything the laws say about one concrete model (`moeplan score`, and the candidate
/// ranking of `suggest`). The core computes values; the CLI decides how to show them.
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/laws/law_set.hpp"
#include "moeplan/planner/layer_solver.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/planner/plan_price.hpp"

namespace moeplan {

/// The expert layout in each paper's vocabulary (never one variable for two meanings).
struct ExpertShape {
  double activation_ratio = 1;  ///< A = (K + shared)/(N_e + shared), paper 000 Sec. 2.1
  double granularity = 0;       ///< 2·d/d_expert, paper 000 Sec. 2.1
  double active_experts = 0;    ///< G = K + shared, paper 001 Eq. 2
  double shared_ratio = 0;      ///< S = shared/G, paper 001 Eq. 3
  double sparsity = 0;          ///< (E − E_act)/E with shared counted, paper 004 Sec. 2.1
};
ExpertShape expert_shape(const ModelConfig& m);

/// The two laws that rank plans, for one config at one budget: the joint law's loss
/// (paper 001 Eq. 11, N and N_a without embeddings) and the efficiency leverage (paper 000
/// Eq. 5). One function for the ranking of `suggest` and for `score`.
struct RankingLaws {
  double predicted_loss = 0;
  double efficiency_leverage = 0;
};
RankingLaws ranking_laws(const LawSet& laws, Params N, Params N_a, Tokens D, Flops C,
                         const ExpertShape& shape);

/// Paper 002's view: does the model belong to its family, and how far is it from the
/// compute-optimal (M, N_a, N) of Eq. 2–5 at its own budget?
struct HolisticCheck {
  bool in_family = false;
  std::string why_not;        ///< when !in_family
  LayerTargets targets;       ///< (M_opt, N_a, N) at C
  double error_M = 0;         ///< M/M_opt − 1
  double error_N_a = 0;
  double error_N = 0;
  double tolerance = 0;       ///< the laws' tolerance (Table 4 note: 5 %)
  bool within_tolerance = false;
  double m_over_na_target = 0;
  double n_over_na_target = 0;
};

struct ModelScore {
  ModelConfig config;
  ParameterCounts params;
  ExpertShape shape;
  int seq_len = 0;
  FlopsBreakdown flops;  ///< holistic-002, the default convention
  FlopsBreakdown flops_leverage_000;
  FlopsBreakdown flops_moe_vs_dense_003;
  FlopsBreakdown flops_allocation_004;
  std::optional<Flops> C;   ///< training compute, C = M·D (002 convention)
  std::optional<Tokens> D;  ///< training tokens

  std::optional<double> efficiency_leverage;  ///< paper 000 Eq. 4 at (A, granularity, C)
  double optimal_granularity = 0;

  std::optional<double> predicted_loss;  ///< paper 001 Eq. 11 (MoE with a budget)
  double active_ratio = 0;               ///< N_a/N (non-embedding)
  double active_ratio_theoretical = 0;   ///< Eq. 14 at the analysis G, S
  std::optional<double> active_ratio_efficient_tight;  ///< Algorithm 1, ΔLoss 0.001
  std::optional<double> active_ratio_efficient_loose;  ///< Algorithm 1, ΔLoss 0.005
  double optimal_active_experts = 0;     ///< Eq. 12
  double optimal_shared_ratio = 0;       ///< Eq. 13
  ClosedRange active_experts_range;      ///< Table 3 practical range (grid-snapped)
  ClosedRange shared_ratio_range;

  double expert_attention_ratio = 0;       ///< r, paper 004 convention
  std::optional<double> optimal_ratio;     ///< r*(C, S)
  std::optional<double> allocation_loss;   ///< Eq. 2 of paper 004 (see its caveat)
  double attention_share_000 = 0;          ///< paper 000 App. I convention

  ActivationVerdict activation_verdict = ActivationVerdict::in_region;
  EqualComputeComparison versus_dense;     ///< paper 003 convention, equal-N dense twin
  std::optional<double> epochs;            ///< D / unique_tokens

  std::optional<double> learning_rate_000;   ///< Eq. 5
  std::optional<double> batch_tokens_000;    ///< Eq. 5
  std::optional<double> learning_rate_002;   ///< Table 4
  std::optional<double> batch_size_002;      ///< Table 4 (sequences)
  std::optional<FlopsPerToken> moe_M_opt_000;  ///< Table 5, MoE
  std::optional<Tokens> moe_D_opt_000;
  std::optional<FlopsPerToken> dense_M_opt_000;  ///< Table 5, dense
  std::optional<Tokens> dense_D_opt_000;

  HolisticCheck holistic;
  /// The price of training this config on D (plan_price.hpp, price_config): its own N, N_a
  /// in the joint law of paper 001 (Eq. 11) against the compute-optimal line of paper 002
  /// for its own family; or why there is none (no budget, outside paper 002's family).
  std::expected<PlanPrice, std::string> price = std::unexpected(std::string("no training budget"));
  /// What the model builds that the papers' laws were never fitted on (hybrid mixers,
  /// zero-width experts, ...: ModelConfig::outside_law_architecture); empty for models like theirs.
  std::vector<std::string> outside_laws;
  /// Where a paper's prose disagrees with its own formula at this config, and other caveats.
  std::vector<std::string> notes;
};

ModelScore score_model(const LawSet& laws, const ModelConfig& model);

/// Learning rate, batch size and sample count of a config trained with `m.training`, from
/// the laws' paper 002 Table 4 schedule at C = M·D (the Megatron export's hyper-parameters);
/// all empty without [training].
TrainingHyperparameters training_hyperparameters(const LawSet& laws, const ModelConfig& m);

/// A config's run as its [training] table gives it: C = M·D with paper 002's M (one count),
/// or D = C / M. nullopt without a budget.
struct TrainingBudget {
  Flops C;
  Tokens D;
};
std::optional<TrainingBudget> training_budget(const ModelConfig& m);
/// The same with the config's M already known (score and the cluster fit have counted it).
std::optional<TrainingBudget> training_budget(const ModelConfig& m, FlopsPerToken M);

}  // namespace moeplan
