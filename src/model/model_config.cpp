#include "moeplan/model/model_config.hpp"

#include "moeplan/model/architecture.hpp"

namespace moeplan {

int ModelConfig::dense_layers() const {
  if (!is_moe()) return num_hidden_layers;
  // Layer i >= first_k is MoE when (i - first_k + 1) is a multiple of the interval
  // (Llama 4: interleave_moe_layer_step 2 makes layers 1, 3, 5, ... MoE).
  const int after = num_hidden_layers - first_k_dense_replace;
  return num_hidden_layers - (moe_layer_interval > 0 ? after / moe_layer_interval : after);
}

int ModelConfig::head_size() const {
  if (head_dim > 0) return head_dim;
  return num_attention_heads > 0 ? hidden_size / num_attention_heads : 0;
}

int ModelConfig::shared_width() const {
  return shared_expert_intermediate_size > 0 ? shared_expert_intermediate_size
                                             : moe_intermediate_size;
}

std::optional<ConfigProblem> ModelConfig::problem() const {
  const auto need = [](bool ok, const char* key, const char* why) {
    return ok ? std::optional<ConfigProblem>() : ConfigProblem{key, why};
  };
  for (const std::optional<ConfigProblem>& p :
       {need(hidden_size > 0, "model.hidden_size", "must be positive"),
        need(num_hidden_layers > 0, "model.num_hidden_layers", "must be positive"),
        need(num_attention_heads > 0, "model.num_attention_heads", "must be positive"),
        need(num_key_value_heads > 0 && num_key_value_heads <= num_attention_heads &&
                 num_attention_heads % num_key_value_heads == 0,
             "model.num_key_value_heads", "must divide num_attention_heads (each kv head serves a group of query heads)"),
        need(head_size() > 0, "model.head_dim", "must be positive"),
        need(first_k_dense_replace >= 0 && first_k_dense_replace <= num_hidden_layers,
             "model.first_k_dense_replace", "must be in [0, num_hidden_layers]"),
        need(dense_layers() == 0 || intermediate_size > 0, "model.intermediate_size",
             "is required when the model has dense layers"),
        need(!is_moe() || moe_intermediate_size > 0, "model.moe_intermediate_size",
             "is required for an MoE model"),
        need(!is_moe() || (num_experts_per_tok >= 1 && num_experts_per_tok <= n_routed_experts),
             "model.num_experts_per_tok", "must be in [1, n_routed_experts]"),
        need(!is_moe() || moe_layers() >= 1, "model.first_k_dense_replace",
             "leaves no MoE layer"),
        need(n_shared_experts >= 0, "model.n_shared_experts", "must not be negative"),
        need(extras.num_nextn_predict_layers >= 0, "model.num_nextn_predict_layers", "must not be negative"),
        need(moe_layer_interval >= 1 && moe_layer_interval <= num_hidden_layers,
             "model.moe_layer_interval", "must be in [1, num_hidden_layers]")}) {
    if (p) return p;
  }
  if (latent_attention) {
    const LatentAttention& a = *latent_attention;
    if (a.kv_lora_rank <= 0 || a.qk_nope_head_dim < 0 || a.qk_rope_head_dim < 0 ||
        a.v_head_dim <= 0 || a.qk_nope_head_dim + a.qk_rope_head_dim <= 0 || a.q_lora_rank < 0) {
      return ConfigProblem{"model.kv_lora_rank",
                           "latent attention needs kv_lora_rank, qk_nope_head_dim, "
                           "qk_rope_head_dim and v_head_dim (all positive)"};
    }
  }
  if (training) {
    if (training->tokens.has_value() == training->compute.has_value()) {
      return ConfigProblem{"training", "give exactly one of tokens and compute"};
    }
    if (training->seq_len <= 0) return ConfigProblem{"training.seq_len", "must be positive"};
  }
  return std::nullopt;
}

double attention_params_per_layer(const ModelConfig& m) {
  const double d = m.hidden_size;
  const double h = m.num_attention_heads;
  if (m.latent_attention) {
    const LatentAttention& a = *m.latent_attention;
    const double qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
    const double q = a.q_lora_rank > 0 ? d * a.q_lora_rank + a.q_lora_rank * h * qk : d * h * qk;
    const double kv = d * (a.kv_lora_rank + a.qk_rope_head_dim) +
                      a.kv_lora_rank * h * (a.qk_nope_head_dim + a.v_head_dim);
    return q + kv + h * a.v_head_dim * d;  // + output projection
  }
  // GQA: Q and O d × (N_q·d_head), K and V d × (N_kv·d_head) — paper 002 Eq. 6.
  return attention_params_per_layer(
      AttentionHeads{m.num_attention_heads, m.num_key_value_heads, m.head_size()}, d);
}

ParameterCounts count_parameters(const ModelConfig& m) {
  const double d = m.hidden_size;
  ParameterCounts p;
  p.attention = Params(attention_params_per_layer(m) * m.num_hidden_layers);
  p.dense_ffn = Params(3.0 * d * m.intermediate_size * m.dense_layers());
  if (m.is_moe()) {
    const double expert = 3.0 * d * m.moe_intermediate_size;
    p.routed_total = Params(expert * m.n_routed_experts * m.moe_layers());
    p.routed_active = Params(expert * m.num_experts_per_tok * m.moe_layers());
    p.shared = Params(3.0 * d * m.shared_width() * m.n_shared_experts * m.moe_layers());
  }
  p.embedding = Params(double(m.vocab_size) * d * (m.tie_word_embeddings ? 1.0 : 2.0));
  p.N = p.attention + p.dense_ffn + p.routed_total + p.shared;
  p.N_a = p.attention + p.dense_ffn + p.routed_active + p.shared;
  return p;
}

ModelConfig model_config_of(const MoeArchitecture& a) {
  const ArchitectureFamily& f = a.family;
  ModelConfig m;
  m.name = "suggested";
  m.hidden_size = a.d;
  m.num_hidden_layers = a.layers();
  m.first_k_dense_replace = a.L_d;
  m.intermediate_size = a.d_d;
  m.moe_intermediate_size = a.d_m;
  m.n_routed_experts = f.n_experts;
  m.num_experts_per_tok = f.top_k;
  m.n_shared_experts = f.n_shared_experts;
  m.num_attention_heads = f.heads.n_q;
  m.num_key_value_heads = f.heads.n_kv;
  m.head_dim = f.heads.d_qkv;
  m.vocab_size = f.vocab_size;
  return m;
}

Accounting account_of(const ModelConfig& m, const ParameterCounts& p, int seq_len) {
  const double attention = p.attention.value();                               // Eq. 6 · L
  const double dense = p.dense_ffn.value();                                   // Eq. 7 · L_d
  const double moe_active = (p.routed_active + p.shared).value();            // Eq. 8 + 9
  const double scores = 6.0 * seq_len * m.num_attention_heads * m.head_size() *
                        m.num_hidden_layers;                                  // Eq. 11
  Accounting acc;
  acc.N_a = p.N_a;                                                            // Eq. 10
  acc.N = p.N;                                                                // Eq. 3
  acc.M_attention_scores = FlopsPerToken(scores);
  acc.M = FlopsPerToken(6.0 * acc.N_a.value() + scores);                     // Eq. 12
  acc.embedding = p.embedding;
  // Eq. 4: shares of M. Attention owns its projections (6·params) and the score FLOPs.
  const double M = acc.M.value();
  acc.r_a = (6.0 * attention + scores) / M;
  acc.r_d = 6.0 * dense / M;
  acc.r_m = 6.0 * moe_active / M;
  return acc;
}

BesideN count_beside_n(const ModelConfig& m) {
  const BuiltExtras& x = m.extras;
  const double d = m.hidden_size;
  const double L = m.num_hidden_layers;
  const double Lm = m.is_moe() ? m.moe_layers() : 0;
  const double hd = m.head_size();
  const double nq = m.num_attention_heads;
  const double nkv = m.num_key_value_heads;
  const double E = m.n_routed_experts;
  BesideN b;
  b.routers = Params(Lm * E * (d + (x.router_bias ? 1.0 : 0.0)));
  double norms = L * 2.0 * d + d;  // input and post-attention RMSNorm per layer, final norm
  if (m.latent_attention) {        // MLA normalises the compressed q and kv (DeepSeek-V2/V3)
    norms += L * (m.latent_attention->q_lora_rank + m.latent_attention->kv_lora_rank);
  } else if (x.qk_norm == QkNorm::per_head) {
    norms += L * 2.0 * hd;
  } else if (x.qk_norm == QkNorm::full_width) {
    norms += L * (nq + nkv) * hd;
  }
  b.norms = Params(norms);
  const double attention_bias = L * ((x.qkv_bias ? (nq + 2.0 * nkv) * hd : 0.0) + (x.output_bias ? d : 0.0));
  const double one_expert_bias = x.expert_bias ? 2.0 * m.moe_intermediate_size + d : 0.0;
  b.biases = Params(attention_bias + Lm * E * one_expert_bias);
  b.gates_and_sinks = Params((x.shared_expert_gate ? Lm * d : 0.0) + (x.attention_sinks ? L * nq : 0.0));
  b.total = b.routers + b.norms + b.biases + b.gates_and_sinks;
  b.active = b.total - Params(Lm * (E - m.num_experts_per_tok) * one_expert_bias);
  return b;
}

MtpCounts count_mtp(const ModelConfig& m) {
  const int modules = m.extras.num_nextn_predict_layers;
  if (modules <= 0) return {};
  // The decoder layer of a module is built like the main model's MoE layers (DeepSeek-V3's
  // layer 61 and GLM-4.5's layer 92 are MoE layers): a one-layer model of that kind counts
  // it, and count_beside_n's final norm of that one-layer model is the module's final norm
  // (shared_head.norm).
  ModelConfig layer = m;
  layer.num_hidden_layers = 1;
  layer.first_k_dense_replace = m.is_moe() ? 0 : 1;
  layer.moe_layer_interval = 1;
  layer.extras.num_nextn_predict_layers = 0;
  const double d = m.hidden_size;
  const double fusion = 2.0 * d + 2.0 * d * d;  // enorm + hnorm, eh_proj (2d -> d, no bias)
  const double one = count_parameters(layer).N.value() + count_beside_n(layer).total.value() + fusion;
  return {Params(modules * one), Params(modules * count_parameters(m).embedding.value())};
}

}  // namespace moeplan
