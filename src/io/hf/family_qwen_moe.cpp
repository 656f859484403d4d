// Qwen MoE: qwen2_moe, qwen3_moe (transformers modeling_qwen2_moe.py, modeling_qwen3_moe.py).
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace qwen_moe_parts {  // named: a unity build compiles the family files together

// Qwen MoE: num_experts of width moe_intermediate_size in every layer but the leading
// mlp_only_layers; qwen2_moe adds one shared expert with a sigmoid gate (d weights).
void read(FamilyContext& c) {
  const std::string& family = c.family;
  c.m.n_routed_experts = c.r.required(c.j, c.take("num_experts"), 1);
  c.m.num_experts_per_tok = c.r.required(c.j, c.take("num_experts_per_tok"), 1);
  c.m.moe_intermediate_size = c.r.required(c.j, c.take("moe_intermediate_size"), 1);
  if (family == "qwen2_moe") {  // Qwen3-MoE builds no shared expert: the key is refused there
    if (const auto w = c.r.integer(c.j, c.take("shared_expert_intermediate_size"), 0); w && *w > 0) {
      c.m.n_shared_experts = 1;
      c.m.shared_expert_intermediate_size = *w;
    }
  }
  if (const auto step = c.r.integer(c.j, c.take("decoder_sparse_step"), 1); step && *step != 1) {
    c.r.fail("decoder_sparse_step", fmt::format("only 1 (every layer MoE) is supported, got {}", *step));
  }
  c.take("mlp_only_layers");
  if (const auto it = c.j.find("mlp_only_layers"); it != c.j.end() && !it->is_null()) {
    if (!it->is_array()) {
      c.r.fail("mlp_only_layers", "must be a list of layer indices");
    } else {
      // Leading dense layers are first_k_dense_replace; any other pattern is refused.
      for (std::size_t k = 0; k < it->size(); ++k) {
        if (!(*it)[k].is_number_integer() || (*it)[k].get<std::int64_t>() != std::int64_t(k)) {
          c.r.fail("mlp_only_layers", "only a leading run 0, 1, ..., k-1 of dense layers is supported");
          break;
        }
      }
      c.m.first_k_dense_replace = static_cast<int>(it->size());
      if (c.m.first_k_dense_replace >= c.m.num_hidden_layers) {
        c.r.fail("mlp_only_layers", "covers every layer: no MoE layer is left");
      }
    }
  }
  if (family == "qwen2_moe") {
    // Qwen2MoeSparseMoeBlock builds its shared-expert gate (d weights) in every MoE layer,
    // shared expert or not; Qwen2MoeAttention has q, k, v biases (qkv_bias, default on).
    c.m.extras.shared_expert_gate = true;
    c.m.extras.qkv_bias = c.r.boolean(c.j, "qkv_bias").value_or(true);
  } else {                      // Qwen3MoeAttention: per-head qk-norm
    c.attention_bias(false, false);
    c.m.extras.qk_norm = QkNorm::per_head;
  }
}

void write(const ModelConfig& m, std::string_view f, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j["num_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    if (f == "qwen2_moe") {
      j["shared_expert_intermediate_size"] = m.n_shared_experts > 0 ? m.shared_width() : 0;
    }
    j["decoder_sparse_step"] = 1;
    nlohmann::ordered_json dense = nlohmann::ordered_json::array();
    for (int k = 0; k < m.first_k_dense_replace; ++k) dense.push_back(k);
    j["mlp_only_layers"] = dense;
    // The gates' normalisation: the classes' default is false, moeplan's router (paper 000,
    // top-K then softmax over the K) normalises over the K chosen.
    j["norm_topk_prob"] = m.router ? m.router->norm_topk_prob : true;
  }
  if (f == "qwen2_moe") {
    j["qkv_bias"] = m.extras.qkv_bias;
  } else {
    j["attention_bias"] = m.extras.qkv_bias;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_experts_per_tok", "moe_intermediate_size", "shared_expert_intermediate_size",
    "decoder_sparse_step", "mlp_only_layers"};

}  // namespace qwen_moe_parts

// Qwen2MoeConfig and Qwen3MoeConfig size their dense layers from intermediate_size.
extern const FamilyRule k_qwen2_moe_rule{.model_types = {"qwen2_moe"},
                                         .read = qwen_moe_parts::read,
                                         .layout_keys = qwen_moe_parts::k_layout_keys,
                                         .classes = {{"qwen2_moe", "Qwen2MoeForCausalLM"}},
                                         .write = qwen_moe_parts::write,
                                         .intermediate_size_always = true};
extern const FamilyRule k_qwen3_moe_rule{.model_types = {"qwen3_moe"},
                                         .read = qwen_moe_parts::read,
                                         .head_dim_required = true,
                                         .layout_keys = qwen_moe_parts::k_layout_keys,
                                         .classes = {{"qwen3_moe", "Qwen3MoeForCausalLM"}},
                                         .write = qwen_moe_parts::write,
                                         .intermediate_size_always = true};

}  // namespace moeplan::hf
