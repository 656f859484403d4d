// minimax (transformers configuration_minimax.py / modeling_minimax.py, checkpoint
// MiniMaxAI/MiniMax-Text-01-hf: layer_types) and minimax_text_01 (the remote code
// configuration_minimax_text_01.py / modeling_minimax_text_01.py of MiniMaxAI/MiniMax-Text-01:
// attn_type_list, 0 = lightning, 1 = softmax). Both build the same tensors per layer: lightning
// attention (MiniMaxLightningAttention) or softmax GQA without biases or qk-norm, then a
// Mixtral-style MoE of num_local_experts experts of intermediate_size in every layer.
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace minimax_parts {  // named: a unity build compiles the family files together

// Whether each layer is lightning attention (true) or softmax attention.
std::vector<bool> lightning_layers(FamilyContext& c) {
  const int L = c.m.num_hidden_layers;
  std::vector<bool> out(static_cast<std::size_t>(L), false);
  // MiniMaxConfig fills an absent layer_types with full and linear attention alternating from
  // layer 0, and MiniMaxText01Config an absent attn_type_list with a 12-layer list; no
  // checkpoint uses either, so the pattern must be written.
  const char* key = c.family == "minimax" ? "layer_types" : "attn_type_list";
  c.take(key);
  const auto it = c.j.find(key);
  if (it == c.j.end() || it->is_null()) {
    c.r.fail(key, fmt::format("missing: the {} class fills it with a default pattern of its own; "
                              "write each layer's attention kind", c.family));
    return out;
  }
  if (!it->is_array() || static_cast<int>(it->size()) != L) {
    c.r.fail(key, fmt::format("must list num_hidden_layers ({}) layers", L));
    return out;
  }
  for (int i = 0; i < L; ++i) {
    const auto& v = (*it)[static_cast<std::size_t>(i)];
    bool lightning = false;
    bool known = false;
    if (c.family == "minimax") {  // MiniMaxDecoderLayer: "linear_attention" is lightning, the rest softmax
      lightning = v == "linear_attention";
      known = lightning || v == "full_attention";
    } else {  // MiniMaxText01DecoderLayer: attn_type_list[i] == 0 is lightning, 1 softmax
      lightning = v.is_number_integer() && v.get<std::int64_t>() == 0;
      known = lightning || (v.is_number_integer() && v.get<std::int64_t>() == 1);
    }
    if (!known) {
      c.r.fail(key, fmt::format("lists {} at layer {}: moeplan counts {} only", v.dump(), i,
                                c.family == "minimax" ? "\"linear_attention\" and \"full_attention\""
                                                      : "0 (lightning) and 1 (softmax)"));
      return out;
    }
    out[static_cast<std::size_t>(i)] = lightning;
  }
  return out;
}

void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  const std::vector<bool> lightning = lightning_layers(c);
  if (r.failed()) return;
  // Experts in every layer (MiniMaxSparseMoeBlock / the remote MoE block): router of
  // num_local_experts x d without bias, experts of intermediate_size. MiniMaxConfig also
  // accepts num_experts for num_local_experts (attribute_map).
  const char* experts_key = !c.j.contains("num_local_experts") && c.j.contains("num_experts") && c.family == "minimax"
                                ? "num_experts"
                                : "num_local_experts";
  if (!c.j.contains(experts_key)) {
    r.fail(experts_key, "missing: the class has a default of its own (8); write the expert count");
    return;
  }
  m.n_routed_experts = r.required(c.j, c.take(experts_key), 1);
  if (!c.j.contains("num_experts_per_tok")) {
    r.fail("num_experts_per_tok", "missing: the class has a default of its own (2); write it");
    return;
  }
  m.num_experts_per_tok = r.required(c.j, c.take("num_experts_per_tok"), 1);
  m.moe_intermediate_size = r.required(c.j, "intermediate_size", 1);
  if (c.family == "minimax_text_01") {
    // The remote code builds a shared MLP of shared_intermediate_size and its coefficient gate
    // when it is positive; no release does (transformers' conversion rejects it), and moeplan
    // does not count that block.
    c.take("shared_intermediate_size");
    if (const auto w = r.integer_or_uniform_list(c.j, "shared_intermediate_size", 0); w && *w > 0) {
      r.fail("shared_intermediate_size", fmt::format("is {}: the remote code's shared MLP and its "
                                                    "coefficient gate are not counted by moeplan", *w));
      return;
    }
  }
  if (r.failed()) return;
  bool any = false;
  for (const bool b : lightning) any = any || b;
  if (any) m.linear_mixers.push_back(lightning_attention_mixer(m.hidden_size, m.num_attention_heads, m.head_size()));
  m.layers.resize(lightning.size());
  for (std::size_t i = 0; i < lightning.size(); ++i) {
    m.layers[i].mixer = lightning[i] ? MixerKind::linear : MixerKind::attention;
    m.layers[i].ffn = FfnKind::moe;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_local_experts", "num_experts_per_tok", "shared_intermediate_size", "attn_type_list"};

}  // namespace minimax_parts

// num_key_value_heads: both classes default to 8, so it must be written; head_dim defaults to
// hidden_size / num_attention_heads in both (moeplan's own default).
extern const FamilyRule k_minimax_rule{
    .model_types = {"minimax", "minimax_text_01"},
    .read = minimax_parts::read,
    .layout_keys = minimax_parts::k_layout_keys,
};

}  // namespace moeplan::hf
