// Every layer MoE, no shared expert: mixtral, olmoe, gpt_oss (transformers modeling_*.py).
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace every_layer_moe_parts {  // named: a unity build compiles the family files together

// Every layer MoE; the experts' width is intermediate_size; no shared expert.
void read(FamilyContext& c) {
  const std::string& family = c.family;
  c.m.n_routed_experts = c.r.required(c.j, c.take(family == "olmoe" ? "num_experts" : "num_local_experts"), 1);
  c.m.moe_intermediate_size = c.r.required(c.j, "intermediate_size", 1);
  c.m.intermediate_size = 0;  // no dense FFN in these classes
  if (family == "gpt_oss") {
    // GptOssConfig writes the top-k twice (experts_per_token, num_experts_per_tok).
    const auto k = c.r.integer(c.j, c.take("num_experts_per_tok"), 1);
    const auto k2 = c.r.integer(c.j, c.take("experts_per_token"), 1);
    if (k && k2 && *k != *k2) {
      c.r.fail("experts_per_token", fmt::format("is {} but num_experts_per_tok is {}", *k2, *k));
    }
    c.m.num_experts_per_tok = k.value_or(k2.value_or(0));
    if (!k && !k2) c.r.fail("num_experts_per_tok", "missing integer");
    // GptOssAttention: q, k, v, o biases and a learned sink per head; the router has biases,
    // and every expert a gate_up (2 d_m) and a down (d) bias.
    c.attention_bias(true, false);
    c.m.extras.attention_sinks = true;
    c.m.extras.router_bias = true;
    c.m.extras.expert_bias = true;
  } else {
    c.m.num_experts_per_tok = c.r.required(c.j, c.take("num_experts_per_tok"), 1);
    if (family == "olmoe") {  // OlmoeAttention: q_norm, k_norm over all heads; attention_bias
      c.m.extras.qk_norm = QkNorm::full_width;
      c.attention_bias(false, false);
    }
  }
}

void write(const ModelConfig& m, std::string_view f, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j[f == "olmoe" ? "num_experts" : "num_local_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    if (f == "gpt_oss") j["experts_per_token"] = m.num_experts_per_tok;
    j["intermediate_size"] = m.moe_intermediate_size;
  }
  if (f != "mixtral") j["attention_bias"] = m.extras.qkv_bias;
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_local_experts", "num_experts_per_tok", "experts_per_token"};

}  // namespace every_layer_moe_parts

extern const FamilyRule k_mixtral_rule{.model_types = {"mixtral"},
                                       .read = every_layer_moe_parts::read,
                                       .layout_keys = every_layer_moe_parts::k_layout_keys,
                                       .classes = {{"mixtral", "MixtralForCausalLM"}},
                                       .write = every_layer_moe_parts::write};
extern const FamilyRule k_olmoe_rule{.model_types = {"olmoe"},
                                     .read = every_layer_moe_parts::read,
                                     .kv_heads_default_to_query_heads = true,
                                     .layout_keys = every_layer_moe_parts::k_layout_keys,
                                     .classes = {{"olmoe", "OlmoeForCausalLM"}},
                                     .write = every_layer_moe_parts::write};
extern const FamilyRule k_gpt_oss_rule{.model_types = {"gpt_oss"},
                                       .read = every_layer_moe_parts::read,
                                       .head_dim_required = true,
                                       .layout_keys = every_layer_moe_parts::k_layout_keys,
                                       .classes = {{"gpt_oss", "GptOssForCausalLM"}},
                                       .write = every_layer_moe_parts::write};

}  // namespace moeplan::hf
