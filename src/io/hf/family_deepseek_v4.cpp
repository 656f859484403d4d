// deepseek_v4: DeepSeek-V4-Flash (transformers models/deepseek_v4 at commit 01976081 of
// huggingface/transformers: configuration_deepseek_v4.py, DeepseekV4Config, and
// modeling_deepseek_v4.py). Every layer is DeepseekV4Attention (ModelConfig::
// compressed_attention: a low-rank query, one shared key/value head, sinks, a grouped output
// projection, a sliding window, and by the layer's type a CSA compressor with its indexer or an
// HCA compressor) and DeepseekV4SparseMoeBlock (n_routed_experts of moe_intermediate_size, a
// router of E x d -- a TopKRouter with the e_score_correction_bias buffer, or in the hash_moe
// layers a HashRouter whose tid2eid table is a buffer -- and one shared MLP of that width per
// n_shared_experts), around which two hyper-connections mix hc_mult residual streams. No dense
// layer; intermediate_size is an alias of moe_intermediate_size (attribute_map).
// The layer types: layer_types, else the legacy per-layer compress_ratios (0 / 4 / 128 ->
// sliding / compressed_sparse / heavily_compressed attention, _COMPRESS_RATIO_TO_LAYER_TYPE),
// truncated to num_hidden_layers; each compressed type's rate is compress_rates' (legacy
// compress_rate_csa / compress_rate_hca), default 4 and 128. The class's own default without
// either list is V4-Pro's interleave, which moeplan does not guess: one of them must be written.
// The checkpoint's MTP module (mtp.0.*, which transformers skips): DeepSeek's inference model.py
// MTPBlock, the Block of layer num_hidden_layers + i (compress_ratios[L + i]) plus e_proj, h_proj,
// enorm, hnorm, norm and hc_head; embed and head are the main model's (no copy stored). Counted
// beside the model (count_mtp).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace deepseek_v4_parts {  // named: a unity build compiles the family files together

constexpr const char* k_class = "DeepseekV4Config";

// compress_rates (or the legacy compress_rate_csa / compress_rate_hca) into a.
void read_rates(FamilyContext& c, CompressedAttention& a) {
  if (const auto it = c.j.find(c.take("compress_rates")); it != c.j.end() && !it->is_null()) {
    if (!it->is_object()) {
      c.r.fail("compress_rates", "must be an object of layer type -> rate");
      return;
    }
    for (const auto& [type, rate] : it->items()) {
      const auto v = c.r.integer(*it, type, 1);
      if (!v) return;
      if (type == "compressed_sparse_attention") {
        a.csa_rate = *v;
      } else if (type == "heavily_compressed_attention") {
        a.hca_rate = *v;
      } else {
        c.r.fail("compress_rates", fmt::format("names \"{}\", not a compressed layer type of DeepSeek-V4", type));
        return;
      }
    }
  }
  if (const auto v = c.r.integer(c.j, c.take("compress_rate_csa"), 1)) a.csa_rate = *v;
  if (const auto v = c.r.integer(c.j, c.take("compress_rate_hca"), 1)) a.hca_rate = *v;
  if (!c.r.failed() && a.csa_rate == a.hca_rate) {
    c.r.fail("compress_rates", "gives CSA and HCA one rate: moeplan tells the layer types apart by it");
  }
}

// The layer type of each entry: layer_types' names, or compress_ratios' 0 / 4 / 128. Returns the
// compress rate of each listed layer (0: sliding only); empty with the failure recorded.
std::vector<int> layer_rates(FamilyContext& c, const CompressedAttention& a, const char*& key) {
  std::vector<int> out;
  const auto types = c.j.find(c.take("layer_types"));
  const auto ratios = c.j.find(c.take("compress_ratios"));
  const bool named = types != c.j.end() && !types->is_null();
  if (!named && (ratios == c.j.end() || ratios->is_null())) {
    c.r.fail("compress_ratios", fmt::format("missing, and so is layer_types: {} has a default layout of its own "
                                            "(V4-Pro's); write the layers' types", k_class));
    return out;
  }
  key = named ? "layer_types" : "compress_ratios";
  const nlohmann::json& list = named ? *types : *ratios;
  if (!list.is_array() || static_cast<long long>(list.size()) < c.m.num_hidden_layers) {
    c.r.fail(key, fmt::format("must list at least num_hidden_layers ({}) layer types", c.m.num_hidden_layers));
    return out;
  }
  for (const auto& v : list) {
    int rate = -1;
    if (named && v.is_string()) {
      const std::string t = v.get<std::string>();
      rate = t == "sliding_attention" ? 0 : t == "compressed_sparse_attention" ? a.csa_rate
                                          : t == "heavily_compressed_attention" ? a.hca_rate : -1;
    } else if (!named && v.is_number_integer()) {
      const auto r = v.get<long long>();  // _COMPRESS_RATIO_TO_LAYER_TYPE: 0, 4 and 128 only
      rate = r == 0 ? 0 : r == 4 ? a.csa_rate : r == 128 ? a.hca_rate : -1;
    }
    if (rate < 0) {
      c.r.fail(key, fmt::format("lists {}: DeepSeek-V4's layers are {}", v.dump(),
                                named ? "sliding_attention, compressed_sparse_attention or heavily_compressed_attention"
                                      : "0, 4 or 128 (sliding, compressed sparse, heavily compressed)"));
      out.clear();
      return out;
    }
    out.push_back(rate);
  }
  return out;
}

