// nemotron: transformers modeling_nemotron.py / configuration_nemotron.py (NemotronForCausalLM:
// Nemotron-4, Minitron). Llama's layout with a non-gated FFN: per layer input_layernorm and
// post_attention_layernorm (NemotronLayerNorm1P, a LayerNorm with weight and bias), q/k/v/o
// (biases by attention_bias), up_proj and down_proj (biases by mlp_bias) around relu2 (squared
// ReLU); a final NemotronLayerNorm1P; lm_head untied by default. partial_rotary_factor rotates
// part of each head and builds no weight.
#include <string>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace nemotron_parts {  // named: a unity build compiles the family files together

void read(FamilyContext& c) {
  c.m.first_k_dense_replace = c.m.num_hidden_layers;
  // NemotronConfig's default (configuration_nemotron.py: partial_rotary_factor=0.5); a written
  // one replaces it (hf_config_reader.cpp, read_partial_rotary).
  c.m.partial_rotary_factor = 0.5;
  c.attention_bias(false, false);  // NemotronAttention: q, k, v, o
  c.m.extras.ffn_bias = c.r.boolean(c.j, "mlp_bias").value_or(false);  // NemotronMLP: up, down
  c.m.extras.norm_bias = true;  // NemotronLayerNorm1P(nn.LayerNorm): weight and bias,
  c.m.layernorm_1p = true;      // the weight applied as 1 + w
  // NemotronMLP: down_proj(act_fn(up_proj(x))), act_fn = ACT2FN[hidden_act]; a gated
  // activation name has no place in it.
  const auto act = c.r.string(c.j, "hidden_act");
  if (act && act->find("glu") != std::string::npos) {
    c.r.fail("hidden_act", "is a gated activation: NemotronMLP builds up_proj and down_proj only");
    return;
  }
  c.m.ffn_gated = false;
  // NemotronConfig's hidden_act defaults to relu2.
  const std::string name = act.value_or("relu2");
  c.m.ffn_activation = name == "relu2"                 ? ModelConfig::Activation::squared_relu
                       : name.rfind("gelu", 0) == 0 ? ModelConfig::Activation::gelu
                                                    : ModelConfig::Activation::unstated;
}

}  // namespace nemotron_parts

// NemotronConfig: num_key_value_heads defaults to None, which NemotronAttention cannot build
// (must be written); head_dim defaults to hidden_size / num_attention_heads; untied by default.
extern const FamilyRule k_nemotron_rule{.model_types = {"nemotron"}, .read = nemotron_parts::read};

}  // namespace moeplan::hf
