// Dense models: llama, mistral, qwen2, qwen3, gemma, phi3 (transformers modeling_*.py).
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace dense_parts {  // named: a unity build compiles the family files together

void read(FamilyContext& c) {
  const std::string& family = c.family;
  c.m.first_k_dense_replace = c.m.num_hidden_layers;
  if (family == "qwen2") {  // Qwen2Attention: q, k, v biases
    c.m.extras.qkv_bias = true;
  } else if (is_one_of(family, {"llama", "qwen3", "gemma"})) {  // attention_bias on q, k, v, o
    c.attention_bias(false, false);
    if (family == "qwen3") c.m.extras.qk_norm = QkNorm::per_head;
  }  // MistralAttention and Phi3Attention have no biases and no such key
  if (c.r.boolean(c.j, "mlp_bias").value_or(false)) {
    c.r.fail("mlp_bias", "biases of the FFN are not counted by moeplan");
  }
}

void write(const ModelConfig& m, std::string_view f, nlohmann::ordered_json& j) {
  if (f == "llama" || f == "qwen3" || f == "gemma") j["attention_bias"] = m.extras.qkv_bias;
}

}  // namespace dense_parts

extern const FamilyRule k_dense_rule{.model_types = {"llama", "phi3"},
                                     .read = dense_parts::read,
                                     .kv_heads_default_to_query_heads = true,
                                     .classes = {{"llama", "LlamaForCausalLM"}, {"phi3", "Phi3ForCausalLM"}},
                                     .write = dense_parts::write};
extern const FamilyRule k_dense_kv_rule{
    .model_types = {"mistral", "qwen2"},
    .read = dense_parts::read,
    .classes = {{"mistral", "MistralForCausalLM"}, {"qwen2", "Qwen2ForCausalLM"}},
    .write = dense_parts::write};
extern const FamilyRule k_dense_head_dim_rule{.model_types = {"qwen3"},
                                              .read = dense_parts::read,
                                              .head_dim_required = true,
                                              .classes = {{"qwen3", "Qwen3ForCausalLM"}},
                                              .write = dense_parts::write};
extern const FamilyRule k_gemma_rule{.model_types = {"gemma"},
                                     .read = dense_parts::read,
                                     .head_dim_required = true,
                                     .tied_by_default = true,
                                     .classes = {{"gemma", "GemmaForCausalLM"}},
                                     .write = dense_parts::write};

}  // namespace moeplan::hf
