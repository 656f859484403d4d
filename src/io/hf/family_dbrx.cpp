// dbrx: transformers modeling_dbrx.py / configuration_dbrx.py (DbrxForCausalLM; the
// checkpoints' remote code builds the same tensors). Its sizes are under names of its own and
// in two nested objects: d_model, n_layers, n_heads, attn_config.kv_n_heads,
// ffn_config.{ffn_hidden_size, moe_num_experts, moe_top_k}.
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace dbrx_parts {  // named: a unity build compiles the family files together

// DbrxConfig fills every absent key with a default of its own (d_model 2048, n_heads 16,
// n_layers 24, vocab 32000, kv_n_heads 1, ffn_hidden_size 3584, 4 experts, top-1), none of
// which moeplan guesses: each must be written.
int nested(FamilyContext& c, const char* object, const char* key, int min) {
  const auto it = c.j.find(object);
  if (it == c.j.end() || !it->is_object()) {
    c.r.fail(object, fmt::format("missing: DBRX's {} object holds {} (the class would use a default of its own)",
                                 object, key));
    return 0;
  }
  // Errors point into the nested object; the scope goes back to the document afterwards.
  const std::size_t outer = c.r.scope();
  c.r.enter(object);
  int v = 0;
  if (!it->contains(key) || (*it)[key].is_null()) {
    c.r.fail(key, fmt::format("missing in {}: the class would use a default of its own; write it", object));
  } else {
    v = c.r.integer(*it, key, min).value_or(0);
  }
  c.r.scope(outer);
  return v;
}

// Every block: norm_1 (LayerNorm without bias: d weights), Wqkv (d x (d + 2 kv hd)),
// out_proj (d x d), norm_2, a router (E x d, no bias) and E GLU experts w1, v1, w2 (each
// ffn_hidden_size x d); wte, norm_f, an untied lm_head. No biases anywhere.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  m.hidden_size = r.required(c.j, "d_model", 1);
  m.num_hidden_layers = r.required(c.j, "n_layers", 1);
  m.num_attention_heads = r.required(c.j, "n_heads", 1);
  m.vocab_size = r.required(c.j, "vocab_size", 1);
  m.head_dim = 0;  // DbrxAttention: head_dim = d_model // n_heads
  if (r.failed()) return;
  // DbrxForCausalLM raises on tie_word_embeddings ("not supported for DBRX models").
  if (r.boolean(c.j, "tie_word_embeddings").value_or(false)) {
    r.fail("tie_word_embeddings", "DBRX does not support tied embeddings (DbrxForCausalLM raises)");
    return;
  }
  m.tie_word_embeddings = false;
  m.num_key_value_heads = nested(c, "attn_config", "kv_n_heads", 1);
  if (r.failed()) return;
  m.moe_intermediate_size = nested(c, "ffn_config", c.take("ffn_hidden_size"), 1);
  if (r.failed()) return;
  m.n_routed_experts = nested(c, "ffn_config", c.take("moe_num_experts"), 1);
  if (r.failed()) return;
  m.num_experts_per_tok = nested(c, "ffn_config", c.take("moe_top_k"), 1);
  m.intermediate_size = 0;  // every block is MoE, no dense FFN
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"moe_num_experts", "moe_top_k", "ffn_hidden_size"};

}  // namespace dbrx_parts

// DBRX's model is Mixtral's layout: MixtralForCausalLM builds it (checked field by field).
extern const FamilyRule k_dbrx_rule{.model_types = {"dbrx"},
                                    .read = dbrx_parts::read,
                                    .standard_keys = false,
                                    .layout_keys = dbrx_parts::k_layout_keys,
                                    .built_by = {{"dbrx", "mixtral"}}};

}  // namespace moeplan::hf