// mlp_layer_types (hash_moe / moe), else the first num_hash_layers layers (class default 3:
// default_num_hash_layers; hash routing changes no count, so the default is taken).
int hash_layers(FamilyContext& c) {
  const int L = c.m.num_hidden_layers;
  if (const auto it = c.j.find(c.take("mlp_layer_types")); it != c.j.end() && !it->is_null()) {
    if (!it->is_array() || static_cast<int>(it->size()) != L) {
      c.r.fail("mlp_layer_types", fmt::format("must list num_hidden_layers ({}) entries", L));
      return 0;
    }
    int n = 0;
    for (const auto& v : *it) {
      if (v != "hash_moe" && v != "moe") {
        c.r.fail("mlp_layer_types", fmt::format("lists {}: DeepSeek-V4's FFNs are hash_moe or moe", v.dump()));
        return 0;
      }
      n += v == "hash_moe" ? 1 : 0;
    }
    return n;
  }
  return std::min(L, c.r.integer(c.j, c.take("num_hash_layers"), 0).value_or(3));
}

void read_attention(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  CompressedAttention a;
  a.q_lora_rank = r.integer(c.j, "q_lora_rank", 1).value_or(0);
  if (!c.j.contains("q_lora_rank")) r.fail("q_lora_rank", fmt::format("missing: {} has a default of its own; write it", k_class));
  a.o_groups = c.written("o_groups", 1, k_class);
  a.o_lora_rank = c.written("o_lora_rank", 1, k_class);
  a.index_n_heads = c.written("index_n_heads", 1, k_class);
  a.index_head_dim = c.written("index_head_dim", 1, k_class);
  a.index_topk = c.written("index_topk", 1, k_class);
  a.hc_mult = c.written("hc_mult", 1, k_class);
  a.sliding_window = r.integer(c.j, "sliding_window", 1).value_or(0);
  if (!r.failed() && a.sliding_window == 0) r.fail("sliding_window", fmt::format("missing: {} has a default of its own; write it", k_class));
  if (r.failed()) return;
  read_rates(c, a);
  if (r.failed()) return;
  const char* key = "compress_ratios";
  const std::vector<int> rates = layer_rates(c, a, key);
  if (r.failed()) return;
  const int L = m.num_hidden_layers;
  m.layers.assign(static_cast<std::size_t>(L), LayerSpec{});
  for (int i = 0; i < L; ++i) {
    m.layers[static_cast<std::size_t>(i)].compress_rate = rates[static_cast<std::size_t>(i)];
    m.layers[static_cast<std::size_t>(i)].window = a.sliding_window;
  }
  // The MTP blocks are layers L, L + 1, ... of DeepSeek's list (compress_ratios has L + n entries).
  const int mtp = m.extras.num_nextn_predict_layers;
  if (mtp > 0 && static_cast<int>(rates.size()) < L + mtp) {
    r.fail("num_nextn_predict_layers", fmt::format("is {}, but {} lists {} layers: the MTP blocks' attention "
                                                   "(entries {} on, as DeepSeek's model.py builds them) is not stated",
                                                   mtp, key, rates.size(), L));
    return;
  }
  a.mtp_compress_rates.assign(rates.begin() + L, rates.begin() + L + std::max(mtp, 0));
  m.compressed_attention = a;
  // Partial RoPE: qk_rope_head_dim / head_dim (legacy key) of each head; no weight depends on it.
  if (const auto rope = r.integer(c.j, "qk_rope_head_dim", 1); rope && m.head_dim > 0 && *rope <= m.head_dim) {
    m.partial_rotary_factor = double(*rope) / m.head_dim;
  }
}

