// glm_moe_dsa: GLM-5 / GLM-5.1 (transformers models/glm_moe_dsa, configuration_glm_moe_dsa.py and
// modeling_glm_moe_dsa.py as of v5.7). DeepSeek-V3.2's layout (family_deepseek_v32.cpp):
// GlmMoeDsaAttention is MLA (q_a_proj, q_a_layernorm, q_b_proj, kv_a_proj_with_mqa,
// kv_a_layernorm, kv_b_proj, o_proj) with GlmMoeDsaIndexer (wq_b of q_lora_rank x
// index_n_heads·index_head_dim, wk of d x index_head_dim, k_norm a LayerNorm of index_head_dim
// with its bias, weights_proj of d x index_n_heads) in every layer whose indexer_types entry is
// "full"; GlmMoeDsaMoE is DeepSeek-V3's (n_routed_experts of moe_intermediate_size, a sigmoid
// router whose e_score_correction_bias is a buffer, n_shared_experts of that width) and
// GlmMoeDsaMLP(intermediate_size) the dense layers. The decoder layer takes its FFN from
// mlp_layer_types, which GlmMoeDsaConfig.__post_init__ defaults to first_k_dense_replace dense
// layers, then sparse ones. head_dim is overwritten by qk_rope_head_dim (no weight is sized by it).
// GLM-5.2 lists the layers that reuse another's indexer ("shared", below).
// The checkpoint's MTP layer (model.layers.<L>: eh_proj, enorm, hnorm, shared_head.norm and a
// full layer; GLM-5.1's safetensors list holds no embed_tokens or shared_head.head copy with it)
// is counted beside the model (count_mtp) without embedding copies.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace glm_moe_dsa_parts {  // named: a unity build compiles the family files together

// Leading dense layers: mlp_layer_types when written (dense layers first, then sparse ones),
// else first_k_dense_replace (class default 3: must be written, as moeplan does not guess).
int dense_layers_of(FamilyContext& c) {
  const int L = c.m.num_hidden_layers;
  c.take("mlp_layer_types");
  const int k = c.written("first_k_dense_replace", 0, "GlmMoeDsaConfig");
  const auto it = c.j.find("mlp_layer_types");
  if (it == c.j.end() || it->is_null()) return std::min(k, L);
  const int dense = leading_dense_of_layer_types(c, *it, L, "GlmMoeDsaDecoderLayer");
  if (c.r.failed()) return 0;
  if (dense != k) {
    c.r.fail("first_k_dense_replace", fmt::format("is {}, but mlp_layer_types lists {} dense layers (the class "
                                                  "builds what mlp_layer_types says)", k, dense));
  }
  return dense;
}

// indexer_types (GLM-5.2's IndexShare, arXiv 2603.12201): a "full" layer runs its own indexer, a
// "shared" one reuses the most recent full layer's top-k and builds no indexer weights (vLLM
// deepseek_v2.py _indexer_weights_shared: "shared" layers carry no indexer weights, they reuse the
// prior "full" layer), attending its top-k keys all the same. indexer_types is authoritative where
// written (vLLM reads it first); index_topk_pattern / index_topk_freq / index_skip_topk_offset
// alone derive the schedule, and the implementations differ on their defaults (offset 1, 2 or 3),
// so a file with them and no indexer_types is refused. layer_types, when written, is the class's
// "deepseek_sparse_attention" in every layer. Returns each layer's "shared" (empty: none listed).
std::vector<bool> shared_indexer_layers(FamilyContext& c) {
  c.take("indexer_types");
  c.take("layer_types");
  const int L = c.m.num_hidden_layers;
  if (const auto it = c.j.find("layer_types"); it != c.j.end() && !it->is_null()) {
    if (!it->is_array() || static_cast<int>(it->size()) != L) {
      c.r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) entries", L));
      return {};
    }
    for (const auto& v : *it) {
      if (v != "deepseek_sparse_attention") {
        c.r.fail("layer_types", fmt::format("lists {}: GlmMoeDsaDecoderLayer builds deepseek_sparse_attention "
                                            "layers only", v.dump()));
        return {};
      }
    }
  }
  const auto it = c.j.find("indexer_types");
  if (it == c.j.end() || it->is_null()) {
    for (const char* key : {"index_topk_pattern", "index_topk_freq"}) {
      if (c.j.contains(key) && !c.j[key].is_null() && !(std::string(key) == "index_topk_freq" && c.j[key] == 1)) {
        c.r.fail(key, "sets indexer-sharing layers without indexer_types, whose schedule the implementations "
                      "derive differently; write indexer_types");
        return {};
      }
    }
    return {};
  }
  if (!it->is_array() || static_cast<int>(it->size()) != L) {
    c.r.fail("indexer_types", fmt::format("must list num_hidden_layers ({}) entries", L));
    return {};
  }
  std::vector<bool> shared;
  for (const auto& v : *it) {
    if (v != "full" && v != "shared") {
      c.r.fail("indexer_types", fmt::format("lists {}: \"full\" or \"shared\"", v.dump()));
      return {};
    }
    if (v == "shared" && shared.empty()) {
      c.r.fail("indexer_types", "lists \"shared\" first: a shared layer reuses an earlier full layer's top-k");
      return {};
    }
    shared.push_back(v == "shared");
  }
  // The schedule keys beside it, and the MTP module's sharing across draft steps: its layer keeps
  // an indexer of its own (GLM-5.2's safetensors index lists self_attn.indexer.* for the 21 full
  // layers and layer 78, the MTP layer, as a third-party read of it reports), counted as built.
  for (const char* key : {"index_topk_pattern", "index_topk_freq", "index_skip_topk_offset", "index_share_for_mtp_iteration"}) {
    c.take(key);
  }
  return shared;
}

