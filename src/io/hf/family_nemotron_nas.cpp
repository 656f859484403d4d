// nemotron-nas (Llama-3.1-Nemotron-51B, Llama-3.3-Nemotron-Super-49B, -Ultra-253B):
// DeciLMForCausalLM, remote code only (the checkpoints' modeling_decilm.py +
// configuration_decilm.py; quoted from NVIDIA's NeMo-Automodel DeciLM port and the identical
// helpers in vLLM / SGLang / TensorRT-LLM, which cite that file).
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace nemotron_nas_parts {  // named: a unity build compiles the family files together

// modeling_decilm.py: _ffn_mult_to_intermediate_size(ffn_mult, n_embd) =
// _find_multiple(int(2 * ffn_mult * n_embd / 3), 256), evaluated in the same order and
// double precision as Python's.
// Widths past 1e12 are returned as -1 (refused by the caller).
std::int64_t ffn_width(double ffn_mult, int hidden_size) {
  const double exact = 2 * ffn_mult * hidden_size / 3;
  if (!(exact < 1e12)) return -1;
  const auto width = static_cast<std::int64_t>(exact);  // int() truncates
  return width % 256 == 0 ? width : width + 256 - width % 256;
}

// Keys of a block's attention / ffn object that change no weight (sliding windows, sink
// handling at inference) or that moeplan reads; any other key set to something refuses.
bool is_known(const std::string& key, std::initializer_list<const char*> known) {
  for (const char* k : known) {
    if (key == k) return true;
  }
  return false;
}

bool unset(const nlohmann::json& v) {
  return v.is_null() || (v.is_boolean() && !v.get<bool>()) || (v.is_number() && v.get<double>() == 0) ||
         ((v.is_array() || v.is_object()) && v.empty());
}

// DeciLMDecoderLayer, per block_configs[i]:
//   attention.no_op            nothing, not even input_layernorm
//   attention.replace_with_linear  input_layernorm + self_attn.linear_attn (H x H, no bias)
//   else                       input_layernorm + GQA with num_attention_heads //
//                              n_heads_in_group kv heads
//   ffn.no_op                  nothing, not even post_attention_layernorm
//   ffn.replace_with_linear    post_attention_layernorm + mlp.linear_mlp (H x H): refused
//   else                       post_attention_layernorm + SwiGLU of _ffn_mult_to_intermediate_size
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  const auto blocks = j.find(c.take("block_configs"));
  if (blocks == j.end() || !blocks->is_array()) {
    r.fail("block_configs", "missing: DeciLM's layers are described one by one in block_configs");
    return;
  }
  if (static_cast<int>(blocks->size()) != m.num_hidden_layers) {
    r.fail("block_configs", fmt::format("has {} blocks, num_hidden_layers is {}", blocks->size(), m.num_hidden_layers));
    return;
  }
  // top-level intermediate_size and num_key_value_heads are null: every block has its own.
  m.intermediate_size = 0;
  c.attention_bias(false, false);  // LlamaConfig's attention_bias: q, k, v, o
  if (r.boolean(j, "mlp_bias").value_or(false)) {
    r.fail("mlp_bias", "true: biases of the FFN are not counted by moeplan");
    return;
  }
  const auto refuse = [&](std::size_t i, const std::string& why) {
    r.fail("block_configs", fmt::format("block {}: {}", i, why));
  };
  int linear = -1;  // the index of the replace_with_linear mixer, once one is used
  for (std::size_t i = 0; i < blocks->size(); ++i) {
    const nlohmann::json& b = (*blocks)[i];
    if (!b.is_object() || !b.contains("attention") || !b.contains("ffn") || !b["attention"].is_object() ||
        !b["ffn"].is_object()) {
      refuse(i, "needs an attention and an ffn object");
      return;
    }
    const nlohmann::json& a = b["attention"];
    const nlohmann::json& f = b["ffn"];
    for (const auto& [key, value] : b.items()) {
      if (key != "attention" && key != "ffn" && !unset(value)) {
        refuse(i, fmt::format("has \"{}\", which moeplan does not know", key));
        return;
      }
    }
    for (const auto& [key, value] : a.items()) {
      // window_length, unshifted_sink, use_prefill_window_in_sink_attention change how
      // attention is computed, not its weights.
      if (!is_known(key, {"n_heads_in_group", "no_op", "replace_with_linear", "window_length", "unshifted_sink",
                          "use_prefill_window_in_sink_attention"}) &&
          !unset(value)) {
        refuse(i, fmt::format("attention has \"{}\": {}, which moeplan does not count", key, value.dump()));
        return;
      }
    }
    for (const auto& [key, value] : f.items()) {
      if (!is_known(key, {"ffn_mult", "no_op", "replace_with_linear"}) && !unset(value)) {
        refuse(i, fmt::format("ffn has \"{}\": {}, which moeplan does not count", key, value.dump()));
        return;
      }
    }
    const auto flag = [&](const nlohmann::json& o, const char* key) {
      const auto it = o.find(key);
      return it != o.end() && it->is_boolean() && it->get<bool>();
    };
    LayerSpec l;
    if (flag(a, "no_op")) {
      l.mixer = MixerKind::none;
    } else if (flag(a, "replace_with_linear")) {
      if (linear < 0) {
        linear = static_cast<int>(m.linear_mixers.size());
        m.linear_mixers.push_back(linear_replacement_mixer(m.hidden_size));
      }
      l.mixer = MixerKind::linear;
      l.linear_mixer = linear;
    } else {
      const auto g = a.find("n_heads_in_group");
      if (g == a.end() || !g->is_number_integer() || g->get<std::int64_t>() < 1 ||
          m.num_attention_heads % g->get<std::int64_t>() != 0) {
        refuse(i, "attention needs n_heads_in_group, a divisor of num_attention_heads");
        return;
      }
      l.mixer = MixerKind::attention;
      l.kv_heads = m.num_attention_heads / static_cast<int>(g->get<std::int64_t>());
    }
    if (flag(f, "no_op")) {
      l.ffn = FfnKind::none;
    } else if (flag(f, "replace_with_linear")) {
      refuse(i, "ffn replace_with_linear (one H x H matrix in place of the FFN) is not counted by moeplan");
      return;
    } else {
      const auto mult = f.find("ffn_mult");
      if (mult == f.end() || !mult->is_number() || mult->get<double>() <= 0) {
        refuse(i, "ffn needs a positive ffn_mult");
        return;
      }
      const double estimate = 2.0 * mult->get<double>() * m.hidden_size / 3.0;  // before the rounding
      const std::int64_t width = estimate > 1e9 ? 0 : ffn_width(mult->get<double>(), m.hidden_size);
      if (width < 1 || width > 1'000'000'000) {
        refuse(i, fmt::format("ffn_mult {} gives an FFN width outside [1, 1e9]", mult->dump()));
        return;
      }
      l.ffn = FfnKind::dense;
      l.dense_width = static_cast<int>(width);
    }
    m.layers.push_back(l);
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"block_configs"};

}  // namespace nemotron_nas_parts

// DeciLMConfig (a LlamaConfig): num_key_value_heads is null here (per block instead),
// tie_word_embeddings False.
extern const FamilyRule k_nemotron_nas_rule{
    .model_types = {"nemotron-nas"}, .read = nemotron_nas_parts::read, .kv_heads_default_to_query_heads = true,
    .layout_keys = nemotron_nas_parts::k_layout_keys,
};

}  // namespace moeplan::hf
