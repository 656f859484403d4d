#pragma once
/// The price of leaving paper 002's compute-optimal line, and the goals that need a loss
/// law to resolve (an inference load).
///
/// The loss is the joint law of paper 001 (Eq. 11) evaluated on paper 002's target curves:
/// the N and N_a of the compute-optimal targets at the shape budget C', trained on D. So
/// the compute-optimal plan of C prices at exactly C, and the figures move smoothly with
/// D (the integer configs miss their targets by up to the tolerance, which would add noise
/// of a few tenths of a per cent of loss). The reference line is paper 002's: L_opt(C) is
/// the loss of its compute-optimal targets at C trained on D_opt = C / M_opt(C); C* is the
/// C at which L_opt reaches a plan's loss (the "compute overhead of a smaller model" of de
/// Vries, here for an MoE), and the overhead is C / C* − 1.
///
/// The two laws do not share an optimum: along D at fixed C the joint law's minimum lies
/// near, not at, paper 002's D_opt (docs/plan-goals.md Sec. 3), so between the two the
/// overhead is slightly negative; it is reported as it is, with that note.
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "moeplan/laws/law_set.hpp"
#include "moeplan/planner/planner.hpp"

namespace moeplan {

/// Paper 002's compute-optimal line as the joint law sees it, for one family.
class OptimalLine {
 public:
  OptimalLine(const LawSet& laws, const Planner& planner);
  /// Loss of the targets at shape budget C' trained on D; nullopt where no targets exist.
  [[nodiscard]] std::optional<double> loss_at(Flops shape_compute, Tokens D) const;
  /// L_opt(C): the compute-optimal targets at C on D = C / M_opt(C).
  [[nodiscard]] std::optional<double> optimal_loss(Flops C) const;
  /// C* with L_opt(C*) = loss (L_opt falls with C), searched from 1e-12 to 1e6 times `near`.
  [[nodiscard]] std::optional<Flops> equal_loss_compute(double loss, Flops near) const;
  /// The D at which the targets at C' reach `loss`; nullopt when no D does.
  [[nodiscard]] std::optional<Tokens> tokens_for_loss(Flops shape_compute, double loss) const;
  /// Where the joint law puts its minimum along D at fixed C on this line, as D / D_opt.
  [[nodiscard]] std::optional<double> joint_optimum_tokens_ratio(Flops C) const;
  [[nodiscard]] FlopsPerToken optimal_flops_per_token(Flops C) const;
  /// Paper 001 Eq. 11 itself.
  [[nodiscard]] double joint_loss(Params N, Tokens D, Params N_a, double G, double S) const {
    return laws_->joint.loss(N, D, N_a, G, S);
  }
  [[nodiscard]] const Planner& planner() const { return *planner_; }

 private:
  const LawSet* laws_;
  const Planner* planner_;
  double active_experts_ = 0, shared_ratio_ = 0;  // G = K + shared, S = shared / G (paper 001)
};

/// One plan's figures, as a team compares them.
struct PlanFigures {
  Params N_a, N;
  Tokens D;
  Flops training_compute;                 ///< M·D of the concrete config
  double tokens_per_active_param = 0;     ///< D / N_a
  double predicted_loss = 0;              ///< joint law on the target curve (above)
  FlopsPerToken inference_flops_per_token;  ///< forward pass: M / 3 (M counts forward + backward)
  double weight_bytes_bf16 = 0;           ///< 2 bytes × (N + embeddings)
};

/// A config's own figures trained on D (`loss` NaN where no law gives one).
PlanFigures figures_of(Params N, Params N_a, Params embedding, FlopsPerToken M, Tokens D, double loss);

struct PlanPrice {
  PlanFigures plan;
  std::optional<PlanFigures> compute_optimal;  ///< paper 002's plan for the same C
  std::optional<Flops> equal_loss_compute;     ///< C*
  std::optional<double> overhead;              ///< C / C* − 1
  std::string overhead_note;                   ///< why null, or why negative
  std::optional<double> joint_optimum_tokens_ratio;  ///< the joint law's D optimum / D_opt at C
  /// With an inference load T: C_train + T·M_forward for the plan and for paper 002's plan.
  std::optional<Tokens> inference_tokens;
  std::optional<Flops> lifetime_compute, compute_optimal_lifetime_compute;
  std::optional<double> lifetime_saving;       ///< 1 − lifetime / compute-optimal lifetime
};

/// The price of a solved plan (suggest).
PlanPrice price_plan(const OptimalLine& curve, const Suggestion& plan,
                     std::optional<Tokens> inference_tokens = {});

/// The price of any config with known counts trained on D (score --tokens): its own N, N_a
/// (not targets) in the joint law, against the family's compute-optimal line.
PlanPrice price_config(const OptimalLine& curve, Params N, Params N_a, Params embedding,
                       FlopsPerToken M, Tokens D, double active_experts, double shared_ratio);

/// Every goal, the inference one included: Planner::resolve, or Sardana et al. 2024 for an
/// MoE — among the plans whose loss equals the compute-optimal plan's for C, the one with
/// the least C_train + T·M_forward.
std::expected<ResolvedBudget, ConstraintViolation> resolve_goal(const OptimalLine& curve,
                                                                const PlanGoal& goal);

/// Plans of equal loss to the compute-optimal plan at C, by size: x = N_a / N_a,opt,
/// overhead = C_train / C − 1 (plot overtraining). `points` log-spaced ratios from
/// min_ratio to max_ratio, plus ratio 1 itself when it lies strictly inside; a ratio that no
/// shape budget within 1e-12 C .. 1e6 C reaches, or whose model never reaches the loss at any
/// D, has no point (the result may be shorter than asked).
struct EqualLossPoint {
  double active_ratio = 0;
  double overhead = 0;
  Flops shape_compute;
  Tokens D;
};
/// The ratios equal_loss_curve tries: `points` log-spaced from min_ratio to max_ratio, and 1.
std::vector<double> equal_loss_ratios(double min_ratio, double max_ratio, int points);
std::vector<EqualLossPoint> equal_loss_curve(const OptimalLine& curve, Flops C, double min_ratio,
                                             double max_ratio, int points);

}  // namespace moeplan