// Keys of later DeepSeek-V4 checkpoints whose modules DeepseekV4Config's class does not build:
// DSpark speculative stages (DeepSeek-V4-Flash-0731's dspark_*: mtp.0-2 main_proj, confidence
// heads), Engram tables, layers that share another layer's KV or indexer. Counted as the plain
// model, their checkpoint would be miscounted: refused by name.
bool later_variant_refused(FamilyContext& c) {
  for (const auto& [key, v] : c.j.items()) {
    const bool later = key.starts_with("dspark_") || key.starts_with("engram_") || key.starts_with("candidate_") ||
                       key == "kv_source_layer_ids" || key == "index_source_layer_ids";
    if (!later || v.is_null() || (v.is_array() && v.empty())) continue;
    c.r.fail(key, "belongs to modules of a later DeepSeek-V4 checkpoint (DSpark stages, Engram tables, shared "
                  "KV or indexer sources) that transformers' DeepseekV4 class does not build; moeplan does not "
                  "count them, so it refuses the file");
    return true;
  }
  return false;
}

void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  if (later_variant_refused(c)) return;
  m.n_routed_experts = c.written("n_routed_experts", 1, k_class);
  m.moe_intermediate_size = c.written("moe_intermediate_size", 1, k_class);
  m.num_experts_per_tok = c.written("num_experts_per_tok", 1, k_class);
  m.n_shared_experts = c.written("n_shared_experts", 0, k_class);
  m.extras.num_nextn_predict_layers = c.written("num_nextn_predict_layers", 0, k_class);
  if (r.failed()) return;
  // intermediate_size is moe_intermediate_size under another name (attribute_map): the shared
  // experts' width. A file that writes both differently says two things.
  if (m.intermediate_size != 0 && m.intermediate_size != m.moe_intermediate_size) {
    r.fail("intermediate_size", fmt::format("is {}, but DeepseekV4Config reads it as moe_intermediate_size ({})",
                                            m.intermediate_size, m.moe_intermediate_size));
    return;
  }
  if (c.j.contains("kv_lora_rank") && !c.j["kv_lora_rank"].is_null()) {
    r.fail("kv_lora_rank", "DeepseekV4Attention builds no latent key/value (one shared head of head_dim): "
                           "moeplan would not count it");
    return;
  }
  m.intermediate_size = 0;
  m.first_k_dense_replace = 0;
  m.extras.mtp_embedding_copies = false;  // MTPBlock's embed and head are the main model's
  read_attention(c);
  if (r.failed()) return;
  m.hash_routed_layers = hash_layers(c);
  if (r.failed()) return;
  if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "DeepseekV4Attention builds no biases; the class ignores the key, but a file "
                             "that sets it may describe another model, so moeplan refuses it");
  } else if (r.boolean(c.j, "mlp_bias").value_or(false)) {
    r.fail("mlp_bias", "biases of the shared experts are not counted by moeplan");
  }
  // e_score_correction_bias (the scored layers' and the MTP block's: router_bias_buffer) and
  // tid2eid (DeepseekV4HashRouter: vocab_size x num_experts_per_tok per hash-routed layer) are
  // buffers the checkpoint stores: in total_params_in_checkpoint only (docs/model-schema.md).
  c.router_bias_buffer = true;
  m.extras.checkpoint_buffer_values += std::int64_t{m.hash_routed_layers} * m.vocab_size * m.num_experts_per_tok;
}

// The expert and layer-layout keys this file's rule reads (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "n_routed_experts", "num_experts_per_tok", "moe_intermediate_size", "n_shared_experts", "mlp_layer_types",
    "num_hash_layers", "index_n_heads", "index_topk", "index_head_dim", "o_groups", "o_lora_rank", "hc_mult",
    "compress_ratios", "compress_rates", "compress_rate_csa", "compress_rate_hca"};

}  // namespace deepseek_v4_parts

// One shared key/value head: num_key_value_heads must be written (the class's default is 1, not
// N_q); head_dim too (512, not d / N_q).
extern const FamilyRule k_deepseek_v4_rule{
    .model_types = {"deepseek_v4"},
    .read = deepseek_v4_parts::read,
    .head_dim_required = true,
    .layout_keys = deepseek_v4_parts::k_layout_keys,
};

}  // namespace moeplan::hf
