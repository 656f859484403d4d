#include "moeplan/planner/plan_price.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "moeplan/base/search.hpp"

namespace moeplan {


OptimalLine::OptimalLine(const LawSet& laws, const Planner& planner) : laws_(&laws), planner_(&planner) {
  const ArchitectureFamily& f = planner.family();
  active_experts_ = double(f.top_k) + f.n_shared_experts;  // paper 001 Eq. 2: G counts shared
  shared_ratio_ = active_experts_ > 0 ? f.n_shared_experts / active_experts_ : 0;  // Eq. 3
}

FlopsPerToken OptimalLine::optimal_flops_per_token(Flops C) const {
  return compute_optimal(planner_->laws().compute_optimal, C).M;
}

std::optional<double> OptimalLine::loss_at(Flops shape_compute, Tokens D) const {
  auto t = planner_->targets(shape_compute);
  if (!t) return std::nullopt;
  const double L = laws_->joint.loss(t->targets.N, D, t->targets.N_a, active_experts_, shared_ratio_);
  if (!std::isfinite(L)) return std::nullopt;
  return L;
}

std::optional<double> OptimalLine::optimal_loss(Flops C) const {
  return loss_at(C, C / optimal_flops_per_token(C));
}

std::optional<Flops> OptimalLine::equal_loss_compute(double loss, Flops near) const {
  // L_opt falls with C; over-trained plans reach the loss of budgets many decades below
  // their own.
  const auto C = bisect_log([&](double c) { return optimal_loss(Flops(c)); }, loss,
                            near.value() * 1e-12, near.value() * 1e6, false);
  if (!C) return std::nullopt;
  return Flops(*C);
}

std::optional<Tokens> OptimalLine::tokens_for_loss(Flops shape_compute, double loss) const {
  // Eq. 11 falls with D towards its D → ∞ value; D from 1e3 to 1e22 tokens.
  const auto D = bisect_log([&](double d) { return loss_at(shape_compute, Tokens(d)); }, loss,
                            1e3, 1e22, false);
  if (!D) return std::nullopt;
  return Tokens(*D);
}

std::optional<double> OptimalLine::joint_optimum_tokens_ratio(Flops C) const {
  // Along D at fixed C the plan of D has the shape of C' = M_opt⁻¹(C / D); golden-section
  // search of the loss in log(D / D_opt) over [1/100, 100].
  const double D_opt = (C / optimal_flops_per_token(C)).value();
  const auto f = [&](double x) {
    const Tokens D(D_opt * std::exp(x));
    const auto l = loss_at(planner_->shape_compute_for(C / D), D);
    return l ? *l : INFINITY;
  };
  const auto [x, fx] = golden_section_min(f, std::log(0.01), std::log(100.0), 1e-9);
  if (!std::isfinite(fx)) return std::nullopt;
  return std::exp(x);
}

PlanFigures figures_of(Params N, Params N_a, Params embedding, FlopsPerToken M, Tokens D, double loss) {
  PlanFigures f;
  f.N_a = N_a;
  f.N = N;
  f.D = D;
  f.training_compute = M * D;
  f.tokens_per_active_param = D.value() / N_a.value();
  f.predicted_loss = loss;
  // Paper 002's M (Eq. 12) counts forward and backward, 3x the forward pass, with the
  // attention scores at the training context S.
  f.inference_flops_per_token = M / 3.0;
  f.weight_bytes_bf16 = 2.0 * (N.value() + embedding.value());
  return f;
}

namespace {

// Paper 002's own plan for C, priced on its line, beside the plan or config.
std::optional<PlanFigures> compute_optimal_figures(const OptimalLine& curve, Flops C) {
  auto ref = curve.planner().solve(compute_optimal_budget(C, curve.optimal_flops_per_token(C)));
  if (!ref) return std::nullopt;
  const Accounting& r = ref->solution.accounting;
  return figures_of(r.N, r.N_a, r.embedding, r.M, ref->tokens, curve.optimal_loss(C).value_or(NAN));
}

void fill_overhead(const OptimalLine& curve, Flops C, PlanPrice& p) {
  p.joint_optimum_tokens_ratio = curve.joint_optimum_tokens_ratio(C);
  p.equal_loss_compute = curve.equal_loss_compute(p.plan.predicted_loss, C);
  if (!p.equal_loss_compute) {
    p.overhead_note = "no compute-optimal plan from 1e-12 C to 1e6 C reaches this loss";
    return;
  }
  p.overhead = C / *p.equal_loss_compute - 1.0;
  if (*p.overhead < 0) {
    p.overhead_note = fmt::format(
        "negative: the joint law (paper 001) predicts a lower loss for this plan than for paper "
        "002's compute-optimal plan at the same C; along D it puts its own optimum at {} D_opt, "
        "and the two laws disagree between there and D_opt",
        p.joint_optimum_tokens_ratio ? fmt::format("{:.3g}x", *p.joint_optimum_tokens_ratio)
                                     : std::string("an unknown"));
  }
}

}  // namespace

PlanPrice price_plan(const OptimalLine& curve, const Suggestion& s, std::optional<Tokens> T) {
  PlanPrice p;
  const Accounting& acc = s.solution.accounting;
  const ResolvedBudget& b = s.resolved;
  // On the target curve: the targets at C' trained on the goal's D (given, or C / M of the
  // targets, where the plan spends C on C / M of its config); the C priced is M(C')·D.
  const Tokens D = b.fixed_tokens ? *b.fixed_tokens : b.C / b.M;
  const Flops C = curve.optimal_flops_per_token(b.shape_compute) * D;
  const auto loss = curve.loss_at(b.shape_compute, D);
  p.plan = figures_of(acc.N, acc.N_a, acc.embedding, acc.M, s.tokens, loss.value_or(NAN));
  if (!loss) {
    p.overhead_note = "the joint law has no loss for these targets";
  } else {
    fill_overhead(curve, C, p);
  }
  // Paper 002's own plan for the same C, beside it.
  const Flops C_ref = b.reference_compute.value_or(b.compute_given ? b.C : s.training_compute);
  p.compute_optimal = compute_optimal_figures(curve, C_ref);
  if (T) {
    p.inference_tokens = T;
    p.lifetime_compute = s.training_compute + Flops((acc.M / 3.0).value() * T->value());
    if (p.compute_optimal) {
      p.compute_optimal_lifetime_compute =
          p.compute_optimal->training_compute +
          Flops(p.compute_optimal->inference_flops_per_token.value() * T->value());
      p.lifetime_saving = 1.0 - *p.lifetime_compute / *p.compute_optimal_lifetime_compute;
    }
  }
  return p;
}

PlanPrice price_config(const OptimalLine& curve, Params N, Params N_a, Params embedding,
                       FlopsPerToken M, Tokens D, double G, double S) {
  PlanPrice p;
  const double loss = curve.joint_loss(N, D, N_a, G, S);
  p.plan = figures_of(N, N_a, embedding, M, D, loss);
  if (!std::isfinite(loss)) {
    p.overhead_note = "the joint law has no loss for this config";
    return p;
  }
  const Flops C = M * D;
  fill_overhead(curve, C, p);
  p.compute_optimal = compute_optimal_figures(curve, C);
  return p;
}

namespace {

// The inference goal's budget at shape C' trained on D (Sardana et al. 2024, Sec. 2-3).
ResolvedBudget inference_budget(const OptimalLine& curve, const PlanGoal& goal, Flops Cp, Tokens D) {
  ResolvedBudget r;
  r.kind = GoalKind::inference_aware;
  r.shape_compute = Cp;
  r.M = curve.optimal_flops_per_token(Cp);
  r.fixed_tokens = D;
  r.C = r.M * D;
  r.compute_given = false;
  r.reference_compute = *goal.compute;
  r.total_params_cap = goal.total_params_cap;
  return r;
}

// An optimum past 1e21 training tokens is the D search's edge (it reaches 1e22), not an answer.
std::optional<ConstraintViolation> too_many_tokens(double T, Tokens D) {
  if (D.value() <= 1e21) return std::nullopt;
  return ConstraintViolation{"a training set of at most 1e21 tokens",
                             fmt::format("with T = {:.4g} inference tokens the least lifetime cost lies at a model "
                                         "trained on D = {:.3g} tokens or more, beyond any text there is; lower "
                                         "--inference-tokens",
                                         T, D.value())};
}

// The continuous optimum's C' can have no integer config within the tolerance (a shape of two
// layers, where one layer is a large share of N_a, misses M by more): then the integer plan of
// least lifetime compute M_int·(D + T/3) among the scan's sizes (`grid`: log C' and the
// continuous cost there) that the planner solves. Every integer M is within the tolerance of
// its target (paper 002 Table 4 note), so a size whose continuous cost times (1 - tolerance)
// exceeds the best integer cost found cannot win: the scan, cheapest first, stops there.
struct IntegerOptimum {
  ResolvedBudget budget;
  double lifetime = 0;  ///< M_int·(D + T/3), FLOPs
};
std::optional<IntegerOptimum> least_integer_lifetime(const OptimalLine& curve, const PlanGoal& goal, double target,
                                                     std::vector<std::pair<double, double>> grid) {
  const Planner& planner = curve.planner();
  const double T = goal.inference_tokens->value();
  const double tolerance = planner.options().tolerance.value_or(planner.laws().tolerance);
  std::sort(grid.begin(), grid.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::optional<IntegerOptimum> best;
  for (const auto& [log_c, cost] : grid) {
    if (!std::isfinite(cost) || (best && cost * (1 - tolerance) > best->lifetime)) break;
    const Flops Cp(std::exp(log_c));
    const auto D = curve.tokens_for_loss(Cp, target);
    if (!D || too_many_tokens(T, *D)) continue;
    ResolvedBudget b = inference_budget(curve, goal, Cp, *D);
    const auto s = planner.solve(b);
    if (!s) continue;
    const double lifetime = s->solution.accounting.M.value() * (D->value() + T / 3.0);
    if (!best || lifetime < best->lifetime) best = IntegerOptimum{std::move(b), lifetime};
  }
  return best;
}

}  // namespace

std::expected<ResolvedBudget, ConstraintViolation> resolve_goal(const OptimalLine& curve,
                                                                const PlanGoal& goal) {
  if (auto why = goal_problem(goal)) {
    return std::unexpected(ConstraintViolation{"a well-formed plan goal", *why});
  }
  if (goal_kind(goal) != GoalKind::inference_aware) return curve.planner().resolve(goal);
  const Flops C = *goal.compute;
  const double T = goal.inference_tokens->value();
  const auto target = curve.optimal_loss(C);
  if (!target) {
    return std::unexpected(ConstraintViolation{"a loss for the compute-optimal plan at C",
                                               "the joint law has none at this budget"});
  }
  // Total cost of the plan of shape C' that reaches the target loss: M(C')·(D + T/3).
  const auto total = [&](double log_c) -> double {
    const Flops Cp(std::exp(log_c));
    const auto D = curve.tokens_for_loss(Cp, *target);
    if (!D) return INFINITY;
    const double M = curve.optimal_flops_per_token(Cp).value();
    return M * (D->value() + T / 3.0);
  };
  // Smaller models than the compute-optimal one trade training for inference; scan C' from
  // 1e-6 C to C (a larger model never lowers both), then refine around the best.
  const double lo = std::log(C.value() * 1e-6), hi = std::log(C.value());
  constexpr int n = 241;
  int best = n - 1;
  double best_cost = INFINITY;
  std::vector<std::pair<double, double>> grid;  // (log C', continuous cost)
  for (int i = 0; i < n; ++i) {
    const double x = lo + (hi - lo) * i / (n - 1);
    grid.emplace_back(x, total(x));
    if (grid.back().second < best_cost) best_cost = grid.back().second, best = i;
  }
  if (!std::isfinite(best_cost)) {
    return std::unexpected(ConstraintViolation{
        "a plan at the compute-optimal plan's loss",
        fmt::format("no model from 1e-6 C to C reaches it with a finite lifetime cost (T = {:.4g} "
                    "inference tokens)", T)});
  }
  const double step = (hi - lo) / (n - 1);
  const auto [x, fx] = golden_section_min(total, lo + step * std::max(0, best - 1),
                                          lo + step * std::min(n - 1, best + 1), 1e-10);
  const Flops Cp(std::exp(x));
  const auto D = curve.tokens_for_loss(Cp, *target);
  if (!D) {
    return std::unexpected(ConstraintViolation{"a plan at the compute-optimal plan's loss",
                                               "the optimum's D could not be solved"});
  }
  if (auto why = too_many_tokens(T, *D)) return std::unexpected(*why);
  ResolvedBudget r = inference_budget(curve, goal, Cp, *D);
  r.how = fmt::format(
      "least C_train + T·M/3 (T = {:.4g} inference tokens) among plans at the loss {:.5g} of the "
      "compute-optimal plan for C = {:.4g} (Sardana et al. 2024): the shape of C' = {:.4g} on "
      "D = {:.4g} tokens",
      T, *target, C.value(), Cp.value(), D->value());
  const auto at_optimum = curve.planner().solve(r);
  if (at_optimum) return r;
  // No integer config at the continuous optimum: the integer plan of least lifetime compute.
  const auto integer = least_integer_lifetime(curve, goal, *target, std::move(grid));
  if (!integer) return r;  // none of the sizes solves either: the solve reports the optimum's reason
  const double continuous = fx;
  ResolvedBudget out = integer->budget;
  out.how = fmt::format(
      "least C_train + T·M/3 (T = {:.4g} inference tokens) among integer plans at the loss {:.5g} of the "
      "compute-optimal plan for C = {:.4g} (Sardana et al. 2024): the shape of C' = {:.4g} on D = {:.4g} "
      "tokens; the continuous optimum C' = {:.4g} has no integer config ({}); this one takes {:.3g} % more "
      "lifetime FLOPs",
      T, *target, C.value(), out.shape_compute.value(), out.fixed_tokens->value(), Cp.value(),
      at_optimum.error().to_string(), 100 * (integer->lifetime / continuous - 1));
  out.warning = fmt::format(
      "--inference-tokens: the least-lifetime shape C' = {:.4g} has no integer config within the tolerance "
      "({}); planned the integer shape of least lifetime compute, C' = {:.4g}, {:+.3g} % lifetime FLOPs",
      Cp.value(), at_optimum.error().constraint, out.shape_compute.value(),
      100 * (integer->lifetime / continuous - 1));
  return out;
}

std::vector<double> equal_loss_ratios(double min_ratio, double max_ratio, int points) {
  std::vector<double> ratios;
  if (points < 2) return ratios;
  for (int i = 0; i < points; ++i) {
    ratios.push_back(min_ratio * std::pow(max_ratio / min_ratio, double(i) / (points - 1)));
  }
  // Ratio 1, the compute-optimal plan itself (overhead 0), so the curve passes through it.
  if (min_ratio < 1.0 && 1.0 < max_ratio) {
    const auto near_one = std::find_if(ratios.begin(), ratios.end(),
                                       [](double r) { return std::abs(r - 1.0) < 1e-9; });
    if (near_one != ratios.end()) {
      *near_one = 1.0;  // a grid point that is 1 up to rounding
    } else {
      ratios.insert(std::upper_bound(ratios.begin(), ratios.end(), 1.0), 1.0);
    }
  }
  return ratios;
}

std::vector<EqualLossPoint> equal_loss_curve(const OptimalLine& curve, Flops C, double min_ratio,
                                             double max_ratio, int points) {
  std::vector<EqualLossPoint> out;
  const auto target = curve.optimal_loss(C);
  const auto opt = curve.planner().targets(C);
  if (!target || !opt || points < 2) return out;
  const double Na_opt = opt->targets.N_a.value();
  // The C' whose targets have N_a = ratio·N_a,opt: N_a rises with C', so bisect in log C'.
  for (const double ratio : equal_loss_ratios(min_ratio, max_ratio, points)) {
    // The C' whose targets have N_a = ratio·N_a,opt; a ratio out of reach has no point.
    const auto Cp = curve.planner().shape_compute_for_size(Params(ratio * Na_opt), false,
                                                           C * 1e-12, C * 1e6);
    if (!Cp) continue;
    const auto D = curve.tokens_for_loss(*Cp, *target);
    if (!D) continue;
    const Flops spent = curve.optimal_flops_per_token(*Cp) * *D;
    out.push_back({ratio, spent / C - 1.0, *Cp, *D});
  }
  return out;
}

}  // namespace moeplan
