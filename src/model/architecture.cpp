#include "moeplan/model/architecture.hpp"

#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

double attention_params_per_layer(const AttentionHeads& h, double d) {
  return 2.0 * d * h.d_qkv * (h.n_q + h.n_kv);  // Eq. 6
}

Accounting account(const MoeArchitecture& a) {
  // Eq. 3 is counted in one place, count_parameters, for a plan as for any config.
  const ModelConfig m = model_config_of(a);
  return account_of(m, count_parameters(m), a.family.seq_len);
}

FamilyLayerTerms family_layer_terms(const ArchitectureFamily& f, int d, int d_d) {
  // A member with d_m = 1: its experts' weights are then their weights per unit of d_m
  // (Eq. 9 is linear in d_m with no constant term).
  const ModelConfig m = model_config_of(MoeArchitecture{f, d, 1, 1, d_d, 1});
  const LayerParams dense = layer_params(m, FfnKind::dense);
  const LayerParams moe = layer_params(m, FfnKind::moe);
  return {.attention = dense.attention,
          .dense_ffn = dense.dense_ffn,
          .moe_active_per_dm = moe.routed_active + moe.shared,
          .moe_total_per_dm = moe.routed_total + moe.shared};
}

double attention_score_flops_per_layer(const ArchitectureFamily& f) {
  // With no weights counted, holistic-002's M is the score term of Eq. 11 alone.
  const ModelConfig one_layer = model_config_of(MoeArchitecture{f, f.heads.n_q * f.heads.d_qkv, 0, 1, 0, 1});
  return flops_per_token(one_layer, ParameterCounts{}, FlopsConvention::holistic_002, f.seq_len).M().value();
}

double max_n_over_na(const ArchitectureFamily& f) {
  const double s = f.n_shared_experts;
  return (f.n_experts + s) / (double(f.top_k) + s);
}

}  // namespace moeplan
