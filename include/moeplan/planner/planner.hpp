#pragma once
/// The planner: paper 002's pipeline for one family, built once per command.
///
/// It holds the laws, the family (defaults with the user's overrides) and the shape anchor
/// past the last Table 4 row, computed once at construction from the family's in-range
/// plan there (no plan ever re-enters the planner to find its anchor). `resolve` turns a
/// goal into (C, M, C'); `solve` runs the steps once for a budget and an optional tweak
/// (a ranking or alignment variant), and returns a plan whose sources the tweak set, its
/// errors measured against the law's targets. Constraints (a list of named predicates)
/// are consulted by the layer solve, the feasibility check and the ranking's eligibility.
#include <expected>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/laws/holistic_laws.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/planner/plan_goal.hpp"

namespace moeplan {

/// A named predicate on a concrete config: nullopt when it holds, else the violation
/// (which constraint, by how much).
struct Constraint {
  std::string name;
  /// Consulted by the layer solve too (it then returns the best config that meets it):
  /// limits of what may be built (a size cap, a cluster). Shape rules are not: a plan that
  /// breaks one is reported, not quietly replaced by a worse fit.
  bool steers_solve = false;
  std::function<std::optional<ConstraintViolation>(const MoeArchitecture&, const Accounting&)> check;
  /// The same rule as a plain predicate on the integers alone, where it needs no counts
  /// ("d a multiple of 128"): the layer solve asks a steering constraint of every candidate
  /// it keeps, and then neither counts the candidate nor formats a message it drops.
  std::function<bool(const MoeArchitecture&)> holds_for_shape;
  /// Set when the rule depends on d alone ("d a multiple of 128"): the layer solve then
  /// leaves the other d out of its candidates instead of rejecting each of their configs.
  std::function<bool(int d)> holds_for_d;
  /// Likewise for a rule on the layer count L alone ("L a multiple of PP").
  std::function<bool(int L)> holds_for_layers;
};

/// What a variant moves away from the pipeline's own choice; each moved item is reported
/// with the source `ranking`, and the plan's errors stay measured against the law's targets.
struct Tweak {
  std::optional<int> d;
  std::optional<AttentionHeads> heads;
  std::optional<double> m_over_na;
  std::optional<double> n_over_na;
  std::optional<int> alignment;
  /// More limits this solve must meet beside the Planner's own (a co-design move's "d a
  /// multiple of 128"): they steer the layer solve and are checked like the Planner's, so a
  /// variant never needs a copy of the Planner.
  std::vector<Constraint> constraints;
  [[nodiscard]] bool moves_targets() const { return m_over_na || n_over_na; }
};

class Planner {
 public:
  /// `options` without its goal: the family overrides, ratios, heads, d, alignment...
  Planner(const HolisticLaws& laws, SuggestOptions options);
  /// One Planner per family and command (PlanContext holds it): never copied, so its solves
  /// are kept once (a plan asked for again is the plan solved before).
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;

  /// The goal as (C, M, C'). Size goals (N_a, a cap on N) are solved on the targets' smooth
  /// curves (N_a and N rise with C'); the inference goal needs a loss law and lives in
  /// plan_price.hpp.
  [[nodiscard]] std::expected<ResolvedBudget, ConstraintViolation> resolve(const PlanGoal& goal) const;

  /// The plan for a resolved budget, optionally with a variant's tweak. A budget and tweak
  /// solved before give that solve again (kept by the Planner; not with a tweak's extra
  /// constraints, whose checks are functions): a plan is solved once per command.
  [[nodiscard]] std::expected<Suggestion, ConstraintViolation> solve(const ResolvedBudget& budget,
                                                                     const Tweak& tweak = {}) const;

  /// Paper 002's (M, N_a, N) targets at a shape budget C' for this family (the options'
  /// --m-over-na / --n-over-na where `overrides` leaves them unset).
  [[nodiscard]] std::expected<HolisticTargets, ConstraintViolation> targets(
      Flops shape_compute, const TargetOverrides& overrides = {}) const;

  /// The shape budget C' whose compute-optimal M is M (Eq. 2 inverted).
  [[nodiscard]] Flops shape_compute_for(FlopsPerToken M) const;
  /// The shape budget C' in [lo, hi] whose targets have N_a (or N, when `total`) equal to
  /// `size`: both rise with C', where the laws give targets. nullopt when none does.
  [[nodiscard]] std::optional<Flops> shape_compute_for_size(Params size, bool total, Flops lo,
                                                            Flops hi) const;

  /// The first constraint a config breaks, if any.
  [[nodiscard]] std::optional<ConstraintViolation> first_violation(const MoeArchitecture& a,
                                                             const Accounting& acc) const;

  [[nodiscard]] const ArchitectureFamily& family() const { return family_; }
  /// The family's shape anchor past the last Table 4 row, or why it has none.
  [[nodiscard]] const std::expected<ShapeAnchor, ConstraintViolation>& anchor() const { return anchor_; }
  [[nodiscard]] const SuggestOptions& options() const { return options_; }
  [[nodiscard]] const HolisticLaws& laws() const { return *laws_; }

 private:
  /// The family's plan at the last Table 4 row: `parent`'s family, its N/N_a, nothing else.
  struct AnchorRow {};
  Planner(const Planner& parent, AnchorRow);
  std::expected<Suggestion, ConstraintViolation> solve_steps(const ResolvedBudget& budget,
                                                             const Tweak& tweak,
                                                             bool with_anchor) const;
  std::expected<ResolvedBudget, ConstraintViolation> size_goal(const PlanGoal& goal) const;
  std::expected<ResolvedBudget, ConstraintViolation> resolve_budget(const PlanGoal& goal) const;

  const HolisticLaws* laws_;
  SuggestOptions options_;
  ArchitectureFamily family_;
  std::optional<ConstraintViolation> family_problem_;
  /// Past the last Table 4 row: the family's anchor, or why it has none.
  std::expected<ShapeAnchor, ConstraintViolation> anchor_;
  std::vector<Constraint> constraints_;
  /// The solves so far, by budget and tweak (solve()).
  mutable std::map<std::string, std::expected<Suggestion, ConstraintViolation>> solved_;
};

/// Options that fix a family and nothing else (score's view of a config's family).
SuggestOptions family_options(const ArchitectureFamily& f);

/// The constraints every plan meets (docs/design.md): a MoE part that has not collapsed
/// (L_m >= L_d, 2d/d_m <= 64) and a credible aspect ratio d/L.
std::vector<Constraint> standard_constraints(const AspectBounds& d_over_l);

/// A cap on total non-embedding parameters N (--total-params).
Constraint total_params_cap(Params cap);

}  // namespace moeplan
