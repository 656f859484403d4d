// arctic: remote code only (Snowflake/snowflake-arctic-instruct, configuration_arctic.py and
// modeling_arctic.py, ArcticForCausalLM, its non-DeepSpeed path; vLLM's
// model_executor/models/arctic.py builds the same tensors).
#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace arctic_parts {  // named: a unity build compiles the family files together

// ArcticMoE: layer i is MoE when (i + 1) % moe_layer_frequency == 0, with num_local_experts
// ArcticMLP experts of intermediate_size (w1, w3, w2, no bias) and a gate (E x d, no bias);
// the other layers have one ArcticMLP of intermediate_size. ArcticDecoderLayer: in an MoE
// layer with parallel_attn_mlp_res, a residual_mlp (ArcticMLP with is_residual_mlp: width
// hidden_size) beside the experts, with its own residual_layernorm (RMSNorm of d). Attention:
// q, k, v, o without biases, head_dim = hidden_size // num_attention_heads.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  const int experts = r.required(c.j, c.take("num_local_experts"), 1);
  const int top_k = r.required(c.j, c.take("num_experts_per_tok"), 1);
  const int width = r.required(c.j, "intermediate_size", 1);
  // ArcticConfig defaults: moe_layer_frequency 2 (odd-indexed layers MoE),
  // parallel_attn_mlp_res False.
  const int frequency = r.integer(c.j, c.take("moe_layer_frequency"), 1).value_or(2);
  const bool residual = r.boolean(c.j, c.take("parallel_attn_mlp_res")).value_or(false);
  // vLLM's port keys the same branch on use_residual (not an ArcticConfig argument): where
  // the two disagree the two codes build different models.
  if (const auto v = r.boolean(c.j, c.take("use_residual")); v && *v != residual && !r.failed()) {
    r.fail("use_residual", fmt::format("is {} but parallel_attn_mlp_res is {}: the remote code builds the "
                                       "residual MLP by parallel_attn_mlp_res, vLLM by use_residual, so they "
                                       "build different models and moeplan refuses the file",
                                       *v, residual));
  }
  // The remote code ties nothing (ArcticForCausalLM._tied_weights_keys = []); every Arctic
  // checkpoint is untied.
  if (m.tie_word_embeddings && !r.failed()) {
    r.fail("tie_word_embeddings", "ArcticForCausalLM declares no tied weights; moeplan does not know what "
                                  "a tied Arctic builds");
  }
  m.head_dim = 0;  // ArcticAttention: hidden_size // num_attention_heads, whatever head_dim says
  if (r.failed()) return;
  m.n_routed_experts = experts;
  m.num_experts_per_tok = top_k;
  m.moe_intermediate_size = width;
  m.intermediate_size = width;
  m.extras.residual_ffn_norm = residual;
  m.layers.assign(static_cast<std::size_t>(m.num_hidden_layers), LayerSpec{});
  bool uniform = true;
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    if ((i + 1) % frequency != 0) {
      l.ffn = FfnKind::dense;
      uniform = false;
    } else if (residual) {
      l.ffn = FfnKind::moe_and_dense;
      l.dense_width = m.hidden_size;
      uniform = false;
    }
  }
  if (uniform) m.layers.clear();  // every layer MoE without a residual MLP: Mixtral's layout
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_local_experts", "num_experts_per_tok", "moe_layer_frequency", "parallel_attn_mlp_res",
    "use_residual"};

}  // namespace arctic_parts

// ArcticConfig: num_key_value_heads None means N_q.
extern const FamilyRule k_arctic_rule{
    .model_types = {"arctic"},
    .read = arctic_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = arctic_parts::k_layout_keys,
};

}  // namespace moeplan::hf
