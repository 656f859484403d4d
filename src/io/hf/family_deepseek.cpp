// The DeepSeek layout: deepseek (DeepSeekMoE, remote code), deepseek_v2, deepseek_v3, kimi_k2
// (remote code, a DeepSeek-V3 copy), glm4_moe, dots1 (transformers modeling_*.py of each).
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace deepseek_parts {  // named: a unity build compiles the family files together

// DeepSeek layout: n_routed_experts (absent or null: dense), first_k_dense_replace leading
// dense layers, n_shared_experts of width moe_intermediate_size.
void read(FamilyContext& c) {
  // transformers DeepseekV3TopkRouter (modeling_deepseek_v3.py) registers e_score_correction_bias
  // as a buffer of n_routed_experts; Glm4MoeTopkRouter and Dots1TopkRouter are its copies; the
  // checkpoints store it (model.layers.*.mlp.gate.e_score_correction_bias). DeepseekV2 builds none.
  c.router_bias_buffer = is_one_of(c.family, {"deepseek_v3", "kimi_k2", "glm4_moe", "dots1"});
  const std::string& family = c.family;
  // Latent attention (read by the common reader): the DeepSeek classes build it.
  if (is_one_of(family, {"deepseek_v2", "deepseek_v3", "kimi_k2"})) c.take("kv_lora_rank");
  // Absent, the class's own default applies (DeepSeek-V3: 256 experts, 1 shared, 3 dense
  // layers), which moeplan does not guess: these keys must be written out. Null or 0
  // experts is a dense model.
  if (!c.j.contains("n_routed_experts")) {
    c.r.fail("n_routed_experts", "missing: the class would use its own default; write the "
                                "expert count (null or 0 for a dense model)");
    return;
  }
  if (const auto e = c.r.integer(c.j, c.take("n_routed_experts"), 0); e && *e > 0) {
    c.m.n_routed_experts = *e;
    c.m.moe_intermediate_size = c.r.required(c.j, c.take("moe_intermediate_size"), 1);
    c.m.num_experts_per_tok = c.r.required(c.j, c.take("num_experts_per_tok"), 1);
    // DeepseekConfig (DeepSeekMoE) defaults n_shared_experts to None: no shared expert.
    const char* shared = c.take("n_shared_experts");
    c.m.n_shared_experts = family == "deepseek" && c.j.contains(shared) && c.j[shared].is_null()
                               ? 0
                               : c.r.required(c.j, shared, 0);
    c.m.first_k_dense_replace = c.r.required(c.j, c.take("first_k_dense_replace"), 0);
    if (const auto freq = c.r.integer(c.j, c.take("moe_layer_freq"), 1); freq && *freq != 1) {
      c.r.fail("moe_layer_freq", fmt::format("only 1 (every layer after first_k_dense_replace is "
                                            "MoE) is supported, got {}", *freq));
    }
  } else {
    c.m.first_k_dense_replace = c.m.num_hidden_layers;
  }
  // Multi-token-prediction modules, counted beside the main model (count_mtp): 1 in
  // DeepSeek-V3/V3.1/R1 and GLM-4.5(-Air), 0 in Kimi-K2. transformers' classes skip their
  // weights on load (DeepseekV3/Glm4Moe _keys_to_ignore_on_load_unexpected), the
  // checkpoints hold them.
  c.m.extras.num_nextn_predict_layers =
      c.r.integer(c.j, c.take("num_nextn_predict_layers"), 0).value_or(0);
  if (family == "deepseek") {
    // DeepseekForCausalLM builds no MTP module, and DeepseekAttention sizes its heads as
    // hidden_size / num_attention_heads whatever a head_dim key says.
    if (c.m.extras.num_nextn_predict_layers > 0) {
      c.r.fail("num_nextn_predict_layers", "DeepseekForCausalLM (DeepSeekMoE) builds no multi-token-prediction module");
      return;
    }
    if (!c.head_dim_is_derived("DeepseekAttention")) return;
  }
  if (family == "glm4_moe") {  // Glm4MoeAttention: q, k, v biases; per-head qk-norm
    c.attention_bias(false, true);
    if (c.r.boolean(c.j, "use_qk_norm").value_or(false)) c.m.extras.qk_norm = QkNorm::per_head;
  } else if (family == "dots1") {  // Dots1Attention (Qwen3's): always qk-norm per head
    c.attention_bias(false, false);
    c.m.extras.qk_norm = QkNorm::per_head;
  } else if (family == "deepseek") {  // DeepseekAttention: Llama's q, k, v, o (bias on all four)
    c.attention_bias(false, false);
  } else if (c.r.boolean(c.j, "attention_bias").value_or(false)) {
    c.r.fail("attention_bias", "biases of latent attention are not counted by moeplan");
  }
}

// What read() reads back.
void write(const ModelConfig& m, std::string_view f, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j["first_k_dense_replace"] = m.first_k_dense_replace;
    j["n_routed_experts"] = m.n_routed_experts;
    j["n_shared_experts"] = m.n_shared_experts;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["moe_layer_freq"] = 1;
    // The source's router where one was read (RouterSpec, read back by hf_config_reader.cpp's
    // read_router_keys); otherwise no group-limited routing: paper 002 routes over all experts.
    const RouterSpec x = m.router.value_or(RouterSpec{});
    j["n_group"] = x.num_groups;
    j["topk_group"] = x.group_topk;
    if (m.router) {
      j["scoring_func"] = router_score_name(x.score);
      j["topk_method"] = x.expert_bias ? "noaux_tc" : (x.num_groups > 1 ? "group_limited_greedy" : "greedy");
      j["norm_topk_prob"] = x.norm_topk_prob;
      j["routed_scaling_factor"] = x.topk_scaling_factor;
    }
    if (m.extras.num_nextn_predict_layers > 0) {  // MTP modules, as DeepSeek-V3 and GLM-4.5 write them
      j["num_nextn_predict_layers"] = m.extras.num_nextn_predict_layers;
    }
  }
  if (f == "glm4_moe") {
    j["attention_bias"] = m.extras.qkv_bias;
    j["use_qk_norm"] = m.extras.qk_norm == QkNorm::per_head;
    // Glm4MoeAttention rotates head_dim x partial_rotary_factor of each head (GLM-4.5 writes
    // 0.5); a model that rotates all of them is written as before, without the key.
    if (m.partial_rotary_factor != 1) j["partial_rotary_factor"] = m.partial_rotary_factor;
  } else if (f == "dots1") {
    j["attention_bias"] = m.extras.qkv_bias;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "n_routed_experts", "num_experts_per_tok", "moe_intermediate_size", "n_shared_experts",
    "first_k_dense_replace", "moe_layer_freq"};

}  // namespace deepseek_parts

