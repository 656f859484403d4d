// gpt_bigcode: transformers modeling_gpt_bigcode.py / configuration_gpt_bigcode.py
// (GPTBigCodeForCausalLM: SantaCoder, StarCoder, StarCoderBase). GPT-2's layout under GPT-2's
// key names (n_embd, n_layer, n_head, n_inner, n_positions): wte (V x d) and a learned
// position table wpe (n_positions x d); per layer ln_1 and ln_2 (LayerNorm, weight and bias),
// attn.c_attn (d -> d + 2 kv_dim, bias) with one kv head when multi_query (else n_head),
// attn.c_proj (d x d, bias), mlp.c_fc (d -> n_inner, bias), its GELU, mlp.c_proj (n_inner -> d,
// bias); ln_f; lm_head tied to wte (tie_word_embeddings, True by default).
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace gpt_bigcode_parts {  // named: a unity build compiles the family files together

// GPTBigCodeConfig fills absent sizes with GPT-2's (n_embd 768, n_layer 12, n_head 12,
// n_positions 1024, vocab 50257) and multi_query with True; moeplan guesses none of them.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  m.hidden_size = r.required(c.j, "n_embd", 1);
  m.num_hidden_layers = r.required(c.j, "n_layer", 1);
  if (!c.layer_count_ok(m.num_hidden_layers, "n_layer")) return;
  m.num_attention_heads = r.required(c.j, "n_head", 1);
  m.vocab_size = r.required(c.j, "vocab_size", 1);
  m.max_position_embeddings = r.required(c.j, "n_positions", 1);
  if (r.failed()) return;
  const auto mq = r.boolean(c.j, "multi_query");
  if (!mq) {
    if (!r.failed()) r.fail("multi_query", "missing: GPTBigCodeConfig has a default of its own (True); write it");
    return;
  }
  m.num_key_value_heads = *mq ? 1 : m.num_attention_heads;
  m.head_dim = 0;  // GPTBigCodeAttention: head_dim = n_embd // n_head
  // GPTBigCodeMLP: inner_dim = n_inner, or 4 * n_embd when it is null.
  m.intermediate_size = r.integer(c.j, "n_inner", 1).value_or(4 * m.hidden_size);
  m.first_k_dense_replace = m.num_hidden_layers;
  m.tie_word_embeddings = r.boolean(c.j, "tie_word_embeddings").value_or(true);
  m.position_embedding = PositionEmbedding::learned_absolute;
  m.ffn_gated = false;  // c_fc, activation_function, c_proj
  // GPTBigCodeConfig's activation_function defaults to gelu_pytorch_tanh; any GELU variant is
  // recorded as GELU (Megatron-LM's default activation), another name as unstated.
  const std::string act = r.string(c.j, "activation_function").value_or("gelu_pytorch_tanh");
  m.ffn_activation = act.rfind("gelu", 0) == 0 ? ModelConfig::Activation::gelu : ModelConfig::Activation::unstated;
  m.extras.qkv_bias = true;
  m.extras.output_bias = true;
  m.extras.ffn_bias = true;
  m.extras.norm_bias = true;  // nn.LayerNorm, weight and bias
}

}  // namespace gpt_bigcode_parts

extern const FamilyRule k_gpt_bigcode_rule{.model_types = {"gpt_bigcode"},
                                           .read = gpt_bigcode_parts::read,
                                           .standard_keys = false};

}  // namespace moeplan::hf
