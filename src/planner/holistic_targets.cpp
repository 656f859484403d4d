#include "moeplan/planner/holistic_targets.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "moeplan/planner/head_schedule.hpp"

namespace moeplan {

const char* to_string(RatioSource s) {
  switch (s) {
    case RatioSource::law: return "law";
    case RatioSource::schedule: return "schedule";
    case RatioSource::shape_extrapolation: return "shape-extrapolation";
    case RatioSource::ranking: return "ranking";
    case RatioSource::user: return "user";
  }
  return "?";
}

ShapeAnchor anchor_of(const HolisticLaws& laws, const ArchitectureFamily& family,
                      const MoeArchitecture& a, FlopsPerToken M4, double goal, double n4) {
  const double L = a.layers();
  ShapeAnchor anchor{.compute = laws.heads.back().compute,
                     .attention_width_ratio = double(a.family.heads.n_q) * a.family.heads.d_qkv / a.d,
                     .dense_layer_fraction = a.L_d / L,
                     .aspect_ratio = a.d / L};
  // The integer plan misses its M/N_a target by up to the tolerance; the continuous shape
  // must meet the law exactly at C4, or M/N_a would jump there. d/L and L_d/L are kept as
  // planned; ω, the one ratio the heads round, is set so that Eq. 5 gives the law's M/N_a
  // at C4 (M/N_a rises with ω: more attention width per d spends more FLOPs on scores).
  double lo = anchor.attention_width_ratio / 64, hi = anchor.attention_width_ratio * 64;
  const auto m_over_na = [&](double omega) {
    ShapeAnchor trial = anchor;
    trial.attention_width_ratio = omega;
    return extrapolate_shape(laws, family, trial, M4, n4).m_over_na;
  };
  if (m_over_na(lo) < goal && m_over_na(hi) > goal) {
    for (int i = 0; i < 100 && hi / lo > 1.0 + 1e-12; ++i) {
      const double mid = std::sqrt(lo * hi);
      (m_over_na(mid) > goal ? hi : lo) = mid;
    }
    anchor.attention_width_ratio = std::sqrt(lo * hi);
  }
  return anchor;
}

ShapeExtrapolation extrapolate_shape(const HolisticLaws& laws, const ArchitectureFamily& f,
                                     const ShapeAnchor& anchor, FlopsPerToken M,
                                     double n_over_na) {
  const HeadExtrapolation& x = laws.head_extrapolation;
  const double omega = anchor.attention_width_ratio;
  const double lambda = anchor.dense_layer_fraction;
  const double rho = anchor.aspect_ratio;
  const double S = f.seq_len;
  const double g = 1.0 / x.q_per_kv;  // N_kv / N_q of the extrapolated heads
  // Per layer, in units of d²·L (Eq. 3): attention 2(1+g)ω, dense 3γλ, active MoE μ(1−λ).
  // N − N_a = μ(1−λ)(N_e−K)/(K+s) and N = n·N_a fix μ(1−λ) for the given n (Eq. 5).
  const double attention = 2.0 * (1.0 + g) * omega;
  const double dense = 3.0 * f.dense_ffn_ratio * lambda;
  const double moe_per_active =
      double(f.n_experts - f.top_k) / double(f.top_k + f.n_shared_experts);
  const double moe = (n_over_na - 1.0) * (attention + dense) / (moe_per_active - (n_over_na - 1.0));
  const double kappa = attention + dense + moe;  // N_a = κ·d²·L
  // M = 6 N_a + 6 S ω d L with L = d/ρ:  M(d) = 6 d² (κ d + S ω) / ρ, increasing in d.
  const auto flops = [&](double d) { return 6.0 * d * d * (kappa * d + S * omega) / rho; };
  double lo = 1e-3, hi = 1e9;
  for (int i = 0; i < 200 && hi / lo > 1.0 + 1e-14; ++i) {
    const double mid = std::sqrt(lo * hi);
    (flops(mid) > M.value() ? hi : lo) = mid;
  }
  ShapeExtrapolation out;
  out.anchor = anchor;
  out.d = std::sqrt(lo * hi);
  out.m_over_na = 6.0 * (kappa * out.d + S * omega) / (kappa * out.d);  // Eq. 5
  out.heads = extrapolated_heads(x, omega * out.d);
  return out;
}

std::expected<HolisticTargets, ConstraintViolation> holistic_targets(
    const HolisticLaws& laws, Flops C, const ArchitectureFamily& family,
    const TargetOverrides& overrides) {
  using Violation = std::unexpected<ConstraintViolation>;
  HolisticTargets t;
  t.budget = compute_optimal(laws.compute_optimal, C);  // Eq. 2

  // N/N_a: Appendix F.4 schedule (held flat past its last point), or the user's.
  t.n_over_na = overrides.n_over_na.value_or(laws.n_over_na.at(C.value()));
  t.n_over_na_source = overrides.n_over_na ? RatioSource::user : RatioSource::schedule;
  const double upper = max_n_over_na(family);
  if (!(t.n_over_na > 1.0 && t.n_over_na < upper)) {
    return Violation(ConstraintViolation{
        "1 < N/N_a < (N_e+s)/(K+s) (paper 002 Eq. 5)",
        fmt::format("N/N_a = {:.6g} but with N_e = {}, K = {}, {} shared expert(s) it must lie "
                    "in (1, {:.10g}); {} by {:.4g} (set --n-over-na)",
                    t.n_over_na, family.n_experts, family.top_k, family.n_shared_experts, upper,
                    t.n_over_na <= 1.0 ? "below" : "above",
                    t.n_over_na <= 1.0 ? 1.0 - t.n_over_na : t.n_over_na - upper)});
  }

  // M/N_a: the Fig. 5b law up to the last Table 4 row, the anchored shape past it.
  const bool past_table = !laws.heads.empty() && C.value() > laws.heads.back().compute;
  if (past_table) {
    if (!overrides.anchor) {
      return Violation(ConstraintViolation{
          "a shape anchor past the last Table 4 row",
          fmt::format("C' = {:.3g} lies past the last Table 4 row and no anchor was given", C.value())});
    }
    t.extrapolation = extrapolate_shape(laws, family, *overrides.anchor, t.budget.M, t.n_over_na);
  }
  if (overrides.m_over_na) {
    t.m_over_na = *overrides.m_over_na;
    t.m_over_na_source = RatioSource::user;
  } else if (t.extrapolation) {
    t.m_over_na = t.extrapolation->m_over_na;
    t.m_over_na_source = RatioSource::shape_extrapolation;
  } else {
    const auto x = laws.m_over_na.at(C.value());
    if (!x || !(*x > 6.0)) {
      return Violation(ConstraintViolation{
          "0 < s(C) < 1 for the M/N_a law (s = 1 - 6 N_a/M)",
          fmt::format("s({:.3g}) = {:.4g}: the law gives no M/N_a distinguishable from > 6 at "
                      "this budget",
                      C.value(), laws.m_over_na.score_share(C.value()))});
    }
    t.m_over_na = *x;
    t.m_over_na_source = RatioSource::law;
  }
  if (!(t.m_over_na > 6.0)) {
    return Violation(ConstraintViolation{
        "M/N_a > 6 (paper 002 Eq. 5)",
        fmt::format("M/N_a = {:.6g} is {:.4g} at or below 6", t.m_over_na, 6.0 - t.m_over_na)});
  }
  const double Na = t.budget.M.value() / t.m_over_na;
  t.targets = {t.budget.M, Params(Na), Params(Na * t.n_over_na)};
  return t;
}

}  // namespace moeplan
