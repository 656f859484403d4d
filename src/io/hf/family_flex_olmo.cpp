// flex_olmo (FlexOlmo-7x7B-1T, Flex-*-2x7B-1T): transformers models/flex_olmo/modular_flex_olmo.py
// (FlexOlmoConfig, FlexOlmoAttention(Olmo2Attention), FlexOlmoSparseMoeBlock(OlmoeSparseMoeBlock),
// FlexOlmoDecoderLayer(OlmoeDecoderLayer)).
#include <string>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace flex_olmo_parts {  // named: a unity build compiles the family files together

// Every layer MoE: num_experts experts of intermediate_size (gate_up, down), a router of
// N_e x d, no shared expert, no dense layer. Attention: q, k, v, o with attention_bias, and
// Olmo2's q_norm over all query heads (N_q head_dim) and k_norm over all kv heads. The layer
// is post-norm (post_attention_layernorm, post_feedforward_layernorm, input_layernorm
// deleted): two norms of d per layer, as moeplan counts them.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  // FlexOlmoConfig's defaults (7 experts, top-5) are not guessed: the keys must be written.
  // attribute_map: num_local_experts is another name of num_experts.
  const char* experts = !j.contains("num_experts") && j.contains("num_local_experts") ? "num_local_experts" : "num_experts";
  c.m.n_routed_experts = r.required(j, c.take(experts), 1);
  c.m.num_experts_per_tok = r.required(j, c.take("num_experts_per_tok"), 1);
  c.m.moe_intermediate_size = r.required(j, "intermediate_size", 1);
  c.m.intermediate_size = 0;  // no dense FFN
  c.m.extras.qk_norm = QkNorm::full_width;
  c.attention_bias(false, false);  // FlexOlmoConfig: attention_bias defaults to false
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"num_experts", "num_local_experts", "num_experts_per_tok"};

}  // namespace flex_olmo_parts

// FlexOlmoConfig: num_key_value_heads None is num_attention_heads; tie_word_embeddings false.
extern const FamilyRule k_flex_olmo_rule{
    .model_types = {"flex_olmo"},
    .read = flex_olmo_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = flex_olmo_parts::k_layout_keys,
};

}  // namespace moeplan::hf
