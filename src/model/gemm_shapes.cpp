#include "moeplan/model/gemm_shapes.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace moeplan {

const char* to_string(LayerKind k) { return k == LayerKind::dense ? "dense" : "moe"; }

std::int64_t GemmOp::total_rows() const {
  std::int64_t t = 0;
  for (std::int64_t r : rows) t += r;
  return t;
}

double GemmOp::flops() const {
  return 2.0 * static_cast<double>(total_rows()) * static_cast<double>(n) *
         static_cast<double>(k);
}

double ModelGemms::flops() const {
  double f = 0;
  for (const GemmOp& op : dense_layer) f += op.flops() * dense_layers;
  for (const GemmOp& op : moe_layer) f += op.flops() * moe_layers;
  return f;
}

double ModelGemms::flops_counted_in_n_active() const {
  double f = 0;
  for (const GemmOp& op : dense_layer) {
    if (op.counted_in_n_active) f += op.flops() * dense_layers;
  }
  for (const GemmOp& op : moe_layer) {
    if (op.counted_in_n_active) f += op.flops() * moe_layers;
  }
  return f;
}

std::vector<std::int64_t> balanced_expert_rows(std::int64_t tokens, int top_k, int n_experts) {
  const std::int64_t routed = tokens * top_k;
  const std::int64_t q = routed / n_experts, r = routed % n_experts;
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n_experts), q);
  for (std::int64_t i = 0; i < r; ++i) rows[static_cast<std::size_t>(i)] += 1;
  return rows;
}

