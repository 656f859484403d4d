#include "moeplan/planner/plan_goal.hpp"

#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace moeplan {

const char* to_string(GoalKind k) {
  switch (k) {
    case GoalKind::compute_optimal: return "compute-optimal";
    case GoalKind::compute_and_tokens: return "compute-and-tokens";
    case GoalKind::tokens_and_size: return "tokens-and-size";
    case GoalKind::compute_and_size: return "compute-and-size";
    case GoalKind::size_capped: return "size-capped";
    case GoalKind::inference_aware: return "inference-aware";
  }
  return "?";
}

namespace {

std::vector<std::string> given_flags(const PlanGoal& g) {
  std::vector<std::string> out;
  if (g.compute) out.push_back("--flops");
  if (g.tokens) out.push_back("--tokens");
  if (g.active_params) out.push_back("--active-params");
  if (g.flops_per_token) out.push_back("--flops-per-token");
  if (g.total_params_cap) out.push_back("--total-params");
  if (g.inference_tokens) out.push_back("--inference-tokens");
  return out;
}

}  // namespace

std::optional<std::string> goal_problem(const PlanGoal& g) {
  const std::string given = fmt::format("{}", fmt::join(given_flags(g), " "));
  const char* forms =
      "a plan takes --flops C; --flops C --tokens D; --tokens D --active-params N_a (or "
      "--flops-per-token M); --flops C --active-params N_a (or --flops-per-token M); "
      "--flops C --inference-tokens T; any of them with --total-params N as a cap";
  for (const auto& [value, flag] : {std::pair{g.compute ? g.compute->value() : 1.0, "--flops"},
                                    {g.tokens ? g.tokens->value() : 1.0, "--tokens"},
                                    {g.active_params ? g.active_params->value() : 1.0, "--active-params"},
                                    {g.flops_per_token ? g.flops_per_token->value() : 1.0, "--flops-per-token"},
                                    {g.total_params_cap ? g.total_params_cap->value() : 1.0, "--total-params"},
                                    {g.inference_tokens ? g.inference_tokens->value() : 1.0, "--inference-tokens"}}) {
    if (!(value > 0) || !std::isfinite(value)) {
      return fmt::format("{} must be > 0 and finite, got {}", flag, value);
    }
  }
  const int sizes = g.active_params.has_value() + g.flops_per_token.has_value();
  if (sizes > 1) {
    return fmt::format("{}: --active-params and --flops-per-token both fix the model's size; give "
                       "one ({})", given, forms);
  }
  if (g.inference_tokens) {
    if (!g.compute || g.tokens || sizes > 0) {
      return fmt::format("{}: --inference-tokens goes with --flops C alone (the loss to reach is "
                         "that of the compute-optimal plan for C; the plan then chooses N_a and D) "
                         "({})", given, forms);
    }
    return std::nullopt;
  }
  if (g.compute && g.tokens && sizes > 0) {
    return fmt::format("{}: over-determined: C = M·D, so --flops, --tokens and a size cannot all "
                       "be fixed; drop one ({})", given, forms);
  }
  if (!g.compute && !(g.tokens && sizes > 0)) {
    if (g.tokens) {
      return fmt::format("{}: under-determined: D alone does not fix C or the model; add "
                         "--flops C or --active-params N_a ({})", given, forms);
    }
    if (sizes > 0) {
      return fmt::format("{}: under-determined: a size alone does not fix D; add --tokens D or "
                         "--flops C ({})", given, forms);
    }
    return fmt::format("{}: no budget: give --flops C, or --tokens D with --active-params N_a "
                       "({})", given.empty() ? "no goal" : given, forms);
  }
  return std::nullopt;
}

GoalKind goal_kind(const PlanGoal& g) {
  if (g.inference_tokens) return GoalKind::inference_aware;
  const bool size = g.active_params || g.flops_per_token;
  if (g.tokens && size) return GoalKind::tokens_and_size;
  if (g.compute && g.tokens) return GoalKind::compute_and_tokens;
  if (g.compute && size) return GoalKind::compute_and_size;
  if (g.total_params_cap) return GoalKind::size_capped;
  return GoalKind::compute_optimal;
}

ResolvedBudget compute_optimal_budget(Flops C, FlopsPerToken M_opt) {
  ResolvedBudget b;
  b.kind = GoalKind::compute_optimal;
  b.C = C;
  b.M = M_opt;
  b.shape_compute = C;
  b.how = "the compute-optimal plan for C (paper 002 Eq. 2)";
  return b;
}

}  // namespace moeplan
