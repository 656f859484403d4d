#include "moeplan/model/flops_conventions.hpp"

#include <algorithm>
#include <cmath>

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

// Per-layer sums over the model's layers (a uniform model is its layers written out).
struct Shape {
  double d, S, n_q, q_dim;
  double qk_dim, v_dim;       // per head, for attention scores
  double attention_layers;    // softmax attention
  double keys;                // Σ over attention layers of S_eff: twice the mean keys a query
                              // scores (S for full attention; less with a window or an indexer)
  double keys_dims;           // Σ S_eff·(d_qk + d_v) over layers of their own head size (and
                              // keys·(qk_dim + v_dim) for the others): the score terms' product
  bool own_head_sizes;        // some layer's heads are not the model's (LayerSpec::head_dim)
  double heads_keys_dims;     // Σ N_q·S_eff·(d_qk + d_v), each layer's own query heads
  bool own_q_heads;           // some layer's query heads are not the model's (LayerSpec::q_heads)
  double indexer_scores;      // training FLOPs per token of the indexer's q·k, all layers
  double proj_000;            // Σ 2·(Q, K, V weights): paper 000's projections, as printed
  double proj_004;            // Σ 2·(all projections) + 2·d·q: paper 004's
  double mixers;              // Σ training FLOPs of the linear mixers: 3·(2·matrices + state)
  double dense_widths;        // Σ widths of the dense FFNs (residual ones included)
  double moe_layers;
  double ffn;                 // matrices per FFN: 3 (gated) or 2
  double expert_width, shared_width, K, E, shared;
  double expert_io;           // the width experts read and write: d, or a latent MoE's latent
  double latent_proj;         // a latent MoE's two projections per MoE layer, 2·d·latent weights
};

