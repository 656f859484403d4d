// mimo_v2_flash (Xiaomi MiMo-V2-Flash): transformers models/mimo_v2_flash/modular_mimo_v2_flash.py
// and its generated modeling_mimo_v2_flash.py, configuration_mimo_v2_flash.py (huggingface/
// transformers commit 019770ddcfd6bd6c1089adebb7e6428b2155cf01). The hub's config.json is written
// for the checkpoint's remote code (hybrid_layer_pattern, moe_layer_freq, swa_* keys), which
// transformers' class reads under its own names (layer_types, mlp_layer_types) or not at all;
// where the two codes would build different weights from a file, moeplan refuses it by name.
// tests/data/hf/recount/mimo_v2_flash_count.py recounts the fixture independently.
//
// Every layer (MiMoV2FlashDecoderLayer = LlamaDecoderLayer): input_layernorm and
// post_attention_layernorm (d each), MiMoV2FlashAttention, then a MiMoV2FlashMLP of
// intermediate_size ("dense") or a MiMoV2FlashSparseMoeBlock ("sparse": DeepseekV3MoE without
// its shared experts: n_routed_experts experts of moe_intermediate_size, a router of N_e x d
// whose e_score_correction_bias is a buffer, in the checkpoint only, as DeepSeek-V3's).
// MiMoV2FlashAttention: q_proj d x N_q·h, k_proj d x N_kv·h, v_proj d x N_kv·v, o_proj N_q·v x d
// (h = head_dim, v = v_head_dim; q, k, v biases with attention_bias, o never); sliding_attention
// layers have 2·num_key_value_heads kv heads, a window of sliding_window and `sinks`, an
// nn.Parameter of N_q (requires_grad=False, but a weight of the checkpoint: beside N).
// The checkpoint's MTP layers (model.mtp.*) are not built: MiMoV2FlashPreTrainedModel lists
// them in _keys_to_ignore_on_load_unexpected, so they are not counted (the description says so).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace mimo_v2_flash_parts {  // named: a unity build compiles the family files together

bool written(const FamilyContext& c, const char* key) { return c.j.contains(key) && !c.j[key].is_null(); }

// Which layers are sliding_attention: layer_types (transformers' name) or hybrid_layer_pattern
// (the hub's: 0 full, 1 sliding). MiMoV2FlashConfig has a default (layer 0 and every sixth
// full) which the remote code need not share: one of the two keys must be written. Both
// written and different: refused. Empty on failure.
std::vector<bool> sliding_layers(FamilyContext& c, int layers) {
  JsonReader& r = c.r;
  std::vector<bool> from_types, from_pattern;
  if (written(c, c.take("layer_types"))) {
    const nlohmann::json& t = c.j["layer_types"];
    if (!t.is_array() || static_cast<long long>(t.size()) != layers) {
      r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", layers));
      return {};
    }
    for (const auto& v : t) {
      if (v != "full_attention" && v != "sliding_attention") {
        r.fail("layer_types", fmt::format("lists {}: MiMo-V2-Flash builds full_attention and sliding_attention "
                                          "layers", v.dump()));
        return {};
      }
      from_types.push_back(v == "sliding_attention");
    }
  }
  if (written(c, c.take("hybrid_layer_pattern"))) {
    const nlohmann::json& t = c.j["hybrid_layer_pattern"];
    if (!t.is_array() || static_cast<long long>(t.size()) != layers) {
      r.fail("hybrid_layer_pattern", fmt::format("must list num_hidden_layers ({}) entries, 0 (full attention) "
                                                 "or 1 (sliding window)", layers));
      return {};
    }
    for (const auto& v : t) {
      if (v != 0 && v != 1) {
        r.fail("hybrid_layer_pattern", fmt::format("lists {}: 0 is full attention, 1 a sliding window", v.dump()));
        return {};
      }
      from_pattern.push_back(v == 1);
    }
  }
  if (from_types.empty() && from_pattern.empty()) {
    r.fail("hybrid_layer_pattern", "missing (and no layer_types): which layers attend in a sliding window "
                                   "would be a class default moeplan does not guess; write it");
    return {};
  }
  if (!from_types.empty() && !from_pattern.empty() && from_types != from_pattern) {
    r.fail("hybrid_layer_pattern", "and layer_types name different sliding-window layers");
    return {};
  }
  return from_types.empty() ? from_pattern : from_types;
}

