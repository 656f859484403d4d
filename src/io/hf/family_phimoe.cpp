// phimoe: transformers modeling_phimoe.py / modular_phimoe.py (PhimoeForCausalLM; the
// checkpoint's remote PhiMoEForCausalLM builds the same tensors): Mixtral's layers with
// LayerNorms that have biases, attention biases and an lm_head bias.
#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace phimoe_parts {  // named: a unity build compiles the family files together

// Every layer MoE: num_local_experts experts of intermediate_size (w1, w3, w2, no bias) and a
// router (E x d, no bias). PhimoeAttention is LlamaAttention: q, k, v, o biases with
// attention_bias (PhimoeConfig default False). input_layernorm, post_attention_layernorm and
// the final norm are nn.LayerNorm(elementwise_affine=True): weight and bias. lm_head has V
// biases with lm_head_bias (default False).
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  m.n_routed_experts = r.required(c.j, c.take("num_local_experts"), 1);
  m.moe_intermediate_size = r.required(c.j, "intermediate_size", 1);
  m.intermediate_size = 0;  // no dense FFN
  // PhimoeTopKRouter routes with sparsemixer, which always picks exactly two experts (a
  // top-1, then a second after masking it) whatever num_experts_per_tok says; absent, the
  // config's default is 2 (PhimoeConfig).
  m.num_experts_per_tok = r.integer(c.j, c.take("num_experts_per_tok"), 1).value_or(2);
  if (!r.failed() && m.num_experts_per_tok != 2) {
    r.fail("num_experts_per_tok", fmt::format("is {}, but PhiMoE's sparsemixer router always picks 2 experts "
                                              "per token; moeplan would count the wrong active experts",
                                              m.num_experts_per_tok));
    return;
  }
  c.attention_bias(false, false);
  m.extras.norm_bias = true;
  m.extras.lm_head_bias = r.boolean(c.j, "lm_head_bias").value_or(false);
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"num_local_experts", "num_experts_per_tok"};

}  // namespace phimoe_parts

// PhimoeConfig's num_key_value_heads default is 8, not N_q: it must be written (the default).
extern const FamilyRule k_phimoe_rule{.model_types = {"phimoe"}, .read = phimoe_parts::read, .layout_keys = phimoe_parts::k_layout_keys};

}  // namespace moeplan::hf
