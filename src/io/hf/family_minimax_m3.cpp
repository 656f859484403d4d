// minimax_m3 (MiniMax-M3's language model; transformers names its class minimax_m3_vl_text) and
// minimax_m3_vl (the checkpoint: its text_config, which MiniMaxM3VLConfig rebuilds as
// MiniMaxM3VLTextConfig whatever model_type it names): counted as transformers builds it
// (src/transformers/models/minimax_m3_vl/modeling_minimax_m3_vl.py and
// configuration_minimax_m3_vl.py, huggingface/transformers commit
// 01a05aad6d830cacea098be78be92b0e0df6b2f0):
// - MiniMaxM3VLAttention, every layer: q, k, v, o without biases, q_norm and k_norm of head_dim
//   (Gemma RMSNorm, one weight each); layers whose layer_types entry is "minimax_m3_sparse"
//   (else derived from sparse_attention_config.sparse_attention_freq) add MiniMaxM3VLIndexer:
//   q_proj d -> sparse_num_index_heads x sparse_index_dim, k_proj d -> sparse_index_dim, q_norm
//   and k_norm of sparse_index_dim (AttentionIndexer::Kind::msa).
// - FFN: moe_layer_freq[i] != 0: MiniMaxM3VLSparseMoeBlock, router (E x d, no bias; its
//   e_score_correction_bias a registered buffer, in the checkpoint only), E experts of intermediate_size
//   (gate_up 2f x d, down d x f), one shared MiniMaxM3VLDenseMLP of shared_intermediate_size x
//   n_shared_experts; else MiniMaxM3VLDenseMLP of dense_intermediate_size.
// - Two norms a layer, a final norm, embed_tokens and an lm_head (untied by default).
// num_mtp_modules declares MTP modules the class does not build ("ignored at inference"; the
// published checkpoint's 23,416 tensors are the text model's, the vision tower's and the
// projectors'): mtp_params null with the reason (mtp_not_counted). The vision tower is not
// counted (vision_params null).
// tests/data/hf/recount/minimax_m3_count.py recounts the fixture independently.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace minimax_m3_parts {  // named: a unity build compiles the family files together

bool has(const nlohmann::json& o, const char* key) { return o.contains(key) && !o[key].is_null(); }

// A per-layer list of `layers` entries, each 0/1 or false/true; empty (failure on r) otherwise.
std::vector<bool> flags_of(FamilyContext& c, const nlohmann::json& list, const char* key, int layers) {
  if (!list.is_array() || static_cast<int>(list.size()) != layers) {
    c.r.fail(key, fmt::format("must list num_hidden_layers ({}) entries", layers));
    return {};
  }
  std::vector<bool> out;
  for (const auto& v : list) {
    const bool ok = v.is_boolean() || (v.is_number_integer() && (v == 0 || v == 1));
    if (!ok) {
      c.r.fail(key, fmt::format("lists {}: entries are 0 or 1", v.dump()));
      return {};
    }
    out.push_back(v.is_boolean() ? v.get<bool>() : v == 1);
  }
  return out;
}

// The refusals: what transformers' classes would build otherwise than the file says.
void refuse_what_is_not_counted(FamilyContext& c) {
  JsonReader& r = c.r;
  if (!r.boolean(c.j, "use_qk_norm").value_or(true)) {
    r.fail("use_qk_norm", "is false: MiniMaxM3VLAttention builds q_norm and k_norm whatever it says");
  } else if (const auto t = r.string(c.j, "qk_norm_type"); t && *t != "per_head") {
    r.fail("qk_norm_type", fmt::format("is \"{}\": MiniMaxM3VLAttention normalises each head (\"per_head\")", *t));
  } else if (r.boolean(c.j, "attention_output_gate").value_or(false)) {
    r.fail("attention_output_gate", "is true: MiniMaxM3VLAttention builds no output gate");
  } else if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "is true: MiniMaxM3VLAttention builds q, k, v and o without biases");
  }
}

// Which layers are sparse (indexed): layer_types, else sparse_attention_freq, else none.
std::vector<bool> sparse_layers(FamilyContext& c, const nlohmann::json* sparse, int layers) {
  c.take("layer_types");
  if (has(c.j, "layer_types")) {
    const nlohmann::json& t = c.j["layer_types"];
    if (!t.is_array() || static_cast<int>(t.size()) != layers) {
      c.r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", layers));
      return {};
    }
    std::vector<bool> out;
    for (const auto& v : t) {
      if (v != "full_attention" && v != "minimax_m3_sparse") {
        c.r.fail("layer_types", fmt::format("lists {}: MiniMax-M3 builds full_attention and minimax_m3_sparse layers",
                                            v.dump()));
        return {};
      }
      out.push_back(v == "minimax_m3_sparse");
    }
    return out;
  }
  if (sparse != nullptr && has(*sparse, "sparse_attention_freq")) {
    return flags_of(c, (*sparse)["sparse_attention_freq"], "sparse_attention_config", layers);
  }
  return std::vector<bool>(static_cast<std::size_t>(layers), false);  // MiniMaxM3VLTextConfig's default
}