// Which layers have experts: mlp_layer_types ("dense", "sparse") or moe_layer_freq (the hub's
// list: 0 dense, 1 MoE), one of them written, as above. Empty on failure.
std::vector<bool> moe_layers(FamilyContext& c, int layers) {
  JsonReader& r = c.r;
  std::vector<bool> from_types, from_freq;
  if (written(c, c.take("mlp_layer_types"))) {
    const nlohmann::json& t = c.j["mlp_layer_types"];
    if (!t.is_array() || static_cast<long long>(t.size()) != layers) {
      r.fail("mlp_layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", layers));
      return {};
    }
    for (const auto& v : t) {
      if (v != "dense" && v != "sparse") {
        r.fail("mlp_layer_types", fmt::format("lists {}: MiMo-V2-Flash builds \"dense\" and \"sparse\" layers",
                                              v.dump()));
        return {};
      }
      from_types.push_back(v == "sparse");
    }
  }
  if (written(c, c.take("moe_layer_freq"))) {
    const nlohmann::json& t = c.j["moe_layer_freq"];
    if (!t.is_array() || static_cast<long long>(t.size()) != layers) {
      r.fail("moe_layer_freq", fmt::format("must list num_hidden_layers ({}) entries, 0 (dense) or 1 (MoE)", layers));
      return {};
    }
    for (const auto& v : t) {
      if (v != 0 && v != 1) {
        r.fail("moe_layer_freq", fmt::format("lists {}: 0 is a dense MLP, 1 the experts", v.dump()));
        return {};
      }
      from_freq.push_back(v == 1);
    }
  }
  if (from_types.empty() && from_freq.empty()) {
    r.fail("moe_layer_freq", "missing (and no mlp_layer_types): which layers have experts would be a class "
                             "default moeplan does not guess; write it");
    return {};
  }
  if (!from_types.empty() && !from_freq.empty() && from_types != from_freq) {
    r.fail("moe_layer_freq", "and mlp_layer_types name different MoE layers");
    return {};
  }
  return from_types.empty() ? from_freq : from_types;
}

// The hub's swa_* keys size the sliding layers in the remote code; transformers' class ignores
// them and builds N_q heads of head_dim and v_head_dim, 2·num_key_value_heads kv heads. A file
// on which the two disagree is refused by the key.
void check_swa_keys(FamilyContext& c, int v_head) {
  JsonReader& r = c.r;
  const ModelConfig& m = c.m;
  const auto same = [&](const char* key, int built, const char* what) {
    if (const auto v = r.integer(c.j, c.take(key), 1); v && *v != built && !r.failed()) {
      r.fail(key, fmt::format("is {} but transformers' MiMoV2FlashAttention builds {} {} in the sliding-window "
                              "layers (the remote code reads this key): moeplan refuses rather than guess which "
                              "the checkpoint has", *v, built, what));
    }
  };
  same("swa_num_attention_heads", m.num_attention_heads, "query heads (num_attention_heads)");
  same("swa_num_key_value_heads", 2 * m.num_key_value_heads, "kv heads (2 x num_key_value_heads)");
  same("swa_head_dim", m.head_size(), "as the head size (head_dim)");
  same("swa_v_head_dim", v_head, "as the value head size (v_head_dim)");
  // Sinks: transformers builds them in every sliding layer and in no full one.
  if (!r.boolean(c.j, c.take("add_swa_attention_sink_bias")).value_or(true) && !r.failed()) {
    r.fail("add_swa_attention_sink_bias", "is false, but transformers' MiMoV2FlashAttention builds sinks in "
                                          "every sliding-window layer: the two codes would count differently");
  }
  if (r.boolean(c.j, c.take("add_full_attention_sink_bias")).value_or(false) && !r.failed()) {
    r.fail("add_full_attention_sink_bias", "is true, but transformers' MiMoV2FlashAttention builds no sinks "
                                           "in full-attention layers: the two codes would count differently");
  }
}

// The window: sliding_window (transformers' key, class default 128) or the hub's
// sliding_window_size; both written and different: refused.
int window_of(FamilyContext& c) {
  JsonReader& r = c.r;
  const auto a = r.integer(c.j, "sliding_window", 1);
  const auto b = r.integer(c.j, "sliding_window_size", 1);  // a window, not a layout key (Gemma 2 writes it too)
  if (a && b && *a != *b && !r.failed()) {
    r.fail("sliding_window_size", fmt::format("is {} but sliding_window is {}", *b, *a));
  }
  return a ? *a : b.value_or(128);  // MiMoV2FlashConfig.sliding_window = 128
}

