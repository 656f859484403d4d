// kimi_linear: Kimi-Linear (moonshotai/Kimi-Linear-48B-A3B-*), counted as the checkpoint's
// remote code builds it (modeling_kimi.py, configuration_kimi.py): Kimi Delta Attention
// (KimiDeltaAttention) in the layers linear_attn_config.kda_layers names (1-based), NoPE
// multi-head latent attention (KimiMLAAttention, full-rank query) in the others, a dense
// KimiMLP before first_k_dense_replace and KimiSparseMoeBlock after (DeepSeek-V3's kind: one
// shared MLP of moe_intermediate_size x num_shared_experts, a sigmoid router whose
// e_score_correction_bias is an nn.Parameter of num_experts).
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace kimi_linear_parts {  // named: a unity build compiles the family files together

// The 1-based layer numbers of a list in linear_attn_config, or nullopt (failed).
std::optional<std::set<int>> layer_numbers(FamilyContext& c, const nlohmann::json& la, const char* key) {
  const auto it = la.find(key);
  if (it == la.end() || !it->is_array()) {
    c.r.fail("linear_attn_config", fmt::format("needs {}: a list of 1-based layer numbers", key));
    return std::nullopt;
  }
  std::set<int> out;
  for (const auto& v : *it) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > c.m.num_hidden_layers ||
        !out.insert(static_cast<int>(v.get<std::int64_t>())).second) {
      c.r.fail("linear_attn_config", fmt::format("{} lists {}: not a new layer number in [1, {}]", key, v.dump(),
                                                 c.m.num_hidden_layers));
      return std::nullopt;
    }
  }
  return out;
}

int positive(FamilyContext& c, const nlohmann::json& la, const char* key) {
  const auto it = la.find(key);
  if (it == la.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > 1000000) {
    c.r.fail("linear_attn_config", fmt::format("needs {}: a positive integer", key));
    return 0;
  }
  return static_cast<int>(it->get<std::int64_t>());
}

