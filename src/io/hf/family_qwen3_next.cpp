// qwen3_next: Qwen3-Next (transformers configuration_qwen3_next.py, modeling_qwen3_next.py,
// generated from modular_qwen3_next.py): gated DeltaNet layers (Qwen3NextGatedDeltaNet) and
// gated softmax attention (Qwen3NextAttention: q_proj writes the query and a sigmoid output
// gate, per-head q/k RMSNorm), MoE blocks of Qwen2-MoE's kind (one shared expert with a
// sigmoid gate of d weights), dense Qwen3NextMLP where mlp_only_layers / decoder_sparse_step
// say. Its RMSNorms are zero-centred (weight used as 1 + w): the same count, d each.
#include <cstdint>
#include <string>
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


void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  const int L = m.num_hidden_layers;
  const std::vector<bool> linear = linear_layers(c);
  if (r.failed()) return;

  // The gated DeltaNet of every linear layer.
  for (const char* key : {"linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                          "linear_value_head_dim", "linear_conv_kernel_dim"}) {
    c.take(key);
  }
  bool any_linear = false;
  for (const bool b : linear) any_linear = any_linear || b;
  if (any_linear) {
    const int nk = c.written("linear_num_key_heads", 1, "Qwen3NextConfig");
    const int nv = c.written("linear_num_value_heads", 1, "Qwen3NextConfig");
    const int dk = c.written("linear_key_head_dim", 1, "Qwen3NextConfig");
    const int dv = c.written("linear_value_head_dim", 1, "Qwen3NextConfig");
    const int kernel = c.written("linear_conv_kernel_dim", 1, "Qwen3NextConfig");
    if (r.failed()) return;
    if (nv % nk != 0) {  // forward repeats q and k from nk to nv heads (repeat_interleave)
      r.fail("linear_num_value_heads", fmt::format("must be a multiple of linear_num_key_heads ({}), got {}", nk, nv));
      return;
    }
    m.linear_mixers.push_back(gated_deltanet_mixer(m.hidden_size, nk, nv, dk, dv, kernel));
  }

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

  // Qwen3NextAttention: q_proj of 2·N_q·head_dim (query and output gate), per-head q_norm and
  // k_norm. Its attention_bias would put a bias on the gate half of q_proj too, which
  // moeplan's qkv_bias does not count.
  m.gated_attention = true;
  m.extras.qk_norm = QkNorm::per_head;
  if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "is true: Qwen3NextAttention's q_proj bias covers the output gate too "
                             "(2·N_q·head_dim), which moeplan does not count");
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_experts_per_tok", "moe_intermediate_size", "shared_expert_intermediate_size",
    "decoder_sparse_step", "mlp_only_layers", "full_attention_interval", "linear_num_value_heads",
    "linear_num_key_heads", "linear_conv_kernel_dim", "linear_key_head_dim", "linear_value_head_dim"};

}  // namespace qwen3_next_parts

// head_dim: Qwen3NextConfig's default is 256, not hidden_size / num_attention_heads.
extern const FamilyRule k_qwen3_next_rule{
    .model_types = {"qwen3_next"},
    .read = qwen3_next_parts::read,
    .head_dim_required = true,
    .layout_keys = qwen3_next_parts::k_layout_keys,
};

}  // namespace moeplan::hf
