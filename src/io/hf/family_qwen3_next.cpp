// qwen3_next: Qwen3-Next (transformers configuration_qwen3_next.py, modeling_qwen3_next.py,
// generated from modular_qwen3_next.py): gated DeltaNet layers (Qwen3NextGatedDeltaNet) and
// gated softmax attention (Qwen3NextAttention: q_proj writes the query and a sigmoid output
// gate, per-head q/k RMSNorm), MoE blocks of Qwen2-MoE's kind (one shared expert with a
// sigmoid gate of d weights), dense Qwen3NextMLP where mlp_only_layers / decoder_sparse_step
// say. Its RMSNorms are zero-centred (weight used as 1 + w): the same count, d each.
// Also qwen3_5 and qwen3_5_moe (Qwen3.5, Qwen3.6: this layout in a multimodal checkpoint's
// text_config, every layer's FFN alike), and the checkpoints' MTP modules (read_mtp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace qwen3_next_parts {  // named: a unity build compiles the family files together

// Which layers are gated DeltaNet (true) and which full attention: layer_types, else
// full_attention_interval (Qwen3NextConfig.__post_init__: "linear_attention" if (i + 1) %
// interval else "full_attention", interval = kwargs.pop("full_attention_interval", 4): the
// class default 4 applies when both keys are absent).
std::vector<bool> linear_layers(FamilyContext& c) {
  const int L = c.m.num_hidden_layers;
  std::vector<bool> linear(static_cast<std::size_t>(L), false);
  c.take("full_attention_interval");
  c.take("layer_types");
  if (const auto it = c.j.find("layer_types"); it != c.j.end() && !it->is_null()) {
    if (!it->is_array() || static_cast<int>(it->size()) != L) {
      c.r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", L));
      return linear;
    }
    for (int i = 0; i < L; ++i) {
      const auto& v = (*it)[static_cast<std::size_t>(i)];
      if (v == "linear_attention") {
        linear[static_cast<std::size_t>(i)] = true;
      } else if (v != "full_attention") {
        c.r.fail("layer_types", fmt::format("lists {} at layer {}: Qwen3NextDecoderLayer builds "
                                            "\"linear_attention\" or \"full_attention\" only", v.dump(), i));
        return linear;
      }
    }
    return linear;
  }
  const int interval = c.r.integer(c.j, "full_attention_interval", 1).value_or(4);
  for (int i = 0; i < L; ++i) linear[static_cast<std::size_t>(i)] = (i + 1) % interval != 0;
  return linear;
}


