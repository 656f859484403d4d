// Dense models: llama, mistral, qwen2, qwen3, gemma, phi3 (transformers modeling_*.py); granite
// (modeling_granite.py: Llama's layer, q/k/v/o biases by attention_bias, FFN biases by mlp_bias;
// embedding_multiplier, residual_multiplier, attention_multiplier and logits_scaling scale
// activations and build no weight) and olmo2 (modeling_olmo2.py: Olmo2Attention's q_norm and
// k_norm are RMSNorms over all query heads and all kv heads, num_attention_heads·head_dim and
// num_key_value_heads·head_dim; its two norms a layer are post_attention_layernorm and
// post_feedforward_layernorm, d each, as many as Llama's); gemma2 (modeling_gemma2.py:
// Gemma's layer with a norm after the attention and after the MLP too, sliding-window
// attention in every other layer by sliding_window; attn_logit_softcapping,
// final_logit_softcapping and query_pre_attn_scalar build no weight); gemma3_text and gemma3
// (modeling_gemma3.py: Gemma 2's layer with q_norm and k_norm of head_dim, windows by
// sliding_window_pattern; gemma3's SigLIP vision tower and projector are not counted).
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace dense_parts {  // named: a unity build compiles the family files together

// Gemma3TextConfig: without layer_types, layer i is sliding_attention when (i + 1) %
// sliding_window_pattern is not 0 (default 6: five windowed layers, then a full one), windowed by
// sliding_window (default 4096); layer_types, when written, is read by hf_config_reader.cpp.
void gemma3_windows(FamilyContext& c) {
  if (c.j.contains("layer_types") && !c.j["layer_types"].is_null()) return;
  const int pattern = c.r.integer(c.j, "sliding_window_pattern", 1).value_or(6);
  const int window = c.r.integer(c.j, "sliding_window", 1).value_or(4096);
  if (c.r.failed()) return;
  c.m.layers = c.m.layer_specs();
  for (std::size_t i = 0; i < c.m.layers.size(); ++i) {
    if ((i + 1) % static_cast<std::size_t>(pattern) != 0) c.m.layers[i].window = window;
  }
}

void read(FamilyContext& c) {
  const std::string& family = c.family;
  c.m.first_k_dense_replace = c.m.num_hidden_layers;
  if (family == "qwen2") {  // Qwen2Attention: q, k, v biases
    c.m.extras.qkv_bias = true;
  } else if (is_one_of(family, {"llama", "qwen3", "gemma", "gemma2", "gemma3_text", "granite", "olmo2"})) {
    // attention_bias on q, k, v, o
    c.attention_bias(false, false);
    if (family == "qwen3") c.m.extras.qk_norm = QkNorm::per_head;
    if (family == "olmo2") c.m.extras.qk_norm = QkNorm::full_width;
    // Gemma2DecoderLayer: input_layernorm, post_attention_layernorm, pre_feedforward_layernorm,
    // post_feedforward_layernorm (Gemma2RMSNorm of d each: weight used as 1 + w, the same count).
    if (family == "gemma2" || family == "gemma3_text") c.m.extras.post_block_norms = true;
    if (family == "gemma3_text") {
      c.m.extras.qk_norm = QkNorm::per_head;  // Gemma3Attention: q_norm, k_norm of head_dim
      gemma3_windows(c);
    }
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
// GraniteConfig and Olmo2Config default num_key_value_heads to num_attention_heads and
// tie_word_embeddings to False.
extern const FamilyRule k_granite_olmo2_rule{.model_types = {"granite", "olmo2"},
                                             .read = dense_parts::read,
                                             .kv_heads_default_to_query_heads = true};
// Gemma2Config: head_dim 256 and num_key_value_heads 4 by default (must be written), tied.
extern const FamilyRule k_gemma2_rule{.model_types = {"gemma2"},
                                      .read = dense_parts::read,
                                      .head_dim_required = true,
                                      .tied_by_default = true};
// Gemma3TextConfig: head_dim 256 and num_key_value_heads 4 by default (must be written), tied.
extern const FamilyRule k_gemma3_text_rule{.model_types = {"gemma3_text"},
                                           .read = dense_parts::read,
                                           .head_dim_required = true,
                                           .tied_by_default = true};
extern const FamilyRule k_gemma3_rule{.model_types = {"gemma3"},
                                      .tied_by_default = true,
                                      .text_config = "text_config",
                                      .text_model_type = "gemma3_text"};
extern const FamilyRule k_gemma_rule{.model_types = {"gemma"},
                                     .read = dense_parts::read,
                                     .head_dim_required = true,
                                     .tied_by_default = true,
                                     .classes = {{"gemma", "GemmaForCausalLM"}},
                                     .write = dense_parts::write};

}  // namespace moeplan::hf
