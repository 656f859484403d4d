// hunyuan (Tencent-Hunyuan-Large, Hunyuan-A52B): the checkpoint's remote code
// models/modeling_hunyuan.py + configuration_hunyuan.py (HunYuanAttention with cross-layer
// attention, HunYuanMoE, HunYuanForCausalLM). Not transformers' hunyuan_v1_moe (Hunyuan-A13B,
// family_hunyuan_v1_moe.cpp), whose keys are per-layer lists and moe_intermediate_size.
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace hunyuan_parts {  // named: a unity build compiles the family files together

// A scalar key of the remote code; Hunyuan-A13B's per-layer lists are another class.
std::optional<int> scalar(FamilyContext& c, const char* key, int min) {
  if (const auto it = c.j.find(key); it != c.j.end() && it->is_array()) {
    c.r.fail(key, "is a per-layer list, the hunyuan_v1_moe format: model_type 'hunyuan' (Hunyuan-Large's "
                  "remote code) reads one value for all layers");
    return std::nullopt;
  }
  return c.r.integer(c.j, c.take(key), min);
}

// Every layer: attention with q_proj and o_proj (d x d), and k_proj, v_proj (d -> N_kv
// head_dim) only in the layers that compute their own K and V: with use_cla, layer i reuses
// the K, V of the last layer with i % cla_share_factor == 0 (HunYuanAttention: attention_type
// 'cross' if config.use_cla and layer_idx % config.cla_share_factor != 0 else 'self');
// attention_bias on q, k, v, o; use_qk_norm: query_layernorm and key_layernorm of head_dim.
// FFN: if num_experts > 1, HunYuanMoE in every layer (num_experts MLPs of intermediate_size,
// gate.wg of N_e x d without bias, and with use_mixed_mlp_moe a shared MLP of
// intermediate_size * num_shared_expert), else one MLP of intermediate_size.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  // HunYuanAttention: head_dim = hidden_size // num_attention_heads, whatever head_dim says.
  for (const char* key : {"head_dim", "attention_head_dim"}) {
    if (const auto h = r.integer(j, key, 1); h && *h * m.num_attention_heads != m.hidden_size) {
      r.fail(key, fmt::format("is {}: Hunyuan-Large's HunYuanAttention uses hidden_size / "
                              "num_attention_heads = {}", *h, m.hidden_size / m.num_attention_heads));
      return;
    }
  }
  m.head_dim = 0;
  // num_experts: absent, HunYuanConfig's default (1: a dense MLP) applies, which moeplan
  // does not guess.
  if (!j.contains("num_experts")) {
    r.fail("num_experts", "missing: HunYuanConfig would use its own default; write the expert count");
    return;
  }
  const int experts = scalar(c, "num_experts", 1).value_or(0);
  if (r.failed()) return;
  if (experts > 1) {
    m.n_routed_experts = experts;
    m.num_experts_per_tok = scalar(c, "moe_topk", 1).value_or(0);
    if (!r.failed() && m.num_experts_per_tok == 0) r.fail("moe_topk", "missing integer");
    m.moe_intermediate_size = m.intermediate_size;  // HunYuanMLP: every expert is intermediate_size wide
    // HunYuanConfig: use_mixed_mlp_moe defaults to false, num_shared_expert to 1.
    const int shared = scalar(c, "num_shared_expert", 0).value_or(1);
    c.take("use_mixed_mlp_moe");
    if (r.boolean(j, "use_mixed_mlp_moe").value_or(false)) m.n_shared_experts = shared;
  } else {
    m.first_k_dense_replace = m.num_hidden_layers;  // num_experts 1: HunYuanMLP in every layer
    scalar(c, "moe_topk", 1);
    scalar(c, "num_shared_expert", 0);
    c.take("use_mixed_mlp_moe");
  }
  if (r.failed()) return;
  c.attention_bias(false, false);  // HunYuanConfig: attention_bias defaults to false
  if (r.boolean(j, "use_qk_norm").value_or(false)) m.extras.qk_norm = QkNorm::per_head;
  // Cross-layer attention. HunYuanConfig: use_cla defaults to false, cla_share_factor to 1.
  c.take("use_cla");
  c.take("cla_share_factor");
  const bool cla = r.boolean(j, "use_cla").value_or(false);
  const int factor = r.integer(j, "cla_share_factor", 1).value_or(1);
  if (r.failed() || !cla || factor == 1) return;
  m.layers.resize(static_cast<std::size_t>(m.num_hidden_layers));
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    l.ffn = m.is_moe() ? FfnKind::moe : FfnKind::dense;
    l.own_kv = i % factor == 0;
  }
  m.first_k_dense_replace = 0;
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "moe_topk", "num_shared_expert", "use_mixed_mlp_moe", "use_cla", "cla_share_factor"};

}  // namespace hunyuan_parts

// HunYuanConfig: num_key_value_heads None is num_attention_heads; tie_word_embeddings false.
extern const FamilyRule k_hunyuan_rule{
    .model_types = {"hunyuan"},
    .read = hunyuan_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = hunyuan_parts::k_layout_keys,
};

}  // namespace moeplan::hf