std::vector<std::int64_t> zipf_expert_rows(std::int64_t tokens, int top_k, int n_experts,
                                           double skew) {
  if (!(skew > 0)) return balanced_expert_rows(tokens, top_k, n_experts);
  const auto E = static_cast<std::size_t>(n_experts);
  const double routed = static_cast<double>(tokens) * top_k;
  // Expert i (0-based) gets a share ∝ 1/(i+1)^skew of the T·K routed rows, at most T (a
  // token picks an expert once): capped shares give their excess to the others in
  // proportion, until none exceeds T.
  std::vector<double> share(E), x(E, 0.0);
  for (std::size_t i = 0; i < E; ++i) share[i] = std::pow(static_cast<double>(i + 1), -skew);
  std::vector<bool> capped(E, false);
  double left = routed;
  for (bool again = true; again;) {
    again = false;
    double w = 0;
    for (std::size_t i = 0; i < E; ++i) w += capped[i] ? 0.0 : share[i];
    for (std::size_t i = 0; i < E; ++i) {
      if (capped[i]) continue;
      x[i] = left * share[i] / w;
    }
    for (std::size_t i = 0; i < E; ++i) {
      if (!capped[i] && x[i] > static_cast<double>(tokens)) {
        capped[i] = true;
        x[i] = static_cast<double>(tokens);
        left -= x[i];
        again = true;
      }
    }
  }
  // Integers: floors, then the remainder to the largest fractional parts.
  std::vector<std::int64_t> rows(E);
  std::int64_t total = 0;
  std::vector<std::pair<double, std::size_t>> frac;
  for (std::size_t i = 0; i < E; ++i) {
    rows[i] = static_cast<std::int64_t>(std::floor(x[i]));
    total += rows[i];
    frac.emplace_back(x[i] - std::floor(x[i]), i);
  }
  std::sort(frac.begin(), frac.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (std::size_t j = 0; total < tokens * top_k && j < frac.size(); ++j) {
    const std::size_t i = frac[j].second;
    if (rows[i] < tokens) {
      ++rows[i];
      ++total;
    }
  }
  return rows;
}

namespace {

GemmOp plain(std::string name, std::string description, LayerKind layer, std::int64_t m,
             std::int64_t n, std::int64_t k) {
  return GemmOp{std::move(name), std::move(description), layer, {m}, n, k, true};
}

/// Q, K/V and output projections of one layer (their weights are
/// attention_params_per_layer(m), so the FLOPs are 2·T times that).
void add_attention(std::vector<GemmOp>& ops, const ModelConfig& m, LayerKind layer,
                   std::int64_t T) {
  const std::int64_t d = m.hidden_size, h = m.num_attention_heads;
  if (m.latent_attention) {
    // Multi-head latent attention (DeepSeek-V2 Sec. 2.1): low-rank query and KV paths.
    const LatentAttention& a = *m.latent_attention;
    const std::int64_t qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
    if (a.q_lora_rank > 0) {
      ops.push_back(plain("attn_q_a", "[T×d]·[d×q_lora]", layer, T, a.q_lora_rank, d));
      ops.push_back(plain("attn_q_b", "[T×q_lora]·[q_lora×N_q·d_qk]", layer, T, h * qk,
                          a.q_lora_rank));
    } else {
      ops.push_back(plain("attn_q", "[T×d]·[d×N_q·d_qk]", layer, T, h * qk, d));
    }
    ops.push_back(plain("attn_kv_a", "[T×d]·[d×(kv_lora+d_rope)]", layer, T,
                        a.kv_lora_rank + a.qk_rope_head_dim, d));
    ops.push_back(plain("attn_kv_b", "[T×kv_lora]·[kv_lora×N_q·(d_nope+d_v)]", layer, T,
                        h * (a.qk_nope_head_dim + a.v_head_dim), a.kv_lora_rank));
    ops.push_back(plain("attn_o", "[T×N_q·d_v]·[N_q·d_v×d]", layer, T, d, h * a.v_head_dim));
    return;
  }
  // GQA (paper 002 Eq. 6): Q and O are d × N_q·d_h, K and V d × N_kv·d_h (fused here).
  const std::int64_t dh = m.head_size(), kv = m.num_key_value_heads;
  ops.push_back(plain("attn_q", "[T×d]·[d×N_q·d_h]", layer, T, h * dh, d));
  ops.push_back(plain("attn_kv", "[T×d]·[d×2·N_kv·d_h]", layer, T, 2 * kv * dh, d));
  // Gated attention's sigmoid gate, N_q·d_h outputs beside q (Megatron's linear_qkv writes them
  // together; a review found bench leaving them out of its FLOPs).
  if (m.gated_attention) ops.push_back(plain("attn_gate", "[T×d]·[d×N_q·d_h]", layer, T, h * dh, d));
  ops.push_back(plain("attn_o", "[T×N_q·d_h]·[N_q·d_h×d]", layer, T, d, h * dh));
}

/// FFN of width w on `rows`: SwiGLU (3·d·w weights: gate and up fused, then down) or, when
/// `gated` is false, GELU / squared ReLU (2·d·w: up, then down).
void add_ffn(std::vector<GemmOp>& ops, const std::string& prefix, const std::string& rows_name,
             LayerKind layer, std::vector<std::int64_t> rows, std::int64_t d, std::int64_t w,
             bool gated) {
  const char* width = prefix == "dense" ? "d_d" : "w";
  if (gated) {
    ops.push_back(GemmOp{prefix + "_gate_up", fmt::format("[{}×d]·[d×2·{}]", rows_name, width),
                         layer, rows, 2 * w, d, true});
  } else {
    ops.push_back(GemmOp{prefix + "_up", fmt::format("[{}×d]·[d×{}]", rows_name, width), layer,
                         rows, w, d, true});
  }
  ops.push_back(GemmOp{prefix + "_down",
                       fmt::format("[{}×{}]·[{}×d]", rows_name, prefix == "dense" ? "d_d" : "w",
                                   prefix == "dense" ? "d_d" : "w"),
                       layer, std::move(rows), d, w, true});
}

}  // namespace

std::expected<ModelGemms, std::string> model_gemms(const ModelConfig& m, std::int64_t tokens,
                                                   double routing_skew) {
  if (tokens < 1) return std::unexpected(fmt::format("tokens must be >= 1, got {}", tokens));
  if (!(routing_skew >= 0) || !std::isfinite(routing_skew)) {
    return std::unexpected(fmt::format("routing skew must be >= 0, got {}", routing_skew));
  }
  if (auto p = m.problem()) return std::unexpected(p->key + ": " + p->reason);
  ModelGemms g;
  g.tokens = tokens;
  g.routing_skew = routing_skew;
  g.dense_layers = m.dense_layers();
  g.moe_layers = m.moe_layers();
  const std::int64_t d = m.hidden_size, T = tokens;
  if (g.dense_layers > 0) {
    add_attention(g.dense_layer, m, LayerKind::dense, T);
    add_ffn(g.dense_layer, "dense", "T", LayerKind::dense, {T}, d, m.intermediate_size, m.ffn_gated);
  }
  if (m.is_moe() && g.moe_layers > 0) {
    add_attention(g.moe_layer, m, LayerKind::moe, T);
    GemmOp router = plain("router", "[T×d]·[d×N_e]", LayerKind::moe, T, m.n_routed_experts, d);
    router.counted_in_n_active = false;  // paper 002 Eq. 10 and count_parameters omit it
    g.moe_layer.push_back(std::move(router));
    if (m.n_shared_experts > 0) {
      // All shared experts see every token, so they run as one FFN of the summed width.
      add_ffn(g.moe_layer, "shared", "T", LayerKind::moe, {T}, d,
              std::int64_t{m.n_shared_experts} * m.shared_width(), m.ffn_gated);
    }
    add_ffn(g.moe_layer, "expert", "t_i", LayerKind::moe,
            zipf_expert_rows(T, m.num_experts_per_tok, m.n_routed_experts, routing_skew), d,
            m.moe_intermediate_size, m.ffn_gated);
  }
  return g;
}

}  // namespace moeplan
