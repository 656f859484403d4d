#include "moeplan/model/architecture.hpp"

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

double max_n_over_na(const ArchitectureFamily& f) {
  const double s = f.n_shared_experts;
  return (f.n_experts + s) / (double(f.top_k) + s);
}

}  // namespace moeplan
