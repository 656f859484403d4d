// hunyuan_v1_moe (transformers modeling_hunyuan_v1_moe.py and the checkpoints' remote code).
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace hunyuan_v1_moe_parts {  // named: a unity build compiles the family files together

// HunYuan-MoE-V1: num_experts routed experts and one shared MLP in every layer, all of
// intermediate_size. The remote code of the published checkpoints also reads
// moe_intermediate_size, num_shared_expert and use_mixed_mlp_moe (per-layer lists
// allowed), transformers' HunYuanMoEV1 class does not: only configs on which the two agree
// are counted, so the count does not depend on which code builds the model.
void read(FamilyContext& c) {
  c.m.n_routed_experts = c.r.required(c.j, c.take("num_experts"), 1);
  c.take("moe_topk");
  c.m.num_experts_per_tok = c.r.integer_or_uniform_list(c.j, "moe_topk", 1).value_or(0);
  if (!c.r.failed() && c.m.num_experts_per_tok == 0) c.r.fail("moe_topk", "missing integer");
  c.m.moe_intermediate_size = c.m.intermediate_size;
  c.m.n_shared_experts = 1;
  c.take("moe_intermediate_size");
  if (const auto w = c.r.integer_or_uniform_list(c.j, "moe_intermediate_size", 1); w && *w != c.m.intermediate_size) {
    c.r.fail("moe_intermediate_size", fmt::format("is {} but intermediate_size is {}: transformers' "
                                                 "HunYuanMoEV1 sizes every expert from intermediate_size, "
                                                 "the remote code from this key", *w, c.m.intermediate_size));
  }
  c.take("num_shared_expert");
  if (const auto n = c.r.integer_or_uniform_list(c.j, "num_shared_expert", 0); n && *n != 1) {
    c.r.fail("num_shared_expert", fmt::format("is {}: transformers' HunYuanMoEV1 builds one shared MLP", *n));
  }
  c.take("use_mixed_mlp_moe");
  if (!c.r.boolean(c.j, "use_mixed_mlp_moe").value_or(true)) {
    c.r.fail("use_mixed_mlp_moe", "is false: transformers' HunYuanMoEV1 builds the shared MLP anyway");
  }
  if (!c.m.head_dim) c.m.head_dim = c.r.integer(c.j, "attention_head_dim", 1).value_or(0);
  c.attention_bias(false, false);
  c.m.extras.qk_norm = QkNorm::per_head;  // query_layernorm, key_layernorm (head_dim each)
}

// One width for the experts and the shared MLP (read()).
void write(const ModelConfig& m, std::string_view, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j["num_experts"] = m.n_routed_experts;
    j["moe_topk"] = m.num_experts_per_tok;
    j["intermediate_size"] = m.moe_intermediate_size;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["num_shared_expert"] = 1;
    j["use_mixed_mlp_moe"] = true;
  }
  j["attention_bias"] = m.extras.qkv_bias;
  j["use_qk_norm"] = true;  // the class builds the q/k norms either way
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "moe_intermediate_size", "moe_topk", "num_shared_expert", "use_mixed_mlp_moe"};

}  // namespace hunyuan_v1_moe_parts

extern const FamilyRule k_hunyuan_v1_moe_rule{.model_types = {"hunyuan_v1_moe"},
                                              .read = hunyuan_v1_moe_parts::read,
                                              .layout_keys = hunyuan_v1_moe_parts::k_layout_keys,
                                              .classes = {{"hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM"}},
                                              .write = hunyuan_v1_moe_parts::write};

}  // namespace moeplan::hf
