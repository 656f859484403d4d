// glm4_moe_lite: GLM-4.7-Flash (transformers models/glm4_moe_lite, modular_glm4_moe_lite.py /
// modeling_glm4_moe_lite.py). The DeepSeek-V3 layout of family_deepseek.cpp:
// Glm4MoeLiteAttention = DeepseekV3Attention (MLA: q_a_proj, q_a_layernorm, q_b_proj,
// kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj; attention_bias on q_a, kv_a and o);
// Glm4MoeLiteMoE = Glm4MoeMoE (Glm4MoeLiteExperts: n_routed_experts of moe_intermediate_size;
// Glm4MoeLiteTopkRouter: a weight of E x d, sigmoid scores, e_score_correction_bias a buffer;
// shared_experts = Glm4MoeLiteMLP(moe_intermediate_size * n_shared_experts)); a dense
// Glm4MoeLiteMLP(intermediate_size) elsewhere. One difference: Glm4MoeLiteDecoderLayer
// picks each layer's FFN by config.mlp_layer_types[layer_idx] ("sparse" or "dense"), which
// Glm4MoeLiteConfig.__post_init__ defaults to ["dense"] + ["sparse"] * (L - 1); the class
// does not read first_k_dense_replace. The checkpoint's MTP layer (model.layers.47, skipped
// on load by _keys_to_ignore_on_load_unexpected) is DeepSeek-V3's module: count_mtp.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace glm4_moe_lite_parts {  // named: a unity build compiles the family files together

// The number of leading dense layers mlp_layer_types (or its class default) gives; a pattern
// that is not dense layers then sparse ones is refused (no file of this class has one).
int leading_dense_layers(FamilyContext& c) {
  if (const auto listed = dense_of_written_mlp_layer_types(c, "Glm4MoeLiteDecoderLayer")) return *listed;
  // The class default is one dense layer; transformers 5.0's release candidates read
  // first_k_dense_replace instead, so a file saying another number is ambiguous.
  if (const auto k = c.r.integer(c.j, "first_k_dense_replace", 0); k && *k != 1) {
    c.r.fail("first_k_dense_replace",
             fmt::format("is {}, but Glm4MoeLiteConfig ignores it: without mlp_layer_types the class "
                         "builds one dense layer; which the checkpoint has is unknown, so moeplan "
                         "refuses rather than guess", *k));
  }
  return 1;
}

void read(FamilyContext& c) {
  c.router_bias_buffer = true;  // Glm4MoeLiteTopkRouter's e_score_correction_bias buffer (above)
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  c.take("kv_lora_rank");  // DeepseekV3Attention: MLA, read by the common keys
  // Glm4MoeLiteConfig's defaults are GLM-4.7-Flash's own (64 experts, ...): not guessed.
  for (const char* key : {"n_routed_experts", "moe_intermediate_size", "num_experts_per_tok", "n_shared_experts"}) {
    if (!c.j.contains(key) || c.j[key].is_null()) {
      r.fail(key, "missing: Glm4MoeLiteConfig has a default of its own; write it");
      return;
    }
  }
  m.n_routed_experts = r.required(c.j, c.take("n_routed_experts"), 1);
  m.moe_intermediate_size = r.required(c.j, c.take("moe_intermediate_size"), 1);
  m.num_experts_per_tok = r.required(c.j, c.take("num_experts_per_tok"), 1);
  m.n_shared_experts = r.required(c.j, c.take("n_shared_experts"), 0);
  if (r.failed()) return;
  m.first_k_dense_replace = leading_dense_layers(c);
  if (r.failed()) return;
  if (m.first_k_dense_replace > 0 && m.intermediate_size == 0) {
    r.fail("intermediate_size", "missing: the leading dense layers (mlp_layer_types) need their width");
    return;
  }
  m.extras.num_nextn_predict_layers = r.integer(c.j, c.take("num_nextn_predict_layers"), 0).value_or(0);
  if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "biases of latent attention are not counted by moeplan");
  }
}

// The expert and layer-layout keys this file's rule reads (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"n_routed_experts", "num_experts_per_tok", "moe_intermediate_size",
                                             "n_shared_experts", "first_k_dense_replace", "mlp_layer_types"};

}  // namespace glm4_moe_lite_parts

// MLA: num_key_value_heads builds no weight (its default, 20, is not N_q in general).
extern const FamilyRule k_glm4_moe_lite_rule{
    .model_types = {"glm4_moe_lite"},
    .read = glm4_moe_lite_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = glm4_moe_lite_parts::k_layout_keys,
    // GLM-4.7-Flash's layer is DeepSeek-V3's (MLA, sigmoid router, shared experts).
    .built_by = {{"glm4_moe_lite", "deepseek_v3"}},
};

}  // namespace moeplan::hf
