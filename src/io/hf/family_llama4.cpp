// llama4 (its text_config, llama4_text): transformers modeling_llama4.py.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace llama4_parts {  // named: a unity build compiles the family files together

// Which layers attend in chunks (Llama4TextConfig.__post_init__, transformers v5): layer_types'
// "chunked_attention" entries, else the layers no_rope_layers marks 1 (the RoPE layers: the class
// derives layer_types as "chunked_attention" if no_rope else "full_attention"), else every layer
// but each no_rope_layer_interval-th (default 4; an empty no_rope_layers takes that default too).
// Empty on a failure recorded on c.r.
std::vector<bool> chunked_layers(FamilyContext& c) {
  const int L = c.m.num_hidden_layers;
  const auto listed = [&](const char* key, auto&& chunked_of) -> std::vector<bool> {
    const nlohmann::json& v = c.j[key];
    if (!v.is_array() || static_cast<int>(v.size()) != L) {
      c.r.fail(key, fmt::format("must list num_hidden_layers ({}) entries", L));
      return {};
    }
    std::vector<bool> out;
    for (const auto& x : v) {
      const std::optional<bool> chunked = chunked_of(x);
      if (!chunked) {
        c.r.fail(key, fmt::format("lists {}: Llama4TextDecoderLayer builds chunked_attention or full_attention "
                                  "layers only", x.dump()));
        return {};
      }
      out.push_back(*chunked);
    }
    return out;
  };
  std::optional<std::vector<bool>> from_types, from_rope;
  if (const auto it = c.j.find("layer_types"); it != c.j.end() && !it->is_null()) {
    from_types = listed("layer_types", [](const nlohmann::json& x) -> std::optional<bool> {
      if (x == "chunked_attention") return true;
      if (x == "full_attention") return false;
      return std::nullopt;
    });
    if (c.r.failed()) return {};
  }
  if (const auto it = c.j.find("no_rope_layers"); it != c.j.end() && !it->is_null() && !(it->is_array() && it->empty())) {
    from_rope = listed("no_rope_layers", [](const nlohmann::json& x) -> std::optional<bool> {
      if (x == 1) return true;
      if (x == 0) return false;
      return std::nullopt;
    });
    if (c.r.failed()) return {};
  }
  // transformers builds its masks from layer_types, vLLM's Llama4Attention from no_rope_layers
  // (use_chunked_local_attn = not nope and attention_chunk_size): a file where they differ is two
  // models, so it is refused.
  if (from_types && from_rope && *from_types != *from_rope) {
    c.r.fail("layer_types", "names other chunked layers than no_rope_layers marks 1 (RoPE): transformers reads the "
                            "first and vLLM the second, so the file is two models");
    return {};
  }
  if (from_types) return *from_types;
  if (from_rope) return *from_rope;
  const int interval = c.r.integer(c.j, "no_rope_layer_interval", 1).value_or(4);
  std::vector<bool> out;
  for (int i = 0; i < L; ++i) out.push_back((i + 1) % interval != 0);
  return out;
}

// Chunked local attention: Llama4TextAttention's RoPE layers attend within chunks of
// attention_chunk_size positions (class default 8192; null: none) through
// create_chunked_causal_mask, which changes attention FLOPs past the chunk (and a decode step's
// scores; the engines still cache the whole context, docs/serving.md), not the weights. Its NoPE
// layers are counted with RoPE, as every model's are (the positions build no weight;
// non_uniform_layers in model_config.cpp).
void read_chunks(FamilyContext& c) {
  // attention_chunk_size is not a layout key of every family: MiMo-V2-Flash's config carries one
  // its class does not read. layer_types is read here, and hf_config_reader.cpp leaves it alone.
  c.take("layer_types");
  std::optional<int> chunk = 8192;
  if (c.j.contains("attention_chunk_size")) chunk = c.r.integer(c.j, "attention_chunk_size", 1);
  const std::vector<bool> chunked = chunked_layers(c);
  if (c.r.failed() || !chunk) return;
  if (c.m.layers.empty()) c.m.layers = c.m.layer_specs();
  for (std::size_t i = 0; i < chunked.size() && i < c.m.layers.size(); ++i) {
    if (chunked[i]) c.m.layers[i].chunk = *chunk;
  }
}

