#include "moeplan/planner/pipeline.hpp"

#include <cmath>

#include <fmt/format.h>

#include "moeplan/planner/head_schedule.hpp"
#include "moeplan/planner/holistic_targets.hpp"

namespace moeplan {

const char* to_string(DSource s) {
  switch (s) {
    case DSource::median_of_feasible_interval: return "median-of-feasible-interval";
    case DSource::d_law: return "d-law";
    case DSource::shape_extrapolation: return "shape-extrapolation";
    case DSource::ranking: return "ranking";
    case DSource::user: return "user";
  }
  return "?";
}

const char* to_string(HeadsSource s) {
  switch (s) {
    case HeadsSource::table4_schedule: return "table4-schedule";
    case HeadsSource::extrapolated: return "extrapolated";
    case HeadsSource::ranking: return "ranking";
    case HeadsSource::user: return "user";
  }
  return "?";
}

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

}  // namespace

namespace {

// The steps of suggest(), in order. Each fills its part of `s` or says which constraint
// failed; suggest() only sequences them.

// Step 1 (Sec. 7): M_opt and D_opt from Eq. 2, and what stderr says about C and S.
void compute_optimal_budget(const HolisticLaws& laws, const SuggestOptions& o,
                            const ArchitectureFamily& family, Suggestion& s) {
  const double C = o.compute.value();
  s.budget = compute_optimal(laws.compute_optimal, o.compute);
  if (C < laws.fitted_compute_min) {
    s.fitted_range_warning = fmt::format(
        "C = {:.3g} FLOPs is {} decades below the smallest budget the laws were fitted on "
        "({:.3g}); every law is extrapolated",
        C, decades(C, laws.fitted_compute_min), laws.fitted_compute_min);
  } else if (C > laws.fitted_compute_max) {
    s.fitted_range_warning = fmt::format(
        "C = {:.3g} FLOPs is {} decades above the largest budget the laws were fitted on "
        "({:.3g}); every law is extrapolated",
        C, decades(C, laws.fitted_compute_max), laws.fitted_compute_max);
  }
  if (family.seq_len != laws.family_defaults.seq_len) {
    s.warnings.push_back(fmt::format(
        "S = {}: the M/N_a law and Table 4 come from runs at S = {} (paper 002 Sec. 4.2.2); "
        "with another S the same M/N_a buys attention with more or fewer layers",
        family.seq_len, laws.family_defaults.seq_len));
  }
}

// Steps 2-3: M/N_a -> N_a and N/N_a -> N (one function for suggest and score).
std::optional<ConstraintViolation> targets_step(const HolisticLaws& laws, const SuggestOptions& o,
                                                const ArchitectureFamily& family, Suggestion& s) {
  auto targets = holistic_targets(laws, o.compute, family, {o.m_over_na, o.n_over_na, o.shape_anchor});
  if (!targets) return targets.error();
  s.m_over_na_target = targets->m_over_na;
  s.m_over_na_source = targets->m_over_na_source;
  s.n_over_na_target = targets->n_over_na;
  s.n_over_na_source = targets->n_over_na_source;
  s.targets = targets->targets;
  s.extrapolation = targets->extrapolation;
  return std::nullopt;
}

// Heads: the user's, Table 4 inside its range, the anchored shape's past it.
std::optional<ConstraintViolation> choose_heads(const HolisticLaws& laws, const SuggestOptions& o,
                                                ArchitectureFamily& family, Suggestion& s) {
  if (o.heads) {
    family.heads = *o.heads;
    s.heads_source = HeadsSource::user;
  } else if (s.extrapolation) {
    family.heads = s.extrapolation->heads;
    s.heads_source = HeadsSource::extrapolated;
  } else {
    if (laws.heads.empty()) {
      return ConstraintViolation{"head schedule", "the laws define no heads"};
    }
    family.heads = table4_heads(laws, o.compute.value());
    s.heads_source = HeadsSource::table4_schedule;
  }
  return check_heads(family.heads);
}

// The aligned d the layer solve may use: the user's one, or the steps k·alignment with k in
// [lo, hi] (k >= 1) inside the feasible interval, around the target d.
struct DChoice {
  std::vector<int> fixed;  ///< the user's d
  double lo_step = 0, hi_step = 0;
};

// Step 4: the feasible d interval and the d to aim for.
std::expected<DChoice, ConstraintViolation> choose_d(const HolisticLaws& laws,
                                                     const SuggestOptions& o,
                                                     const ArchitectureFamily& family,
                                                     Suggestion& s) {
  const double C = o.compute.value();
  auto interval = feasible_d_interval(s.targets, family);
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
  } else if (s.extrapolation && interval->contains(s.extrapolation->d)) {
    s.d_source = DSource::shape_extrapolation;
    s.d_target = s.extrapolation->d;
  } else {
    if (s.extrapolation) {  // the user's heads or ratios moved the interval off the shape
      s.warnings.push_back(fmt::format(
          "the anchored shape's d = {:.0f} lies outside the feasible [{:.0f}, {:.0f}] that "
          "the overrides leave; d is the interval's median (paper 002 Sec. 4.3 proxy)",
          s.extrapolation->d, interval->d_min, interval->d_max));
    }
    s.d_source = DSource::median_of_feasible_interval;
    s.d_target = interval->median();
  }
  if (!interval->contains(s.d_target)) {
    return violation(fmt::format("d from the {} inside its feasible interval",
                                 s.d_source == DSource::d_law ? "d law" : "anchored shape"),
                     fmt::format("d = {:.1f} at C = {:.3g} lies outside [{:.1f}, {:.1f}] "
                                 "(set --d, or the heads with --n-q/--n-kv/--d-qkv)",
                                 s.d_target, C, interval->d_min, interval->d_max));
  }
  // The aligned d in the interval are k·alignment for k in [lo_step, hi_step], k >= 1.
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

// Step 5: integer layer solve (Eq. 3). Search the aligned d around the target, ±2 steps
// first; if no integer config there meets the tolerance (small budgets, where one layer
// is a large share of N_a), widen the window geometrically up to the whole interval:
// d is the proxy dimension (rank-preserving, Sec. 4.3), so moving it costs less than
// missing (M, N_a, N).
std::optional<LayerSolution> solve_integer_layers(const ArchitectureFamily& family,
                                                  const DChoice& choice, const Suggestion& s) {
  if (!choice.fixed.empty()) return solve_layers(s.targets, family, choice.fixed, s.alignment);
  std::optional<LayerSolution> solution;
  std::vector<int> d_candidates;
  const double center = std::round(s.d_target / s.alignment);
  for (double half = 2;; half *= 2) {
    d_candidates.clear();
    for (double k = std::max(choice.lo_step, center - half);
         k <= std::min(choice.hi_step, center + half); k += 1) {
      d_candidates.push_back(static_cast<int>(k * s.alignment));
    }
    solution = solve_layers(s.targets, family, d_candidates, s.alignment);
    const bool whole = center - half <= choice.lo_step && center + half >= choice.hi_step;
    // Each d costs about 5·L (L, L_d) pairs; stop widening before the next window would
    // exceed k_max_search_pairs, and report the best config found so far.
    const double next_pairs = 2.0 * double(d_candidates.size()) * 5.0 * (s.d_interval.layers + 3);
    if (whole || (solution && solution->max_abs_error() <= s.tolerance) ||
        next_pairs > k_max_search_pairs) {
      return solution;
    }
  }
}

// The solved config meets the targets within the tolerance, Eq. 4's ratios and a credible
// shape.
std::optional<ConstraintViolation> check_solution(const ArchitectureFamily& family,
                                                  const Suggestion& s) {
  const LayerSolution& sol = s.solution;
  const struct {
    const char* name;
    double error;
  } errors[] = {{"M", sol.error_M}, {"N_a", sol.error_N_a}, {"N", sol.error_N}};
  for (const auto& e : errors) {
    if (std::abs(e.error) > s.tolerance) {
      return ConstraintViolation{
          fmt::format("|{0}/{0}_target - 1| <= {1:g} (paper 002 Table 4 note)", e.name,
                      s.tolerance),
          fmt::format("the closest integer config (d = {}, L_d = {}, L_m = {}, d_m = {}) misses "
                      "{} by {:+.3g}% (tolerance {:.3g}%; raise --tolerance or change "
                      "--align)",
                      sol.arch.d, sol.arch.L_d, sol.arch.L_m, sol.arch.d_m, e.name,
                      100 * e.error, 100 * s.tolerance)};
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
  // A MoE plan whose MoE part has collapsed is no plan. The rule: most layers are MoE
  // layers (L_m >= L_d), and the experts are at most 4x finer than the finest granularity
  // paper 000 trained (Table 9: 2d/d_expert up to 16, so 2d/d_m <= 64). Every default plan
  // from 1e18 to 1e26 FLOPs meets it with room (L_m/L >= 0.85, 2d/d_m <= 17.5); a target
  // N/N_a near 1 with N_e held (--n-over-na 1.0001: 55 dense layers, 1 MoE layer of d_m = 8)
  // does not.
  if (sol.arch.L_m < sol.arch.L_d) {
    return ConstraintViolation{
        "a MoE part that has not collapsed: L_m >= L_d (docs/design.md)",
        fmt::format("the closest config has {} MoE layer(s) and {} dense layers (L_m/L = {:.3g}): the "
                    "targets (M/N_a = {:.4g}, N/N_a = {:.6g} with N_e = {}, K = {}) leave the MoE "
                    "layers too small a share of N_a; move --n-over-na or --m-over-na toward the "
                    "laws' values, or change --experts/--top-k",
                    sol.arch.L_m, sol.arch.L_d, double(sol.arch.L_m) / sol.arch.layers(),
                    s.m_over_na_target, s.n_over_na_target, family.n_experts, family.top_k)};
  }
  if (const double g = 2.0 * sol.arch.d / sol.arch.d_m; g > 64) {
    return ConstraintViolation{
        "expert granularity 2d/d_m <= 64: at most 4x paper 000's finest (Table 9: 16)",
        fmt::format("the closest config has d = {}, d_m = {}: 2d/d_m = {:.4g}, {:.4g} above the "
                    "limit; the targets (N/N_a = {:.6g} with N_e = {}, K = {}) leave too few inactive "
                    "expert parameters for this many experts; raise --n-over-na or lower --experts",
                    sol.arch.d, sol.arch.d_m, g, g - 64, s.n_over_na_target, family.n_experts,
                    family.top_k)};
  }
  // A credible shape: no plan of thousands of layers or of one very wide layer is printed.
  const double aspect = double(sol.arch.d) / sol.arch.layers();
  if (!(aspect >= s.d_over_l.min && aspect <= s.d_over_l.max)) {
    const bool low = aspect < s.d_over_l.min;
    return ConstraintViolation{
        fmt::format("{:g} <= d/L <= {:g} (credible shapes; docs/design.md)", s.d_over_l.min,
                    s.d_over_l.max),
        fmt::format("the plan (d = {}, L = {}, N_q = {}, d_qkv = {}, S = {}) has d/L = {:.4g}, {} "
                    "by {:.4g}; {} or accept it with --d-over-l LO:HI",
                    sol.arch.d, sol.arch.layers(), family.heads.n_q, family.heads.d_qkv,
                    family.seq_len, aspect, low ? "below" : "above",
                    low ? s.d_over_l.min - aspect : aspect - s.d_over_l.max,
                    low ? "widen the attention (--n-q/--d-qkv) or shorten --seq-len"
                        : "narrow the attention (--n-q/--d-qkv) or set --d")};
  }
  return std::nullopt;
}

}  // namespace

std::expected<Suggestion, ConstraintViolation> suggest(const HolisticLaws& laws,
                                                       const SuggestOptions& o) {
  const double C = o.compute.value();
  if (!(C > 0) || !std::isfinite(C)) {
    return violation("C > 0 and finite", fmt::format("C = {}", C));
  }
  Suggestion s;
  ArchitectureFamily family = apply_overrides(laws.family_defaults, o);
  s.alignment = o.alignment.value_or(laws.alignment);
  s.tolerance = o.tolerance.value_or(laws.tolerance);
  s.d_over_l = o.d_over_l.value_or(laws.d_over_l);
  if (!(s.d_over_l.min > 0 && s.d_over_l.max >= s.d_over_l.min && std::isfinite(s.d_over_l.max))) {
    return violation("0 < min <= max for the d/L range",
                     fmt::format("d/L range {:g}:{:g}", s.d_over_l.min, s.d_over_l.max));
  }
  compute_optimal_budget(laws, o, family, s);
  // The family checks come first: the N/N_a bound of the targets needs them.
  if (auto bad = check_family(family, s.alignment, s.tolerance)) return std::unexpected(*bad);
  if (auto bad = targets_step(laws, o, family, s)) return std::unexpected(*bad);
  if (auto bad = choose_heads(laws, o, family, s)) return std::unexpected(*bad);
  const auto choice = choose_d(laws, o, family, s);
  if (!choice) return std::unexpected(choice.error());
  const auto solution = solve_integer_layers(family, *choice, s);
  if (!solution) {
    return violation("an integer layer config with L_m >= 1 and d_m >= alignment",
                     fmt::format("none exists for continuous L = {:.3g}", s.d_interval.layers));
  }
  s.solution = *solution;
  if (auto bad = check_solution(family, s)) return std::unexpected(*bad);
  s.tokens = Tokens(C / s.solution.accounting.M.value());
  return s;
}

std::vector<std::string> plan_notes(const Suggestion& s) {
  std::vector<std::string> out;
  if (!s.fitted_range_warning.empty()) out.push_back(s.fitted_range_warning);
  out.insert(out.end(), s.warnings.begin(), s.warnings.end());
  if (!s.extrapolation) return out;
  const ShapeAnchor& a = s.extrapolation->anchor;
  const AttentionHeads& h = s.solution.arch.family.heads;
  std::string ratio;
  switch (s.m_over_na_source) {
    case RatioSource::shape_extrapolation:
      ratio = fmt::format("M/N_a = {:.4g} follows from Eq. 5 for that shape", s.m_over_na_target);
      break;
    case RatioSource::user:
      ratio = fmt::format("M/N_a = {:.4g} was set by --m-over-na", s.m_over_na_target);
      break;
    default:
      ratio = fmt::format("M/N_a = {:.4g} ({})", s.m_over_na_target, to_string(s.m_over_na_source));
  }
  out.push_back(fmt::format(
      "past Table 4's last row (C = {:.3g}) the plan keeps the shape of the plan there "
      "(d/L = {:.3g}, L_d/L = {:.3g}; attention width {:.3g} d, set so that M/N_a meets the law "
      "at that row); {}; heads N_q = {}, N_kv = {}, d_qkv = {} ({})",
      a.compute, a.aspect_ratio, a.dense_layer_fraction, a.attention_width_ratio, ratio, h.n_q,
      h.n_kv, h.d_qkv, to_string(s.heads_source)));
  return out;
}

}  // namespace moeplan
