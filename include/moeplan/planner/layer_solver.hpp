#pragma once
/// From (M, N_a, N) targets to integer layers: the feasible hidden-size interval and the
/// exhaustive integer layer solve of paper 002 Eq. 3.
#include <algorithm>
#include <cmath>
#include <expected>
#include <functional>
#include <optional>
#include <span>

#include "moeplan/model/architecture.hpp"
#include "moeplan/base/errors.hpp"

namespace moeplan {

/// Largest continuous L the solver searches. The search is O(L) per (d, L) pair; past this
/// a request is reported as infeasible rather than left to run (no trainable model has
/// 10^5 layers).
inline constexpr double k_max_layers = 100000;

/// x rounded to the nearest multiple of `step`, at least `step` (d, d_m and d_d alignment).
inline int round_to_multiple(double x, int step) {
  return static_cast<int>(std::max(1.0, std::round(x / step))) * step;
}

struct LayerTargets {
  FlopsPerToken M;
  Params N_a;
  Params N;
};

/// Feasible d for fixed (M, N_a, N) and family, with L, L_d, L_m, d_m relaxed to reals.
/// From Eq. 3: L = (M − 6N_a)/(6·S·N_q·d_qkv) is fixed by (M, N_a); N − N_a fixes the
/// expert product d·d_m·L_m; what is left of N_a pays for the dense layers,
///   L_d(d) = (N_a − B − A·d)/(3γ·d²),  A = 2(N_q+N_kv)d_qkv·L,  B = (K+s)(N−N_a)/(N_e−K),
/// which falls with d. L_d ≥ 0 gives the upper end, L_m = L − L_d ≥ 1 the lower end.
struct FeasibleInterval {
  double d_min = 0;   ///< smallest d (where L_m = 1)
  double d_max = 0;   ///< largest d (where L_d = 0)
  double layers = 0;  ///< the continuous L implied by (M, N_a)
  /// The paper's Sec. 4.3 proxy: the median of the valid interval of d.
  [[nodiscard]] double median() const { return 0.5 * (d_min + d_max); }
  [[nodiscard]] bool contains(double d) const { return d >= d_min && d <= d_max; }
};

std::expected<FeasibleInterval, ConstraintViolation> feasible_d_interval(
    const LayerTargets& targets, const ArchitectureFamily& family);

struct LayerSolution {
  MoeArchitecture arch;
  Accounting accounting;
  double error_M = 0;    ///< M/M_target − 1
  double error_N_a = 0;  ///< N_a/N_a,target − 1
  double error_N = 0;    ///< N/N_target − 1
  [[nodiscard]] double objective() const;          ///< Σ of squared relative errors
  [[nodiscard]] double max_abs_error() const;
};

/// Relative errors of an architecture against targets.
LayerSolution evaluate_against(const MoeArchitecture& arch, const LayerTargets& targets);

/// Exhaustive integer search: for every d in `d_candidates` (each > 0), L within ±2 of the
/// continuous L, every L_d in [0, L−1], and d_m the multiples of `alignment` around the
/// continuous least-squares d_m (the objective is a convex quadratic in d_m, so its integer
/// optimum is next to the real one). d_d = round(γ·d). Keeps the smallest objective().
/// Returns nullopt when no candidate has L_m ≥ 1 and d_m ≥ alignment, or when the
/// continuous L exceeds k_max_layers. `admit`, when given, is asked about each config
/// that would improve on the best so far (a cap on N, a cluster's divisibility): configs
/// it refuses are skipped, so the solve returns the best admitted config. `layers_ok`, when
/// given, refuses whole layer counts L up front (a rule on L alone, "L a multiple of PP"):
/// `admit` would refuse every config of such an L, so the answer is the same, found sooner.
using ArchitectureFilter = std::function<bool(const MoeArchitecture&)>;
std::optional<LayerSolution> solve_layers(const LayerTargets& targets,
                                          const ArchitectureFamily& family,
                                          std::span<const int> d_candidates, int alignment,
                                          const ArchitectureFilter& admit = {},
                                          const std::function<bool(int)>& layers_ok = {});

}  // namespace moeplan
