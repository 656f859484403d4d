// llama4 (its text_config, llama4_text): transformers modeling_llama4.py.
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace llama4_parts {  // named: a unity build compiles the family files together

// Llama 4 text model: every interleave_moe_layer_step-th layer is MoE (layers k-1, 2k-1,
// ...) with num_local_experts routed experts and one shared expert, both of
// intermediate_size; the other layers are dense FFNs of intermediate_size_mlp. Its qk-norm
// is an L2 norm without weights.
void read(FamilyContext& c) {
  c.m.n_routed_experts = c.r.required(c.j, c.take("num_local_experts"), 1);
  c.m.num_experts_per_tok = c.r.required(c.j, c.take("num_experts_per_tok"), 1);
  c.m.moe_intermediate_size = c.r.required(c.j, "intermediate_size", 1);
  c.m.n_shared_experts = 1;
  c.m.moe_layer_interval = c.r.integer(c.j, c.take("interleave_moe_layer_step"), 1).value_or(1);
  c.m.intermediate_size = c.r.integer(c.j, c.take("intermediate_size_mlp"), 1).value_or(0);
  if (c.m.moe_layer_interval > 1 && c.m.intermediate_size == 0 && !c.r.failed()) {
    c.r.fail("intermediate_size_mlp", "missing: the dense layers between the MoE layers need their width");
  }
  c.take("moe_layers");
  if (const auto it = c.j.find("moe_layers"); it != c.j.end() && !it->is_null()) {
    const int k = c.m.moe_layer_interval;
    bool same = it->is_array();
    int expected = k - 1;
    for (std::size_t i = 0; same && i < it->size(); ++i, expected += k) {
      same = (*it)[i].is_number_integer() && (*it)[i].get<std::int64_t>() == expected;
    }
    if (!same || expected < c.m.num_hidden_layers) {
      c.r.fail("moe_layers", fmt::format("only every {}-th layer ({}, {}, ...) as MoE is supported "
                                        "(interleave_moe_layer_step)", k, k - 1, 2 * k - 1));
    }
  }
  c.attention_bias(false, false);
}

void write(const ModelConfig& m, std::string_view, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j["num_local_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["interleave_moe_layer_step"] = m.moe_layer_interval;
    j["intermediate_size"] = m.moe_intermediate_size;
    if (m.dense_layers() > 0) j["intermediate_size_mlp"] = m.intermediate_size;
  }
  j["attention_bias"] = m.extras.qkv_bias;
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_local_experts", "num_experts_per_tok", "interleave_moe_layer_step", "moe_layers",
    "intermediate_size_mlp"};

}  // namespace llama4_parts

extern const FamilyRule k_llama4_rule{
    .model_types = {"llama4_text"},
    .read = llama4_parts::read,
    .head_dim_required = true,
    .layout_keys = llama4_parts::k_layout_keys,
    .classes = {{"llama4_text", "Llama4ForCausalLM"}},
    .write = llama4_parts::write,
};
// The multimodal checkpoint: its language model is text_config.
extern const FamilyRule k_llama4_multimodal_rule{
    .model_types = {"llama4"},
    .text_config = "text_config",
    .text_model_type = "llama4_text",
    .layout_keys = llama4_parts::k_layout_keys,
};

}  // namespace moeplan::hf
