// afmoe (Arcee's Trinity Nano, Mini and Large): transformers models/afmoe/modeling_afmoe.py
// (huggingface/transformers 0205eec1: AfmoeAttention, AfmoeDecoderLayer, AfmoeSparseMoeBlock,
// AfmoeTokenChoiceRouter) and configuration_afmoe.py (053f59ef: AfmoeConfig).
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace afmoe_parts {  // named: a unity build compiles the family files together

constexpr const char* k_class = "AfmoeConfig";

// Which layers attend in a sliding window: layer_types when written, else AfmoeConfig's own
// list, "sliding_attention" if (i + 1) % global_attn_every_n_layers else "full_attention"
// (default 4: three windowed layers, then a full one). Empty with the failure recorded.
std::vector<bool> sliding_layers(FamilyContext& c) {
  if (auto written = sliding_of_layer_types(c, "AfmoeAttention")) return *written;
  return sliding_unless_every(c, "global_attn_every_n_layers", 4);
}

// The router as the class builds it (AfmoeTokenChoiceRouter): sigmoid scores, the K chosen
// with expert_bias and always renormalised, then scaled by route_scale. score_func and
// route_norm are what vLLM's AfmoeMoE reads; transformers ignores them, so a file on which the
// two would route differently is refused.
void check_router_keys(FamilyContext& c) {
  if (const auto f = c.r.string(c.j, "score_func"); f && *f != "sigmoid") {
    c.r.fail("score_func", fmt::format("is \"{}\": transformers' AfmoeTokenChoiceRouter scores with a sigmoid "
                                       "whatever it says, vLLM's AfmoeMoE would not; the two would route differently",
                                       *f));
  } else if (!c.r.boolean(c.j, "route_norm").value_or(true)) {
    c.r.fail("route_norm", "is false: transformers' AfmoeTokenChoiceRouter renormalises the K scores whatever it "
                           "says, vLLM's AfmoeMoE would not; the two would route differently");
  } else if (!c.r.boolean(c.j, "norm_topk_prob").value_or(true)) {
    c.r.fail("norm_topk_prob", "is false: AfmoeTokenChoiceRouter renormalises the K scores and does not read it");
  } else if (c.j.contains("routed_scaling_factor") && !c.j["routed_scaling_factor"].is_null()) {
    c.r.fail("routed_scaling_factor", "is written: AfmoeTokenChoiceRouter scales by route_scale and does not read "
                                      "it; which scale the checkpoint was trained with is unknown");
  }
  // Expert groups: vLLM's AfmoeMoE limits the K to topk_group of n_group groups, transformers'
  // router does not; one group (the released files) routes alike in both.
  for (const char* key : {"n_group", "topk_group"}) {
    if (c.r.failed()) return;
    if (const auto g = c.r.integer(c.j, key, 1); g && *g > 1) {
      c.r.fail(key, fmt::format("is {}: vLLM's AfmoeMoE routes within expert groups, transformers' "
                                "AfmoeTokenChoiceRouter does not; the two would route differently", *g));
    }
  }
}

// Every layer: AfmoeAttention (q_proj, k_proj, v_proj, o_proj without biases, q_norm and k_norm
// of head_dim, and gate_proj d -> N_q·head_dim, a sigmoid gate of the attention output: Qwen3-
// Next's count), four RMSNorms of d (input, post_attention, pre_mlp, post_mlp: the "sandwich"),
// then layers below num_dense_layers an AfmoeMLP of intermediate_size, the others an
// AfmoeSparseMoeBlock: router.gate N_e x d without bias, num_experts experts of
// moe_intermediate_size, shared_experts one AfmoeMLP of moe_intermediate_size x
// num_shared_experts, and expert_bias, an nn.Parameter of N_e (requires_grad False: built and
// stored, counted as the router's bias). RoPE on the sliding-window layers only.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // AfmoeConfig's defaults (64 experts, top-6, 2 shared of 1408, 1 dense layer) are nobody's
  // released model: moeplan does not guess them.
  read_written_experts(c, k_class);
  const int dense = c.written("num_dense_layers", 0, k_class);
  if (r.failed()) return;
  if (dense >= m.num_hidden_layers) {
    r.fail("num_dense_layers", fmt::format("is {}, num_hidden_layers {}: AfmoeDecoderLayer would build no MoE layer",
                                           dense, m.num_hidden_layers));
    return;
  }
  if (dense > 0 && m.intermediate_size <= 0) {
    r.fail("intermediate_size", "missing: the num_dense_layers dense layers need their width");
    return;
  }
  // AfmoeConfig sets attention_bias = False, but a written one reaches the model through
  // PreTrainedConfig's kwargs and would put biases on q, k, v and o (not on gate_proj).
  if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "is true: AfmoeConfig sets it false, yet a written true reaches AfmoeAttention "
                             "through PreTrainedConfig's kwargs; which the checkpoint has is unknown");
    return;
  }
  check_router_keys(c);
  if (r.failed()) return;
  m.first_k_dense_replace = dense;
  // AfmoeModel multiplies the input embeddings by sqrt(hidden_size) when mup_enabled: no weight,
  // no count, and no Megatron-LM setting of that name (a review found it unreported).
  if (r.boolean(c.j, "mup_enabled").value_or(false)) {
    m.description += "; mup_enabled: the input embeddings are scaled by sqrt(hidden_size) (no weight; not stated by "
                     "--emit megatron)";
  }
  m.gated_attention = true;
  m.extras.qk_norm = QkNorm::per_head;
  m.extras.post_block_norms = true;
  m.extras.router_bias = true;
  const std::vector<bool> sliding = sliding_layers(c);
  if (r.failed()) return;
  // AfmoeConfig's sliding_window default is 1024; it moves the attention's FLOPs, no weight.
  const int window = r.integer(c.j, "sliding_window", 1).value_or(1024);
  if (r.failed()) return;
  window_sliding_nope_full(m, sliding, window);  // AfmoeAttention: RoPE if is_local_attention
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"num_experts", "num_experts_per_tok", "moe_intermediate_size",
                                             "num_shared_experts", "num_dense_layers"};

}  // namespace afmoe_parts

// AfmoeConfig: num_key_value_heads absent is num_attention_heads; head_dim defaults to 128,
// not hidden_size / num_attention_heads (must be written); tie_word_embeddings False.
extern const FamilyRule k_afmoe_rule{.model_types = {"afmoe"},
                                     .read = afmoe_parts::read,
                                     .kv_heads_default_to_query_heads = true,
                                     .head_dim_required = true,
                                     .layout_keys = afmoe_parts::k_layout_keys};

}  // namespace moeplan::hf
