#pragma once
/// The joint MoE loss law of paper 001 ("Towards a Comprehensive Scaling Law of MoE",
/// Tencent Hunyuan 2025), Eq. 11 with Table 2's coefficients:
///
///   L(N, D, N_a, G, S) = (e·G + f/G + m·S² + n·S)·(1/N^α + k/N_a^α + h·N_a/N)
///                        + a/N^α + b/D^β + c/N_a^α + ε
///
/// N, N_a: total and activated non-embedding parameters; D: training tokens;
/// G: number of *activated experts*, shared included (n_k + n_s, Eq. 2) — not paper
/// 000's granularity; S = n_s/G, the shared share of activated experts.
#include <optional>

#include "moeplan/base/range.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan {

struct JointLossLaw {
  double e = 0, f = 0, m = 0, n = 0, k = 0, h = 0;
  double a = 0, alpha = 0, b = 0, beta = 0, c = 0, epsilon = 0;

  /// e·G + f/G + m·S² + n·S, the structure factor (Eq. 11, first bracket).
  [[nodiscard]] double structure(double active_experts, double shared_ratio) const;
  /// 1/N^α + k/N_a^α + h·N_a/N, the size factor (Eq. 11, second bracket).
  [[nodiscard]] double size_factor(Params N, Params N_a) const;
  /// Eq. 11.
  [[nodiscard]] double loss(Params N, Tokens D, Params N_a, double active_experts,
                            double shared_ratio) const;
  /// G_opt = √(f/e), Eq. 12.
  [[nodiscard]] double optimal_active_experts() const;
  /// S_opt = −n/(2m), Eq. 13.
  [[nodiscard]] double optimal_shared_ratio() const;
  /// (N_a/N)_opt_t of Eq. 14 / Eq. 29 at given G and S.
  [[nodiscard]] double theoretical_active_ratio(Params N, double active_experts,
                                                double shared_ratio) const;
  /// Algorithm 1 (Appendix F): grow N_a from step = step_fraction·N in steps of that size
  /// and return N_a/N at the first step whose loss gain falls below `threshold`;
  /// nullopt when it never does within `max_steps`.
  [[nodiscard]] std::optional<double> efficiency_aware_active_ratio(
      Params N, double active_experts, double shared_ratio, double threshold,
      double step_fraction = 0.01, int max_steps = 100) const;
  /// G whose loss is within `threshold` of the loss at G_opt (S, N, N_a fixed; Table 3).
  [[nodiscard]] ClosedRange practical_active_experts(Params N, Params N_a,
                                                     double threshold) const;
  /// S whose loss is within `threshold` of the loss at S_opt (Table 3).
  [[nodiscard]] ClosedRange practical_shared_ratio(Params N, Params N_a,
                                                   double threshold) const;

  /// Appendix G: at fixed N, G and S and compute C = D·N_a (the appendix's own
  /// definition, no factor 6), the N_a that minimises Eq. 11 and the loss there.
  struct FixedSizeOptimum {
    Params N_a;
    double loss = 0;
  };
  [[nodiscard]] FixedSizeOptimum optimum_at_fixed_total(double compute_tokens_times_na,
                                                        Params N, double active_experts,
                                                        double shared_ratio) const;
};

/// Table 3 reports ranges on a grid: the first and last grid point inside the continuous
/// range (lower bound rounded up, upper bound rounded down to a multiple of `step`).
ClosedRange snap_inward(const ClosedRange& r, double step);

/// How paper 001 evaluates its own implications (Sec. 5, Tables 3–4, Appendix G).
struct JointLawAnalysis {
  double theoretical_active_experts = 7;    ///< G used in Table 4 (Appendix G: G = 7)
  double theoretical_shared_ratio = 0.31;   ///< S used in Table 4 (S_opt ≈ 0.31)
  double practical_threshold = 0.001;       ///< Table 3 "Thr = 0.001"
  double active_experts_grid = 0.01;        ///< Table 3 prints G on this grid
  double shared_ratio_grid = 0.001;         ///< Table 3 prints S on this grid
  double efficiency_threshold_tight = 0.001;  ///< Table 4 ΔLoss = 0.001
  double efficiency_threshold_loose = 0.005;  ///< Table 4 ΔLoss = 0.005
  double efficiency_step_fraction = 0.01;     ///< Algorithm 1 step = 0.01·N
};

}  // namespace moeplan
