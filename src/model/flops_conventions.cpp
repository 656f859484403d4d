#include "moeplan/model/flops_conventions.hpp"

namespace moeplan {

std::string_view to_string(FlopsConvention c) {
  switch (c) {
    case FlopsConvention::holistic_002: return "holistic-002";
    case FlopsConvention::leverage_000: return "leverage-000";
    case FlopsConvention::moe_vs_dense_003: return "moe-vs-dense-003";
    case FlopsConvention::allocation_004: return "allocation-004";
  }
  return "?";
}

namespace {

struct Shape {
  double d, L, L_dense, L_moe, S, n_q, kv_ratio, q_dim;
  double qk_dim, v_dim;  // per head, for attention scores
  double projections;    // attention projection weights per layer
  double dense_width, expert_width, shared_width, K, E, shared;
};

Shape shape_of(const ModelConfig& m, int seq_len) {
  Shape s{};
  s.d = m.hidden_size;
  s.L = m.num_hidden_layers;
  s.L_dense = m.dense_layers();
  s.L_moe = m.is_moe() ? m.moe_layers() : 0;
  s.S = seq_len;
  s.n_q = m.num_attention_heads;
  s.kv_ratio = double(m.num_attention_heads) / m.num_key_value_heads;
  s.q_dim = double(m.num_attention_heads) * m.head_size();
  s.qk_dim = m.latent_attention
                 ? m.latent_attention->qk_nope_head_dim + m.latent_attention->qk_rope_head_dim
                 : m.head_size();
  s.v_dim = m.latent_attention ? m.latent_attention->v_head_dim : m.head_size();
  s.projections = attention_params_per_layer(m);
  s.dense_width = m.intermediate_size;
  s.expert_width = m.moe_intermediate_size;
  s.shared_width = m.shared_width();
  s.K = m.num_experts_per_tok;
  s.E = m.n_routed_experts;
  s.shared = m.n_shared_experts;
  return s;
}

}  // namespace

FlopsBreakdown flops_per_token(const ModelConfig& m, FlopsConvention c, int seq_len) {
  return flops_per_token(m, count_parameters(m), c, seq_len);
}

FlopsBreakdown flops_per_token(const ModelConfig& m, const ParameterCounts& p, FlopsConvention c,
                               int seq_len) {
  const Shape s = shape_of(m, seq_len);
  FlopsBreakdown f;
  f.convention = c;
  switch (c) {
    case FlopsConvention::holistic_002: {
      // Eq. 12: 6 FLOPs per active weight, plus the score FLOPs of Eq. 11 written for
      // separate q·k and v head sizes: 3·S·N_q·(d_qk + d_v) per layer.
      f.attention = 6.0 * p.attention.value() + 3.0 * s.S * s.n_q * (s.qk_dim + s.v_dim) * s.L;
      f.experts = 6.0 * (p.routed_active + p.shared).value();
      f.dense_ffn = 6.0 * p.dense_ffn.value();
      break;
    }
    case FlopsConvention::leverage_000: {
      // App. I, Eq. 10–12, training = 3 × forward. Projections as printed:
      // 2·d·q·(1 + 2/(n_h/n_kv)) — Q, K, V, no output projection.
      const double proj = m.latent_attention ? 2.0 * s.projections
                                             : 2.0 * s.d * s.q_dim * (1.0 + 2.0 / s.kv_ratio);
      f.attention = 3.0 * (proj + 4.0 * s.S * s.d) * s.L;
      f.dense_ffn = 3.0 * 6.0 * s.d * s.dense_width * s.L_dense;
      f.experts = 3.0 * (6.0 * s.d * s.K * s.expert_width +
                         4.0 * s.d * s.shared_width * s.shared) * s.L_moe;
      break;
    }
    case FlopsConvention::moe_vs_dense_003: {
      // Eq. 2/6, ×3: 2 FLOPs per active weight + 4·d·S per layer for attention scores.
      f.attention = 3.0 * (2.0 * p.attention.value() + 4.0 * s.d * s.S * s.L);
      f.experts = 3.0 * 2.0 * (p.routed_active + p.shared).value();
      f.dense_ffn = 3.0 * 2.0 * p.dense_ffn.value();
      break;
    }
    case FlopsConvention::allocation_004: {
      // App. C per token, ×3 (C.4, no PEFT): Q 2dq, KV 4dq/ratio, weights 2·S·d,
      // "value" 2dq (as printed), output 2dq.
      const double proj = m.latent_attention
                              ? 2.0 * s.projections + 2.0 * s.d * s.q_dim
                              : 2.0 * s.d * s.q_dim * (3.0 + 2.0 / s.kv_ratio);
      f.attention = 3.0 * (proj + 2.0 * s.S * s.d) * s.L;
      f.experts = 3.0 * (2.0 * s.d * s.E + 6.0 * s.d * s.expert_width * (s.K + s.shared)) * s.L_moe;
      f.dense_ffn = 3.0 * 6.0 * s.d * s.dense_width * s.L_dense;
      break;
    }
  }
  return f;
}

}  // namespace moeplan