void read(FamilyContext& c) {
  c.router_bias_buffer = true;  // GlmMoeDsaTopkRouter's e_score_correction_bias buffer (above)
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  c.take("kv_lora_rank");  // MLA, read by the common keys
  m.n_routed_experts = c.written("n_routed_experts", 1, "GlmMoeDsaConfig");
  m.moe_intermediate_size = c.written("moe_intermediate_size", 1, "GlmMoeDsaConfig");
  m.num_experts_per_tok = c.written("num_experts_per_tok", 1, "GlmMoeDsaConfig");
  m.n_shared_experts = c.written("n_shared_experts", 0, "GlmMoeDsaConfig");
  if (r.failed()) return;
  m.first_k_dense_replace = dense_layers_of(c);
  if (r.failed()) return;
  if (const auto freq = r.integer(c.j, c.take("moe_layer_freq"), 1); freq && *freq != 1) {
    r.fail("moe_layer_freq", fmt::format("only 1 (every layer after the dense ones is MoE) is supported, got {}", *freq));
    return;
  }
  if (m.first_k_dense_replace > 0 && m.intermediate_size == 0) {
    r.fail("intermediate_size", "missing: GlmMoeDsaConfig has a default of its own; write it");
    return;
  }
  const std::vector<bool> shared = shared_indexer_layers(c);
  if (r.failed()) return;
  AttentionIndexer x;
  x.n_heads = c.written("index_n_heads", 1, "GlmMoeDsaConfig");
  x.head_dim = c.written("index_head_dim", 1, "GlmMoeDsaConfig");
  x.topk = c.written("index_topk", 1, "GlmMoeDsaConfig");
  if (r.failed()) return;
  m.indexer = x;
  if (std::find(shared.begin(), shared.end(), true) != shared.end()) {
    m.layers = m.layer_specs();
    for (std::size_t i = 0; i < shared.size() && i < m.layers.size(); ++i) {
      m.layers[i].indexed = !shared[i];
      m.layers[i].indexer_shared = shared[i];
    }
  }
  // qk_head_dim is derived (qk_nope_head_dim + qk_rope_head_dim); a file saying otherwise is refused.
  if (const auto q = r.integer(c.j, "qk_head_dim", 1); q && c.j.contains("qk_nope_head_dim") && c.j.contains("qk_rope_head_dim")) {
    const auto nope = r.integer(c.j, "qk_nope_head_dim", 0).value_or(0);
    const auto rope = r.integer(c.j, "qk_rope_head_dim", 0).value_or(0);
    if (*q != nope + rope) {
      r.fail("qk_head_dim", fmt::format("is {}, not qk_nope_head_dim + qk_rope_head_dim ({}), which the class uses",
                                        *q, nope + rope));
      return;
    }
  }
  m.head_dim = 0;  // GlmMoeDsaConfig sets head_dim = qk_rope_head_dim: MLA sizes every weight
  m.extras.num_nextn_predict_layers = r.integer(c.j, c.take("num_nextn_predict_layers"), 0).value_or(0);
  m.extras.mtp_embedding_copies = false;
  if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "biases of latent attention are not counted by moeplan");
  } else if (r.boolean(c.j, "mlp_bias").value_or(false)) {
    r.fail("mlp_bias", "biases of the FFN are not counted by moeplan");
  }
}

// The expert and layer-layout keys this file's rule reads (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "n_routed_experts", "num_experts_per_tok", "moe_intermediate_size", "n_shared_experts", "first_k_dense_replace",
    "moe_layer_freq", "mlp_layer_types", "index_n_heads", "index_topk", "index_head_dim", "indexer_types",
    "index_topk_pattern", "index_topk_freq", "index_skip_topk_offset", "index_share_for_mtp_iteration"};

}  // namespace glm_moe_dsa_parts

// MLA: num_key_value_heads builds no weight (its default, 64, is N_q of GLM-5 only).
extern const FamilyRule k_glm_moe_dsa_rule{
    .model_types = {"glm_moe_dsa"},
    .read = glm_moe_dsa_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = glm_moe_dsa_parts::k_layout_keys,
};

}  // namespace moeplan::hf