// The MLA classes default num_key_value_heads to N_q; glm4_moe and dots1 must write it, and
// their head_dim. These classes size their dense layers from intermediate_size
// (DeepseekV3Config, Glm4MoeConfig).
// deepseek: DeepSeekMoE 16B (arXiv 2401.06066; the checkpoint's remote code,
// deepseek-ai/deepseek-moe-16b-base modeling_deepseek.py): DeepSeek-V2's layout before MLA.
// DeepseekAttention is Llama's multi-head attention (q, k, v, o; num_key_value_heads defaults
// to N_q); DeepseekMoE is first_k_dense_replace dense DeepseekMLP layers, then routed experts of
// moe_intermediate_size with n_shared_experts folded into one DeepseekMLP of n_shared x that width
// (the same weights as n_shared MLPs) and a softmax MoEGate of n_routed_experts x d. No
// transformers class builds it: read only.
extern const FamilyRule k_deepseek_rule{
    .model_types = {"deepseek_v2", "deepseek_v3", "kimi_k2", "deepseek"},
    .read = deepseek_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = deepseek_parts::k_layout_keys,
    .classes = {{"deepseek_v2", "DeepseekV2ForCausalLM"}, {"deepseek_v3", "DeepseekV3ForCausalLM"}},
    .write = deepseek_parts::write,
    .intermediate_size_always = true,
    // kimi_k2 has no transformers class of its own (its checkpoints load remote code, a
    // DeepSeek-V3 copy): the native deepseek_v3 class builds the same model.
    .built_by = {{"kimi_k2", "deepseek_v3"}},
};
// kimi_k25: Kimi-K2.5 / K2.6 (the checkpoints' remote code, configuration_kimi_k25.py and
// modeling_kimi_k25.py: KimiK25ForConditionalGeneration, a MoonViT vision tower and its
// mm_projector, not counted, beside a DeepseekV3ForCausalLM language model built from
// text_config as DeepseekV3Config): text_config is Kimi-K2's layout, read by the rule above.
extern const FamilyRule k_kimi_k25_rule{
    .model_types = {"kimi_k25"},
    .text_config = "text_config",
    .text_model_type = "kimi_k2",
    .text_model_types_also = {"deepseek_v3"},
    .layout_keys = deepseek_parts::k_layout_keys,
};
extern const FamilyRule k_glm4_moe_dots1_rule{
    .model_types = {"glm4_moe", "dots1"},
    .read = deepseek_parts::read,
    .head_dim_required = true,
    .layout_keys = deepseek_parts::k_layout_keys,
    .classes = {{"glm4_moe", "Glm4MoeForCausalLM"}, {"dots1", "Dots1ForCausalLM"}},
    .write = deepseek_parts::write,
    .intermediate_size_always = true,
};

}  // namespace moeplan::hf
