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

ShapeAnchor anchor_of(const HolisticLaws& laws, const MoeArchitecture& a) {
  // Every ratio is the plan's own, so the continuous shape passes through it and plans past
  // the row continue it (docs/design.md "Past the last Table 4 row"). Fitting ω to meet the
  // M/N_a law exactly at the row instead (issue 13) moves the continuous d off the plan's and
  // leaves the shape's N/N_a off the plan's, so the rounded plans past the row miss N by up
  // to 6 % and fall back to the least-squares solve, which steps back.
  const double L = a.layers();
  return ShapeAnchor{.compute = laws.heads.back().compute,
                     .attention_width_ratio = double(a.family.heads.n_q) * a.family.heads.d_qkv / a.d,
                     .dense_layer_fraction = a.L_d / L,
                     .aspect_ratio = a.d / L,
                     .expert_width_ratio = double(a.d_m) / a.d};
}

ShapeExtrapolation extrapolate_shape(const HolisticLaws& laws, const ArchitectureFamily& f,
                                     const ShapeAnchor& anchor, FlopsPerToken M) {
  const HeadExtrapolation& x = laws.head_extrapolation;
  const double omega = anchor.attention_width_ratio;
  const double lambda = anchor.dense_layer_fraction;
  const double rho = anchor.aspect_ratio;
  const double S = f.seq_len;
  const double g = 1.0 / x.q_per_kv;  // N_kv / N_q of the extrapolated heads
  // Per layer, in units of d²·L (Eq. 3): attention 2(1+g)ω, dense 3γλ, active MoE
  // 3(K+s)ε(1−λ) (each MoE layer activates K routed and s shared experts of 3·d·d_m).
  const double attention = 2.0 * (1.0 + g) * omega;
  const double dense = 3.0 * f.dense_ffn_ratio * lambda;
  const double moe = 3.0 * (f.top_k + f.n_shared_experts) * anchor.expert_width_ratio * (1.0 - lambda);
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

MoeArchitecture self_similar_architecture(const ShapeExtrapolation& x, const ArchitectureFamily& f,
                                          int alignment) {
  MoeArchitecture a;
  a.family = f;
  a.family.heads = x.heads;
  a.d = round_to_multiple(x.d, alignment);
  const int L = std::max(2, static_cast<int>(std::lround(x.d / x.anchor.aspect_ratio)));
  a.L_d = std::min(L - 1, static_cast<int>(std::lround(x.anchor.dense_layer_fraction * L)));
  a.L_m = L - a.L_d;
  a.d_d = round_to_multiple(f.dense_ffn_ratio * a.d, alignment);  // as the layer solve: γ·d of the aligned d
  a.d_m = round_to_multiple(x.anchor.expert_width_ratio * x.d, alignment);
  return a;
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
    t.extrapolation = extrapolate_shape(laws, family, *overrides.anchor, t.budget.M);
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