void read(FamilyContext& c) {
  c.router_bias_buffer = true;  // its gate's e_score_correction_bias buffer (above)
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // MiMoV2FlashConfig's defaults size the model (intermediate_size 16384, v_head_dim 128, 256
  // experts of 2048, top-8): moeplan does not guess them.
  // v_head_dim is not taken: MLA's key too, read by hf_config_reader.cpp for the MLA families,
  // which refuses it in a file without kv_lora_rank unless the family is this one.
  if (!written(c, "v_head_dim")) r.fail("v_head_dim", "missing: MiMoV2FlashConfig has a default of its own; write it");
  const int v_head = r.integer(c.j, "v_head_dim", 1).value_or(0);
  if (!written(c, "intermediate_size")) {
    r.fail("intermediate_size", "missing: MiMoV2FlashConfig has a default of its own; write it");
  }
  m.n_routed_experts = c.written("n_routed_experts", 1, "MiMoV2FlashConfig");
  m.num_experts_per_tok = c.written("num_experts_per_tok", 1, "MiMoV2FlashConfig");
  m.moe_intermediate_size = c.written("moe_intermediate_size", 1, "MiMoV2FlashConfig");
  // MiMoV2FlashSparseMoeBlock deletes DeepseekV3MoE's shared experts.
  if (const auto s = r.integer(c.j, c.take("n_shared_experts"), 0); s && *s > 0 && !r.failed()) {
    r.fail("n_shared_experts", fmt::format("is {}: MiMoV2FlashSparseMoeBlock builds no shared expert", *s));
  }
  if (r.boolean(c.j, "mlp_bias").value_or(false) && !r.failed()) {
    r.fail("mlp_bias", "biases of the FFN are not built by MiMoV2FlashMLP nor counted by moeplan");
  }
  c.attention_bias(false, true);  // q, k, v with bias=attention_bias; o_proj bias=False
  if (r.failed()) return;
  check_swa_keys(c, v_head);
  const int window = window_of(c);
  if (r.failed()) return;
  const std::vector<bool> sliding = sliding_layers(c, m.num_hidden_layers);
  if (r.failed()) return;
  const std::vector<bool> moe = moe_layers(c, m.num_hidden_layers);
  if (r.failed()) return;
  m.first_k_dense_replace = 0;
  m.layers.assign(sliding.size(), LayerSpec{});
  for (std::size_t i = 0; i < sliding.size(); ++i) {
    LayerSpec& l = m.layers[i];
    l.ffn = moe[i] ? FfnKind::moe : FfnKind::dense;
    if (v_head != m.head_size()) l.v_head_dim = v_head;
    if (sliding[i]) {
      l.window = window;
      l.kv_heads = 2 * m.num_key_value_heads;
      l.attention_sinks = true;
    }
  }
  c.take("num_nextn_predict_layers");
  const int mtp = r.integer(c.j, "num_nextn_predict_layers", 0).value_or(0);
  m.extras.mtp_not_counted =
      mtp > 0 ? fmt::format("its {} MTP layers (num_nextn_predict_layers; model.mtp.* in the checkpoint) are not built "
                            "by transformers' MiMoV2FlashForCausalLM: not counted", mtp)
              : std::string("the MTP layers the checkpoint stores (model.mtp.*) are not built by transformers' "
                            "MiMoV2FlashForCausalLM and their number is in no config: not counted");
  m.description += "; " + m.extras.mtp_not_counted;
}

const std::vector<std::string> k_layout_keys{
    "hybrid_layer_pattern", "moe_layer_freq", "mlp_layer_types", "swa_num_attention_heads",
    "swa_num_key_value_heads", "swa_head_dim", "swa_v_head_dim", "add_swa_attention_sink_bias",
    "add_full_attention_sink_bias", "n_routed_experts", "num_experts_per_tok",
    "moe_intermediate_size", "n_shared_experts", "num_nextn_predict_layers"};

}  // namespace mimo_v2_flash_parts

// MiMoV2FlashConfig: num_key_value_heads 4 and head_dim 192 (not d / N_q) by default: both must
// be written; tie_word_embeddings defaults to false.
extern const FamilyRule k_mimo_v2_flash_rule{
    .model_types = {"mimo_v2_flash"},
    .read = mimo_v2_flash_parts::read,
    .head_dim_required = true,
    .layout_keys = mimo_v2_flash_parts::k_layout_keys,
};

}  // namespace moeplan::hf
