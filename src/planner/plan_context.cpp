// The planning context of one command: the family's Planner and line, built once.
#include "moeplan/planner/plan_context.hpp"

namespace moeplan {

PlanContext::PlanContext(const LawSet& laws, SuggestOptions options)
    : laws_(&laws), planner_(laws.holistic, std::move(options)), line_(laws, planner_) {}

const Planner& PlanContext::with_experts(int n_experts) const {
  if (n_experts == planner_.family().n_experts) return planner_;
  auto& slot = moved_families_[n_experts];
  if (!slot) {
    SuggestOptions o = planner_.options();
    o.n_experts = n_experts;
    slot = std::make_unique<Planner>(laws_->holistic, std::move(o));
  }
  return *slot;
}

}  // namespace moeplan
