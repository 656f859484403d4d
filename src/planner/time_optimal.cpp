// Plans for loss on a cluster (issue 34): the lowest predicted loss in the days, and the least
// GPU-hours to a target loss. Both search the families and sizes the joint law tells apart,
// each on its layout, with one scan (scan_plans) and their own price of a plan.
#include "moeplan/planner/time_optimal.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "moeplan/planner/model_score.hpp"

namespace moeplan {

namespace {

constexpr double k_seconds_per_day = 86400;
// How many of the scan's best are co-designed (each several layout searches): enough that a
// size the plain layout under-rates is still met (an engineering figure).
constexpr std::size_t k_shortlist = 6;
// How many of the co-designed shortlist are re-planned on their D beside the FLOP-optimal shape
// trained the whole time (each a few plans): the scan's price is an estimate (its layout at its own
// budget's batch), and the best estimate need not re-plan best (an engineering figure).
constexpr std::size_t k_replanned = 3;

std::string layout_of(const TimedPlan& t) { return t.plan.on_cluster->fit.layouts.ranked.front().layout.describe(); }

// The joint law's loss of a timed plan trained on D (its N, N_a, G and S).
double loss_at(const LawSet& laws, const TimedPlan& t, Tokens D) {
  const Accounting& a = plan_suggestion(t.plan).solution.accounting;
  return laws.joint.loss(a.N, D, a.N_a, t.active_experts, t.shared_ratio);
}

// One plan the scan timed, and its price (lower is better) under the caller's objective.
struct Scanned {
  double price = 0;
  std::shared_ptr<const PlanContext> context;  ///< its family's, built once by the scan; null: the caller's
  std::string family;      ///< what its family moved ("" for the context's own)
  Flops compute;           ///< the budget planned (its compute-optimal shape)
  FlopsPerToken M;         ///< the M that plan aimed at (M_opt of its shape budget)
  Tokens D;                ///< what it trains on under the objective
};

struct ScanResult {
  std::optional<Scanned> best;   ///< ranked.front()
  std::vector<Scanned> ranked;   ///< the shortlist co-designed and priced again, best first
  std::vector<std::string> rejected;
  int plans = 0;
};

// A family the scan tries: the context's options with what the joint law sees moved.
struct Family {
  std::string label;  ///< "" for the context's own
  SuggestOptions options;
};

// The families: N_e x {1/2, 1, 2} and K x {1/2, 1, 2}; the shared experts 0 and 2 where the
// context has 1 (the joint law's G and S); N/N_a and M/N_a fixed at the reference plan's x 0.8
// and x 1.25, and x 0.9 and x 1.1 (paper 002's Eq. 5 ratios, where the user fixed neither).
std::vector<Family> families_of(const PlanContext& context, double ref_n_over_na, double ref_m_over_na) {
  const SuggestOptions own = [&] {
    SuggestOptions o = context.planner().options();
    o.goal = PlanGoal{};
    return o;
  }();
  const ArchitectureFamily& base = context.planner().family();
  std::vector<Family> out;
  for (const int ne : {base.n_experts / 2, base.n_experts, base.n_experts * 2}) {
    for (const int k : {std::max(1, base.top_k / 2), base.top_k, base.top_k * 2}) {
      if (ne < 2 || k >= ne) continue;
      Family f{"", own};
      if (ne != base.n_experts || k != base.top_k) {
        f.options.n_experts = ne;
        f.options.top_k = k;
        f.label = fmt::format("N_e {}, K {}", ne, k);
      }
      out.push_back(std::move(f));
    }
  }
  if (base.n_shared_experts == 1) {
    for (const int shared : {0, 2}) {
      Family f{fmt::format("{} shared expert(s)", shared), own};
      f.options.n_shared_experts = shared;
      out.push_back(std::move(f));
    }
  }
  if (!own.n_over_na && ref_n_over_na > 1) {
    for (const double x : {0.8, 1.25}) {
      Family f{fmt::format("N/N_a {:.4g} (x {:g})", ref_n_over_na * x, x), own};
      f.options.n_over_na = ref_n_over_na * x;
      if (*f.options.n_over_na > 1) out.push_back(std::move(f));
    }
  }
  if (!own.m_over_na && ref_m_over_na > 6) {
    for (const double x : {0.9, 1.1}) {
      Family f{fmt::format("M/N_a {:.4g} (x {:g})", ref_m_over_na * x, x), own};
      f.options.m_over_na = ref_m_over_na * x;
      if (*f.options.m_over_na > 6) out.push_back(std::move(f));
    }
  }
  return out;
}

// Sizes on one lattice of shape budgets, C' = 10^(j/8) FLOPs, so that nearby questions (two
// targets, two times) compare the same plans: from `below` to `above` eighths of a decade around
// `center`, every `step`-th, then the eighths either side of each family's best.
struct SizeRange {
  int below = 12, above = 4, step = 2;
  /// A plan whose own shape has no layout is tried again co-designed (the target search: a
  /// cluster too small for the compute-optimal plan reaches L with the largest plan that fits,
  /// which often needs co-design's heads; the time search has the FLOP-optimal plan for that).
  bool codesign_unfit = false;
};

// The families, each at the sizes of `sizes_around`, timed on their plain layout; the
// k_shortlist best then co-designed and priced again. `price` gives a timed plan's price and D
// (nullopt: the plan cannot serve the objective). A family move whose EL at `el_compute` falls
// more than k_el_tolerance below `el_reference` is refused (the joint law cannot see granularity).
ScanResult scan_plans(const PlanContext& context, const PlanGoal& goal, RankRule rule, const ClusterFitOptions& cluster,
                      Flops center, const SizeRange& sizes_around, Flops el_compute, double el_reference,
                      const std::vector<Family>& families,
                      const std::function<std::optional<std::pair<double, Tokens>>(const TimedPlan&)>& price,
                      FitMemo& memo) {
  const LawSet& laws = context.laws();
  ScanResult out;
  PlanGoal g = goal;
  g.compute.reset();
  // The scan times each plan on its best layout as the planner gives it; co-design (moves of
  // d, L, heads inside the band, each another layout search) runs on the shortlist.
  ClusterFitOptions plain = cluster;
  plain.co_design = false;
  std::vector<Scanned> shortlist;
  // A plan of `ctx` at `C` on `on`, priced; nullopt when it has no plan, layout or price.
  bool had_plan = false;  // the last evaluate found a plan with a layout (priced or not)
  const auto evaluate = [&](const std::shared_ptr<const PlanContext>& own_context, const std::string& label, Flops C,
                            const ClusterFitOptions& on) -> std::optional<std::pair<Scanned, TimedPlan>> {
    const PlanContext& ctx = own_context ? *own_context : context;
    had_plan = false;
    ++out.plans;
    PlanGoal at = g;
    at.compute = C;
    auto p = plan_goal(ctx, at, rule, false, &on, &memo);
    // A plan whose own shape has no layout (heads TP cannot split, memory) may fit once
    // co-design moves it inside the band: tried before the size is given up.
    if (p && (p->cluster_problem || !p->on_cluster) && !on.co_design && sizes_around.codesign_unfit) {
      ++out.plans;
      p = plan_goal(ctx, at, rule, false, &cluster, &memo);
    }
    if (!p || p->cluster_problem || !p->on_cluster) return std::nullopt;
    if (!(p->on_cluster->fit.layouts.ranked.front().time.tokens_per_second > 0)) return std::nullopt;
    had_plan = true;
    const FlopsPerToken M = plan_suggestion(*p).resolved.M;
    TimedPlan t = timed_plan(laws, std::move(*p), Tokens(1), el_compute);
    const auto priced = price(t);
    if (!priced) return std::nullopt;
    return std::pair{Scanned{priced->first, own_context, label, C, M, priced->second}, std::move(t)};
  };
  for (const Family& fam : families) {
    const bool own = fam.label.empty();
    // Its Planner, built once: the shortlist and the winner's re-plan use it again.
    const std::shared_ptr<const PlanContext> moved = own ? nullptr : std::make_shared<const PlanContext>(laws, fam.options);
    int el_refused = 0, sizes = 0;
    std::optional<double> family_best;
    int best_j = 0;
    std::optional<int> largest_planned;  // where to refine when no size has a price
    std::vector<int> tried;
    const auto try_size = [&](int j) {
      if (std::find(tried.begin(), tried.end(), j) != tried.end()) return;
      tried.push_back(j);
      auto r = evaluate(moved, fam.label, Flops(std::pow(10.0, j / 8.0)), plain);
      if (had_plan && (!largest_planned || j > *largest_planned)) largest_planned = j;
      if (!r) return;
      ++sizes;
      if (!own && r->second.efficiency_leverage < el_reference * (1 - k_el_tolerance)) {
        ++el_refused;
        return;
      }
      if (!family_best || r->first.price < *family_best) {
        family_best = r->first.price;
        best_j = j;
      }
      shortlist.push_back(std::move(r->first));
    };
    // The coarse sizes are the lattice's every `step`-th eighth counted from 10^0, not from the
    // center: a size scanned for one center is scanned for every center whose window holds it
    // (a longer time's window moves up with its FLOP-optimal C; issue 46).
    const int jc = static_cast<int>(std::lround(8 * std::log10(center.value())));
    const int step = sizes_around.step;
    const int first = jc - sizes_around.below + ((step - (jc - sizes_around.below) % step) % step);
    for (int j = first; j <= jc + sizes_around.above; j += step) try_size(j);
    // Halve the step around the best until the eighths (a coarse step of 4 refines at 2, then 1).
    for (int h = sizes_around.step / 2; h >= 1 && (family_best || largest_planned); h /= 2) {
      const int at = family_best ? best_j : *largest_planned;
      try_size(at - h);
      try_size(at + h);
    }
    if (el_refused > 0) {
      out.rejected.push_back(fmt::format("{}: {} of its {} sizes lose more than {:g} % of paper 000's EL at equal compute "
                                         "(a granularity or sparsity cost the joint law cannot see)",
                                         fam.label, el_refused, sizes, 100 * k_el_tolerance));
    }
  }
  std::sort(shortlist.begin(), shortlist.end(), [](const Scanned& a, const Scanned& b) { return a.price < b.price; });
  for (std::size_t i = 0; i < shortlist.size() && i < k_shortlist; ++i) {
    const Scanned& c = shortlist[i];
    if (auto r = evaluate(c.context, c.family, c.compute, cluster)) out.ranked.push_back(std::move(r->first));
  }
  std::stable_sort(out.ranked.begin(), out.ranked.end(),
                   [](const Scanned& a, const Scanned& b) { return a.price < b.price; });
  if (!out.ranked.empty()) out.best = out.ranked.front();
  return out;
}

// The plan of a scanned shape (the compute-optimal plan that aimed at its M) trained on D, so that
// its sections (budget, cluster, days) are those of any plan: its own batch (the laws' at M·D),
// layout and co-design. nullopt when it has no plan or no layout fits.
std::optional<GoalPlan> plan_on_tokens(const PlanContext& context, const PlanGoal& goal, RankRule rule, bool rank,
                                       const ClusterFitOptions& cluster, const Scanned& s, Tokens D, FitMemo& memo) {
  const PlanContext& ctx = s.context ? *s.context : context;
  PlanGoal fixed = goal;
  fixed.compute.reset();
  fixed.flops_per_token = s.M;
  fixed.tokens = D;
  auto p = plan_goal(ctx, fixed, rule, rank, &cluster, &memo);
  if (!p || !p->on_cluster || p->cluster_problem) return std::nullopt;
  return std::move(*p);
}

// The winner of the target search with its D fixed.
std::optional<GoalPlan> replan_with_tokens(const PlanContext& context, const PlanGoal& goal, RankRule rule, bool rank,
                                           const ClusterFitOptions& cluster, const Scanned& s, FitMemo& memo) {
  return plan_on_tokens(context, goal, rule, rank, cluster, s, s.D, memo);
}

// A scanned shape re-planned on the most tokens it trains within the days. The scan timed it on
// the layout of its own budget and priced D = tokens/s x T; re-planned on that D its layout can be
// faster or slower (the laws' batch at the new C, whole steps, co-design), so D is scaled by
// T / days to fill the time, up to five times, never below a D already within it. Where the plan
// on that D has no layout (the laws' batch grows with C = M·D, paper 000 Eq. 5, and with it the
// micro-batches a pipeline holds), the largest D that has one, by bisection in log D between the
// last D within the days (else the scan's own budget's D, C/M, which had one) and it.
std::optional<GoalPlan> replan_within_days(const PlanContext& context, const PlanGoal& goal, RankRule rule, bool rank,
                                           const ClusterFitOptions& cluster, const Scanned& s, double days,
                                           FitMemo& memo) {
  std::optional<GoalPlan> good;
  double good_D = 0, D = s.D.value(), no_fit = 0;
  const auto days_of = [](const GoalPlan& p) { return p.on_cluster->fit.planning_days(); };
  for (int i = 0; i < 5; ++i) {
    auto p = plan_on_tokens(context, goal, rule, rank, cluster, s, Tokens(D), memo);
    if (!p) {
      no_fit = D;
      break;
    }
    const double took = days_of(*p);
    if (took <= days) {
      good = std::move(p);
      good_D = D;
      if (took >= days * (1 - 1e-3)) break;
    }
    const double next = D * days / took * (1 - 1e-4);
    if (good && next <= good_D) break;
    D = next;
  }
  if (no_fit > 0) {
    double lo = good ? good_D : s.compute.value() / s.M.value(), hi = no_fit;
    for (int i = 0; i < 12 && hi / lo > 1.001; ++i) {
      const double mid = std::sqrt(lo * hi);
      auto p = plan_on_tokens(context, goal, rule, rank, cluster, s, Tokens(mid), memo);
      if (p && days_of(*p) <= days) {
        good = std::move(p);
        good_D = lo = mid;
      } else {
        hi = mid;
      }
    }
  }
  return good;
}

// The joint law's D for `loss` at a plan's N, N_a, G, S: b / D^β = loss - L(D = ∞); nullopt when
// the plan cannot reach it at any D.
std::optional<Tokens> tokens_to_reach(const JointLossLaw& law, Params N, Params N_a, double G, double S, double loss) {
  const double floor = law.loss(N, Tokens(std::numeric_limits<double>::max()), N_a, G, S);
  if (!(loss > floor)) return std::nullopt;
  return Tokens(std::pow(law.b / (loss - floor), 1.0 / law.beta));
}

std::vector<std::string> what_moved(const TimedPlan& from, const TimedPlan& to, double gpus) {
  std::vector<std::string> out;
  const Accounting& a = plan_suggestion(to.plan).solution.accounting;
  const Accounting& af = plan_suggestion(from.plan).solution.accounting;
  const ArchitectureFamily& fam = plan_suggestion(to.plan).solution.arch.family;
  const ArchitectureFamily& famf = plan_suggestion(from.plan).solution.arch.family;
  if (fam.n_experts != famf.n_experts) out.push_back(fmt::format("N_e: {} -> {}", famf.n_experts, fam.n_experts));
  if (fam.top_k != famf.top_k) out.push_back(fmt::format("K: {} -> {}", famf.top_k, fam.top_k));
  out.push_back(fmt::format("N: {:.4g} -> {:.4g}, N_a: {:.4g} -> {:.4g}", af.N.value(), a.N.value(), af.N_a.value(),
                            a.N_a.value()));
  out.push_back(fmt::format("D: {:.4g} -> {:.4g} tokens in {:.3g} -> {:.3g} days", from.tokens.value(), to.tokens.value(),
                            from.days, to.days));
  out.push_back(fmt::format("tokens/s: {:.4g} -> {:.4g} (MFU {:.3g} -> {:.3g} %){}", from.tokens_per_second,
                            to.tokens_per_second, 100 * from.mfu, 100 * to.mfu,
                            layout_of(from) == layout_of(to) ? ", layout unchanged"
                                                             : ", layout " + layout_of(from) + " -> " + layout_of(to)));
  // What paid for it: the step-time terms per token (seconds of the step over its tokens), the
  // two that moved most, in GPU-microseconds per token.
  const StepTime& a0 = from.plan.on_cluster->fit.layouts.ranked.front().time;
  const StepTime& a1 = to.plan.on_cluster->fit.layouts.ranked.front().time;
  std::vector<std::pair<double, std::string>> terms;
  for (const StepTerm& t : a1.terms) {
    const double before = a0.seconds_of(t.name) * gpus / a0.tokens_per_step * 1e6;
    const double after = t.seconds * gpus / a1.tokens_per_step * 1e6;
    terms.emplace_back(std::abs(after - before), fmt::format("{} {:.3g} -> {:.3g}", t.name, before, after));
  }
  std::sort(terms.begin(), terms.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  if (terms.size() >= 2) {
    out.push_back(fmt::format("step-time terms that moved most, GPU-microseconds per token: {}; {}", terms[0].second,
                              terms[1].second));
  }
  return out;
}

}  // namespace

// The figures of a plan on the cluster trained on D (the joint law's loss at its concrete N,
// N_a, G, S; EL at the reference compute, so that shapes are compared at equal C).
TimedPlan timed_plan(const LawSet& laws, GoalPlan plan, Tokens D, Flops el_compute) {
  TimedPlan t;
  const Suggestion& s = plan_suggestion(plan);
  const ModelConfig m = plan_config(s);
  const ExpertShape shape = expert_shape(m);
  const Accounting& a = s.solution.accounting;
  t.tokens = D;
  const double C = a.M.value() * D.value();
  if (C > laws.holistic.fitted_compute_max) t.extrapolation_decades = std::log10(C / laws.holistic.fitted_compute_max);
  if (C < laws.holistic.fitted_compute_min) t.extrapolation_decades = std::log10(C / laws.holistic.fitted_compute_min);
  t.predicted_loss = laws.joint.loss(a.N, D, a.N_a, shape.active_experts, shape.shared_ratio);
  t.efficiency_leverage = laws.leverage.at(shape.activation_ratio, shape.granularity, el_compute);
  t.active_experts = shape.active_experts;
  t.shared_ratio = shape.shared_ratio;
  const LayoutCandidate& best = plan.on_cluster->fit.layouts.ranked.front();
  t.tokens_per_second = best.time.tokens_per_second;
  t.mfu = best.time.mfu;
  t.mfu_of_precision_peak = best.time.mfu_of_precision_peak;
  t.days = plan.on_cluster->fit.planning_days();  // wall days: what the time goals plan against
  t.gpu_hours = plan.on_cluster->fit.planning_gpu_hours();
  t.plan = std::move(plan);
  return t;
}

std::expected<TimeOptimalResult, ConstraintViolation> plan_time_optimal(const PlanContext& context, PlanGoal goal,
                                                                       RankRule rule, bool rank,
                                                                       const ClusterFitOptions& cluster, double days) {
  const LawSet& laws = context.laws();
  // One memo for the whole search: every fit here is on `cluster` (the scan's plain copy differs
  // in co_design alone), so a plan met again is not fitted again.
  FitMemo memo;
  auto flop = plan_within_days(context, goal, rule, rank, cluster, days, &memo);
  if (!flop) return std::unexpected(flop.error());
  TimeOptimalResult out;
  out.days_search = flop->search;
  const Flops C_F = plan_suggestion(flop->plan).resolved.C;
  const Tokens D_F = plan_suggestion(flop->plan).tokens;
  out.flop_optimal = timed_plan(laws, std::move(flop->plan), D_F, C_F);
  const TimedPlan& F = out.flop_optimal;
  const double T_seconds = days * k_seconds_per_day;
  // The price of a plan: its loss trained the whole time.
  const auto loss_in_time = [&](const TimedPlan& t) -> std::optional<std::pair<double, Tokens>> {
    const Tokens D(t.tokens_per_second * T_seconds);
    return std::pair{loss_at(laws, t, D), D};
  };
  const Accounting& fa = plan_suggestion(F.plan).solution.accounting;
  ScanResult scan = scan_plans(context, goal, rule, cluster, C_F, SizeRange{}, C_F, F.efficiency_leverage,
                               families_of(context, fa.n_over_na(), fa.m_over_na()), loss_in_time, memo);
  out.plans_evaluated = scan.plans;
  out.rejected = std::move(scan.rejected);
  // The FLOP-optimal shape trained the whole time is a candidate: never worse than it.
  const auto whole_time = loss_in_time(F);
  std::vector<Scanned> candidates{
      Scanned{whole_time->first, nullptr, "", C_F, plan_suggestion(F.plan).resolved.M, whole_time->second}};
  for (std::size_t i = 0; i < scan.ranked.size() && i < k_replanned; ++i) candidates.push_back(scan.ranked[i]);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Scanned& a, const Scanned& b) { return a.price < b.price; });
  out.best_gain_found = 1 - candidates.front().price / F.predicted_loss;
  // Each re-planned on the most tokens it trains within the days; the lowest loss it then has wins.
  std::optional<TimedPlan> best;
  std::string best_family;
  for (const Scanned& c : candidates) {
    if (1 - c.price / F.predicted_loss < k_loss_resolution) break;  // the scan's estimate: no resolvable gain
    auto p = replan_within_days(context, goal, rule, rank, cluster, c, days, memo);
    if (!p) continue;
    const Tokens D = plan_suggestion(*p).tokens;
    TimedPlan t = timed_plan(laws, std::move(*p), D, C_F);
    if (!best || t.predicted_loss < best->predicted_loss) {
      best = std::move(t);
      best_family = c.family;
    }
  }
  out.loss_gain = best ? 1 - best->predicted_loss / F.predicted_loss : 0;
  out.resolved = out.loss_gain >= k_loss_resolution;
  if (!out.resolved) {
    // Nothing resolvable, or no winner could be re-planned within the days to a resolvable gain
    // (the laws' batch at the new C, whole steps, co-design): the FLOP-optimal plan stands.
    out.time_optimal = out.flop_optimal;
    out.loss_gain = 0;
    return out;
  }
  out.time_optimal = std::move(*best);
  out.moved = what_moved(F, out.time_optimal, cluster.cluster.gpus);
  if (!best_family.empty()) out.moved.insert(out.moved.begin(), "family: " + best_family);
  return out;
}