// Llama 4 text model: every interleave_moe_layer_step-th layer is MoE (layers k-1, 2k-1,
// ...) with num_local_experts routed experts and one shared expert, both of
// intermediate_size; the other layers are dense FFNs of intermediate_size_mlp. Its qk-norm
// is an L2 norm without weights.
void read(FamilyContext& c) {
  c.m.n_routed_experts = c.r.required(c.j, c.take("num_local_experts"), 1);
  c.m.num_experts_per_tok = c.r.required(c.j, c.take("num_experts_per_tok"), 1);
  c.m.moe_intermediate_size = c.r.required(c.j, "intermediate_size", 1);
  c.m.n_shared_experts = 1;
  c.m.moe_layer_interval = c.r.integer(c.j, c.take("interleave_moe_layer_step"), 1).value_or(1);
  c.m.intermediate_size = c.r.integer(c.j, c.take("intermediate_size_mlp"), 1).value_or(0);
  if (c.m.moe_layer_interval > 1 && c.m.intermediate_size == 0 && !c.r.failed()) {
    c.r.fail("intermediate_size_mlp", "missing: the dense layers between the MoE layers need their width");
  }
  c.take("moe_layers");
  if (const auto it = c.j.find("moe_layers"); it != c.j.end() && !it->is_null()) {
    const int k = c.m.moe_layer_interval;
    bool same = it->is_array();
    int expected = k - 1;
    for (std::size_t i = 0; same && i < it->size(); ++i, expected += k) {
      same = (*it)[i].is_number_integer() && (*it)[i].get<std::int64_t>() == expected;
    }
    if (!same || expected < c.m.num_hidden_layers) {
      c.r.fail("moe_layers", fmt::format("only every {}-th layer ({}, {}, ...) as MoE is supported "
                                        "(interleave_moe_layer_step)", k, k - 1, 2 * k - 1));
    }
  }
  c.attention_bias(false, false);
  read_chunks(c);
}

void write(const ModelConfig& m, std::string_view, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j["num_local_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["interleave_moe_layer_step"] = m.moe_layer_interval;
    j["intermediate_size"] = m.moe_intermediate_size;
    if (m.dense_layers() > 0) j["intermediate_size_mlp"] = m.intermediate_size;
  }
  j["attention_bias"] = m.extras.qkv_bias;
  // Chunked attention as read_chunks reads it back: layer_types and one attention_chunk_size
  // (null: none; different sizes do not read back, and the export then refuses the class).
  int chunk = 0;
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (const LayerSpec& l : m.layer_specs()) {
    chunk = l.chunk > 0 ? l.chunk : chunk;
    types.push_back(l.chunk > 0 ? "chunked_attention" : "full_attention");
  }
  j["layer_types"] = types;
  // vLLM reads no_rope_layers instead (1: RoPE and chunked, 0: NoPE and full): the same layers.
  // Without chunks it is left to the class's default (a null chunk size chunks nothing).
  if (chunk > 0) {
    nlohmann::ordered_json rope = nlohmann::ordered_json::array();
    for (const auto& t : types) rope.push_back(t == "chunked_attention" ? 1 : 0);
    j["no_rope_layers"] = rope;
  }
  j["attention_chunk_size"] = chunk > 0 ? nlohmann::ordered_json(chunk) : nlohmann::ordered_json(nullptr);
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_local_experts", "num_experts_per_tok", "interleave_moe_layer_step", "moe_layers",
    "intermediate_size_mlp"};

}  // namespace llama4_parts

extern const FamilyRule k_llama4_rule{
    .model_types = {"llama4_text"},
    .read = llama4_parts::read,
    .head_dim_required = true,
    .layout_keys = llama4_parts::k_layout_keys,
    .classes = {{"llama4_text", "Llama4ForCausalLM"}},
    .write = llama4_parts::write,
};
// The multimodal checkpoint: its language model is text_config.
extern const FamilyRule k_llama4_multimodal_rule{
    .model_types = {"llama4"},
    .text_config = "text_config",
    .text_model_type = "llama4_text",
    .layout_keys = llama4_parts::k_layout_keys,
};

}  // namespace moeplan::hf