void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  const int L = m.num_hidden_layers;
  c.take("kv_lora_rank");  // KimiMLAAttention: read by the common MLA keys
  // KimiMLAAttention projects the query at full rank (q_proj; it asserts q_lora_rank is None)
  // and uses no rotary embedding (it asserts mla_use_nope).
  if (c.j.contains("q_lora_rank") && !c.j["q_lora_rank"].is_null()) {
    r.fail("q_lora_rank", "is set: Kimi-Linear's KimiMLAAttention builds a full-rank query only");
    return;
  }
  if (!r.boolean(c.j, "mla_use_nope").value_or(true)) {
    r.fail("mla_use_nope", "is false: Kimi-Linear's KimiMLAAttention is built for NoPE only");
    return;
  }
  // A latent (down-projected) expert space is a later variant's tensor set, not counted here.
  if (c.j.contains("routed_expert_hidden_size") && !c.j["routed_expert_hidden_size"].is_null()) {
    r.fail("routed_expert_hidden_size", "is set: latent routed experts (down and up projections "
                                        "around them) are not counted by moeplan");
    return;
  }

  // Layer kinds: KimiDecoderLayer builds KimiDeltaAttention where (layer_idx + 1) is in
  // kda_layers, MLA elsewhere; full_attn_layers must name exactly the others.
  c.take("linear_attn_config");
  std::vector<bool> kda(static_cast<std::size_t>(L), false);
  if (const auto it = c.j.find("linear_attn_config"); it != c.j.end() && !it->is_null()) {
    const nlohmann::json& la = *it;
    if (!la.is_object()) {
      r.fail("linear_attn_config", "must be an object");
      return;
    }
    for (const auto& [key, value] : la.items()) {
      if (is_one_of(key, {"kda_layers", "full_attn_layers", "num_heads", "head_dim", "short_conv_kernel_size",
                          "gate_lower_bound"})) {
        continue;  // gate_lower_bound clamps the forget gate: no tensor
      }
      if (key == "use_full_rank_gate" && value == false) continue;
      r.fail("linear_attn_config", fmt::format("has {}: a KDA setting moeplan does not know the tensors of", key));
      return;
    }
    const auto kda_layers = layer_numbers(c, la, "kda_layers");
    const auto full_layers = kda_layers ? layer_numbers(c, la, "full_attn_layers") : std::nullopt;
    if (!kda_layers || !full_layers) return;
    for (int n = 1; n <= L; ++n) {
      if (kda_layers->contains(n) == full_layers->contains(n)) {
        r.fail("linear_attn_config", fmt::format("layer {} must be in exactly one of kda_layers and "
                                                 "full_attn_layers", n));
        return;
      }
      kda[static_cast<std::size_t>(n - 1)] = kda_layers->contains(n);
    }
    if (!kda_layers->empty()) {
      const int heads = positive(c, la, "num_heads");
      const int head_dim = positive(c, la, "head_dim");
      const int kernel = positive(c, la, "short_conv_kernel_size");
      if (r.failed()) return;
      m.linear_mixers.push_back(kda_mixer(m.hidden_size, heads, head_dim, kernel));
    }
  }

  // FFNs: KimiSparseMoeBlock where num_experts is not None and layer_idx >= first_k_dense_replace
  // and layer_idx % moe_layer_freq == 0, else KimiMLP(intermediate_size).
  for (const char* key : {"num_experts", "num_experts_per_token", "moe_intermediate_size", "num_shared_experts",
                          "first_k_dense_replace", "moe_layer_freq"}) {
    c.take(key);
  }
  const auto experts = r.integer(c.j, "num_experts", 1);
  int first_dense = L, freq = 1;
  if (experts) {
    for (const char* key : {"num_experts_per_token", "moe_intermediate_size", "first_k_dense_replace", "moe_layer_freq"}) {
      if (!c.j.contains(key) || c.j[key].is_null()) {
        r.fail(key, "missing: the remote configuration_kimi.py has a default of its own; write it");
        return;
      }
    }
    if (!c.j.contains("num_shared_experts")) {
      r.fail("num_shared_experts", "missing: write it (null: no shared expert)");
      return;
    }
    m.n_routed_experts = *experts;
    m.num_experts_per_tok = r.required(c.j, "num_experts_per_token", 1);
    m.moe_intermediate_size = r.required(c.j, "moe_intermediate_size", 1);
    m.n_shared_experts = r.integer(c.j, "num_shared_experts", 0).value_or(0);  // one MLP of width × this
    first_dense = r.required(c.j, "first_k_dense_replace", 0);
    freq = r.required(c.j, "moe_layer_freq", 1);
    // KimiMoEGate.e_score_correction_bias = nn.Parameter(torch.empty(num_experts)): the router's
    // N_e biases (transformers' DeepseekV3TopkRouter keeps it as a buffer; this remote code
    // makes it a parameter, and the checkpoint stores it).
    m.extras.router_bias = true;
  }
  if (r.failed()) return;
  m.layers.resize(static_cast<std::size_t>(L));
  for (int i = 0; i < L; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    l.mixer = kda[static_cast<std::size_t>(i)] ? MixerKind::linear : MixerKind::attention;
    l.ffn = experts && i >= first_dense && i % freq == 0 ? FfnKind::moe : FfnKind::dense;
  }
  // The top-level head_dim (72 in the release) is read by neither KDA (linear_attn_config's
  // head_dim) nor MLA (qk_nope/qk_rope/v_head_dim): it builds nothing.
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "moe_intermediate_size", "first_k_dense_replace", "moe_layer_freq", "num_shared_experts",
    "linear_attn_config", "num_experts_per_token"};

}  // namespace kimi_linear_parts

extern const FamilyRule k_kimi_linear_rule{
    .model_types = {"kimi_linear"},
    .read = kimi_linear_parts::read,
    .layout_keys = kimi_linear_parts::k_layout_keys,
};

}  // namespace moeplan::hf
