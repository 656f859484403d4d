#pragma once
/// What one command plans with, built once (issue 31, "a context built once per command"):
/// the laws, the family's Planner (its anchor solved once), the family's compute-optimal
/// line (the price and the inference goal), and the Planners of the families co-design
/// moves to (another N_e), each built at its first use and kept for the command. Plans,
/// ranking variants, co-design trials and the --days search all reuse it; nothing copies a
/// Planner.
#include <map>
#include <memory>

#include "moeplan/laws/law_set.hpp"
#include "moeplan/planner/plan_price.hpp"
#include "moeplan/planner/planner.hpp"

namespace moeplan {

class PlanContext {
 public:
  PlanContext(const LawSet& laws, SuggestOptions options);
  // The line points at the Planner inside: the context stays where it was built.
  PlanContext(const PlanContext&) = delete;
  PlanContext& operator=(const PlanContext&) = delete;

  [[nodiscard]] const LawSet& laws() const { return *laws_; }
  [[nodiscard]] const Planner& planner() const { return planner_; }
  [[nodiscard]] const OptimalLine& line() const { return line_; }
  /// The family with `n_experts` routed experts and every other option the same (co-design's
  /// N_e move): this context's own Planner when N_e is its own, else one built once.
  [[nodiscard]] const Planner& with_experts(int n_experts) const;

 private:
  const LawSet* laws_;
  Planner planner_;
  OptimalLine line_;
  mutable std::map<int, std::unique_ptr<Planner>> moved_families_;
};

}  // namespace moeplan
