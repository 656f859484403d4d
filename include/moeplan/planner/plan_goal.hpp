#pragma once
/// What a team fixes when it asks for a plan, and the budget (C, M, D) it resolves to.
///
/// Paper 002 answers one question: the compute-optimal model for C (Eq. 2 gives M_opt and
/// D_opt). Teams also fix the data they have (D), the size they can serve (N_a or M), the
/// memory a deployment has (a cap on N) or an inference load (Sardana et al. 2024). Every
/// such goal is resolved once into C = M·D (paper 002 Sec. 3.2) and a *shape budget* C':
/// the budget whose compute-optimal plan has this M (M_opt(C') = M, Eq. 2 inverted). The
/// shape laws of paper 002 (M/N_a, N/N_a, d, heads) describe the compute-optimal model of a
/// given M, so an off-optimal plan takes the shape of the plan at C' and differs from it in
/// D alone; `--flops C` alone gives C' = C, today's plan (docs/plan-goals.md).
#include <optional>
#include <string>

#include "moeplan/base/units.hpp"

namespace moeplan {

struct PlanGoal {
  std::optional<Flops> compute;                  ///< --flops C
  std::optional<Tokens> tokens;                  ///< --tokens D (training tokens)
  std::optional<Params> active_params;           ///< --active-params N_a
  std::optional<FlopsPerToken> flops_per_token;  ///< --flops-per-token M
  std::optional<Params> total_params_cap;        ///< --total-params N: a cap, not a target
  std::optional<Tokens> inference_tokens;        ///< --inference-tokens T (lifetime load)
};

/// The forms a goal may take (the cap may go with any of them).
enum class GoalKind {
  compute_optimal,     ///< C: M = M_opt(C), D = C / M (paper 002 Eq. 2)
  compute_and_tokens,  ///< C, D: M = C / D
  tokens_and_size,     ///< D and N_a (or M): C = M·D
  compute_and_size,    ///< C and N_a (or M): D = C / M
  size_capped,         ///< C and a cap on N: the compute-optimal plan, or the largest under N
  inference_aware,     ///< C and T: least C_train + T·M_forward at the loss of the C plan
};
const char* to_string(GoalKind k);

/// nullopt for a well-formed goal; else a usage message naming the flags that over- or
/// under-determine it (exit 2).
std::optional<std::string> goal_problem(const PlanGoal& g);
/// The form of a well-formed goal.
GoalKind goal_kind(const PlanGoal& g);

/// A goal resolved into the budget a plan is solved for.
struct ResolvedBudget {
  GoalKind kind = GoalKind::compute_optimal;
  Flops C;               ///< the compute budget: given, or M·D of the targets
  FlopsPerToken M;       ///< the per-token cost to aim for (the layer solve's M target)
  Flops shape_compute;   ///< C': M_opt(C') = M; the plan takes the shape laws' values there
  /// D when the goal fixes it (given, or from the inference optimum); otherwise the plan
  /// spends C: D = C / M of its concrete config.
  std::optional<Tokens> fixed_tokens;
  bool compute_given = true;  ///< C was asked for (else C = M·D of the concrete config)
  /// C came out of a search over budgets (--days), not from the command line: the output
  /// prints it to the tables' four digits, not as a typed value to the last bit.
  bool compute_searched = false;
  /// The budget the plan is compared with: the asked C, also where the plan spends
  /// another (the inference goal's C is the loss to reach, not the training compute).
  std::optional<Flops> reference_compute;
  std::optional<Params> total_params_cap;
  std::string how;       ///< one line: how (C, M, D) followed from the goal
  /// For stderr, when the resolution had to leave the goal's own optimum (else empty).
  std::string warning;
};

/// The budget of a plain `--flops C` request.
ResolvedBudget compute_optimal_budget(Flops C, FlopsPerToken M_opt);

}  // namespace moeplan
