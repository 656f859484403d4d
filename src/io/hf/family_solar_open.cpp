// solar_open (Solar-Open-100B): transformers models/solar_open/modular_solar_open.py
// (SolarOpenConfig, SolarOpenDecoderLayer(LlamaDecoderLayer), SolarOpenAttention(LlamaAttention),
// SolarOpenMoE(Glm4MoeMoE)).
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace solar_open_parts {  // named: a unity build compiles the family files together

// Every layer: Llama attention (q, k, v with attention_bias, o_proj forced bias=False) and
// SolarOpenMoE: n_routed_experts experts of moe_intermediate_size, a router of N_e x d (its
// e_score_correction_bias is a buffer, in the checkpoint only) and one shared MLP of
// moe_intermediate_size * n_shared_experts. No dense layer: SolarOpenConfig deletes
// intermediate_size and first_k_dense_replace (AttributeError()), so the class reads neither.
void read(FamilyContext& c) {
  c.router_bias_buffer = true;  // its router's e_score_correction_bias buffer (above)
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  // SolarOpenConfig's defaults (128 experts, top-8, 1 shared of 1280) are not guessed.
  m.n_routed_experts = r.required(j, c.take("n_routed_experts"), 1);
  m.num_experts_per_tok = r.required(j, c.take("num_experts_per_tok"), 1);
  m.moe_intermediate_size = r.required(j, c.take("moe_intermediate_size"), 1);
  m.n_shared_experts = r.required(j, c.take("n_shared_experts"), 0);
  m.intermediate_size = 0;  // not read by the class: no dense FFN
  // The published config writes first_k_dense_replace 0; other loaders that read the file as
  // glm4_moe would build that many dense layers, transformers' SolarOpen none.
  if (const auto k = r.integer(j, c.take("first_k_dense_replace"), 0); k && *k > 0) {
    r.fail("first_k_dense_replace", fmt::format("is {}: transformers' SolarOpen builds MoE in every layer and "
                                                "ignores it, a glm4_moe reading of the file would not", *k));
    return;
  }
  if (const auto f = r.integer(j, c.take("moe_layer_freq"), 1); f && *f != 1) {
    r.fail("moe_layer_freq", fmt::format("is {}: SolarOpen builds MoE in every layer", *f));
    return;
  }
  c.attention_bias(false, true);  // q, k, v only: SolarOpenAttention's o_proj has no bias
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "n_routed_experts", "num_experts_per_tok", "moe_intermediate_size", "n_shared_experts",
    "first_k_dense_replace", "moe_layer_freq"};

}  // namespace solar_open_parts

// SolarOpenConfig's defaults: num_key_value_heads 8, head_dim 128 (not d / N_q): both must be
// written; tie_word_embeddings defaults to false.
extern const FamilyRule k_solar_open_rule{.model_types = {"solar_open"}, .read = solar_open_parts::read, .head_dim_required = true, .layout_keys = solar_open_parts::k_layout_keys};

}  // namespace moeplan::hf
