#pragma once
/// MoE against the dense model of equal total size N, compute C and data D — paper 003
/// ("Mixture-of-Experts can surpass dense LLMs under strictly equal resource").
///
/// FLOPs convention of that paper (Eq. 2 and Eq. 6, times 3 for training, Sec. 3.1):
///   M = 3·(2·N_a + 4·D_m·S·L)   per token, non-embedding.
/// This reproduces every M of its Tables 8–16 (tests/test_activation_rate.cpp).
///
/// In this file r_a is paper 003's activation rate N_a/N, as its equations print it. Everywhere
/// else in moeplan r_a is paper 002's attention share of M; outputs name this one
/// activation_rate (symbol N_a/N) so the two never share a name.
#include <optional>

#include "moeplan/base/range.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan {

struct ActivationRateGuide {
  double optimum = 0.20;                ///< r_a** ≈ 20 % (Sec. 5.1, 5.3)
  ClosedRange beats_dense{0.15, 0.48};  ///< R_a*: MoE beats equal-N dense (Sec. 5.2, 2B)
  double dense_ffn_ratio = 2.77;        ///< α = D_ffn/D_m of its dense models (Sec. 4)
};

enum class ActivationVerdict { below_region, in_region, above_region };
const char* to_string(ActivationVerdict v);
ActivationVerdict activation_verdict(const ActivationRateGuide& g, double activation_rate);

/// Per-token training FLOPs of paper 003: 3·(2·N_a + 4·d·S·L).
FlopsPerToken moe_vs_dense_flops(Params N_a, double d_model, double seq_len, double layers);

/// Eq. 10 as printed: R_c = r_a·(4 + 3α + 2γ_d)/(4 + 3β + 2γ_m). Kept for reference; it is
/// not the ratio of Eq. 9 to Eq. 3 (that ratio also carries (4+3α)/(4+3β)), and moeplan
/// uses the exact ratio of the two M's instead (docs/design.md, "R_c").
double compute_ratio_eq10_as_printed(double r_a, double alpha, double beta, double gamma_d,
                                     double gamma_m);

/// Equal-N, equal-C comparison with a dense model (Sec. 3.2):
///   R_c = M_MoE/M_dense, so at equal C the MoE needs 1/R_c times the dense model's tokens.
struct EqualComputeComparison {
  FlopsPerToken moe_M;
  FlopsPerToken dense_M;
  double compute_ratio = 0;        ///< R_c
  double extra_tokens_factor = 0;  ///< 1/R_c = D_MoE/D_dense at equal C
};
EqualComputeComparison compare_at_equal_compute(FlopsPerToken moe_M, FlopsPerToken dense_M);

/// The dense counterpart moeplan assumes when a config has no dense twin: same N, same
/// hidden size d and sequence length, D_ffn = α·d (Sec. 4), so L_dense = N/((4+3α)·d²)
/// (Eq. 1) and M_dense = 3·(2N + 4·d·S·L_dense) (Eq. 2).
FlopsPerToken equal_size_dense_flops(const ActivationRateGuide& g, Params N, double d_model,
                                     double seq_len);

/// Sec. 6: epochs over a unique-data budget D̂ needed to train on D tokens.
double epochs_needed(Tokens D, Tokens unique);

}  // namespace moeplan