Shape shape_of(const ModelConfig& m, int seq_len) {
  Shape s{};
  s.d = m.hidden_size;
  s.S = seq_len;
  s.n_q = m.num_attention_heads;
  s.q_dim = double(m.num_attention_heads) * m.head_size();
  s.qk_dim = m.latent_attention
                 ? m.latent_attention->qk_nope_head_dim + m.latent_attention->qk_rope_head_dim
                 : m.head_size();
  s.v_dim = m.latent_attention ? m.latent_attention->v_head_dim : m.head_size();
  // Query i scores min(i, w) keys when it may see at most w of them (a sliding window, or the
  // indexer's topk): on average w - w²/(2S), twice that in place of S in the score terms
  // (which count a causal average of S/2 keys).
  const auto keys_of = [&](const LayerSpec& l) {
    double w = l.window > 0 ? l.window : s.S;
    if (m.indexer && (l.indexed || l.indexer_shared)) w = std::min<double>(w, m.indexer->keys_attended());
    double window_keys = w < s.S ? 2.0 * w - w * w / s.S : s.S;
    if (l.chunk > 0 && l.chunk < s.S) {
      // Chunked attention: query i scores the (i mod c) + 1 keys of its own chunk. Over S = q·c
      // + r positions twice their mean is (q·c² + r²)/S (S itself when c >= S, as full attention).
      const double c = l.chunk, q = std::floor(s.S / c), r = s.S - q * c;
      window_keys = std::min(window_keys, (q * c * c + r * r) / s.S);
    }
    if (!m.compressed_attention || l.compress_rate <= 0) return window_keys;
    // DeepSeek-V4: beside its window, query i scores the i/m entries pooled so far (1 per m
    // tokens), CSA layers at most index_topk of them: twice their mean is S/m, or
    // 2·topk - topk²·m/S when topk·m < S.
    const double rate = l.compress_rate, topk = m.compressed_attention->index_topk;
    const bool capped = l.compress_rate == m.compressed_attention->csa_rate && topk * rate < s.S;
    return window_keys + (capped ? 2.0 * topk - topk * topk * rate / s.S : s.S / rate);
  };
  s.ffn = m.ffn_gated ? 3.0 : 2.0;
  s.expert_width = m.moe_intermediate_size;
  s.expert_io = m.expert_io_width();
  s.latent_proj = 2.0 * s.d * m.moe_latent_size;
  s.shared_width = m.shared_width();
  s.K = m.num_experts_per_tok;
  s.E = m.n_routed_experts;
  s.shared = m.n_shared_experts;
  for (const auto& [l, count] : m.layer_census()) {
    const double n = count;
    if (l.mixer == MixerKind::attention) {
      const double all = attention_params_of(m, l);
      // A layer of its own head size (Gemma 4's global_head_dim) scores and projects with it;
      // the others with the model's, as before (the same products, to the last bit).
      const double head = head_size_of(m, l);
      const double n_q = q_heads_of(m, l);
      const double q_dim = l.head_dim > 0 || l.q_heads > 0 ? n_q * head : s.q_dim;
      s.own_q_heads |= l.q_heads > 0 && l.q_heads != m.num_attention_heads;
      // A layer of its own value head size (MiMo-V2-Flash's v_head_dim) sums over it: q.k over the
      // head size, the weighted sum of V over the value heads.
      const bool own = l.head_dim > 0 || l.v_head_dim > 0;
      const double dims = own ? head + v_head_size_of(m, l) : s.qk_dim + s.v_dim;
      s.heads_keys_dims += n * n_q * keys_of(l) * dims;
      s.attention_layers += n;
      s.keys += n * keys_of(l);
      s.keys_dims += n * keys_of(l) * dims;
      s.own_head_sizes |= (l.head_dim > 0 && l.head_dim != m.head_size()) || v_head_size_of(m, l) != head;
      s.proj_000 += n * 2.0 * (m.latent_attention ? all : all - s.d * q_dim);
      s.proj_004 += n * (2.0 * all + 2.0 * s.d * q_dim);
      if (m.indexer && l.indexed) s.indexer_scores += n * 3.0 * s.S * m.indexer->n_heads * m.indexer->head_dim;
      if (m.compressed_attention && l.compress_rate > 0 && l.compress_rate == m.compressed_attention->csa_rate) {
        // DeepSeek-V4's indexer scores each of the i/m keys pooled so far: 3·(S/m)·n_I·h_I.
        const CompressedAttention& a = *m.compressed_attention;
        s.indexer_scores += n * 3.0 * (s.S / l.compress_rate) * a.index_n_heads * a.index_head_dim;
      }
    } else if (l.mixer == MixerKind::linear) {
      const LinearMixer& x = m.linear_mixers.at(static_cast<std::size_t>(l.linear_mixer));
      s.mixers += n * 3.0 * (2.0 * x.matrix_params + x.state_flops);
    }
    if (l.ffn == FfnKind::dense || l.ffn == FfnKind::moe_and_dense) {
      s.dense_widths += n * (l.dense_width > 0 ? l.dense_width : m.intermediate_size);
    }
    if (m.is_moe() && (l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense)) s.moe_layers += n;
  }
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
  // Non-softmax mixers are token mixing: every convention counts them with attention, at 3 x
  // their forward FLOPs (2 per matrix weight + the state update), and says so (the papers'
  // laws never saw one).
  f.linear_mixers = s.mixers;
  switch (c) {
    case FlopsConvention::holistic_002: {
      // Eq. 12: 6 FLOPs per active weight, plus the score FLOPs of Eq. 11 written for
      // separate q·k and v head sizes: 3·S·N_q·(d_qk + d_v) per layer, each layer's own.
      const double scores = s.own_q_heads      ? 3.0 * s.heads_keys_dims
                            : s.own_head_sizes ? 3.0 * s.n_q * s.keys_dims
                                               : 3.0 * s.keys * s.n_q * (s.qk_dim + s.v_dim);
      f.attention = 6.0 * p.attention.value() + scores + s.indexer_scores + s.mixers;
      f.experts = 6.0 * (p.routed_active + p.shared + p.latent_projections).value();
      f.dense_ffn = 6.0 * p.dense_ffn.value();
      break;
    }
    case FlopsConvention::leverage_000: {
      // App. I, Eq. 10–12, training = 3 × forward. Projections as printed:
      // 2·d·q·(1 + 2/(n_h/n_kv)) — Q, K, V, no output projection.
      f.attention = 3.0 * (s.proj_000 + 4.0 * s.keys * s.d) + s.indexer_scores + s.mixers;
      f.dense_ffn = 3.0 * 2.0 * s.ffn * s.d * s.dense_widths;
      f.experts = 3.0 * (s.ffn / 3.0) * (6.0 * s.d * s.K * s.expert_width +
                                         4.0 * s.d * s.shared_width * s.shared) * s.moe_layers;
      // A latent MoE's experts work at the latent; its projections are 2 FLOPs per weight.
      if (s.latent_proj > 0) {
        f.experts = 3.0 * ((s.ffn / 3.0) * (6.0 * s.expert_io * s.K * s.expert_width +
                                            4.0 * s.d * s.shared_width * s.shared) +
                           2.0 * s.latent_proj) * s.moe_layers;
      }
      break;
    }
    case FlopsConvention::moe_vs_dense_003: {
      // Eq. 2/6, ×3: 2 FLOPs per active weight + 4·d·S per layer for attention scores.
      f.attention = 3.0 * (2.0 * p.attention.value() + 4.0 * s.d * s.keys) +
                    s.indexer_scores + s.mixers;
      f.experts = 3.0 * 2.0 * (p.routed_active + p.shared + p.latent_projections).value();
      f.dense_ffn = 3.0 * 2.0 * p.dense_ffn.value();
      break;
    }
    case FlopsConvention::allocation_004: {
      // App. C per token, ×3 (C.4, no PEFT): Q 2dq, KV 4dq/ratio, weights 2·S·d,
      // "value" 2dq (as printed), output 2dq.
      f.attention = 3.0 * (s.proj_004 + 2.0 * s.keys * s.d) + s.indexer_scores + s.mixers;
      f.experts = 3.0 * (2.0 * s.d * (s.E + m.zero_experts) +
                         2.0 * s.ffn * s.d * s.expert_width * (s.K + s.shared)) * s.moe_layers;
      if (s.latent_proj > 0) {  // routed experts at the latent, shared at d, the two projections
        f.experts = 3.0 * (2.0 * s.d * (s.E + m.zero_experts) +
                           2.0 * s.ffn * s.expert_width * (s.expert_io * s.K + s.d * s.shared) +
                           2.0 * s.latent_proj) * s.moe_layers;
      }
      f.dense_ffn = 3.0 * 2.0 * s.ffn * s.d * s.dense_widths;
      break;
    }
  }
  return f;
}

}  // namespace moeplan
