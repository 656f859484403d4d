#pragma once
/// Efficiency Leverage (EL), paper 000 ("Towards Greater Leverage", Ling Team 2025).
///
///   EL(A, G, C) = Â^(α + γ·(log G)² + β·log G),  α = a + d·log C         (Eq. 4)
///   1/Â = 1/(A + (1/A_start − 1/A_max)^−1) + 1/A_max                      (Eq. 1)
///
/// A is the activation ratio (E_a + E_s)/(E + E_s) and G the *granularity* 2·d/d_expert
/// (paper 000 Sec. 2.1) — not the joint law's G, which counts activated experts.
/// The paper does not give the bases of its logarithms. The only reading that reproduces
/// all its statements at once is log₁₀ for C and log₂ for G (docs/design.md, "EL log
/// bases"): the G maximising EL is 2^(−β/2γ) = 11.3 ∈ [8, 12] for every C, EL(3.1 %, 12,
/// 1e22) = 7.2 > 7, EL(A = 1) ≈ 0.99. The bases are data (presets/laws/efficiency_leverage.toml).
#include <optional>

#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan {

struct EfficiencyLeverageLaw {
  double a = 0;        ///< base exponent (Table 6)
  double d = 0;        ///< compute slope of the exponent (Table 6)
  double gamma = 0;    ///< curvature in log G (Table 6)
  double beta = 0;     ///< slope in log G (Table 6)
  double a_start = 0;  ///< saturating transform (Eq. 1, Table 6)
  double a_max = 0;
  double log_base_compute = 10;     ///< base of "log C" (our reading)
  double log_base_granularity = 2;  ///< base of "log G" (our reading)

  /// Â, the saturating transform of the activation ratio A ∈ (0, 1] (Eq. 1).
  [[nodiscard]] double saturated(double activation_ratio) const;
  /// The exponent α + γ(log G)² + β log G of Eq. 4.
  [[nodiscard]] double exponent(double granularity, Flops C) const;
  /// EL(A, G, C) of Eq. 4.
  [[nodiscard]] double at(double activation_ratio, double granularity, Flops C) const;
  /// The granularity that maximises EL: base^(−β/(2γ)); independent of A and C.
  [[nodiscard]] double optimal_granularity() const;
};

/// L(C) = coefficient · C^(−exponent) + floor: one architecture's fitted loss-vs-compute
/// curve (paper 000 Sec. 3, Algorithm 1 line 3).
struct LossCurve {
  double coefficient = 0;
  double exponent = 0;
  double floor = 0;
  [[nodiscard]] double at(Flops C) const;
  /// The compute at which the curve reaches `loss`, or nullopt when it never does
  /// (loss at or below the floor).
  [[nodiscard]] std::optional<Flops> compute_for(double loss) const;
};

/// EL from two fitted curves (paper 000 Sec. 3 / Algorithm 1): C_dense(L_MoE(C)) / C.
/// nullopt ("undefined") when the dense curve cannot reach the MoE's loss.
std::optional<double> efficiency_leverage_from_curves(const LossCurve& dense,
                                                      const LossCurve& moe, Flops C_moe);

/// Paper 000 training laws: Eq. 5 and Table 5.
struct LeverageTrainingLaws {
  PowerLaw learning_rate;         ///< η_opt(C), Eq. 5
  PowerLaw batch_tokens;          ///< B_opt(C) in tokens, Eq. 5 (our reading of the unit)
  PowerLaw moe_flops_per_token;   ///< M_opt(C), MoE row of Table 5
  PowerLaw moe_tokens;            ///< D_opt(C), MoE row of Table 5
  PowerLaw dense_flops_per_token; ///< M_opt(C), dense row of Table 5
  PowerLaw dense_tokens;          ///< D_opt(C), dense row of Table 5
};

}  // namespace moeplan
