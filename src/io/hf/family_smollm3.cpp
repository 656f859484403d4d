// smollm3: transformers modeling_smollm3.py / configuration_smollm3.py (SmolLM3ForCausalLM,
// huggingface/transformers @008e5743). Llama's decoder layer: q/k/v/o (biases by
// attention_bias), gate/up/down (biases by mlp_bias), input_layernorm and
// post_attention_layernorm, a final norm; tied by default. What differs is position only:
// no_rope_layers lists per layer 1 (RoPE) or 0 (none); absent, layer i has RoPE unless
// (i + 1) % no_rope_layer_interval == 0 (default 4: every fourth layer, SmolLM3-3B's 9 of 36).
// Without layer_types, the class windows the no-RoPE layers by sliding_window when
// use_sliding_window is true. NoPE changes neither the weights nor the KV cache.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace smollm3_parts {  // named: a unity build compiles the family files together

// The 0-based layers without RoPE, from no_rope_layers or no_rope_layer_interval; false on a
// failure recorded on c.r.
bool read_no_rope(FamilyContext& c, std::vector<int>& out) {
  const int L = c.m.num_hidden_layers;
  const auto it = c.j.find("no_rope_layers");
  if (it == c.j.end() || it->is_null()) {
    const int interval = c.r.integer(c.j, "no_rope_layer_interval", 1).value_or(4);
    if (c.r.failed()) return false;
    for (int i = 0; i < L; ++i) {
      if ((i + 1) % interval == 0) out.push_back(i);
    }
    return true;
  }
  if (!it->is_array() || static_cast<long long>(it->size()) != L) {
    c.r.fail("no_rope_layers", fmt::format("must list 1 (RoPE) or 0 (no RoPE) for each of the {} layers", L));
    return false;
  }
  for (int i = 0; i < L; ++i) {
    const auto& v = (*it)[static_cast<std::size_t>(i)];
    if (!v.is_number_integer() || (v.get<long long>() != 0 && v.get<long long>() != 1)) {
      c.r.fail("no_rope_layers", fmt::format("entry {} is {}: 1 (RoPE) or 0 (no RoPE)", i, v.dump()));
      return false;
    }
    if (v.get<long long>() == 0) out.push_back(i);
  }
  return true;
}

void read(FamilyContext& c) {
  c.m.first_k_dense_replace = c.m.num_hidden_layers;
  c.attention_bias(false, false);  // SmolLM3Attention: q, k, v, o
  c.m.extras.ffn_bias = c.r.boolean(c.j, "mlp_bias").value_or(false);  // SmolLM3MLP: gate, up, down
  std::vector<int> no_rope;
  if (!read_no_rope(c, no_rope)) return;
  c.m.no_rope_layers = no_rope;
  // SmolLM3Config without layer_types: the no-RoPE layers are windowed when use_sliding_window
  // and sliding_window are set (written layer_types are read by hf_config_reader.cpp).
  if (c.j.contains("layer_types") && !c.j["layer_types"].is_null()) return;
  if (!c.r.boolean(c.j, "use_sliding_window").value_or(false)) return;
  const auto window = c.r.integer(c.j, "sliding_window", 1);
  if (!window || c.r.failed()) return;
  c.m.layers = c.m.layer_specs();
  for (int i : no_rope) c.m.layers[static_cast<std::size_t>(i)].window = *window;
}

}  // namespace smollm3_parts

// SmolLM3Config: num_key_value_heads defaults to 4 (must be written), tie_word_embeddings to
// True, head_dim is hidden_size / num_attention_heads.
extern const FamilyRule k_smollm3_rule{.model_types = {"smollm3"},
                                       .read = smollm3_parts::read,
                                       .tied_by_default = true};

}  // namespace moeplan::hf