// MiniMaxM3VLIndexer's sizes from sparse_attention_config (needed when a layer is sparse).
void read_indexer(FamilyContext& c, const nlohmann::json& s, const std::vector<bool>& sparse) {
  JsonReader& r = c.r;
  const auto need = [&](const char* key) {
    if (!s.contains(key) || !s[key].is_number_integer() || s[key].get<long long>() < 1 ||
        s[key].get<long long>() > 1'000'000) {
      r.fail("sparse_attention_config", fmt::format("{} must be a positive integer: MiniMaxM3VLIndexer reads it", key));
      return 0;
    }
    return static_cast<int>(s[key].get<long long>());
  };
  const auto optional = [&](const char* key, int fallback) {
    if (!s.contains(key)) return fallback;
    if (!s[key].is_number_integer() || s[key].get<long long>() < 0 || s[key].get<long long>() > 1'000'000) {
      r.fail("sparse_attention_config", fmt::format("{} must be a non-negative integer", key));
      return 0;
    }
    return static_cast<int>(s[key].get<long long>());
  };
  AttentionIndexer x;
  x.kind = AttentionIndexer::Kind::msa;
  x.n_heads = need("sparse_num_index_heads");
  x.head_dim = need("sparse_index_dim");
  x.block_size = need("sparse_block_size");
  x.topk = need("sparse_topk_blocks");
  // int(sparse_cfg.get("sparse_init_block", 0)), int(sparse_cfg.get("sparse_local_block", 1))
  x.always_blocks = optional("sparse_init_block", 0) + optional("sparse_local_block", 1);
  if (s.contains("use_sparse_attention") && s["use_sparse_attention"] == false && !r.failed()) {
    r.fail("sparse_attention_config", "use_sparse_attention is false but layers are sparse: transformers builds "
                                      "their indexers whatever it says; moeplan refuses rather than guess");
  }
  // The index-value path (sparse_disable_index_value 0 on a sparse layer) is not what
  // MiniMaxM3VLIndexer builds ("the upstream checkpoint disables the index-value path").
  if (has(s, "sparse_disable_index_value") && !r.failed()) {
    const std::vector<bool> off = flags_of(c, s["sparse_disable_index_value"], "sparse_attention_config",
                                           static_cast<int>(sparse.size()));
    for (std::size_t i = 0; i < off.size() && !r.failed(); ++i) {
      if (sparse[i] && !off[i]) {
        r.fail("sparse_attention_config", fmt::format("sparse_disable_index_value is 0 at sparse layer {}: an index-"
                                                      "value path MiniMaxM3VLIndexer does not build", i));
      }
    }
  }
  if (!r.failed()) c.m.indexer = x;
}

void read_experts(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  // attribute_map: num_experts is num_local_experts.
  if (has(c.j, "num_experts") && has(c.j, "num_local_experts") && c.j["num_experts"] != c.j["num_local_experts"]) {
    r.fail("num_experts", "differs from num_local_experts, its alias in MiniMaxM3VLTextConfig");
    return;
  }
  c.take("num_experts");
  c.take("num_local_experts");
  m.n_routed_experts = r.required(c.j, has(c.j, "num_local_experts") ? "num_local_experts" : "num_experts", 1);
  m.num_experts_per_tok = r.required(c.j, c.take("num_experts_per_tok"), 1);
  m.moe_intermediate_size = m.intermediate_size;  // MiniMaxM3VLExperts: intermediate_size per expert
  if (m.moe_intermediate_size <= 0 && !r.failed()) r.fail("intermediate_size", "missing: the experts' width");
  // MiniMaxM3VLDenseMLP(shared_intermediate_size * n_shared_experts): one MLP that wide.
  const int shared = c.written("shared_intermediate_size", 1, "MiniMaxM3VLTextConfig");
  const int n_shared = r.integer(c.j, c.take("n_shared_experts"), 0).value_or(1);  // class default 1
  m.n_shared_experts = n_shared > 0 ? 1 : 0;
  m.shared_expert_intermediate_size = shared * n_shared;
}

