// bailing_moe: Ling v1 (Ling-lite, Ling-plus; architectures BailingMoeForCausalLM, remote code
// github.com/inclusionAI/Ling models/modeling_bailing_moe.py + configuration_bailing_moe.py) and
// Ling 2.0 (Ling-mini-2.0, Ling-flash-2.0, Ling-1T: the same model_type, told apart by
// architectures ["BailingMoeV2ForCausalLM"]; remote code github.com/inclusionAI/Ling-V2
// models/modeling_bailing_moe_v2.py). Some ports write model_type bailing_moe_v2: read as v2.
#include <algorithm>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace bailing_moe_parts {  // named: a unity build compiles the family files together

bool is_v2(const FamilyContext& c) {
  if (c.family == "bailing_moe_v2") return true;
  const auto it = c.j.find("architectures");
  if (it == c.j.end() || !it->is_array()) return false;
  return std::any_of(it->begin(), it->end(), [](const nlohmann::json& a) {
    return a.is_string() && a.get<std::string>() == "BailingMoeV2ForCausalLM";
  });
}

// Both versions: attention is one fused query_key_value (d -> (N_q + 2 N_kv) head_dim, bias
// use_qkv_bias) and dense (N_q head_dim -> d, bias use_bias): the same weights as q, k, v, o.
// Layer i is BailingMoe(V2)SparseMoeBlock when num_experts is not None and i >=
// first_k_dense_replace, else an MLP of intermediate_size. The sparse block: gate.weight
// (num_experts x d, no bias), num_experts MLPs of moe_intermediate_size, and, when
// num_shared_experts is not None, one shared MLP of moe_intermediate_size * num_shared_experts.
// v2 adds per-head qk-norm (use_qk_norm: query_layernorm, key_layernorm of head_dim) and its
// gate's expert_bias is a registered buffer (in the checkpoint only: router_bias_buffer).
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  const bool v2 = is_v2(c);
  // BailingMoeV2Gate (remote code modeling_bailing_moe_v2.py): register_buffer("expert_bias",
  // zeros(num_experts)), stored as model.layers.*.mlp.gate.expert_bias (vLLM's bailing_moe_v2.py
  // loads it). v1's BailingMoeGate has none.
  c.router_bias_buffer = v2;
  const char* arch = v2 ? "BailingMoeV2" : "BailingMoe";
  if (v2 && !j.contains("head_dim")) {
    // BailingMoeV2Attention: head_dim = config.head_dim or d / N_q; the v2 config class has
    // a head_dim default of its own (128 in its BailingMoeV2_5 sibling).
    r.fail("head_dim", "missing: BailingMoeV2Config has a default of its own; write it");
    return;
  }
  // num_experts: absent, the class default (16) applies, which moeplan does not guess; null
  // is a dense model.
  if (!j.contains("num_experts")) {
    r.fail("num_experts", fmt::format("missing: {}Config would use its own default; write the expert "
                                      "count (null for a dense model)", arch));
    return;
  }
  c.take("num_experts");
  c.take("num_experts_per_tok");
  c.take("moe_intermediate_size");
  c.take("num_shared_experts");
  c.take("first_k_dense_replace");
  c.take("moe_shared_expert_intermediate_size");
  if (j["num_experts"].is_null()) {
    m.first_k_dense_replace = m.num_hidden_layers;
  } else {
    m.n_routed_experts = r.required(j, "num_experts", 1);
    m.num_experts_per_tok = r.required(j, "num_experts_per_tok", 1);
    m.moe_intermediate_size = r.required(j, "moe_intermediate_size", 1);
    // BailingMoeConfig (v1): num_shared_experts defaults to 0 (a zero-width shared MLP, no
    // weights) and first_k_dense_replace to 0; the v2 keys must be written.
    if (v2) {
      m.n_shared_experts = j.contains("num_shared_experts") && j["num_shared_experts"].is_null()
                               ? 0
                               : r.required(j, "num_shared_experts", 0);
      m.first_k_dense_replace = r.required(j, "first_k_dense_replace", 0);
    } else {
      m.n_shared_experts = r.integer(j, "num_shared_experts", 0).value_or(0);
      m.first_k_dense_replace = r.integer(j, "first_k_dense_replace", 0).value_or(0);
    }
    // Ling 2.0 configs also write moe_shared_expert_intermediate_size, which the remote code
    // does not read (the shared MLP is moe_intermediate_size * num_shared_experts wide).
    if (const auto w = r.integer(j, "moe_shared_expert_intermediate_size", 1);
        w && m.n_shared_experts > 0 && *w != m.moe_intermediate_size) {
      r.fail("moe_shared_expert_intermediate_size",
             fmt::format("is {} but moe_intermediate_size is {}: {}'s remote code sizes the shared MLP "
                         "from moe_intermediate_size and ignores this key, other loaders may not",
                         *w, m.moe_intermediate_size, arch));
      return;
    }
    if (m.first_k_dense_replace > m.num_hidden_layers) m.first_k_dense_replace = m.num_hidden_layers;
  }
  // Biases: BailingMoeConfig defaults use_bias to true (dense.bias, d per layer), the v2
  // config to false; use_qkv_bias defaults to false in both.
  m.extras.qkv_bias = r.boolean(j, "use_qkv_bias").value_or(false);
  m.extras.output_bias = r.boolean(j, "use_bias").value_or(!v2);
  if (v2) {
    if (!j.contains("use_qk_norm")) {
      r.fail("use_qk_norm", "missing: BailingMoeV2Config has a default of its own; write it");
      return;
    }
    if (r.boolean(j, "use_qk_norm").value_or(false)) m.extras.qk_norm = QkNorm::per_head;
    // BailingMoeV2Model: the last num_nextn_predict_layers of the num_hidden_layers layers are
    // BailingMoeV2MTPLayer (enorm, hnorm, eh_proj 2d -> d, attention, an always-MoE sparse
    // block, input/post-attention/final norms): the DeepSeek MTP module exactly, but inside
    // num_hidden_layers and without embedding or head copies. They are counted as MTP modules
    // beside a main model of num_hidden_layers - num_nextn_predict_layers decoder layers.
    // Absent, 0 (the config class default, as in the published Ling 2.0 checkpoints).
    const int n = r.integer(j, c.take("num_nextn_predict_layers"), 0).value_or(0);
    if (n > 0) {
      if (n >= m.num_hidden_layers) {
        r.fail("num_nextn_predict_layers", fmt::format("is {} of {} layers: no decoder layer is left",
                                                       n, m.num_hidden_layers));
        return;
      }
      if (!m.is_moe()) {
        r.fail("num_nextn_predict_layers", "MTP layers build a sparse MoE block, but num_experts is null");
        return;
      }
      m.num_hidden_layers -= n;
      m.first_k_dense_replace = std::min(m.first_k_dense_replace, m.num_hidden_layers);
      m.extras.num_nextn_predict_layers = n;
      m.extras.mtp_embedding_copies = false;
      m.description += fmt::format("; its last {} layer(s) are MTP layers (BailingMoeV2MTPLayer), "
                                   "counted beside the model", n);
    }
  }
  if (m.is_moe() && m.first_k_dense_replace >= m.num_hidden_layers && !r.failed()) {
    r.fail("first_k_dense_replace", "covers every decoder layer: no MoE layer is left");
  }
}

// Ling v1 (BailingMoeForCausalLM).
void write(const ModelConfig& m, std::string_view, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j["num_experts"] = m.n_routed_experts;
    j["num_experts_per_tok"] = m.num_experts_per_tok;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["num_shared_experts"] = m.n_shared_experts;  // one MLP of moe_intermediate_size x this
    j["first_k_dense_replace"] = m.first_k_dense_replace;
  }
  j["use_qkv_bias"] = m.extras.qkv_bias;
  j["use_bias"] = m.extras.output_bias;
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_experts", "num_experts_per_tok", "moe_intermediate_size", "first_k_dense_replace",
    "num_shared_experts", "moe_shared_expert_intermediate_size"};

}  // namespace bailing_moe_parts

// num_key_value_heads: BailingMoeConfig's default is 0 (must be written).
extern const FamilyRule k_bailing_moe_rule{
    .model_types = {"bailing_moe", "bailing_moe_v2"},
    .read = bailing_moe_parts::read,
    .layout_keys = bailing_moe_parts::k_layout_keys,
    .classes = {{"bailing_moe", "BailingMoeForCausalLM"}},  // remote code: tried for its own configs only
    .write = bailing_moe_parts::write,
};

}  // namespace moeplan::hf
