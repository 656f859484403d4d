#pragma once
/// The holistic pipeline of paper 002 Sec. 7: compute budget C → (M_opt, D_opt) by Eq. 2
/// → optimal M/N_a → N_a → N via N/N_a (Appendix F.4) → d → integer layer solve (Eq. 3).
/// The steps live in the Planner (planner.hpp); this header holds what a plan is and the
/// one-call entry point `suggest()`.
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/base/errors.hpp"
#include "moeplan/laws/holistic_laws.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/planner/head_schedule.hpp"
#include "moeplan/planner/holistic_targets.hpp"
#include "moeplan/planner/layer_solver.hpp"
#include "moeplan/planner/plan_goal.hpp"

namespace moeplan {

/// What the user may override; unset fields take the laws' values.
struct SuggestOptions {
  PlanGoal goal;                              ///< what the team fixed (plan_goal.hpp)
  std::optional<int> d = {};                  ///< fixes the hidden size
  std::optional<double> m_over_na = {};       ///< replaces the M/N_a law
  std::optional<double> n_over_na = {};       ///< replaces the N/N_a schedule
  std::optional<AttentionHeads> heads = {};   ///< replaces the Table 4 schedule
  std::optional<int> seq_len = {};             ///< S
  std::optional<int> n_experts = {};           ///< N_e
  std::optional<int> top_k = {};               ///< K
  std::optional<int> n_shared_experts = {};
  std::optional<int> vocab_size = {};
  std::optional<double> dense_ffn_ratio = {};  ///< d_d / d
  std::optional<int> alignment = {};           ///< d, d_m multiples
  std::optional<double> tolerance = {};        ///< max |relative miss| of M, N_a, N
  std::optional<AspectBounds> d_over_l = {};   ///< replaces the laws' credible d/L range
};

/// Where d came from: the Sec. 4.3 median proxy, a fitted d law, the anchored shape past
/// Table 4 (holistic_targets.hpp), a ranking variant, or --d.
enum class DSource { median_of_feasible_interval, d_law, shape_extrapolation, ranking, user };
enum class HeadsSource { table4_schedule, extrapolated, ranking, user };
const char* to_string(DSource s);
const char* to_string(HeadsSource s);

struct Suggestion {
  ComputeOptimalPoint budget;     ///< C, M_opt(C), D_opt(C) (Eq. 2) of the asked budget
  ResolvedBudget resolved;        ///< the goal as (C, M, C'): what the plan was solved for
  double m_over_na_target = 0;    ///< from the law, the anchored shape or the override
  RatioSource m_over_na_source = RatioSource::law;
  double n_over_na_target = 0;    ///< from the F.4 schedule or the override
  RatioSource n_over_na_source = RatioSource::schedule;
  std::optional<ShapeExtrapolation> extrapolation;  ///< past the last Table 4 row
  LayerTargets targets;           ///< (M_opt, N_a, N)
  FeasibleInterval d_interval;    ///< for the chosen heads
  double d_target = 0;            ///< median (or law / override) before alignment
  DSource d_source = DSource::median_of_feasible_interval;
  HeadsSource heads_source = HeadsSource::table4_schedule;
  /// Table 4's heads at C' are wider than at its row below (why L can fall as C grows).
  std::optional<HeadWidening> heads_widened;
  int alignment = 0;              ///< what the plan was aligned to (the laws' or the flags')
  double tolerance = 0;           ///< what its M, N_a, N were held to (the laws' or the flags')
  AspectBounds d_over_l;          ///< the credible d/L range the plan was held to
  LayerSolution solution;         ///< the concrete config and its accounting
  Tokens tokens;                  ///< D: fixed by the goal, else C / M of the concrete config
  Flops training_compute;         ///< M·D of the concrete config (= C when the plan spends C)
  std::string fitted_range_warning;   ///< C outside the laws' fitted budgets (else empty)
  std::vector<std::string> warnings;  ///< for stderr: the S note etc. (plan_notes adds the rest)
};

/// One plan: a Planner for the options' family, the goal resolved, one solve. Callers
/// that plan more than once for a family (variants, sweeps) keep a Planner instead.
std::expected<Suggestion, ConstraintViolation> suggest(const HolisticLaws& laws,
                                                       const SuggestOptions& options);

/// What stderr should say about a printed suggestion: its warnings, and past Table 4 the
/// shape it keeps, with its own M/N_a source and heads (not the pipeline's).
std::vector<std::string> plan_notes(const Suggestion& s);

/// Why the plan's L is below a smaller budget's inside Table 4's range, citing paper 002, or
/// "" when Table 4 did not widen its heads at this budget (docs/design.md, "Inside the table").
std::string layers_note(const Suggestion& s);

/// The config a plan stands for: its architecture (model_config_of) trained on its D at its
/// S, named after its budget so that an export gives back the --flops that made it. The one
/// conversion from a plan to a config: export, serving, the cluster fit, the GEMM shapes and
/// the expert shape of the ranking all take it (a GoalPlan's through plan_suggestion).
ModelConfig plan_config(const Suggestion& s);

}  // namespace moeplan
