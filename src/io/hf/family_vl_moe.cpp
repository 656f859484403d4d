// Multimodal MoE checkpoints whose language model is a text_config of an MoE family; the
// vision tower is not counted (the reader's description says so):
// - glm4v_moe (its text_config, glm4v_moe_text): transformers modeling_glm4v_moe.py /
//   modular_glm4v_moe.py (Glm4vMoeForConditionalGeneration; GLM-4.5V, GLM-4.6V), GLM-4.5-Air's
//   layout (glm4_moe) without qk-norm;
// - qwen3_vl_moe (its text_config, qwen3_vl_moe_text): transformers modular_qwen3_vl_moe.py
//   (Qwen3VLMoeForConditionalGeneration; Qwen3-VL-30B-A3B, -235B-A22B), whose text layers are
//   Qwen3MoeDecoderLayer's.
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace vl_moe_parts {  // named: a unity build compiles the family files together

// Both a multimodal file and its text_config may say tie_word_embeddings; which one the
// class ties by depends on the transformers version, so two different values are refused.
void check_tie_agrees(FamilyContext& c) {
  if (&c.doc == &c.j || c.r.failed()) return;
  const auto outer = c.doc.find("tie_word_embeddings");
  const auto inner = c.j.find("tie_word_embeddings");
  if (outer == c.doc.end() || inner == c.j.end() || !outer->is_boolean() || !inner->is_boolean()) return;
  if (*outer != *inner) {
    c.r.fail("tie_word_embeddings", fmt::format("is {} in text_config but {} in the file: which one ties the "
                                                "output head depends on the transformers version",
                                                inner->dump(), outer->dump()));
  }
}

// Glm4vMoeTextDecoderLayer (Glm4MoeDecoderLayer): layers from first_k_dense_replace on are
// Glm4vMoeTextMoE (n_routed_experts experts of moe_intermediate_size, gate_up_proj and
// down_proj; a router weight of E x d, its e_score_correction_bias a buffer; a shared
// Glm4vMoeTextMLP of moe_intermediate_size · n_shared_experts), the others a dense MLP of
// intermediate_size. Glm4vMoeTextAttention (Glm4Attention): q, k, v biases with
// attention_bias (default True here), o_proj without; no q/k norm (use_qk_norm is not read).
void read_glm4v_moe_text(FamilyContext& c) {
  c.router_bias_buffer = true;  // Glm4vMoeTextTopkRouter's e_score_correction_bias buffer (above)
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // Glm4vMoeTextConfig maps num_local_experts to n_routed_experts (transformers 5 writes it
  // under either name). Its defaults (128 experts, 1 shared, 1 dense layer) are not guessed.
  const char* experts_key = c.j.contains("num_local_experts") && !c.j.contains("n_routed_experts")
                                ? "num_local_experts" : "n_routed_experts";
  if (c.j.contains("n_routed_experts") && c.j.contains("num_local_experts") &&
      c.j["n_routed_experts"] != c.j["num_local_experts"]) {
    r.fail("num_local_experts", "differs from n_routed_experts, its alias in Glm4vMoeTextConfig");
    return;
  }
  c.take("n_routed_experts");
  c.take("num_local_experts");
  m.n_routed_experts = r.required(c.j, experts_key, 1);
  m.moe_intermediate_size = r.required(c.j, c.take("moe_intermediate_size"), 1);
  m.num_experts_per_tok = r.required(c.j, c.take("num_experts_per_tok"), 1);
  m.n_shared_experts = r.required(c.j, c.take("n_shared_experts"), 0);
  m.first_k_dense_replace = r.required(c.j, c.take("first_k_dense_replace"), 0);
  if (m.first_k_dense_replace > 0 && m.intermediate_size == 0 && !r.failed()) {
    r.fail("intermediate_size", "missing: the leading dense layers (first_k_dense_replace) need their width");
  }
  c.attention_bias(true, true);
  check_tie_agrees(c);
}

// Qwen3VLMoeTextDecoderLayer (Qwen3MoeDecoderLayer): layer i is a sparse MoE block when i is
// not in mlp_only_layers, num_experts > 0 and (i + 1) % decoder_sparse_step == 0, else a dense
// Qwen3MoeMLP of intermediate_size. The MoE block: num_experts experts of
// moe_intermediate_size (gate_up_proj, down_proj) and a router (E x d), no shared expert.
// Qwen3VLMoeTextAttention: q, k, v, o biases with attention_bias (default False) and a
// per-head q_norm, k_norm (RMSNorm of head_dim).
void read_qwen3_vl_moe_text(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // Qwen3VLMoeTextConfig maps num_experts to num_local_experts (transformers 5 writes either).
  const char* experts_key = c.j.contains("num_local_experts") && !c.j.contains("num_experts")
                                ? "num_local_experts" : "num_experts";
  if (c.j.contains("num_experts") && c.j.contains("num_local_experts") &&
      c.j["num_experts"] != c.j["num_local_experts"]) {
    r.fail("num_local_experts", "differs from num_experts, its alias in Qwen3VLMoeTextConfig");
    return;
  }
  c.take("num_experts");
  c.take("num_local_experts");
  // The class defaults (60 experts of 1408, top-4) are not guessed; 0 experts is dense.
  const int experts = r.required(c.j, experts_key, 0);
  // Qwen3VLMoeTextConfig defaults: decoder_sparse_step 1, mlp_only_layers [] (every layer MoE).
  const int step = r.integer(c.j, c.take("decoder_sparse_step"), 1).value_or(1);
  std::vector<bool> dense(static_cast<std::size_t>(m.num_hidden_layers), experts == 0);
  c.take("mlp_only_layers");
  if (const auto it = c.j.find("mlp_only_layers"); it != c.j.end() && !it->is_null() && !r.failed()) {
    if (!it->is_array()) {
      r.fail("mlp_only_layers", "must be a list of layer indices");
      return;
    }
    for (const auto& v : *it) {
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= m.num_hidden_layers) {
        r.fail("mlp_only_layers", fmt::format("lists {}, which is not a layer index in [0, {})", v.dump(),
                                              m.num_hidden_layers));
        return;
      }
      dense[static_cast<std::size_t>(v.get<std::int64_t>())] = true;
    }
  }
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    if ((i + 1) % step != 0) dense[static_cast<std::size_t>(i)] = true;
  }
  if (r.failed()) return;
  c.attention_bias(false, false);
  m.extras.qk_norm = QkNorm::per_head;
  check_tie_agrees(c);
  if (!c.j.contains("tie_word_embeddings")) {
    if (&c.doc == &c.j) {
      m.tie_word_embeddings = true;  // a text_config file alone: Qwen3VLMoeTextConfig's default
    } else if (!c.doc.contains("tie_word_embeddings") && !r.failed()) {
      // The multimodal class defaults to untied, its text_config class to tied.
      r.fail("tie_word_embeddings", "missing: Qwen3VLMoeConfig defaults to False and its text_config class "
                                    "to True; write it");
      return;
    }
  }
  if (experts == 0) return;  // a dense model: every layer's FFN is intermediate_size wide
  m.n_routed_experts = experts;
  m.num_experts_per_tok = r.required(c.j, c.take("num_experts_per_tok"), 1);
  m.moe_intermediate_size = r.required(c.j, c.take("moe_intermediate_size"), 1);
  // The layers exactly: all MoE or a leading run of dense layers is the uniform layout
  // (first_k_dense_replace); any other pattern is written out layer by layer.
  int leading = 0;
  while (leading < m.num_hidden_layers && dense[static_cast<std::size_t>(leading)]) ++leading;
  bool uniform = true;
  for (int i = leading; i < m.num_hidden_layers; ++i) uniform = uniform && !dense[static_cast<std::size_t>(i)];
  if (uniform) {
    m.first_k_dense_replace = leading;
  } else {
    m.layers.assign(static_cast<std::size_t>(m.num_hidden_layers), LayerSpec{});
    for (int i = 0; i < m.num_hidden_layers; ++i) {
      if (dense[static_cast<std::size_t>(i)]) m.layers[static_cast<std::size_t>(i)].ffn = FfnKind::dense;
    }
  }
  if ((leading > 0 || !uniform) && m.intermediate_size == 0 && !r.failed()) {
    r.fail("intermediate_size", "missing: the dense layers (mlp_only_layers, decoder_sparse_step) need their width");
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "n_routed_experts", "num_experts", "num_local_experts", "num_experts_per_tok", "moe_intermediate_size",
    "n_shared_experts", "first_k_dense_replace", "decoder_sparse_step", "mlp_only_layers"};

}  // namespace vl_moe_parts