void read(FamilyContext& c) {
  c.router_bias_buffer = true;  // MiniMaxM3VLTopKRouter's e_score_correction_bias buffer (above)
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  refuse_what_is_not_counted(c);
  if (r.failed()) return;
  m.extras.qk_norm = QkNorm::per_head;
  read_experts(c);
  if (r.failed()) return;
  const int L = m.num_hidden_layers;
  c.take("moe_layer_freq");
  if (!has(c.j, "moe_layer_freq")) {
    // MiniMaxM3VLDecoderLayer indexes config.moe_layer_freq[layer_idx]: None has no entries.
    r.fail("moe_layer_freq", "missing: MiniMaxM3VLDecoderLayer reads each layer's entry (the class default is None)");
    return;
  }
  const std::vector<bool> moe = flags_of(c, c.j["moe_layer_freq"], "moe_layer_freq", L);
  c.take("mlp_layer_types");  // another port's name for the same list: must agree
  if (has(c.j, "mlp_layer_types") && !r.failed()) {
    const nlohmann::json& t = c.j["mlp_layer_types"];
    bool same = t.is_array() && static_cast<int>(t.size()) == L;
    for (int i = 0; same && i < L; ++i) same = t[static_cast<std::size_t>(i)] == (moe[static_cast<std::size_t>(i)] ? "sparse" : "dense");
    if (!same) r.fail("mlp_layer_types", "disagrees with moe_layer_freq, which MiniMaxM3VLDecoderLayer reads");
  }
  const nlohmann::json* sparse_cfg = has(c.j, c.take("sparse_attention_config")) ? &c.j["sparse_attention_config"] : nullptr;
  if (sparse_cfg != nullptr && !sparse_cfg->is_object() && !r.failed()) {
    r.fail("sparse_attention_config", "must be an object");
  }
  if (r.failed()) return;
  const std::vector<bool> sparse = sparse_layers(c, sparse_cfg, L);
  if (r.failed()) return;
  bool any_dense = false, any_sparse = false;
  m.layers.assign(static_cast<std::size_t>(L), LayerSpec{});
  for (int i = 0; i < L; ++i) {
    LayerSpec& l = m.layers[static_cast<std::size_t>(i)];
    l.ffn = moe[static_cast<std::size_t>(i)] ? FfnKind::moe : FfnKind::dense;
    l.indexed = sparse[static_cast<std::size_t>(i)];
    any_dense |= !moe[static_cast<std::size_t>(i)];
    any_sparse |= l.indexed;
  }
  if (any_dense) {
    m.intermediate_size = c.written("dense_intermediate_size", 1, "MiniMaxM3VLTextConfig");
  } else {
    c.take("dense_intermediate_size");
    m.intermediate_size = 0;
  }
  if (any_sparse) {
    if (sparse_cfg == nullptr) {
      r.fail("sparse_attention_config", "missing: layer_types names minimax_m3_sparse layers, whose indexer it sizes");
      return;
    }
    read_indexer(c, *sparse_cfg, sparse);
  }
  // rotary_dim (default 64) rotates the first channels of each head: partial RoPE, no weight.
  if (const auto rd = r.integer(c.j, "rotary_dim", 1); rd && !has(c.j, "partial_rotary_factor") && m.head_size() > 0) {
    m.partial_rotary_factor = double(*rd) / m.head_size();
  }
  // Declared MTP modules: not built by MiniMaxM3VLForConditionalGeneration, not in the checkpoint.
  c.take("num_mtp_modules");
  c.take("num_nextn_predict_layers");
  const int mtp = std::max(r.integer(c.j, "num_mtp_modules", 0).value_or(0),
                           r.integer(c.j, "num_nextn_predict_layers", 0).value_or(0));
  // configuration_minimax_m3_vl.py documents num_mtp_modules as "multi-token-prediction modules
  // in the checkpoint; ignored at inference" and modeling_minimax_m3_vl.py builds none, so their
  // shape is in no modeling code: mtp_params and total_params_in_checkpoint are null with this
  // reason (as minimax_m2's), not 0.
  if (mtp > 0 && !r.failed()) {
    m.extras.mtp_not_counted = fmt::format("its {} declared MTP module(s) (num_mtp_modules {}, num_nextn_predict_layers {}) are "
                                           "not built by transformers' MiniMaxM3VL classes (modeling_minimax_m3_vl.py builds "
                                           "none; the config calls them ignored at inference): not counted",
                                           mtp, r.integer(c.j, "num_mtp_modules", 0).value_or(0),
                                           r.integer(c.j, "num_nextn_predict_layers", 0).value_or(0));
    m.description += "; " + m.extras.mtp_not_counted;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_local_experts", "num_experts", "num_experts_per_tok", "dense_intermediate_size", "shared_intermediate_size",
    "n_shared_experts", "moe_layer_freq", "mlp_layer_types", "sparse_attention_config", "num_mtp_modules"};

}  // namespace minimax_m3_parts

// MiniMaxM3VLTextConfig: num_key_value_heads 4 and head_dim 128 by default (d / N_q is 96):
// both must be written; untied by default.
extern const FamilyRule k_minimax_m3_rule{
    .model_types = {"minimax_m3", "minimax_m3_vl_text"},
    .read = minimax_m3_parts::read,
    .head_dim_required = true,
    .layout_keys = minimax_m3_parts::k_layout_keys,
};
// MiniMaxM3VLConfig: the language model is text_config, rebuilt as MiniMaxM3VLTextConfig.
extern const FamilyRule k_minimax_m3_vl_rule{
    .model_types = {"minimax_m3_vl"},
    .text_config = "text_config",
    .text_model_type = "minimax_m3",
    .text_model_type_forced = true,
    .layout_keys = minimax_m3_parts::k_layout_keys,
};

}  // namespace moeplan::hf