// The gated DeltaNet of the linear layers (Qwen3NextGatedDeltaNet; Qwen3_5GatedDeltaNet splits
// in_proj_qkvz into in_proj_qkv and in_proj_z and in_proj_ba into in_proj_b and in_proj_a: the
// same 2·key_dim + 2·value_dim + 2·nv rows of d). `config_class` names the class whose defaults
// moeplan does not guess.
void read_deltanet(FamilyContext& c, const std::vector<bool>& linear, std::string_view config_class) {
  JsonReader& r = c.r;
  for (const char* key : {"linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                          "linear_value_head_dim", "linear_conv_kernel_dim"}) {
    c.take(key);
  }
  bool any_linear = false;
  for (const bool b : linear) any_linear = any_linear || b;
  if (!any_linear) return;
  const int nk = c.written("linear_num_key_heads", 1, config_class);
  const int nv = c.written("linear_num_value_heads", 1, config_class);
  const int dk = c.written("linear_key_head_dim", 1, config_class);
  const int dv = c.written("linear_value_head_dim", 1, config_class);
  const int kernel = c.written("linear_conv_kernel_dim", 1, config_class);
  if (r.failed()) return;
  if (nv % nk != 0) {  // forward repeats q and k from nk to nv heads (repeat_interleave)
    r.fail("linear_num_value_heads", fmt::format("must be a multiple of linear_num_key_heads ({}), got {}", nk, nv));
    return;
  }
  c.m.linear_mixers.push_back(gated_deltanet_mixer(c.m.hidden_size, nk, nv, dk, dv, kernel));
}

// Qwen3NextAttention (Qwen3_5Attention, Qwen3_5MoeAttention: the same class): q_proj of
// 2·N_q·head_dim (query and output gate), per-head q_norm and k_norm. Its attention_bias would
// put a bias on the gate half of q_proj too, which moeplan's qkv_bias does not count.
void read_gated_attention(FamilyContext& c) {
  c.m.gated_attention = true;
  c.m.extras.qk_norm = QkNorm::per_head;
  if (c.r.boolean(c.j, "attention_bias").value_or(false)) {
    c.r.fail("attention_bias", "is true: Qwen3NextAttention's q_proj bias covers the output gate too "
                               "(2·N_q·head_dim), which moeplan does not count");
  }
}

// The checkpoint's multi-token-prediction module(s), which transformers skips on load
// (Qwen3NextForCausalLM, Qwen3_5ForCausalLM, Qwen3_5MoeForCausalLM: _keys_to_ignore_on_load_unexpected
// = [r"^mtp.*", ...]). vLLM builds them (vllm/model_executor/models/qwen3_next_mtp.py and
// qwen3_5_mtp.py, Qwen3_5MultiTokenPredictor): pre_fc_norm_embedding and pre_fc_norm_hidden (d
// each), fc = Linear(2d, d, bias=False), mtp_num_hidden_layers decoder layers of full attention
// with the model's FFN, a final norm; embed_tokens and lm_head are the model's own unless
// mtp_use_dedicated_embeddings. That is DeepSeek-V3's module (count_mtp) with no stored copies.
void read_mtp(FamilyContext& c) {
  c.m.extras.num_nextn_predict_layers = c.r.integer(c.j, c.take("mtp_num_hidden_layers"), 0).value_or(0);
  c.m.extras.mtp_embedding_copies = false;
  if (c.m.extras.num_nextn_predict_layers > 0 && c.r.boolean(c.j, "mtp_use_dedicated_embeddings").value_or(false)) {
    c.r.fail("mtp_use_dedicated_embeddings", "is true: MTP modules with embeddings of their own are not counted "
                                             "by moeplan (vLLM's qwen3_5_mtp.py shares the model's)");
  }
}

void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // Qwen3NextConfig's default partial_rotary_factor (configuration_qwen3_next.py: 0.25); a
  // written one replaces it (hf_config_reader.cpp, read_partial_rotary).
  m.partial_rotary_factor = 0.25;
  const int L = m.num_hidden_layers;
  const std::vector<bool> linear = linear_layers(c);
  if (r.failed()) return;
  read_deltanet(c, linear, "Qwen3NextConfig");
  if (r.failed()) return;

  // Experts: Qwen3NextDecoderLayer builds Qwen3NextSparseMoeBlock where
  // layer_idx not in mlp_only_layers and num_experts > 0 and (layer_idx + 1) % decoder_sparse_step == 0,
  // else Qwen3NextMLP(intermediate_size).
  for (const char* key : {"num_experts", "num_experts_per_tok", "moe_intermediate_size",
                          "shared_expert_intermediate_size", "decoder_sparse_step", "mlp_only_layers"}) {
    c.take(key);
  }
  const int experts = c.written("num_experts", 0, "Qwen3NextConfig");
  if (r.failed()) return;
  int step = 1;
  std::vector<bool> dense_only(static_cast<std::size_t>(L), false);
  if (experts > 0) {
    m.n_routed_experts = experts;
    m.num_experts_per_tok = c.written("num_experts_per_tok", 1, "Qwen3NextConfig");
    m.moe_intermediate_size = c.written("moe_intermediate_size", 1, "Qwen3NextConfig");
    // Qwen2MoeSparseMoeBlock: shared_expert = MLP(shared_expert_intermediate_size) and
    // shared_expert_gate = nn.Linear(d, 1, bias=False), in every MoE layer.
    const int shared = c.written("shared_expert_intermediate_size", 0, "Qwen3NextConfig");
    if (shared > 0) {
      m.n_shared_experts = 1;
      m.shared_expert_intermediate_size = shared;
    }
    m.extras.shared_expert_gate = true;
    step = r.integer(c.j, "decoder_sparse_step", 1).value_or(1);  // Qwen3NextConfig default 1
    if (const auto it = c.j.find("mlp_only_layers"); it != c.j.end() && !it->is_null()) {
      if (!it->is_array()) {
        r.fail("mlp_only_layers", "must be a list of layer indices");
        return;
      }
      for (const auto& v : *it) {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= L) {
          r.fail("mlp_only_layers", fmt::format("lists {}: not a layer index in [0, {})", v.dump(), L));
          return;
        }
        dense_only[static_cast<std::size_t>(v.get<std::int64_t>())] = true;
      }
    }
  }
  if (r.failed()) return;
  m.layers.resize(static_cast<std::size_t>(L));
  for (int i = 0; i < L; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    l.mixer = linear[static_cast<std::size_t>(i)] ? MixerKind::linear : MixerKind::attention;
    const bool moe = experts > 0 && !dense_only[static_cast<std::size_t>(i)] && (i + 1) % step == 0;
    l.ffn = moe ? FfnKind::moe : FfnKind::dense;
  }
  read_gated_attention(c);
  if (!r.failed()) read_mtp(c);
}

