// lfm2_moe (LFM2-MoE, LFM2-8B-A1B): transformers modular_lfm2_moe.py +
// configuration_lfm2_moe.py (Lfm2MoeForCausalLM).
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace lfm2_moe_parts {  // named: a unity build compiles the family files together

// Lfm2MoeDecoderLayer: self_attn when layer_types[i] == "full_attention", else the gated
// short convolution (Lfm2MoeShortConv); feed_forward is a gated Lfm2MoeMLP of
// intermediate_size for i < num_dense_layers, else Lfm2MoeSparseMoeBlock (router of
// num_experts x H without bias, experts of moe_intermediate_size, no shared expert; its
// expert_bias a buffer, in the checkpoint only). Norms: operator_norm, ffn_norm per layer, q_layernorm and
// k_layernorm (head_dim) per attention layer, and embedding_norm, applied after the last
// layer (the final norm).
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  // Lfm2MoeConfig: tie_word_embeddings = kwargs.get("tie_embedding", tie_word_embeddings),
  // default True (the original LFM2 configs write tie_embedding).
  if (const auto tie = r.boolean(j, "tie_embedding")) m.tie_word_embeddings = *tie;
  m.extras.qk_norm = QkNorm::per_head;
  // Lfm2MoeSparseMoeBlock (transformers modular_lfm2_moe.py): if config.use_expert_bias (default
  // True in Lfm2MoeConfig), register_buffer("expert_bias", zeros(num_experts)) per MoE layer.
  c.router_bias_buffer = r.boolean(j, "use_expert_bias").value_or(true);
  // The class defaults (32 experts, top-4, width 1792, 2 dense layers) are not guessed.
  m.n_routed_experts = r.required(j, c.take("num_experts"), 1);
  m.num_experts_per_tok = r.required(j, c.take("num_experts_per_tok"), 1);
  m.moe_intermediate_size = r.required(j, c.take("moe_intermediate_size"), 1);
  const int dense = r.required(j, c.take("num_dense_layers"), 0);
  if (!r.failed() && dense > m.num_hidden_layers) {
    r.fail("num_dense_layers", "is more than num_hidden_layers");
  }
  if (dense > 0 && m.intermediate_size <= 0) r.fail("intermediate_size", "missing: the dense layers' width");
  // Lfm2MoeConfig defaults: conv_L_cache 3, conv_bias False.
  const int l_cache = r.integer(j, "conv_L_cache", 1).value_or(3);
  const bool bias = r.boolean(j, "conv_bias").value_or(false);
  // layer_types has no default: the model indexes it.
  c.take("layer_types");
  const auto types = j.find("layer_types");
  if (types == j.end() || types->is_null()) {
    r.fail("layer_types", "missing: Lfm2MoeDecoderLayer reads the kind of every layer from it");
  } else if (!types->is_array() || static_cast<int>(types->size()) != m.num_hidden_layers) {
    r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", m.num_hidden_layers));
  }
  if (r.failed()) return;
  m.linear_mixers.push_back(short_conv_mixer(m.hidden_size, l_cache, bias));
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    const nlohmann::json& kind = (*types)[static_cast<std::size_t>(i)];
    LayerSpec l;
    // The class makes every layer that is not "full_attention" a convolution; moeplan
    // takes "conv" only, so a misspelt attention layer is not counted as one.
    if (kind == "full_attention") {
      l.mixer = MixerKind::attention;
    } else if (kind == "conv") {
      l.mixer = MixerKind::linear;
      l.linear_mixer = 0;
    } else {
      r.fail("layer_types", fmt::format("lists {}: moeplan reads \"full_attention\" and \"conv\" (any other "
                                        "word is a convolution to Lfm2MoeDecoderLayer)", kind.dump()));
      return;
    }
    l.ffn = i < dense ? FfnKind::dense : FfnKind::moe;
    m.layers.push_back(l);
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_experts_per_tok", "moe_intermediate_size", "num_dense_layers"};

}  // namespace lfm2_moe_parts

// Lfm2MoeConfig: num_key_value_heads absent is 8; tie_word_embeddings True.
extern const FamilyRule k_lfm2_moe_rule{.model_types = {"lfm2_moe"}, .read = lfm2_moe_parts::read, .tied_by_default = true, .layout_keys = lfm2_moe_parts::k_layout_keys};

}  // namespace moeplan::hf
