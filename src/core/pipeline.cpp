#include "moeplan/pipeline.hpp"

#include <cmath>

#include <fmt/format.h>

#include "moeplan/head_schedule.hpp"

namespace moeplan {

const char* to_string(DSource s) {
  switch (s) {
    case DSource::median_of_feasible_interval: return "median-of-feasible-interval";
    case DSource::d_law: return "d-law";
    case DSource::user: return "user";
  }
  return "?";
}

const char* to_string(HeadsSource s) {
  switch (s) {
    case HeadsSource::table4_schedule: return "table4-schedule";
    case HeadsSource::extrapolated: return "extrapolated";
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

  // Step 1 (Sec. 7): M_opt and D_opt from Eq. 2.
  s.budget = compute_optimal(laws.compute_optimal, o.compute);
  if (C < laws.fitted_compute_min) {
    s.warnings.push_back(fmt::format(
        "C = {:.3g} FLOPs is {} decades below the smallest budget the laws were fitted on "
        "({:.3g}); every law is extrapolated",
        C, decades(C, laws.fitted_compute_min), laws.fitted_compute_min));
  } else if (C > laws.fitted_compute_max) {
    s.warnings.push_back(fmt::format(
        "C = {:.3g} FLOPs is {} decades above the largest budget the laws were fitted on "
        "({:.3g}); every law is extrapolated",
        C, decades(C, laws.fitted_compute_max), laws.fitted_compute_max));
  }

  // Step 2: optimal M/N_a → N_a.
  if (o.m_over_na) {
    s.m_over_na_target = *o.m_over_na;
    s.m_over_na_overridden = true;
  } else {
    const auto x = laws.m_over_na.at(C);
    if (!x || !(*x > 6.0)) {
      return violation(
          "0 < s(C) < 1 for the M/N_a law (s = 1 - 6 N_a/M)",
          fmt::format("s({:.3g}) = {:.4g}: the law gives no M/N_a distinguishable from > 6 "
                      "at this budget",
                      C,
                      laws.m_over_na.score_share(C)));
    }
    s.m_over_na_target = *x;
  }
  if (!(s.m_over_na_target > 6.0)) {
    return violation("M/N_a > 6 (paper 002 Eq. 5)",
                     fmt::format("M/N_a = {:.6g} is {:.4g} at or below 6", s.m_over_na_target,
                                 6.0 - s.m_over_na_target));
  }

  // Step 3: N from the N/N_a choice (Appendix F.4).
  s.n_over_na_target = o.n_over_na.value_or(laws.n_over_na.at(C));
  s.n_over_na_overridden = o.n_over_na.has_value();
  if (auto bad = check_family(family, s.alignment, s.tolerance)) {
    return std::unexpected(*bad);
  }
  const double upper = max_n_over_na(family);
  if (!(s.n_over_na_target > 1.0 && s.n_over_na_target < upper)) {
    return violation(
        "1 < N/N_a < (N_e+s)/(K+s) (paper 002 Eq. 5)",
        fmt::format("N/N_a = {:.6g} but with N_e = {}, K = {}, {} shared expert(s) it must lie "
                    "in (1, {:.10g}); {} by {:.4g} (set --n-over-na)",
                    s.n_over_na_target, family.n_experts, family.top_k,
                    family.n_shared_experts, upper,
                    s.n_over_na_target <= 1.0 ? "below" : "above",
                    s.n_over_na_target <= 1.0 ? 1.0 - s.n_over_na_target
                                              : s.n_over_na_target - upper));
  }
  const double Na = s.budget.M.value() / s.m_over_na_target;
  s.targets = {s.budget.M, Params(Na), Params(Na * s.n_over_na_target)};

  // Heads: Table 4 schedule, its extrapolation, or the user's.
  if (o.heads) {
    family.heads = *o.heads;
    s.heads_source = HeadsSource::user;
  } else {
    auto heads = choose_heads(laws, C, s.targets, family);
    if (!heads) {
      return std::unexpected(heads.error());
    }
    family.heads = heads->heads;
    s.heads_source = heads->extrapolated ? HeadsSource::extrapolated : HeadsSource::table4_schedule;
    if (heads->extrapolated) {
      s.warnings.push_back(fmt::format(
          "attention heads extrapolated past Table 4 (last row C = {:.3g}): N_q = {}, "
          "N_kv = {}, d_qkv = {} so that N_q*d_qkv tracks d",
          laws.heads.back().compute, family.heads.n_q, family.heads.n_kv, family.heads.d_qkv));
    }
  }
  if (auto bad = check_heads(family.heads)) {
    return std::unexpected(*bad);
  }

  // Step 4: the feasible d interval and the d to aim for.
  auto interval = feasible_d_interval(s.targets, family);
  if (!interval) {
    return std::unexpected(interval.error());
  }
  s.d_interval = *interval;
  if (interval->layers > k_max_layers) {
    return violation(fmt::format("L <= {:g} (moeplan's layer search limit)", k_max_layers),
                     fmt::format("the targets imply L = {:.4g} layers with S = {}, N_q = {}, "
                                 "d_qkv = {}; raise the heads or S",
                                 interval->layers, family.seq_len, family.heads.n_q,
                                 family.heads.d_qkv));
  }
  std::vector<int> d_candidates;
  double lo_step = 0, hi_step = 0;  // set when d is not fixed by the user
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
    d_candidates.push_back(*o.d);
  } else {
    s.d_source = laws.d_law ? DSource::d_law : DSource::median_of_feasible_interval;
    s.d_target = laws.d_law ? (*laws.d_law)(C) : interval->median();
    if (!interval->contains(s.d_target)) {
      return violation("d from the d law inside its feasible interval",
                       fmt::format("d_law({:.3g}) = {:.1f} outside [{:.1f}, {:.1f}]", C,
                                   s.d_target, interval->d_min, interval->d_max));
    }
    // The aligned d in the interval are k·alignment for k in [lo_step, hi_step], k >= 1.
    lo_step = std::max(1.0, std::ceil(interval->d_min / s.alignment));
    hi_step = std::floor(interval->d_max / s.alignment);
    if (hi_step < lo_step) {
      return violation(
          "an aligned d inside the feasible interval",
          fmt::format("no multiple of {} lies in [{:.1f}, {:.1f}]", s.alignment,
                      interval->d_min, interval->d_max));
    }
  }

  // Step 5: integer layer solve (Eq. 3). Search the aligned d around the target, ±2 steps
  // first; if no integer config there meets the tolerance (small budgets, where one layer
  // is a large share of N_a), widen the window geometrically up to the whole interval:
  // d is the proxy dimension (rank-preserving, Sec. 4.3), so moving it costs less than
  // missing (M, N_a, N).
  std::optional<LayerSolution> solution;
  if (o.d) {
    solution = solve_layers(s.targets, family, d_candidates, s.alignment);
  } else {
    const double center = std::round(s.d_target / s.alignment);
    for (double half = 2;; half *= 2) {
      d_candidates.clear();
      for (double k = std::max(lo_step, center - half);
           k <= std::min(hi_step, center + half); k += 1) {
        d_candidates.push_back(static_cast<int>(k * s.alignment));
      }
      solution = solve_layers(s.targets, family, d_candidates, s.alignment);
      const bool whole = center - half <= lo_step && center + half >= hi_step;
      // Each d costs about 5·L (L, L_d) pairs; stop widening before the next window would
      // exceed k_max_search_pairs, and report the best config found so far.
      const double next_pairs = 2.0 * double(d_candidates.size()) * 5.0 * (interval->layers + 3);
      if (whole || (solution && solution->max_abs_error() <= s.tolerance) ||
          next_pairs > k_max_search_pairs) {
        break;
      }
    }
  }
  if (!solution) {
    return violation("an integer layer config with L_m >= 1 and d_m >= alignment",
                     fmt::format("none exists for continuous L = {:.3g}", interval->layers));
  }
  s.solution = *solution;
  const LayerSolution& sol = s.solution;
  const struct {
    const char* name;
    double error;
  } errors[] = {{"M", sol.error_M}, {"N_a", sol.error_N_a}, {"N", sol.error_N}};
  for (const auto& e : errors) {
    if (std::abs(e.error) > s.tolerance) {
      return violation(
          fmt::format("|{0}/{0}_target - 1| <= {1:g} (paper 002 Table 4 note)", e.name,
                      s.tolerance),
          fmt::format("the closest integer config (d = {}, L_d = {}, L_m = {}, d_m = {}) misses "
                      "{} by {:+.3g}% (tolerance {:.3g}%; raise --tolerance or change "
                      "--align)",
                      sol.arch.d, sol.arch.L_d, sol.arch.L_m, sol.arch.d_m, e.name,
                      100 * e.error, 100 * s.tolerance));
    }
  }
  const Accounting& acc = sol.accounting;
  for (double r : {acc.r_a, acc.r_d, acc.r_m}) {
    if (!(r >= 0.0 && r <= 1.0)) {
      return violation("0 <= r_a, r_d, r_m <= 1 (paper 002 Eq. 4)",
                       fmt::format("r_a = {:.4g}, r_d = {:.4g}, r_m = {:.4g}", acc.r_a, acc.r_d,
                                   acc.r_m));
    }
  }
  s.tokens = Tokens(C / acc.M.value());
  return s;
}

}  // namespace moeplan