// Qwen3.5 / Qwen3.6 text models (transformers models/qwen3_5 and models/qwen3_5_moe,
// modular_qwen3_5.py / modular_qwen3_5_moe.py, v5.7): Qwen3_5TextConfig and
// Qwen3_5MoeTextConfig are Qwen3NextConfig with mlp_only_layers and decoder_sparse_step deleted
// (and, dense, every expert key). Qwen3_5DecoderLayer: linear_attn (Qwen3_5GatedDeltaNet) or
// self_attn (Qwen3_5Attention = Qwen3NextAttention) by layer_types, then
// Qwen3_5MLP(intermediate_size) in every layer. Qwen3_5MoeDecoderLayer: the same mixers, then
// Qwen3_5MoeSparseMoeBlock (= Qwen3NextSparseMoeBlock: num_experts experts of
// moe_intermediate_size, a router of E x d, one shared expert of shared_expert_intermediate_size
// with its sigmoid gate of d) in every layer. Norms are Qwen3NextRMSNorm (d each).
void read_qwen3_5_text(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  const bool moe = c.family == "qwen3_5_moe_text";
  const char* config_class = moe ? "Qwen3_5MoeTextConfig" : "Qwen3_5TextConfig";
  const int L = m.num_hidden_layers;
  const std::vector<bool> linear = linear_layers(c);
  if (r.failed()) return;
  read_deltanet(c, linear, config_class);
  if (r.failed()) return;
  // The classes delete these keys: a file listing dense-only layers would not get them.
  c.take("mlp_only_layers");
  c.take("decoder_sparse_step");
  if (const auto it = c.j.find("mlp_only_layers"); it != c.j.end() && !it->is_null() &&
                                                   !(it->is_array() && it->empty())) {
    r.fail("mlp_only_layers", fmt::format("{} has no such setting (its decoder layer builds the same FFN in every "
                                          "layer), so moeplan refuses rather than guess", config_class));
    return;
  }
  if (const auto step = r.integer(c.j, "decoder_sparse_step", 1); step && *step != 1) {
    r.fail("decoder_sparse_step", fmt::format("{} has no such setting (every layer is alike)", config_class));
    return;
  }
  for (const char* key : {"num_experts", "num_experts_per_tok", "moe_intermediate_size",
                          "shared_expert_intermediate_size"}) {
    c.take(key);
  }
  if (moe) {
    m.n_routed_experts = c.written("num_experts", 1, config_class);
    m.num_experts_per_tok = c.written("num_experts_per_tok", 1, config_class);
    m.moe_intermediate_size = c.written("moe_intermediate_size", 1, config_class);
    const int shared = c.written("shared_expert_intermediate_size", 0, config_class);
    if (r.failed()) return;
    if (shared > 0) {
      m.n_shared_experts = 1;
      m.shared_expert_intermediate_size = shared;
    }
    m.extras.shared_expert_gate = true;
  } else {
    if (m.intermediate_size == 0) {
      r.fail("intermediate_size", "missing: Qwen3_5TextConfig has a default of its own; write it");
      return;
    }
    for (const char* key : {"num_experts", "num_experts_per_tok", "moe_intermediate_size"}) {
      if (const auto v = r.integer(c.j, key, 0); v && *v > 0) {
        r.fail(key, "is an expert setting, but Qwen3_5TextConfig builds a dense model (qwen3_5_moe has experts)");
        return;
      }
    }
  }
  m.layers.resize(static_cast<std::size_t>(L));
  for (int i = 0; i < L; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    l.mixer = linear[static_cast<std::size_t>(i)] ? MixerKind::linear : MixerKind::attention;
    l.ffn = moe ? FfnKind::moe : FfnKind::dense;
  }
  read_gated_attention(c);
  if (!r.failed()) read_mtp(c);
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_experts_per_tok", "moe_intermediate_size", "shared_expert_intermediate_size",
    "decoder_sparse_step", "mlp_only_layers", "full_attention_interval", "linear_num_value_heads",
    "linear_num_key_heads", "linear_conv_kernel_dim", "linear_key_head_dim", "linear_value_head_dim",
    "mtp_num_hidden_layers"};

}  // namespace qwen3_next_parts

// head_dim: Qwen3NextConfig's default is 256, not hidden_size / num_attention_heads.
extern const FamilyRule k_qwen3_next_rule{
    .model_types = {"qwen3_next"},
    .read = qwen3_next_parts::read,
    .head_dim_required = true,
    .layout_keys = qwen3_next_parts::k_layout_keys,
};
// Qwen3.5 / Qwen3.6: the multimodal classes (Qwen3_5ForConditionalGeneration,
// Qwen3_5MoeForConditionalGeneration: Qwen3-VL's vision tower, not counted) and their text
// models. Qwen3NextConfig's head_dim default (256) is not hidden_size / num_attention_heads,
// and its num_key_value_heads default (2; Qwen3_5TextConfig 4) is not N_q: both must be written.
extern const FamilyRule k_qwen3_5_text_rule{
    .model_types = {"qwen3_5_text", "qwen3_5_moe_text"},
    .read = qwen3_next_parts::read_qwen3_5_text,
    .head_dim_required = true,
    .layout_keys = qwen3_next_parts::k_layout_keys,
};
extern const FamilyRule k_qwen3_5_rule{
    .model_types = {"qwen3_5"},
    .text_config = "text_config",
    .text_model_type = "qwen3_5_text",
    .layout_keys = qwen3_next_parts::k_layout_keys,
};
extern const FamilyRule k_qwen3_5_moe_rule{
    .model_types = {"qwen3_5_moe"},
    .text_config = "text_config",
    .text_model_type = "qwen3_5_moe_text",
    .layout_keys = qwen3_next_parts::k_layout_keys,
};

}  // namespace moeplan::hf