// Glm4MoeConfig's head_dim (inherited) is not hidden_size / num_attention_heads (GLM-4.5V:
// 128, not 4096 / 96): it must be written, like num_key_value_heads (default 8).
extern const FamilyRule k_glm4v_moe_text_rule{
    .model_types = {"glm4v_moe_text"},
    .read = vl_moe_parts::read_glm4v_moe_text,
    .head_dim_required = true,
    .layout_keys = vl_moe_parts::k_layout_keys,
    .built_by = {{"glm4v_moe_text", "glm4_moe"}},  // GLM-4.5's text model
};
extern const FamilyRule k_glm4v_moe_rule{
    .model_types = {"glm4v_moe"},
    .text_config = "text_config",
    .text_model_type = "glm4v_moe_text",
    .layout_keys = vl_moe_parts::k_layout_keys,
};
// Qwen3VLMoeTextConfig: num_key_value_heads defaults to 16 (must be written), head_dim to
// hidden_size / num_attention_heads.
extern const FamilyRule k_qwen3_vl_moe_text_rule{
    .model_types = {"qwen3_vl_moe_text"},
    .read = vl_moe_parts::read_qwen3_vl_moe_text,
    .layout_keys = vl_moe_parts::k_layout_keys,
    .built_by = {{"qwen3_vl_moe_text", "qwen3_moe"}},  // Qwen3-MoE's text model
};
extern const FamilyRule k_qwen3_vl_moe_rule{
    .model_types = {"qwen3_vl_moe"},
    .text_config = "text_config",
    .text_model_type = "qwen3_vl_moe_text",
    .layout_keys = vl_moe_parts::k_layout_keys,
};

}  // namespace moeplan::hf
