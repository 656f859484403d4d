#include "moeplan/model/architecture.hpp"

namespace moeplan {

double attention_params_per_layer(const AttentionHeads& h, double d) {
  return 2.0 * d * h.d_qkv * (h.n_q + h.n_kv);  // Eq. 6
}

Accounting account(const MoeArchitecture& a) {
  const ArchitectureFamily& f = a.family;
  const double d = a.d;
  const double L = a.layers();
  const double attention = attention_params_per_layer(f.heads, d) * L;       // Eq. 6 · L
  const double dense = 3.0 * d * a.d_d * a.L_d;                              // Eq. 7 · L_d
  const double expert = 3.0 * d * a.d_m;                                     // one SwiGLU expert
  const double moe_active = expert * (double(f.top_k) + f.n_shared_experts) * a.L_m;  // Eq. 8+9
  const double moe_inactive = expert * (double(f.n_experts) - f.top_k) * a.L_m;  // Eq. 3
  const double scores = 6.0 * f.seq_len * f.heads.n_q * f.heads.d_qkv * L;   // Eq. 11

  Accounting acc;
  acc.N_a = Params(attention + dense + moe_active);                          // Eq. 10
  acc.N = Params(acc.N_a.value() + moe_inactive);                            // Eq. 3
  acc.M_attention_scores = FlopsPerToken(scores);
  acc.M = FlopsPerToken(6.0 * acc.N_a.value() + scores);                     // Eq. 12
  acc.embedding = Params(2.0 * f.vocab_size * d);
  // Eq. 4: shares of M. Attention owns its projections (6·params) and the score FLOPs.
  const double M = acc.M.value();
  acc.r_a = (6.0 * attention + scores) / M;
  acc.r_d = 6.0 * dense / M;
  acc.r_m = 6.0 * moe_active / M;
  return acc;
}

double max_n_over_na(const ArchitectureFamily& f) {
  const double s = f.n_shared_experts;
  return (f.n_experts + s) / (double(f.top_k) + s);
}

}  // namespace moeplan
