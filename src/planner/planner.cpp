#include "moeplan/planner/planner.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "moeplan/base/search.hpp"
#include "moeplan/planner/head_schedule.hpp"
#include "moeplan/planner/holistic_targets.hpp"
#include "moeplan/base/work_counts.hpp"

namespace moeplan {

namespace {

using Violation = std::unexpected<ConstraintViolation>;

// Work bound for widening the d window: (d, L, L_d) triples searched per pass (~0.1 s).
constexpr double k_max_search_pairs = 2e7;

Violation violation(std::string constraint, std::string detail) {
  return Violation(ConstraintViolation{std::move(constraint), std::move(detail)});
}

ArchitectureFamily apply_overrides(ArchitectureFamily f, const SuggestOptions& o) {
  f.seq_len = o.seq_len.value_or(f.seq_len);
  f.n_experts = o.n_experts.value_or(f.n_experts);
  f.top_k = o.top_k.value_or(f.top_k);
  f.n_shared_experts = o.n_shared_experts.value_or(f.n_shared_experts);
  f.vocab_size = o.vocab_size.value_or(f.vocab_size);
  f.dense_ffn_ratio = o.dense_ffn_ratio.value_or(f.dense_ffn_ratio);
  return f;
}

// Relations between settings that no single flag check can see.
std::optional<ConstraintViolation> check_family(const ArchitectureFamily& f, int alignment,
                                                double tolerance) {
  auto fail = [](std::string c, std::string d) {
    return std::optional<ConstraintViolation>(ConstraintViolation{std::move(c), std::move(d)});
  };
  if (f.top_k < 1) return fail("K >= 1", fmt::format("K = {}", f.top_k));
  if (f.n_experts <= f.top_k) {
    return fail("K < N_e (paper 002 Eq. 3: N - N_a = 3 d d_m (N_e - K) L_m)",
                fmt::format("K = {} but N_e = {}", f.top_k, f.n_experts));
  }
  if (f.n_shared_experts < 0) return fail("shared experts >= 0", fmt::format("{}", f.n_shared_experts));
  if (f.n_experts > 1'000'000 || f.n_shared_experts > 1'000'000) {
    return fail("N_e, shared experts <= 1e6",
                fmt::format("N_e = {}, shared = {}", f.n_experts, f.n_shared_experts));
  }
  if (f.seq_len < 1) return fail("S >= 1", fmt::format("S = {}", f.seq_len));
  if (f.vocab_size < 0) return fail("vocabulary >= 0", fmt::format("{}", f.vocab_size));
  if (!(f.dense_ffn_ratio > 0)) {
    return fail("d_d/d > 0", fmt::format("d_d/d = {}", f.dense_ffn_ratio));
  }
  if (alignment < 1) return fail("alignment >= 1", fmt::format("{}", alignment));
  if (!(tolerance > 0)) return fail("tolerance > 0", fmt::format("{}", tolerance));
  return std::nullopt;
}

std::optional<ConstraintViolation> check_heads(const AttentionHeads& h) {
  if (h.n_q < 1 || h.n_kv < 1 || h.d_qkv < 1 || h.n_kv > h.n_q || h.n_q % h.n_kv != 0) {
    return ConstraintViolation{
        "1 <= N_kv <= N_q with N_q a multiple of N_kv (GQA), d_qkv >= 1",
        fmt::format("N_q = {}, N_kv = {}, d_qkv = {}", h.n_q, h.n_kv, h.d_qkv)};
  }
  return std::nullopt;
}

std::string decades(double c, double bound) {
  return fmt::format("{:.2f}", std::abs(std::log10(c / bound)));
}


// The aligned d the layer solve may use: a fixed d (the user's or a variant's), or the
// steps k·alignment with k in [lo, hi] (k >= 1) inside the feasible interval, around the
// target d.
struct DChoice {
  std::vector<int> fixed;
  double lo_step = 0, hi_step = 0;
};

// Step 1 (Sec. 7): the asked budget's M_opt and D_opt from Eq. 2, and what stderr says
// about C, C' and S.
void budget_step(const HolisticLaws& laws, const ResolvedBudget& b, const ArchitectureFamily& family,
                 Suggestion& s) {
  s.budget = compute_optimal(laws.compute_optimal, b.C);
  s.resolved = b;
  const auto outside = [&](double C, const char* what) -> std::string {
    if (C < laws.fitted_compute_min) {
      return fmt::format("{} = {:.3g} FLOPs is {} decades below the smallest budget the laws were "
                         "fitted on ({:.3g}); every law is extrapolated",
                         what, C, decades(C, laws.fitted_compute_min), laws.fitted_compute_min);
    }
    if (C > laws.fitted_compute_max) {
      return fmt::format("{} = {:.3g} FLOPs is {} decades above the largest budget the laws were "
                         "fitted on ({:.3g}); every law is extrapolated",
                         what, C, decades(C, laws.fitted_compute_max), laws.fitted_compute_max);
    }
    return "";
  };
  s.fitted_range_warning = outside(b.C.value(), "C");
  if (!b.warning.empty()) s.warnings.push_back(b.warning);
  if (b.shape_compute != b.C) {
    if (std::string w = outside(b.shape_compute.value(), "the shape budget C'"); !w.empty()) {
      s.warnings.push_back(w + " (the shape laws are read at C')");
    }
  }
  if (family.seq_len != laws.family_defaults.seq_len) {
    s.warnings.push_back(fmt::format(
        "S = {}: the M/N_a law and Table 4 come from runs at S = {} (paper 002 Sec. 4.2.2); "
        "with another S the same M/N_a buys attention with more or fewer layers",
        family.seq_len, laws.family_defaults.seq_len));
  }
}

// Heads: a variant's, the user's, the anchored shape's past Table 4, Table 4 inside it.
std::optional<ConstraintViolation> heads_step(const HolisticLaws& laws, const SuggestOptions& o,
                                              const Tweak& tweak, Flops shape_compute,
                                              ArchitectureFamily& family, Suggestion& s,
                                              const std::optional<ShapeExtrapolation>& shape) {
  if (tweak.heads) {
    family.heads = *tweak.heads;
    s.heads_source = HeadsSource::ranking;
  } else if (o.heads) {
    family.heads = *o.heads;
    s.heads_source = HeadsSource::user;
  } else if (shape) {
    family.heads = shape->heads;
    s.heads_source = HeadsSource::extrapolated;
  } else {
    if (laws.heads.empty()) return ConstraintViolation{"head schedule", "the laws define no heads"};
    family.heads = table4_heads(laws, shape_compute.value());
    s.heads_source = HeadsSource::table4_schedule;
    s.heads_widened = table4_widening(laws, shape_compute.value());
  }
  return check_heads(family.heads);
}

// Step 4: the feasible d interval for the targets solved for, and the d to aim for.
std::expected<DChoice, ConstraintViolation> d_step(const HolisticLaws& laws, const SuggestOptions& o,
                                                   const Tweak& tweak, const LayerTargets& solve_for,
                                                   Flops shape_compute,
                                                   const std::optional<ShapeExtrapolation>& shape,
                                                   const ArchitectureFamily& family, Suggestion& s) {
  const double C = shape_compute.value();
  auto interval = feasible_d_interval(solve_for, family);
  if (!interval) return std::unexpected(interval.error());
  s.d_interval = *interval;
  if (interval->layers > k_max_layers) {
    return violation(fmt::format("L <= {:g} (moeplan's layer search limit)", k_max_layers),
                     fmt::format("the targets imply L = {:.4g} layers with S = {}, N_q = {}, "
                                 "d_qkv = {}; raise the heads or S",
                                 interval->layers, family.seq_len, family.heads.n_q,
                                 family.heads.d_qkv));
  }
  DChoice choice;
  // A variant's d (ranking or alignment): aligned and inside the interval, or no variant.
  const auto variant_d = [&]() -> std::expected<DChoice, ConstraintViolation> {
    if (*tweak.d % s.alignment != 0 || !interval->contains(*tweak.d)) {
      return violation("a variant's d inside its feasible interval, aligned",
                       fmt::format("d = {} (alignment {}), interval [{:.1f}, {:.1f}]", *tweak.d,
                                   s.alignment, interval->d_min, interval->d_max));
    }
    return DChoice{{*tweak.d}, 0, 0};
  };
  if (o.d && tweak.d) {  // a variant moves the user's d (an alignment step)
    s.d_source = DSource::ranking;
    s.d_target = *o.d;
    return variant_d();
  }
  if (o.d) {
    s.d_source = DSource::user;
    s.d_target = *o.d;
    if (*o.d % s.alignment != 0) {
      return violation("d is a multiple of the alignment",
                       fmt::format("d = {} is not a multiple of {}", *o.d, s.alignment));
    }
    if (!interval->contains(*o.d)) {
      return violation(
          "d inside its feasible interval (paper 002 Sec. 4.3)",
          fmt::format("d = {} but the targets allow d in [{:.1f}, {:.1f}]; {} by {:.1f}", *o.d,
                      interval->d_min, interval->d_max,
                      *o.d < interval->d_min ? "below" : "above",
                      *o.d < interval->d_min ? interval->d_min - *o.d : *o.d - interval->d_max));
    }
    choice.fixed.push_back(*o.d);
    return choice;
  }
  if (laws.d_law) {
    s.d_source = DSource::d_law;
    s.d_target = (*laws.d_law)(C);
  } else if (shape && interval->contains(shape->d)) {
    s.d_source = DSource::shape_extrapolation;
    s.d_target = shape->d;
  } else {
    if (shape && !tweak.d) {  // the user's heads or ratios moved the interval off the shape
      s.warnings.push_back(fmt::format(
          "the anchored shape's d = {:.0f} lies outside the feasible [{:.0f}, {:.0f}] that "
          "the overrides leave; d is the interval's median (paper 002 Sec. 4.3 proxy)",
          shape->d, interval->d_min, interval->d_max));
    }
    s.d_source = DSource::median_of_feasible_interval;
    s.d_target = interval->median();
  }
  if (tweak.d) {  // a variant's d; d_target stays the pipeline's, which the ranking measures from
    s.d_source = DSource::ranking;
    return variant_d();
  }
  if (!interval->contains(s.d_target)) {
    return violation(fmt::format("d from the {} inside its feasible interval",
                                 s.d_source == DSource::d_law ? "d law" : "anchored shape"),
                     fmt::format("d = {:.1f} at C = {:.3g} lies outside [{:.1f}, {:.1f}] "
                                 "(set --d, or the heads with --n-q/--n-kv/--d-qkv)",
                                 s.d_target, C, interval->d_min, interval->d_max));
  }
  choice.lo_step = std::max(1.0, std::ceil(interval->d_min / s.alignment));
  choice.hi_step = std::floor(interval->d_max / s.alignment);
  if (choice.hi_step < choice.lo_step) {
    return violation(
        "an aligned d inside the feasible interval",
        fmt::format("no multiple of {} lies in [{:.1f}, {:.1f}]", s.alignment,
                    interval->d_min, interval->d_max));
  }
  return choice;
}

// Step 5: integer layer solve (Eq. 3). Search the aligned d nearest the target first (the
// Sec. 4.3 proxy itself, so d follows the target up with the budget), then ±2 steps; if
// no integer config there meets the tolerance (small budgets, where one layer
// is a large share of N_a), widen the window geometrically up to the whole interval:
// d is the proxy dimension (rank-preserving, Sec. 4.3), so moving it costs less than
// missing (M, N_a, N).
// `d_ok`: the steering constraints that depend on d alone; a d they refuse would have every
// config refused by `admit`, so leaving it out changes no answer, only the work.
std::optional<LayerSolution> solve_integer_layers(const ArchitectureFamily& family,
                                                  const DChoice& choice, const LayerTargets& targets,
                                                  const Suggestion& s, const ArchitectureFilter& admit,
                                                  const std::function<bool(int)>& d_ok,
                                                  const std::function<bool(int)>& layers_ok) {
  if (!choice.fixed.empty()) {
    std::vector<int> fixed = choice.fixed;
    if (d_ok) std::erase_if(fixed, [&](int d) { return !d_ok(d); });
    return solve_layers(targets, family, fixed, s.alignment, admit, layers_ok);
  }
  std::optional<LayerSolution> solution;
  std::vector<int> d_candidates;
  const double center = std::round(s.d_target / s.alignment);
  for (double half = 0;; half = half == 0 ? 2 : 2 * half) {
    d_candidates.clear();
    double window = 0;  // aligned d in the window, those d_ok leaves out included
    for (double k = std::max(choice.lo_step, center - half);
         k <= std::min(choice.hi_step, center + half); k += 1) {
      window += 1;
      const int d = static_cast<int>(k * s.alignment);
      if (!d_ok || d_ok(d)) d_candidates.push_back(d);
    }
    solution = solve_layers(targets, family, d_candidates, s.alignment, admit, layers_ok);
    const bool whole = center - half <= choice.lo_step && center + half >= choice.hi_step;
    // Each d costs about 5·L (L, L_d) pairs; stop widening before the next window would
    // exceed k_max_search_pairs, and report the best config found so far.
    const double next_pairs = 2.0 * window * 5.0 * (s.d_interval.layers + 3);
    if (whole || (solution && solution->max_abs_error() <= s.tolerance) ||
        next_pairs > k_max_search_pairs) {
      return solution;
    }
  }
}

// The solved config meets the targets it was solved for within the tolerance and Eq. 4's
// ratios (the constraints come after, in Planner::violation).
std::optional<ConstraintViolation> tolerance_check(const LayerSolution& sol, double tolerance) {
  const struct {
    const char* name;
    double error;
  } errors[] = {{"M", sol.error_M}, {"N_a", sol.error_N_a}, {"N", sol.error_N}};
  for (const auto& e : errors) {
    if (std::abs(e.error) > tolerance) {
      return ConstraintViolation{
          fmt::format("|{0}/{0}_target - 1| <= {1:g} (paper 002 Table 4 note)", e.name, tolerance),
          fmt::format("the closest integer config (d = {}, L_d = {}, L_m = {}, d_m = {}) misses "
                      "{} by {:+.3g}% (tolerance {:.3g}%; raise --tolerance or change "
                      "--align)",
                      sol.arch.d, sol.arch.L_d, sol.arch.L_m, sol.arch.d_m, e.name,
                      100 * e.error, 100 * tolerance)};
    }
  }
  const Accounting& acc = sol.accounting;
  for (double r : {acc.r_a, acc.r_d, acc.r_m}) {
    if (!(r >= 0.0 && r <= 1.0)) {
      return ConstraintViolation{"0 <= r_a, r_d, r_m <= 1 (paper 002 Eq. 4)",
                                 fmt::format("r_a = {:.4g}, r_d = {:.4g}, r_m = {:.4g}", acc.r_a,
                                             acc.r_d, acc.r_m)};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<Constraint> standard_constraints(const AspectBounds& d_over_l) {
  std::vector<Constraint> out;
  // A MoE plan whose MoE part has collapsed is no plan. The rule: most layers are MoE
  // layers (L_m >= L_d), and the experts are at most 4x finer than the finest granularity
  // paper 000 trained (Table 9: 2d/d_expert up to 16, so 2d/d_m <= 64). Every default plan
  // from 1e18 to 1e26 FLOPs meets it with room (L_m/L >= 0.85, 2d/d_m <= 17.5); a target
  // N/N_a near 1 with N_e held (--n-over-na 1.0001: 55 dense layers, 1 MoE layer of d_m = 8)
  // does not.
  out.push_back({"L_m >= L_d", false, [](const MoeArchitecture& a, const Accounting& acc)
                                   -> std::optional<ConstraintViolation> {
    if (a.L_m >= a.L_d) return std::nullopt;
    return ConstraintViolation{
        "a MoE part that has not collapsed: L_m >= L_d (docs/design.md)",
        fmt::format("the closest config has {} MoE layer(s) and {} dense layers (L_m/L = {:.3g}): "
                    "its M/N_a = {:.4g}, N/N_a = {:.6g} with N_e = {}, K = {} leave the MoE layers "
                    "too small a share of N_a; move --n-over-na or --m-over-na toward the laws' "
                    "values, or change --experts/--top-k",
                    a.L_m, a.L_d, double(a.L_m) / a.layers(), acc.m_over_na(), acc.n_over_na(),
                    a.family.n_experts, a.family.top_k)};
  }, {}, {}, {}});
  out.push_back({"2d/d_m <= 64", false, [](const MoeArchitecture& a, const Accounting& acc)
                                     -> std::optional<ConstraintViolation> {
    const double g = 2.0 * a.d / a.d_m;
    if (g <= 64) return std::nullopt;
    return ConstraintViolation{
        "expert granularity 2d/d_m <= 64: at most 4x paper 000's finest (Table 9: 16)",
        fmt::format("the closest config has d = {}, d_m = {}: 2d/d_m = {:.4g}, {:.4g} above the "
                    "limit; its N/N_a = {:.6g} with N_e = {}, K = {} leaves too few inactive "
                    "expert parameters for this many experts; raise --n-over-na or lower --experts",
                    a.d, a.d_m, g, g - 64, acc.n_over_na(), a.family.n_experts, a.family.top_k)};
  }, {}, {}, {}});
  // A credible shape: no plan of thousands of layers or of one very wide layer is printed.
  out.push_back({"d/L", false, [d_over_l](const MoeArchitecture& a, const Accounting&)
                            -> std::optional<ConstraintViolation> {
    const double aspect = double(a.d) / a.layers();
    if (aspect >= d_over_l.min && aspect <= d_over_l.max) return std::nullopt;
    const bool low = aspect < d_over_l.min;
    const AttentionHeads& h = a.family.heads;
    return ConstraintViolation{
        fmt::format("{:g} <= d/L <= {:g} (credible shapes; docs/design.md)", d_over_l.min, d_over_l.max),
        fmt::format("the plan (d = {}, L = {}, N_q = {}, d_qkv = {}, S = {}) has d/L = {:.4g}, {} "
                    "by {:.4g}; {} or accept it with --d-over-l LO:HI",
                    a.d, a.layers(), h.n_q, h.d_qkv, a.family.seq_len, aspect, low ? "below" : "above",
                    low ? d_over_l.min - aspect : aspect - d_over_l.max,
                    low ? "widen the attention (--n-q/--d-qkv) or shorten --seq-len"
                        : "narrow the attention (--n-q/--d-qkv) or set --d")};
  }, {}, {}, {}});
  return out;
}

Constraint total_params_cap(Params cap) {
  return {"N <= cap", true, [cap](const MoeArchitecture&, const Accounting& acc)
                          -> std::optional<ConstraintViolation> {
    if (acc.N <= cap) return std::nullopt;
    return ConstraintViolation{
        fmt::format("N <= {:.4g} (--total-params)", cap.value()),
        fmt::format("the plan has N = {:.4g} total non-embedding parameters, {:.4g} ({:.3g} %) above "
                    "the cap",
                    acc.N.value(), acc.N.value() - cap.value(), 100 * (acc.N / cap - 1))};
  }, {}, {}, {}};
}

SuggestOptions family_options(const ArchitectureFamily& f) {
  SuggestOptions o;
  o.seq_len = f.seq_len;
  o.n_experts = f.n_experts;
  o.top_k = f.top_k;
  o.n_shared_experts = f.n_shared_experts;
  o.vocab_size = f.vocab_size;
  o.dense_ffn_ratio = f.dense_ffn_ratio;
  return o;
}

Planner::Planner(const HolisticLaws& laws, SuggestOptions options)
    : laws_(&laws),
      options_(std::move(options)),
      family_(apply_overrides(laws.family_defaults, options_)),
      anchor_(std::unexpected(ConstraintViolation{"head schedule", "the laws define no heads"})) {
  work::tally(work::Step::planner_construction);
  const AspectBounds d_over_l = options_.d_over_l.value_or(laws.d_over_l);
  if (!(d_over_l.min > 0 && d_over_l.max >= d_over_l.min && std::isfinite(d_over_l.max))) {
    family_problem_ = ConstraintViolation{"0 < min <= max for the d/L range",
                                          fmt::format("d/L range {:g}:{:g}", d_over_l.min, d_over_l.max)};
  } else {
    family_problem_ = check_family(family_, options_.alignment.value_or(laws.alignment),
                                   options_.tolerance.value_or(laws.tolerance));
  }
  constraints_ = standard_constraints(d_over_l);
  if (family_problem_) anchor_ = std::unexpected(*family_problem_);  // no plan for this family
  if (laws.heads.empty() || family_problem_) return;
  // The anchor: the family's own in-range plan at the last Table 4 row, planned once with
  // the family alone (not the user's d, heads, ratios or alignment), as every budget past
  // the row keeps its shape. In range the steps never ask for the anchor: no recursion.
  const Flops C4(laws.heads.back().compute);
  const Planner at_row(*this, AnchorRow{});
  const auto M4 = compute_optimal(laws.compute_optimal, C4).M;
  auto plan = at_row.solve_steps(compute_optimal_budget(C4, M4), {}, false);
  if (!plan) {
    anchor_ = std::unexpected(ConstraintViolation{
        plan.error().constraint,
        fmt::format("at the last Table 4 row (C = {:.3g}), whose plan's shape larger budgets "
                    "keep: {}",
                    C4.value(), plan.error().detail)});
    return;
  }
  anchor_ = anchor_of(laws, plan->solution.arch);
}

Planner::Planner(const Planner& parent, AnchorRow)
    : laws_(parent.laws_),
      options_(family_options(parent.family_)),
      family_(parent.family_),
      family_problem_(parent.family_problem_),
      anchor_(parent.anchor_),
      constraints_(standard_constraints(parent.laws_->d_over_l)) {
  // The user's N/N_a is part of what the family can be (128 experts top-8 cannot hold the
  // F.4 schedule's 22): the row's plan, and so the shape past it, honours it.
  options_.n_over_na = parent.options_.n_over_na;
}

Flops Planner::shape_compute_for(FlopsPerToken M) const {
  const PowerLaw& m = laws_->compute_optimal.flops_per_token;  // M_opt = a_M C^b_M (Eq. 2)
  return Flops(std::pow(M.value() / m.coefficient, 1.0 / m.exponent));
}

std::optional<Flops> Planner::shape_compute_for_size(Params size, bool total, Flops lo,
                                                    Flops hi) const {
  const auto on_curve = [&](double C) -> std::optional<double> {
    auto t = targets(Flops(C));
    if (!t) return std::nullopt;
    return total ? t->targets.N.value() : t->targets.N_a.value();
  };
  const auto Cp = bisect_log(on_curve, size.value(), lo.value(), hi.value());
  if (!Cp) return std::nullopt;
  return Flops(*Cp);
}

std::expected<HolisticTargets, ConstraintViolation> Planner::targets(
    Flops shape_compute, const TargetOverrides& overrides) const {
  TargetOverrides o = overrides;
  // The user's ratios hold wherever this family is planned (sizes, the price's line).
  if (!o.m_over_na) o.m_over_na = options_.m_over_na;
  if (!o.n_over_na) o.n_over_na = options_.n_over_na;
  const bool past_table = !laws_->heads.empty() && shape_compute.value() > laws_->heads.back().compute;
  if (past_table && !o.anchor) {
    if (!anchor_) return std::unexpected(anchor_.error());
    o.anchor = *anchor_;
  }
  return holistic_targets(*laws_, shape_compute, family_, o);
}

std::optional<ConstraintViolation> Planner::first_violation(const MoeArchitecture& a,
                                                      const Accounting& acc) const {
  for (const Constraint& c : constraints_) {
    if (auto bad = c.check(a, acc)) return bad;
  }
  return std::nullopt;
}

namespace {

// Every input of a solve but the Planner's own, exactly (doubles in hexadecimal): the key of
// the solves kept. nullopt for a tweak with extra constraints (functions, not values).
std::optional<std::string> solve_key(const ResolvedBudget& b, const Tweak& t) {
  if (!t.constraints.empty()) return std::nullopt;
  const auto num = [](const auto& x) { return x ? fmt::format("{:a}", x->value()) : std::string("-"); };
  const auto plain = [](const auto& x) { return x ? fmt::format("{:a}", double(*x)) : std::string("-"); };
  const std::string heads = t.heads ? fmt::format("{}/{}/{}", t.heads->n_q, t.heads->n_kv, t.heads->d_qkv) : "-";
  return fmt::format("{}|{:a}|{:a}|{:a}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", static_cast<int>(b.kind), b.C.value(),
                     b.M.value(), b.shape_compute.value(), num(b.fixed_tokens), b.compute_given, b.compute_searched,
                     num(b.reference_compute), num(b.total_params_cap), b.how, b.warning, plain(t.d), heads,
                     plain(t.m_over_na), plain(t.n_over_na), plain(t.alignment));
}

}  // namespace

std::expected<Suggestion, ConstraintViolation> Planner::solve(const ResolvedBudget& budget,
                                                              const Tweak& tweak) const {
  const std::optional<std::string> key = solve_key(budget, tweak);
  if (!key) return solve_steps(budget, tweak, true);
  if (const auto it = solved_.find(*key); it != solved_.end()) return it->second;
  return solved_.emplace(*key, solve_steps(budget, tweak, true)).first->second;
}

std::expected<Suggestion, ConstraintViolation> Planner::solve_steps(const ResolvedBudget& budget,
                                                                    const Tweak& tweak,
                                                                    bool with_anchor) const {
  work::tally(work::Step::pipeline_solve);
  const HolisticLaws& laws = *laws_;
  const SuggestOptions& o = options_;
  for (double x : {budget.C.value(), budget.M.value(), budget.shape_compute.value()}) {
    if (!(x > 0) || !std::isfinite(x)) {
      return std::unexpected(ConstraintViolation{
          "C, M and C' > 0 and finite",
          fmt::format("C = {}, M = {}, C' = {}", budget.C.value(), budget.M.value(),
                      budget.shape_compute.value())});
    }
  }
  Suggestion s;
  ArchitectureFamily family = family_;
  s.alignment = tweak.alignment.value_or(o.alignment.value_or(laws.alignment));
  s.tolerance = o.tolerance.value_or(laws.tolerance);
  s.d_over_l = o.d_over_l.value_or(laws.d_over_l);
  budget_step(laws, budget, family, s);
  if (family_problem_) return std::unexpected(*family_problem_);

  // Steps 2-3: the law's targets at C' (what the plan is measured against), and those a
  // variant moves them to (what it is solved for).
  const TargetOverrides law_overrides{o.m_over_na, o.n_over_na, {}};
  auto law = with_anchor ? targets(budget.shape_compute, law_overrides)
                         : holistic_targets(laws, budget.shape_compute, family, law_overrides);
  if (!law) return std::unexpected(law.error());
  s.m_over_na_target = law->m_over_na;
  s.m_over_na_source = law->m_over_na_source;
  s.n_over_na_target = law->n_over_na;
  s.n_over_na_source = law->n_over_na_source;
  s.targets = law->targets;
  s.extrapolation = law->extrapolation;
  std::optional<HolisticTargets> moved;
  if (tweak.moves_targets()) {
    auto m = targets(budget.shape_compute, {tweak.m_over_na ? tweak.m_over_na : o.m_over_na,
                                            tweak.n_over_na ? tweak.n_over_na : o.n_over_na, {}});
    if (!m) return std::unexpected(m.error());
    moved = *m;
  }
  const HolisticTargets& solve_for = moved ? *moved : *law;
  // A cap the goal's own size cannot meet is refused before the search, with the target it
  // would have to break and by how much (no integer config lies within the tolerance).
  if (budget.total_params_cap && solve_for.targets.N.value() * (1.0 - s.tolerance) >
                                     budget.total_params_cap->value()) {
    const double N = solve_for.targets.N.value(), cap = budget.total_params_cap->value();
    const char* hint = budget.kind == GoalKind::compute_and_tokens
                           ? "more --tokens or less --flops (a smaller M = C / D)"
                       : budget.kind == GoalKind::inference_aware
                           ? "a larger --inference-tokens (a smaller model) or less --flops"
                           : "lower --active-params or --flops-per-token";
    return violation(fmt::format("N <= {:.4g} (--total-params)", cap),
                     fmt::format("the goal's size has N = {:.4g} total non-embedding parameters "
                                 "(target), {:.3g}x the cap; give {}, or raise the cap",
                                 N, N / cap, hint));
  }

  if (auto bad = heads_step(laws, o, tweak, budget.shape_compute, family, s, solve_for.extrapolation)) {
    return std::unexpected(*bad);
  }
  const auto choice = d_step(laws, o, tweak, solve_for.targets, budget.shape_compute,
                             solve_for.extrapolation, family, s);
  if (!choice) return std::unexpected(choice.error());

  // Step 5: the integer layer solve, steered by the constraints that say which configs
  // may exist at all (a cap on N); the shape rules are checked after it, so that a plan
  // that breaks them is reported, not quietly replaced.
  ArchitectureFilter admit;
  std::vector<const Constraint*> steering;
  for (const std::vector<Constraint>* list : {&constraints_, &tweak.constraints}) {
    for (const Constraint& c : *list) {
      if (c.steers_solve) steering.push_back(&c);
    }
  }
  std::optional<Constraint> cap;
  if (budget.total_params_cap) {
    cap = total_params_cap(*budget.total_params_cap);
    steering.push_back(&*cap);
  }
  if (!steering.empty()) {
    admit = [&steering](const MoeArchitecture& a) {
      std::optional<Accounting> acc;  // counted only for a rule that needs the counts
      return std::all_of(steering.begin(), steering.end(), [&](const Constraint* c) {
        if (c->holds_for_shape) return c->holds_for_shape(a);
        if (!acc) acc = account(a);
        return !c->check(a, *acc);
      });
    };
  }
  // Past the last Table 4 row, with nothing overridden, the plan is the anchored shape
  // rounded (every integer a non-decreasing function of the continuous d, so plans grow
  // smoothly with the budget); the least-squares solve is for everything else, and for a
  // rounded shape that the steering constraints refuse.
  std::optional<LayerSolution> solution;
  const bool pure_shape = s.d_source == DSource::shape_extrapolation && !tweak.d && !tweak.heads &&
                          !tweak.moves_targets() && !o.heads && !o.d && !o.m_over_na && !o.n_over_na;
  if (pure_shape) {
    const MoeArchitecture rounded = self_similar_architecture(*solve_for.extrapolation, family, s.alignment);
    LayerSolution fit = evaluate_against(rounded, solve_for.targets);
    if (rounded.L_m >= 1 && (!admit || admit(rounded)) && !tolerance_check(fit, s.tolerance)) {
      solution = std::move(fit);
    }
  }
  // Rules on d alone or on L alone narrow the search itself (same answer, less work).
  std::function<bool(int)> d_ok, layers_ok;
  const auto both = [](std::function<bool(int)>& all, const std::function<bool(int)>& one) {
    if (!one) return;
    all = all ? std::function<bool(int)>([a = all, b = one](int v) { return a(v) && b(v); }) : one;
  };
  for (const Constraint* c : steering) {
    both(d_ok, c->holds_for_d);
    both(layers_ok, c->holds_for_layers);
  }
  if (!solution) solution = solve_integer_layers(family, *choice, solve_for.targets, s, admit, d_ok, layers_ok);
  if (!solution) {
    std::string under;  // the steering constraints it had to meet, by name
    for (const Constraint* c : steering) under += (under.empty() ? " under " : ", ") + c->name;
    return violation("an integer layer config with L_m >= 1 and d_m >= alignment",
                     fmt::format("none exists for continuous L = {:.3g}{}", s.d_interval.layers, under));
  }
  if (auto bad = tolerance_check(*solution, s.tolerance)) return std::unexpected(*bad);
  if (auto bad = first_violation(solution->arch, solution->accounting)) return std::unexpected(*bad);
  for (const Constraint& c : tweak.constraints) {
    if (auto bad = c.check(solution->arch, solution->accounting)) return std::unexpected(*bad);
  }
  if (cap) {
    if (auto bad = cap->check(solution->arch, solution->accounting)) return std::unexpected(*bad);
  }
  // A variant is reported against the law's targets, not the ones it moved to.
  s.solution = moved ? evaluate_against(solution->arch, law->targets) : *solution;

  const FlopsPerToken M = s.solution.accounting.M;
  s.tokens = budget.fixed_tokens ? *budget.fixed_tokens : budget.C / M;
  s.training_compute = M * s.tokens;
  // A model trained on far fewer tokens than it has active parameters is outside anything
  // the laws were fitted on (paper 002's runs train on D_opt ≈ 20-60 N_a, paper 000's on 3x
  // more) and its predicted loss is not a number to plan with. The bound is an order of
  // magnitude under one token per parameter: a tenth of D_opt at 1e21 is D/N_a = 0.5.
  if (const double ratio = s.tokens.value() / s.solution.accounting.N_a.value(); ratio < 0.1) {
    return violation(
        "D >= 0.1 N_a: at least one training token per ten active parameters",
        fmt::format("the plan (N_a = {:.4g}) would train on D = {:.4g} tokens, D/N_a = {:.3g}; "
                    "its size is that of the compute-optimal plan at C' = {:.3g} FLOPs; give "
                    "more --tokens or less --flops",
                    s.solution.accounting.N_a.value(), s.tokens.value(), ratio,
                    budget.shape_compute.value()));
  }
  return s;
}

std::expected<ResolvedBudget, ConstraintViolation> Planner::resolve(const PlanGoal& goal) const {
  auto b = resolve_budget(goal);
  if (b && !(std::isfinite(b->C.value()) && std::isfinite(b->M.value()))) {
    return std::unexpected(ConstraintViolation{
        "C = M D finite", fmt::format("the goal gives C = {:.4g}, M = {:.4g}: out of range",
                                      b->C.value(), b->M.value())});
  }
  if (!b || b->kind == GoalKind::compute_optimal) return b;
  // A goal far off the laws' range (M = C / D of a few FLOPs) has no targets at its C':
  // say what the goal asked for, then why.
  if (auto t = targets(b->shape_compute); !t) {
    return std::unexpected(ConstraintViolation{
        t.error().constraint,
        fmt::format("the goal asks for M = {:.4g} FLOPs/token{}, the size of the compute-optimal "
                    "plan at C' = {:.4g} FLOPs, where the laws give no plan: {}",
                    b->M.value(),
                    b->kind == GoalKind::compute_and_tokens && goal.compute && goal.tokens
                        ? fmt::format(" (--flops {:.4g} / --tokens {:.4g})", goal.compute->value(), goal.tokens->value())
                        : std::string(),
                    b->shape_compute.value(), t.error().detail)});
  }
  return b;
}

std::expected<ResolvedBudget, ConstraintViolation> Planner::resolve_budget(const PlanGoal& goal) const {
  if (auto why = goal_problem(goal)) {
    return std::unexpected(ConstraintViolation{"a well-formed plan goal", *why});
  }
  const GoalKind kind = goal_kind(goal);
  const ComputeOptimalLaw& eq2 = laws_->compute_optimal;
  ResolvedBudget b;
  b.kind = kind;
  b.total_params_cap = goal.total_params_cap;
  switch (kind) {
    case GoalKind::compute_optimal:
      b = compute_optimal_budget(*goal.compute, compute_optimal(eq2, *goal.compute).M);
      b.total_params_cap = goal.total_params_cap;
      return b;
    case GoalKind::compute_and_tokens:
      b.C = *goal.compute;
      b.M = *goal.compute / *goal.tokens;
      b.shape_compute = shape_compute_for(b.M);
      b.fixed_tokens = goal.tokens;
      b.how = fmt::format("M = C / D = {:.4g} FLOPs/token; the shape of the compute-optimal plan "
                          "with that M (C' = {:.4g})",
                          b.M.value(), b.shape_compute.value());
      return b;
    case GoalKind::tokens_and_size:
    case GoalKind::compute_and_size:
    case GoalKind::size_capped:
      return size_goal(goal);
    case GoalKind::inference_aware:
      return std::unexpected(ConstraintViolation{
          "an inference goal is resolved with a loss law", "call resolve_goal (plan_price.hpp)"});
  }
  return b;
}

std::expected<ResolvedBudget, ConstraintViolation> Planner::size_goal(const PlanGoal& goal) const {
  const GoalKind kind = goal_kind(goal);
  ResolvedBudget b;
  b.kind = kind;
  b.total_params_cap = goal.total_params_cap;
  // The shape budgets searched: 1e12 to 1e32 FLOPs (models of ~1e3 to ~1e14 active
  // parameters), where paper 002's curves rise with C'.
  constexpr double lo = 1e12, hi = 1e32;
  if (kind == GoalKind::size_capped) {
    const Flops C = *goal.compute;
    const auto at_C = targets(C);
    if (!at_C) return std::unexpected(at_C.error());
    const double N_opt = at_C->targets.N.value();
    if (N_opt <= goal.total_params_cap->value()) {
      b = compute_optimal_budget(C, compute_optimal(laws_->compute_optimal, C).M);
      b.kind = GoalKind::size_capped;
      b.total_params_cap = goal.total_params_cap;
      b.how = fmt::format("the compute-optimal plan for C (N target {:.4g} <= the cap {:.4g})",
                          N_opt, goal.total_params_cap->value());
      return b;
    }
    const auto Cp = shape_compute_for_size(*goal.total_params_cap, true, Flops(lo), C);
    if (!Cp) {
      return std::unexpected(ConstraintViolation{
          fmt::format("N <= {:.4g} (--total-params)", goal.total_params_cap->value()),
          fmt::format("no compute-optimal shape from {:.0e} FLOPs up has so few total parameters",
                      lo)});
    }
    b.C = C;
    b.shape_compute = *Cp;
    b.M = compute_optimal(laws_->compute_optimal, b.shape_compute).M;
    b.how = fmt::format("the cap binds (the compute-optimal N at C is {:.4g}): the shape of the "
                        "compute-optimal plan with N = {:.4g} (C' = {:.4g}), trained on C / M tokens",
                        N_opt, goal.total_params_cap->value(), Cp->value());
    return b;
  }
  // N_a or M fixes the size.
  if (goal.flops_per_token) {
    b.M = *goal.flops_per_token;
    b.shape_compute = shape_compute_for(b.M);
    b.how = fmt::format("the shape of the compute-optimal plan with M = {:.4g} (C' = {:.4g})",
                        b.M.value(), b.shape_compute.value());
  } else {
    const double Na = goal.active_params->value();
    const auto Cp = shape_compute_for_size(*goal.active_params, false, Flops(lo), Flops(hi));
    if (!Cp) {
      return std::unexpected(ConstraintViolation{
          "N_a on paper 002's compute-optimal curve (--active-params)",
          fmt::format("no shape budget from {:.0e} to {:.0e} FLOPs has N_a = {:.4g}", lo, hi, Na)});
    }
    b.shape_compute = *Cp;
    b.M = compute_optimal(laws_->compute_optimal, b.shape_compute).M;
    b.how = fmt::format("the shape of the compute-optimal plan with N_a = {:.4g} (C' = {:.4g}, "
                        "M = {:.4g} FLOPs/token)",
                        Na, Cp->value(), b.M.value());
  }
  if (kind == GoalKind::tokens_and_size) {
    b.fixed_tokens = goal.tokens;
    b.C = b.M * *goal.tokens;
    b.compute_given = false;
    b.how += "; C = M·D";
  } else {
    b.C = *goal.compute;
    b.how += "; D = C / M";
  }
  return b;
}

}  // namespace moeplan
