// The time goal planned for loss (issue 34): the FLOP-optimal plan within the days, then the
// families and sizes the joint law tells apart, each on its layout, priced at D = tokens/s x days.
#include "moeplan/planner/time_optimal.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/planner/model_score.hpp"

namespace moeplan {

namespace {

constexpr double k_seconds_per_day = 86400;
// How many of the scan's best are co-designed (each several layout searches): enough that a
// size the plain layout under-rates is still met (an engineering figure; 3 missed one on 64
// H100 x 7 days that 6 find).
constexpr std::size_t k_shortlist = 6;

// The figures of a plan on the cluster trained on D (the joint law's loss at its concrete N,
// N_a, G, S; EL at the reference compute, so that shapes are compared at equal C).
TimedPlan timed(const LawSet& laws, GoalPlan plan, Tokens D, Flops el_compute) {
  TimedPlan t;
  const Suggestion& s = plan_suggestion(plan);
  const ModelConfig m = plan_config(plan);
  const ExpertShape shape = expert_shape(m);
  const Accounting& a = s.solution.accounting;
  t.tokens = D;
  t.predicted_loss = laws.joint.loss(a.N, D, a.N_a, shape.active_experts, shape.shared_ratio);
  t.efficiency_leverage = laws.leverage.at(shape.activation_ratio, shape.granularity, el_compute);
  const LayoutCandidate& best = plan.on_cluster->fit.layouts.ranked.front();
  t.tokens_per_second = best.time.tokens_per_second;
  t.mfu = best.time.mfu;
  t.n_experts = m.n_routed_experts;
  t.top_k = m.num_experts_per_tok;
  t.n_shared = m.n_shared_experts;
  t.plan = std::move(plan);
  return t;
}

std::string layout_of(const TimedPlan& t) { return t.plan.on_cluster->fit.layouts.ranked.front().layout.describe(); }

}  // namespace

std::expected<TimeOptimalResult, ConstraintViolation> plan_time_optimal(const PlanContext& context, PlanGoal goal,
                                                                       RankRule rule, bool rank,
                                                                       const ClusterFitOptions& cluster, double days) {
  const LawSet& laws = context.laws();
  auto flop = plan_within_days(context, goal, rule, rank, cluster, days);
  if (!flop) return std::unexpected(flop.error());
  TimeOptimalResult out;
  out.days_search = flop->search;
  const Flops C_F = flop->plan.budget.C;
  const Tokens D_F = plan_suggestion(flop->plan).tokens;
  {
    const TrainingTime& time = flop->plan.on_cluster->fit.time;
    out.flop_optimal = timed(laws, std::move(flop->plan), D_F, C_F);
    out.flop_optimal.days = time.days;
    out.flop_optimal.gpu_hours = time.gpu_hours;
  }
  const TimedPlan& F = out.flop_optimal;
  const double T_seconds = days * k_seconds_per_day;

  // The candidates: (family options, C') and their loss at D = tokens/s x T.
  struct Best {
    double loss = 0;
    SuggestOptions options;
    Flops compute;      ///< the budget planned (its compute-optimal shape)
    FlopsPerToken M;    ///< the M that plan aimed at (M_opt of its shape budget)
    Tokens D;
  } best;
  // The FLOP-optimal shape trained the whole time is a candidate: never worse than it.
  best = {laws.joint.loss(plan_suggestion(F.plan).solution.accounting.N, Tokens(F.tokens_per_second * T_seconds),
                          plan_suggestion(F.plan).solution.accounting.N_a, expert_shape(plan_config(F.plan)).active_experts,
                          expert_shape(plan_config(F.plan)).shared_ratio),
          context.planner().options(), C_F, plan_suggestion(F.plan).resolved.M, Tokens(F.tokens_per_second * T_seconds)};
  const ArchitectureFamily& base = context.planner().family();
  const auto is_base = [&base](const SuggestOptions& o) {
    return o.n_experts.value_or(base.n_experts) == base.n_experts && o.top_k.value_or(base.top_k) == base.top_k;
  };
  std::vector<Best> shortlist;  // every (family, size) the scan timed, by its loss
  std::vector<std::pair<int, int>> families;
  for (const int ne : {base.n_experts / 2, base.n_experts, base.n_experts * 2}) {
    for (const int k : {std::max(1, base.top_k / 2), base.top_k, base.top_k * 2}) {
      if (ne >= 2 && k < ne) families.emplace_back(ne, k);
    }
  }
  PlanGoal g = goal;
  g.compute.reset();
  // The scan times each plan on its best layout as the planner gives it; co-design (moves of
  // d, L, heads inside the band, each another layout search) runs once, on the winner.
  ClusterFitOptions scan = cluster;
  scan.co_design = false;
  for (const auto& [ne, k] : families) {
    SuggestOptions o = context.planner().options();
    o.goal = PlanGoal{};
    o.n_experts = ne;
    o.top_k = k;
    const bool own = ne == base.n_experts && k == base.top_k;
    std::unique_ptr<PlanContext> moved;
    if (!own) moved = std::make_unique<PlanContext>(laws, o);
    const PlanContext& ctx = own ? context : *moved;
    bool el_refused = false;
    double family_best = 0;
    int best_j = 0;
    // One size: the plan at C_F x 10^(j/8) on its layout, priced at D = tokens/s x T.
    const auto try_size = [&](int j) {
      PlanGoal at = g;
      at.compute = Flops(C_F.value() * std::pow(10.0, j / 8.0));
      ++out.plans_evaluated;
      auto p = plan_goal(ctx, at, rule, false, &scan);
      if (!p || p->cluster_problem || !p->on_cluster) return;
      const double tps = p->on_cluster->fit.layouts.ranked.front().time.tokens_per_second;
      if (!(tps > 0)) return;
      const Tokens D(tps * T_seconds);
      const TimedPlan t = timed(laws, std::move(*p), D, C_F);
      // The EL rule is for family moves (granularity, sparsity); a size move is the joint law's.
      if (!own && t.efficiency_leverage < F.efficiency_leverage * (1 - k_el_tolerance)) {
        el_refused = true;
        return;
      }
      if (family_best == 0 || t.predicted_loss < family_best) {
        family_best = t.predicted_loss;
        best_j = j;
      }
      shortlist.push_back({t.predicted_loss, o, at.compute.value(), plan_suggestion(t.plan).resolved.M, D});
    };
    // Quarter decades from 1.5 below C_F to 0.5 above, then the eighths either side of the best.
    for (int j = -12; j <= 4; j += 2) try_size(j);
    if (family_best > 0) {
      try_size(best_j - 1);
      try_size(best_j + 1);
    }
    if (el_refused) {
      out.rejected.push_back(fmt::format("N_e {}, K {}: loses more than {:g} % of paper 000's EL at equal compute "
                                         "(a granularity or sparsity cost the joint law cannot see)",
                                         ne, k, 100 * k_el_tolerance));
    }
  }
  // The best k_shortlist of the scan, co-designed as the answer will be (their layouts may improve):
  // the lowest loss of these and the FLOP-optimal shape trained the whole time wins.
  std::sort(shortlist.begin(), shortlist.end(), [](const Best& a, const Best& b) { return a.loss < b.loss; });
  for (std::size_t i = 0; i < shortlist.size() && i < k_shortlist; ++i) {
    const Best& c = shortlist[i];
    std::unique_ptr<PlanContext> moved;
    if (!is_base(c.options)) moved = std::make_unique<PlanContext>(laws, c.options);
    PlanGoal at = g;
    at.compute = c.compute;
    ++out.plans_evaluated;
    auto p = plan_goal(moved ? *moved : context, at, rule, false, &cluster);
    if (!p || p->cluster_problem || !p->on_cluster) continue;
    const double tps = p->on_cluster->fit.layouts.ranked.front().time.tokens_per_second;
    const Tokens D(tps * T_seconds);
    const TimedPlan t = timed(laws, std::move(*p), D, C_F);
    if (t.predicted_loss < best.loss) best = {t.predicted_loss, c.options, c.compute, c.M, D};
  }
  out.loss_gain = 1 - best.loss / F.predicted_loss;
  out.resolved = out.loss_gain >= k_loss_resolution;
  if (!out.resolved) {
    out.time_optimal = out.flop_optimal;
    return out;
  }
  // The winner with its D fixed: the shape of the compute-optimal plan at C' (M = M_opt(C')),
  // trained on D, so its sections (budget, cluster, days) are those of any plan.
  const bool own = is_base(best.options);
  std::unique_ptr<PlanContext> moved;
  if (!own) moved = std::make_unique<PlanContext>(laws, best.options);
  const PlanContext& ctx = own ? context : *moved;
  PlanGoal fixed = goal;
  fixed.compute.reset();
  fixed.flops_per_token = best.M;
  fixed.tokens = best.D;
  auto p = plan_goal(ctx, fixed, rule, rank, &cluster);
  // Whole steps and the batch the laws give at the new C may take it a little past the days:
  // D is scaled back once by the overshoot.
  if (p && p->on_cluster && p->on_cluster->fit.time.days > days) {
    fixed.tokens = Tokens(best.D.value() * days / p->on_cluster->fit.time.days * (1 - 1e-6));
    p = plan_goal(ctx, fixed, rule, rank, &cluster);
  }
  if (!p || !p->on_cluster || p->cluster_problem) {
    out.time_optimal = out.flop_optimal;  // the winner could not be re-planned: say nothing moved
    out.resolved = false;
    out.loss_gain = 0;
    return out;
  }
  const TrainingTime time = p->on_cluster->fit.time;
  const Tokens D = plan_suggestion(*p).tokens;
  out.time_optimal = timed(laws, std::move(*p), D, C_F);
  out.time_optimal.days = time.days;
  out.time_optimal.gpu_hours = time.gpu_hours;
  out.loss_gain = 1 - out.time_optimal.predicted_loss / F.predicted_loss;
  out.resolved = out.loss_gain >= k_loss_resolution;
  const TimedPlan& Tm = out.time_optimal;
  const Accounting& a = plan_suggestion(Tm.plan).solution.accounting;
  const Accounting& af = plan_suggestion(F.plan).solution.accounting;
  if (Tm.n_experts != F.n_experts) out.moved.push_back(fmt::format("N_e: {} -> {}", F.n_experts, Tm.n_experts));
  if (Tm.top_k != F.top_k) out.moved.push_back(fmt::format("K: {} -> {}", F.top_k, Tm.top_k));
  out.moved.push_back(fmt::format("N: {:.4g} -> {:.4g}, N_a: {:.4g} -> {:.4g}", af.N.value(), a.N.value(), af.N_a.value(),
                                  a.N_a.value()));
  out.moved.push_back(fmt::format("D: {:.4g} -> {:.4g} tokens in {:.3g} -> {:.3g} days", F.tokens.value(), Tm.tokens.value(),
                                  F.days, Tm.days));
  out.moved.push_back(fmt::format("tokens/s: {:.4g} -> {:.4g} (MFU {:.3g} -> {:.3g} %), layout {} -> {}", F.tokens_per_second,
                                  Tm.tokens_per_second, 100 * F.mfu, 100 * Tm.mfu, layout_of(F), layout_of(Tm)));
  return out;
}

}  // namespace moeplan
