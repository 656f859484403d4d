#pragma once
/// Expert/attention compute allocation, paper 004 ("Optimal Expert-Attention Allocation
/// in MoE", Li et al.):
///   r = C_E / C_A                                  (Sec. 2.1; FLOPs per Appendix C)
///   r*(C, S) = α_r(S) · C^β_r(S)                   (Eq. 1, Sec. 3.2)
///   α_r = 6.7e-5 · (1 − S)^−1.23,  β_r = 0.24 · (1 − S)^0.21   (Sec. 3.3)
/// S here is the fraction of *inactive* experts (E − E_act)/E (Sec. 2.1), with E counting
/// shared experts too (Appendix B.1: E ∈ {17, 33, 65, 129}, 3 active), i.e. S = 1 − A of
/// paper 000. C is total training compute (FLOPs; the paper's runs span 1e18–1e21).
#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/base/range.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan {

struct OptimalRatioLaw {
  PowerLaw alpha_of_active_fraction;  ///< α_r as a power law of (1 − S)
  PowerLaw beta_of_active_fraction;   ///< β_r as a power law of (1 − S)
  [[nodiscard]] double alpha(double sparsity) const;
  [[nodiscard]] double beta(double sparsity) const;
  /// r*(C, S).
  [[nodiscard]] double optimal_ratio(Flops C, double sparsity) const;
};

/// Eq. 2 with Table 1's coefficients:
///   L = a/N^α + b/D^β + c·e^(R·(1−S)^γ)/N^λ + d·r/(r+1) + τ
/// N total parameters, D tokens, S sparsity, r = C_E/C_A. The paper never defines R and
/// does not list it among the fitted coefficients; we read it as the relative misallocation
/// |r − r*|/r* (Sec. 4.1: the extra terms "penalize deviations from the optimal FLOPs ratio";
/// Sec. 7: "deviations from the optimal r* incur an exponential penalty"). With Table 1's
/// τ = 13.7354 the absolute value is far above any language-model loss, so moeplan reports
/// it with that caveat and uses it only for differences.
struct AllocationLossLaw {
  double a = 0, alpha = 0, b = 0, beta = 0, c = 0, lambda = 0, gamma = 0, d = 0, tau = 0;
  [[nodiscard]] double loss(Params N, Tokens D, double sparsity, double ratio,
                            double misallocation) const;
};

/// Paper 000 Appendix F.4: attention at 30–40 % of FLOPs is optimal or near-optimal, and
/// 20–50 % has minor impact.
struct AttentionShareGuide {
  ClosedRange optimal{0.30, 0.40};  ///< "optimal or near-optimal"
  ClosedRange flat{0.20, 0.50};     ///< "minor impact" within this range
};

}  // namespace moeplan
