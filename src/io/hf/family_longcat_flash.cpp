// longcat_flash: LongCat-Flash (transformers configuration_longcat_flash.py,
// modeling_longcat_flash.py / modular_longcat_flash.py). Each of num_layers
// LongcatFlashDecoderLayer blocks ("ScMoE") builds two MLA attentions (LongcatFlashMLA, always
// with a low-rank query), two dense LongcatFlashMLP of ffn_hidden_size, four RMSNorms
// (input_layernorm[0, 1], post_attention_layernorm[0, 1]) and one shortcut MoE
// (LongcatFlashMoE) fed from post_attention_layernorm[0]'s output, whose router
// (classifier, nn.Linear(d, n_routed_experts + zero_expert_num, bias=router_bias)) also scores
// zero_expert_num identity experts that own no weights.
//
// moeplan writes each block as two layers: (MLA, the MoE beside mlps[0]) = attention +
// moe_and_dense, then (MLA, mlps[1]) = attention + dense. Per block that is exactly the
// checkpoint's tensors: 2 MLAs with their q_a/kv_a norms, 2 dense MLPs, 4 norms of d (one per
// block of each layer), 1 router of (E + Z) x d and E real experts.
//
// Experts: the CHECKPOINT's real experts are counted, n_routed_experts (512 in
// LongCat-Flash-Chat) of 3·d·expert_ffn_hidden_size each. transformers' current
// LongcatFlashExperts allocates gate_up_proj for n_routed_experts + zero_expert_num (768)
// experts, rows the zero experts never use and the checkpoint never stores: not counted.
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace longcat_flash_parts {  // named: a unity build compiles the family files together


void read(FamilyContext& c) {
  // LongcatFlashTopkRouter (transformers modular_longcat_flash.py): e_score_correction_bias =
  // nn.Buffer(zeros(n_routed_experts + zero_expert_num)), one router per layer.
  c.router_bias_buffer = true;
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  m.hidden_size = c.written("hidden_size", 1, "LongcatFlashConfig");
  m.num_attention_heads = c.written("num_attention_heads", 1, "LongcatFlashConfig");
  m.vocab_size = c.written("vocab_size", 1, "LongcatFlashConfig");
  const int blocks = c.written("num_layers", 1, "LongcatFlashConfig");
  if (blocks > k_max_config_layers / 2) {  // two layers a block
    r.fail("num_layers", fmt::format("{} blocks ({} layers): moeplan reads a config.json layer by layer and "
                                     "takes at most {} layers", blocks, 2LL * blocks, k_max_config_layers));
    return;
  }
  m.intermediate_size = c.written("ffn_hidden_size", 1, "LongcatFlashConfig");
  m.moe_intermediate_size = c.written("expert_ffn_hidden_size", 1, "LongcatFlashConfig");
  m.n_routed_experts = c.written("n_routed_experts", 1, "LongcatFlashConfig");
  m.num_experts_per_tok = c.written("moe_topk", 1, "LongcatFlashConfig");
  // LongcatFlashMLA always runs the query through q_a_proj, q_a_layernorm and q_b_proj
  // (mla_scale_q_lora divides by q_lora_rank); the MLA keys are read by the common reader, but
  // their class defaults (1536, 512, ...) are not moeplan's: all must be written.
  for (const char* key : {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"}) {
    if (!r.failed() && (!c.j.contains(key) || c.j[key].is_null())) {
      r.fail(key, "missing: LongcatFlashMLA needs it and LongcatFlashConfig has a default of its own; write it");
    }
  }
  if (r.failed()) return;
  c.take("kv_lora_rank");
  m.num_hidden_layers = 2 * blocks;  // LongcatFlashModel: config.num_hidden_layers = 2 * num_layers
  if (const auto n = r.integer(c.j, "num_hidden_layers", 1); n && *n != m.num_hidden_layers) {
    r.fail("num_hidden_layers", fmt::format("is {}, but num_layers {} blocks hold {} attention layers", *n, blocks,
                                            m.num_hidden_layers));
    return;
  }
  // num_key_value_heads: None -> num_attention_heads (LongcatFlashConfig.__post_init__); MLA
  // builds no weight from it.
  m.num_key_value_heads = r.integer(c.j, "num_key_value_heads", 1).value_or(m.num_attention_heads);
  if (const auto qk = r.integer(c.j, "qk_head_dim", 1)) {
    const auto nope = r.integer(c.j, "qk_nope_head_dim", 0).value_or(0);
    const auto rope = r.integer(c.j, "qk_rope_head_dim", 0).value_or(0);
    if (*qk != nope + rope) {
      r.fail("qk_head_dim", fmt::format("is {}, not qk_nope_head_dim + qk_rope_head_dim = {}: moeplan counts "
                                        "q_b_proj of the two", *qk, nope + rope));
      return;
    }
  }
  if (const auto method = r.string(c.j, "attention_method"); method && *method != "MLA") {
    r.fail("attention_method", fmt::format("is \"{}\": LongcatFlashDecoderLayer builds MLA only", *method));
    return;
  }
  // Zero-computation experts: identity experts, no weights.
  c.take("zero_expert_num");
  m.zero_experts = r.integer(c.j, "zero_expert_num", 0).value_or(0);
  if (const auto type = r.string(c.j, "zero_expert_type"); type && *type != "identity") {
    r.fail("zero_expert_type", fmt::format("is \"{}\": moeplan counts identity zero experts only", *type));
    return;
  }
  // classifier bias (getattr(config, "router_bias", False)) of n_routed + zero experts.
  m.extras.router_bias = r.boolean(c.j, "router_bias").value_or(false);
  if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "biases of latent attention are not counted by moeplan");
    return;
  }
  // LongcatFlashConfig: tie_word_embeddings defaults to False.
  m.tie_word_embeddings = r.boolean(c.j, "tie_word_embeddings").value_or(false);
  m.layers.resize(static_cast<std::size_t>(m.num_hidden_layers));
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    m.layers[static_cast<std::size_t>(i)].ffn = i % 2 == 0 ? FfnKind::moe_and_dense : FfnKind::dense;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"n_routed_experts", "moe_topk", "zero_expert_num",
                                             "expert_ffn_hidden_size", "ffn_hidden_size"};

}  // namespace longcat_flash_parts

extern const FamilyRule k_longcat_flash_rule{
    .model_types = {"longcat_flash"},
    .read = longcat_flash_parts::read,
    .standard_keys = false,
    .layout_keys = longcat_flash_parts::k_layout_keys,
};

}  // namespace moeplan::hf
