#include "moeplan/laws/activation_rate.hpp"

namespace moeplan {

const char* to_string(ActivationVerdict v) {
  switch (v) {
    case ActivationVerdict::below_region: return "below region";
    case ActivationVerdict::in_region: return "in region";
    case ActivationVerdict::above_region: return "above region";
  }
  return "?";
}

ActivationVerdict activation_verdict(const ActivationRateGuide& g, double activation_rate) {
  if (activation_rate < g.beats_dense.lo) return ActivationVerdict::below_region;
  if (activation_rate > g.beats_dense.hi) return ActivationVerdict::above_region;
  return ActivationVerdict::in_region;
}

FlopsPerToken moe_vs_dense_flops(Params N_a, double d, double S, double L) {
  return FlopsPerToken(3.0 * (2.0 * N_a.value() + 4.0 * d * S * L));  // Eq. 6, ×3 (Sec. 3.1)
}

double compute_ratio_eq10_as_printed(double r_a, double alpha, double beta, double gamma_d,
                                     double gamma_m) {
  return r_a * (4.0 + 3.0 * alpha + 2.0 * gamma_d) / (4.0 + 3.0 * beta + 2.0 * gamma_m);
}

EqualComputeComparison compare_at_equal_compute(FlopsPerToken moe_M, FlopsPerToken dense_M) {
  EqualComputeComparison c;
  c.moe_M = moe_M;
  c.dense_M = dense_M;
  c.compute_ratio = moe_M.value() / dense_M.value();
  c.extra_tokens_factor = 1.0 / c.compute_ratio;  // C = M·D at equal C
  return c;
}

FlopsPerToken equal_size_dense_flops(const ActivationRateGuide& g, Params N, double d, double S) {
  const double layers = N.value() / ((4.0 + 3.0 * g.dense_ffn_ratio) * d * d);  // Eq. 1
  return FlopsPerToken(3.0 * (2.0 * N.value() + 4.0 * d * S * layers));          // Eq. 2, ×3
}

double epochs_needed(Tokens D, Tokens unique) { return D.value() / unique.value(); }

}  // namespace moeplan