std::expected<TargetLossResult, ConstraintViolation> plan_for_target_loss(const PlanContext& context, PlanGoal goal,
                                                                         RankRule rule, bool rank,
                                                                         const ClusterFitOptions& cluster,
                                                                         double target_loss) {
  const LawSet& laws = context.laws();
  TargetLossResult out;
  out.target_loss = target_loss;
  const auto C_star = context.line().equal_loss_compute(target_loss, Flops(1e22));
  if (!C_star) {
    return std::unexpected(ConstraintViolation{
        "a compute-optimal plan reaching the target loss",
        fmt::format("paper 002's compute-optimal line reaches no loss of {:.6g} between 1e10 and 1e28 FLOPs (paper 001's "
                    "joint law on its curves)",
                    target_loss)});
  }
  out.compute_optimal_compute = *C_star;
  // The reference plan: the compute-optimal one for C* (its EL is the family moves' bar).
  PlanGoal at_star = goal;
  at_star.compute = *C_star;
  FitMemo memo;  // every fit of the search is on `cluster` (the scan's plain copy: co_design alone)
  auto ref = plan_goal(context, at_star, rule, rank, &cluster, &memo);
  double el_reference = 0, ref_n_over_na = 0, ref_m_over_na = 0;
  if (ref) {
    const ExpertShape shape = expert_shape(plan_config(plan_suggestion(*ref)));
    el_reference = laws.leverage.at(shape.activation_ratio, shape.granularity, *C_star);
    ref_n_over_na = plan_suggestion(*ref).solution.accounting.n_over_na();
    ref_m_over_na = plan_suggestion(*ref).solution.accounting.m_over_na();
  }
  const double gpus = cluster.cluster.gpus;
  // The price of a plan: the GPU-hours to train it to the target.
  const auto hours_to_target = [&](const TimedPlan& t) -> std::optional<std::pair<double, Tokens>> {
    const Accounting& a = plan_suggestion(t.plan).solution.accounting;
    const auto D = tokens_to_reach(laws.joint, a.N, a.N_a, t.active_experts, t.shared_ratio, target_loss);
    if (!D || !(D->value() < 1e20)) return std::nullopt;
    return std::pair{D->value() / t.tokens_per_second / 3600 * gpus, *D};
  };
  // Four decades below C* (a cluster that cannot hold the compute-optimal plan reaches L with a
  // smaller one trained longer) to half a decade above, in half decades, refined to eighths.
  ScanResult scan = scan_plans(context, goal, rule, cluster, *C_star, SizeRange{32, 4, 4, true}, *C_star, el_reference,
                               families_of(context, ref_n_over_na, ref_m_over_na), hours_to_target, memo);
  out.plans_evaluated = scan.plans;
  out.rejected = std::move(scan.rejected);
  if (!scan.best) {
    return std::unexpected(ConstraintViolation{
        "a plan that reaches the target loss on the cluster",
        fmt::format("no plan from C = {:.3g} to {:.3g} FLOPs (around the compute-optimal C* = {:.4g} for loss {:.6g}) "
                    "reaches it on {} x {} ({} plans tried): at those budgets the plans either have no layout that "
                    "fits or cannot be planned at all (paper 002's layer solve needs L >= 1)",
                    C_star->value() / 1e4, C_star->value() * std::pow(10.0, 0.5), C_star->value(), target_loss,
                    cluster.cluster.gpus, cluster.cluster.gpu.id, scan.plans)});
  }
  auto p = replan_with_tokens(context, goal, rule, rank, cluster, *scan.best, memo);
  if (!p) {
    return std::unexpected(ConstraintViolation{"a plan that reaches the target loss on the cluster",
                                               "the best plan of the scan could not be planned again with its D fixed"});
  }
  const Tokens D = plan_suggestion(*p).tokens;
  // The budget the plan prints (the header's C, budget.compute) is M·D of the plan printed:
  // co-design moved M off the goal's, whose M·D the budget held (issue 48's review: the header
  // read 7.376e21 above a plan of M·D = 7.428e21).
  const Flops spent = plan_suggestion(*p).training_compute;
  const ComputeOptimalPoint at_spent = compute_optimal(laws.holistic.compute_optimal, spent);  // paper 002 Eq. 2
  const auto respend = [&](Suggestion& s) {
    s.resolved.C = spent;
    s.budget = at_spent;
  };
  for (RankedCandidate& c : p->ranking.candidates) respend(c.suggestion);
  if (p->on_cluster) respend(p->on_cluster->plan.suggestion);
  out.plan = timed_plan(laws, std::move(*p), D, *C_star);
  out.training_compute = spent;
  return out;
}

}  // namespace moeplan
