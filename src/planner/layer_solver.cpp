#include "moeplan/planner/layer_solver.hpp"

#include <algorithm>
#include <cmath>

namespace moeplan {

double LayerSolution::objective() const {
  return error_M * error_M + error_N_a * error_N_a + error_N * error_N;
}

double LayerSolution::max_abs_error() const {
  return std::max({std::abs(error_M), std::abs(error_N_a), std::abs(error_N)});
}

LayerSolution evaluate_against(const MoeArchitecture& arch, const LayerTargets& t) {
  LayerSolution s;
  s.arch = arch;
  s.accounting = account(arch);
  s.error_M = s.accounting.M / t.M - 1.0;
  s.error_N_a = s.accounting.N_a / t.N_a - 1.0;
  s.error_N = s.accounting.N / t.N - 1.0;
  return s;
}

namespace {

// d_d = γ·d (Appendix A), rounded to the alignment; with γ = 3 and d aligned this is exact.
// nullopt when it does not fit an int (absurd γ).
std::optional<int> dense_ffn_size(const ArchitectureFamily& f, int d, int alignment) {
  const double steps = std::max(1.0, std::round(f.dense_ffn_ratio * d / alignment));
  const double d_d = steps * alignment;
  if (!(d_d <= 2147483647.0)) {
    return std::nullopt;
  }
  return static_cast<int>(d_d);
}

struct Best {
  double objective = INFINITY;
  MoeArchitecture arch;
};

// For fixed (d, L_d, L_m), M, N_a and N are affine in d_m, so the sum of squared relative
// errors is a convex quadratic in d_m. Try the aligned values around its real minimiser.
// `per_layer` is the model's own count of one layer of each kind at this d (Eq. 6-9) and
// `scores_per_layer` its Eq. 11 term: the solve restates no formula of the count.
void search_expert_width(const LayerTargets& t, const MoeArchitecture& base, const FamilyLayerTerms& per_layer,
                         double scores_per_layer, int alignment, const ArchitectureFilter& admit, Best& best) {
  const double L = base.layers();
  const double att = per_layer.attention * L;
  const double dense = per_layer.dense_ffn * base.L_d;
  const double scores = scores_per_layer * L;
  const double g_active = per_layer.moe_active_per_dm * base.L_m;
  const double g_total = per_layer.moe_total_per_dm * base.L_m;
  const double c = att + dense;
  // e_i(d_m) = u_i + v_i·d_m for M, N_a, N.
  const double u[3] = {(6.0 * c + scores) / t.M.value() - 1.0, c / t.N_a.value() - 1.0,
                       c / t.N.value() - 1.0};
  const double v[3] = {6.0 * g_active / t.M.value(), g_active / t.N_a.value(),
                       g_total / t.N.value()};
  const double uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const double vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const double dm_star = -uv / vv;
  const double k_center = std::floor(dm_star / alignment);
  for (double k = std::max(1.0, k_center - 1.0); k <= std::max(1.0, k_center + 2.0); k += 1.0) {
    const double dm = k * alignment;
    double obj = 0;
    for (int i = 0; i < 3; ++i) {
      const double e = u[i] + v[i] * dm;
      obj += e * e;
    }
    if (obj < best.objective) {
      MoeArchitecture candidate = base;
      candidate.d_m = static_cast<int>(dm);
      if (admit && !admit(candidate)) continue;
      best.objective = obj;
      best.arch = candidate;
    }
  }
}

}  // namespace

std::optional<LayerSolution> solve_layers(const LayerTargets& t, const ArchitectureFamily& f,
                                          std::span<const int> d_candidates, int alignment,
                                          const ArchitectureFilter& admit,
                                          const std::function<bool(int)>& layers_ok) {
  const double scores_per_layer = attention_score_flops_per_layer(f);  // Eq. 11, one layer
  const double L_real = (t.M.value() - 6.0 * t.N_a.value()) / scores_per_layer;
  if (!(L_real > 0.0) || !(L_real <= k_max_layers)) {
    return std::nullopt;
  }
  const int L_lo = std::max(1, static_cast<int>(std::floor(L_real)) - 2);
  const int L_hi = static_cast<int>(std::ceil(L_real)) + 2;

  Best best;
  for (int d : d_candidates) {
    if (d <= 0) {
      continue;
    }
    const auto d_d = dense_ffn_size(f, d, alignment);
    if (!d_d) {
      continue;
    }
    MoeArchitecture base;
    base.family = f;
    base.d = d;
    base.d_d = *d_d;
    const FamilyLayerTerms per_layer = family_layer_terms(f, d, *d_d);
    for (int L = L_lo; L <= L_hi; ++L) {
      if (layers_ok && !layers_ok(L)) continue;
      for (int L_d = 0; L_d <= L - 1; ++L_d) {  // L_m = L − L_d ≥ 1
        base.L_d = L_d;
        base.L_m = L - L_d;
        search_expert_width(t, base, per_layer, scores_per_layer, alignment, admit, best);
      }
    }
  }
  if (!std::isfinite(best.objective)) {
    return std::nullopt;
  }
  return evaluate_against(best.arch, t);
}

}  // namespace moeplan
