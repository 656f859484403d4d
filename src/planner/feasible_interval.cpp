#include <cmath>

#include <fmt/format.h>

#include "moeplan/planner/layer_solver.hpp"

namespace moeplan {

std::expected<FeasibleInterval, ConstraintViolation> feasible_d_interval(
    const LayerTargets& t, const ArchitectureFamily& f) {
  const double M = t.M.value();
  const double Na = t.N_a.value();
  const double N = t.N.value();
  const AttentionHeads& h = f.heads;
  const double scores_per_layer = attention_score_flops_per_layer(f);  // Eq. 11 per layer

  // Eq. 3/12: M − 6N_a is spent on attention scores alone, so it fixes L.
  const double L = (M - 6.0 * Na) / scores_per_layer;
  if (!(L >= 1.0)) {
    return std::unexpected(ConstraintViolation{
        "L >= 1 (paper 002 Eq. 3: L = (M - 6 N_a) / (6 S N_q d_qkv))",
        fmt::format("the targets leave M - 6 N_a = {:.4g} FLOPs/token for attention scores, "
                    "but one layer with S = {}, N_q = {}, d_qkv = {} needs {:.4g}; L = {:.3g}",
                    M - 6.0 * Na, f.seq_len, h.n_q, h.d_qkv, scores_per_layer, L)});
  }
  const double shared = f.n_shared_experts;
  const double A = attention_params_per_layer(h, 1.0) * L;  // attention params per unit d (Eq. 6)
  const double B = (f.top_k + shared) * (N - Na) / (double(f.n_experts) - f.top_k);  // active MoE
  const double rest = Na - B;  // what remains of N_a for attention + dense layers
  if (!(rest > 0.0)) {
    return std::unexpected(ConstraintViolation{
        "N/N_a < (N_e+s)/(K+s) (paper 002 Eq. 5)",
        fmt::format("N/N_a = {:.4g} leaves no active parameters for attention: the bound is "
                    "{:.4g}",
                    N / Na, max_n_over_na(f))});
  }
  FeasibleInterval out;
  out.layers = L;
  out.d_max = rest / A;  // L_d = 0
  // L_d(d) = (rest − A·d)/(3γ d²) = L − 1  ⇔  3γ(L−1)d² + A d − rest = 0. Its positive
  // root, written as 2·rest/(A + √(A² + 4q·rest)) to avoid cancellation when q is tiny.
  const double q = 3.0 * f.dense_ffn_ratio * (L - 1.0);
  out.d_min = 2.0 * rest / (A + std::sqrt(A * A + 4.0 * q * rest));
  return out;
}

}  // namespace moeplan
