// mimo: Xiaomi MiMo-7B (remote code of the checkpoints, modeling_mimo.py: MiMoForCausalLM is
// Qwen2ForCausalLM with MiMoModel, a Qwen2Model plus `mtp_layers`, one MiMoMTPLayers per
// num_nextn_predict_layers; configuration_mimo.py's MiMoConfig is Qwen2Config plus that key).
// The main model counts as qwen2 (family_dense.cpp): Qwen2Attention builds q, k, v biases
// whatever attention_bias says, and no output bias. Each MTP layer (MiMoMTPLayers.__init__):
// token_layernorm and hidden_layernorm (2d), input_proj = Linear(2d, d, bias=False), a
// Qwen2Attention, a Qwen2MLP of intermediate_size with input_layernorm and
// post_attention_layernorm, and final_layernorm (d): DeepSeek-V3's module with a dense layer,
// counted beside the model by count_mtp (docs/model-schema.md, MTP). The modules share the
// model's embed_tokens and lm_head: the checkpoint stores no copy of them
// (model.mtp_layers.0.* only), so mtp_embedding_copies is false.
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace mimo_parts {  // named: a unity build compiles the family files together

void read(FamilyContext& c) {
  ModelConfig& m = c.m;
  m.first_k_dense_replace = m.num_hidden_layers;
  m.extras.qkv_bias = true;  // Qwen2Attention: q_proj, k_proj, v_proj with bias=True
  // MiMo's checkpoints were made with transformers 4.40, whose Qwen2Attention sized heads as
  // hidden_size / num_attention_heads; a different head_dim is refused (family_rule.hpp).
  if (!c.head_dim_is_derived("Qwen2Attention")) return;
  if (c.r.boolean(c.j, "mlp_bias").value_or(false)) {
    c.r.fail("mlp_bias", "biases of the FFN are not counted by moeplan (Qwen2MLP builds none)");
    return;
  }
  // MiMoConfig's default is 0 (no MTP layer): absent, none is built.
  m.extras.num_nextn_predict_layers = c.r.integer(c.j, c.take("num_nextn_predict_layers"), 0).value_or(0);
  m.extras.mtp_embedding_copies = false;
}

}  // namespace mimo_parts

// MiMoConfig (Qwen2Config) defaults num_key_value_heads to 32, not N_q: it must be written.
extern const FamilyRule k_mimo_rule{
    .model_types = {"mimo"},
    .read = mimo_parts::read,
};

}  // namespace moeplan::hf
