// jamba: transformers modeling_jamba.py + configuration_jamba.py (JambaForCausalLM; before
// transformers 4.40 Jamba-v0.1 shipped remote code with the same tensors, its inner Mamba
// norms switched by mamba_inner_layernorms).
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace jamba_parts {  // named: a unity build compiles the family files together

// JambaConfig: layers_block_type[i] = "attention" if i % attn_layer_period ==
// attn_layer_offset else "mamba"; layers_num_experts[i] = num_experts if i %
// expert_layer_period == expert_layer_offset else 1, and a layer with more than one expert is
// a JambaSparseMoeBlock (router + experts, no shared expert), else a JambaMLP of
// intermediate_size. Every layer has input_layernorm and pre_ff_layernorm.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  // JambaAttention: no biases; head_dim = hidden_size // num_attention_heads (JambaConfig has
  // no head_dim key; later transformers read one through getattr).
  if (!c.head_dim_is_derived("JambaAttention")) return;
  // The class defaults (16 experts, top-2, attention 8/4, experts 2/1) are not guessed:
  // the pattern and expert keys must be written.
  const int experts = r.required(j, c.take("num_experts"), 1);
  const int attn_period = r.required(j, c.take("attn_layer_period"), 1);
  const int attn_offset = r.required(j, c.take("attn_layer_offset"), 0);
  const int expert_period = r.required(j, c.take("expert_layer_period"), 1);
  const int expert_offset = r.required(j, c.take("expert_layer_offset"), 0);
  // JambaConfig._check_supported_offset: an offset must be below its period.
  if (!r.failed() && attn_offset >= attn_period) {
    r.fail("attn_layer_offset", fmt::format("is {}, not below attn_layer_period {} (JambaConfig refuses it)", attn_offset, attn_period));
  }
  if (!r.failed() && expert_offset >= expert_period) {
    r.fail("expert_layer_offset", fmt::format("is {}, not below expert_layer_period {} (JambaConfig refuses it)", expert_offset, expert_period));
  }
  c.take("num_experts_per_tok");
  if (experts > 1) {
    m.n_routed_experts = experts;
    m.num_experts_per_tok = r.required(j, "num_experts_per_tok", 1);
    m.moe_intermediate_size = m.intermediate_size;  // JambaSparseMoeBlock: experts are JambaMLPs
  }
  if (m.intermediate_size <= 0) r.fail("intermediate_size", "missing: the MLPs and experts need their width");
  // Mamba mixer (JambaMambaMixer): I = mamba_expand * H; dt_rank "auto" = ceil(H / 16).
  MambaShape s;
  s.hidden_size = m.hidden_size;
  const long long inner = static_cast<long long>(r.required(j, "mamba_expand", 1)) * m.hidden_size;
  if (inner > 1'000'000'000) r.fail("mamba_expand", "times hidden_size is more than 1e9");
  s.d_inner = static_cast<int>(std::min(inner, 1'000'000'000LL));
  s.d_state = r.required(j, c.take("mamba_d_state"), 1);
  s.d_conv = r.required(j, "mamba_d_conv", 1);
  if (const auto it = j.find("mamba_dt_rank"); it != j.end() && it->is_string() && *it == "auto") {
    s.dt_rank = static_cast<int>(std::ceil(m.hidden_size / 16.0));  // JambaConfig
  } else {
    s.dt_rank = r.required(j, "mamba_dt_rank", 1);
  }
  // JambaConfig defaults: mamba_conv_bias True, mamba_proj_bias False.
  s.conv_bias = r.boolean(j, "mamba_conv_bias").value_or(true);
  s.proj_bias = r.boolean(j, "mamba_proj_bias").value_or(false);
  // transformers always builds the dt/B/C RMSNorms; the remote code built them only with
  // mamba_inner_layernorms (true in Jamba-v0.1's original config).
  if (r.boolean(j, "mamba_inner_layernorms").value_or(true) == false) {
    r.fail("mamba_inner_layernorms", "false: the remote code then builds no dt/B/C norms, which "
                                     "transformers' JambaMambaMixer always builds; moeplan refuses rather "
                                     "than guess which class the checkpoint was saved from");
  }
  s.inner_norms = true;
  if (r.failed()) return;
  m.linear_mixers.push_back(mamba_mixer(s));
  m.layers.resize(static_cast<std::size_t>(m.num_hidden_layers));
  for (int i = 0; i < m.num_hidden_layers; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    l.mixer = i % attn_period == attn_offset ? MixerKind::attention : MixerKind::linear;
    l.linear_mixer = 0;
    l.ffn = experts > 1 && i % expert_period == expert_offset ? FfnKind::moe : FfnKind::dense;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_experts_per_tok", "attn_layer_period", "attn_layer_offset", "expert_layer_period",
    "expert_layer_offset", "mamba_d_state"};

}  // namespace jamba_parts

// JambaConfig: num_key_value_heads absent is 8 (null: N_q), tie_word_embeddings False.
extern const FamilyRule k_jamba_rule{.model_types = {"jamba"}, .read = jamba_parts::read, .layout_keys = jamba_parts::k_layout_keys};

}  // namespace moeplan::hf
