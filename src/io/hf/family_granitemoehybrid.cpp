// granitemoehybrid (Granite 4.0 H-*): transformers modular_granitemoehybrid.py +
// configuration_granitemoehybrid.py (GraniteMoeHybridForCausalLM). The Mamba layers are
// Bamba's Mamba2 mixer (GraniteMoeHybridMambaLayer(BambaMixer)); attention, experts and the
// shared MLP are GraniteMoeShared's.
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace granitemoehybrid_parts {  // named: a unity build compiles the family files together

// GraniteMoeHybridDecoderLayer: a Mamba2 mixer or attention (layers_block_type[i]), then
// block_sparse_moe (router + num_local_experts experts of intermediate_size) when
// num_local_experts > 0, and always shared_mlp (input_linear H -> 2S, output_linear S -> H:
// a gated MLP of shared_intermediate_size) beside it. With no experts the shared MLP is the
// layer's only FFN: a dense layer of width S. Norms: input_layernorm, post_attention_layernorm.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  // GraniteMoeHybridAttention: head_dim = getattr(config, "head_dim", hidden_size //
  // num_attention_heads) in current transformers, hidden_size // num_attention_heads in
  // earlier ones (the config class has no head_dim key).
  if (!c.head_dim_is_derived("GraniteMoeHybridAttention")) return;
  // The class defaults (8 experts, top-2, shared width 1024, 128 Mamba heads, d_state 256,
  // ...) are not guessed: the keys that size the model must be written.
  const int experts = r.required(j, c.take("num_local_experts"), 0);
  const int shared = r.required(j, c.take("shared_intermediate_size"), 1);
  c.take("num_experts_per_tok");
  if (experts > 0) {
    m.n_routed_experts = experts;
    m.num_experts_per_tok = r.required(j, "num_experts_per_tok", 1);
    m.moe_intermediate_size = m.intermediate_size;  // GraniteMoeHybridMoE: experts of intermediate_size
    if (m.moe_intermediate_size <= 0) r.fail("intermediate_size", "missing: the experts' width");
    m.n_shared_experts = 1;
    m.shared_expert_intermediate_size = shared;
    m.intermediate_size = 0;  // no dense layer
  } else {
    m.intermediate_size = shared;  // the shared MLP is every layer's dense FFN
  }
  // Mamba2 mixer (BambaMixer): I = mamba_expand * H, split in mamba_n_heads heads of
  // mamba_d_head ("auto": I / n_heads; GraniteMoeHybridConfig refuses any other product).
  Mamba2Shape s;
  s.hidden_size = m.hidden_size;
  const int expand = r.required(j, "mamba_expand", 1);
  s.n_heads = r.required(j, c.take("mamba_n_heads"), 1);
  s.n_groups = r.required(j, "mamba_n_groups", 1);
  if (!r.failed() && s.n_heads % s.n_groups != 0) {  // the heads are split among the groups (Mamba2)
    r.fail("mamba_n_groups", fmt::format("{} groups do not divide the {} Mamba2 heads", s.n_groups, s.n_heads));
  }
  s.d_state = r.required(j, c.take("mamba_d_state"), 1);
  s.d_conv = r.required(j, "mamba_d_conv", 1);
  const long long inner = static_cast<long long>(expand) * m.hidden_size;
  if (inner > 1'000'000'000) {
    r.fail("mamba_expand", "times hidden_size is more than 1e9");
    return;
  }
  if (const auto it = j.find("mamba_d_head"); it == j.end() || it->is_null() || (it->is_string() && *it == "auto")) {
    s.head_dim = s.n_heads > 0 ? static_cast<int>(inner / s.n_heads) : 0;  // GraniteMoeHybridConfig: "auto"
  } else {
    s.head_dim = r.required(j, "mamba_d_head", 1);
  }
  if (!r.failed() && static_cast<long long>(s.head_dim) * s.n_heads != inner) {
    r.fail("mamba_d_head", fmt::format("times mamba_n_heads must be mamba_expand * hidden_size = {} "
                                       "(GraniteMoeHybridConfig raises otherwise)", inner));
  }
  // GraniteMoeHybridConfig defaults: mamba_conv_bias True, mamba_proj_bias False,
  // attention_bias False.
  s.conv_bias = r.boolean(j, "mamba_conv_bias").value_or(true);
  s.proj_bias = r.boolean(j, "mamba_proj_bias").value_or(false);
  c.attention_bias(false, false);  // q, k, v and o_proj (GraniteMoeSharedAttention)
  if (r.failed()) return;
  m.linear_mixers.push_back(mamba2_mixer(s));
  // layer_types: "mamba" or "attention" per layer; absent or null, the config's
  // layers_block_type property makes every layer Mamba.
  c.take("layer_types");
  m.layers.assign(static_cast<std::size_t>(m.num_hidden_layers), LayerSpec{});
  const auto types = j.find("layer_types");
  const bool listed = types != j.end() && !types->is_null() && !(types->is_array() && types->empty());
  if (listed && (!types->is_array() || static_cast<int>(types->size()) != m.num_hidden_layers)) {
    r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", m.num_hidden_layers));
    return;
  }
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    const nlohmann::json kind = listed ? (*types)[static_cast<std::size_t>(i)] : nlohmann::json("mamba");
    if (kind == "mamba") {
      l.mixer = MixerKind::linear;
      l.linear_mixer = 0;
    } else if (kind == "attention") {
      l.mixer = MixerKind::attention;
    } else {
      r.fail("layer_types", fmt::format("lists {}: GraniteMoeHybridConfig allows \"mamba\" and \"attention\"",
                                        kind.dump()));
      return;
    }
    l.ffn = experts > 0 ? FfnKind::moe : FfnKind::dense;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_local_experts", "num_experts_per_tok", "shared_intermediate_size", "mamba_d_state", "mamba_n_heads"};

}  // namespace granitemoehybrid_parts

// GraniteMoeHybridConfig: num_key_value_heads absent or null is N_q; tie_word_embeddings
// False.
extern const FamilyRule k_granitemoehybrid_rule{
    .model_types = {"granitemoehybrid"}, .read = granitemoehybrid_parts::read, .kv_heads_default_to_query_heads = true,
    .layout_keys = granitemoehybrid_parts::k_layout_keys,
};

}  // namespace moeplan::hf
