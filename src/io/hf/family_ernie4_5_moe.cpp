// ernie4_5_moe (ERNIE-4.5-21B-A3B, ERNIE-4.5-300B-A47B): transformers
// models/ernie4_5_moe/modular_ernie4_5_moe.py (Ernie4_5_MoeDecoderLayer, Ernie4_5_MoeSparseMoeBlock,
// Ernie4_5_MoeStatics) and configuration_ernie4_5_moe.py (Ernie4_5_MoeConfig); the checkpoints'
// Baidu remote code builds the same tensors plus the MTP block transformers skips.
#include <algorithm>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace ernie4_5_moe_parts {  // named: a unity build compiles the family files together

// Ernie4_5_MoeDecoderLayer: layer i is MoE when (i + 1) % moe_layer_interval == 0 and
// moe_layer_start_index <= i <= moe_layer_end_index, otherwise a dense MLP of
// intermediate_size. An MoE layer has moe_num_experts experts of moe_intermediate_size, one
// shared MLP of moe_intermediate_size * moe_num_shared_experts (if > 0), the router
// (hidden -> experts, no bias) and moe_statics.e_score_correction_bias, an nn.Parameter of
// 1 x moe_num_experts (counted as the router's bias: N_e per MoE layer).
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  // Ernie4_5_MoeConfig's defaults (64 experts, top-6, 2 shared of 1536, MoE from layer 1)
  // are those of the 21B model: moeplan does not guess them, the keys must be written.
  m.n_routed_experts = r.required(j, c.take("moe_num_experts"), 1);
  m.num_experts_per_tok = r.required(j, c.take("moe_k"), 1);
  m.moe_intermediate_size = r.required(j, c.take("moe_intermediate_size"), 1);
  m.n_shared_experts = r.required(j, c.take("moe_num_shared_experts"), 0);
  const int start = r.required(j, c.take("moe_layer_start_index"), 0);
  // Ernie4_5_MoeConfig: moe_layer_end_index -1 (its default) is num_hidden_layers - 1;
  // moe_layer_interval defaults to 1.
  int end = r.integer(j, c.take("moe_layer_end_index"), -1).value_or(-1);
  if (end == -1) end = m.num_hidden_layers - 1;
  const int interval = r.integer(j, c.take("moe_layer_interval"), 1).value_or(1);
  if (r.failed()) return;
  // use_bias puts biases on every projection: q, k, v, o, each expert's and each dense or
  // shared MLP's gate/up/down, and lm_head. moeplan counts expert biases but no dense-FFN or
  // shared-expert bias, so such a file is refused rather than undercounted.
  if (r.boolean(j, "use_bias").value_or(false)) {
    r.fail("use_bias", "is true: Ernie 4.5 then builds biases on the dense and shared MLPs and on "
                       "lm_head too, which moeplan does not count; refusing rather than leave them out");
    return;
  }
  // The router's N_e correction bias (Ernie4_5_MoeStatics) is built in every MoE layer.
  m.extras.router_bias = true;
  // Multi-token prediction: transformers builds none (Ernie4_5_MoePreTrainedModel
  // _keys_to_ignore_on_load_unexpected = ["mtp"], "Not supporting multi-token prediction
  // (MTP) atm"); the checkpoint's mtp_* tensors (one dense decoder block with its own
  // norms and projection, not the DeepSeek layout) are not counted.
  if (const auto n = r.integer(j, c.take("num_nextn_predict_layers"), 0); n && *n > 0) {
    m.description += fmt::format("; its {} MTP block(s) (num_nextn_predict_layers) are not built by "
                                 "transformers' Ernie4_5_MoeForCausalLM and not counted", *n);
  }
  const auto is_moe = [&](int i) { return (i + 1) % interval == 0 && i >= start && i <= end; };
  // A leading run of dense layers and MoE to the last layer is the uniform layout.
  if (interval == 1 && end >= m.num_hidden_layers - 1) {
    m.first_k_dense_replace = std::min(start, m.num_hidden_layers);
  } else {
    m.layers.resize(static_cast<std::size_t>(m.num_hidden_layers));
    for (int i = 0; i < m.num_hidden_layers; ++i) {
      m.layers[static_cast<std::size_t>(i)].ffn = is_moe(i) ? FfnKind::moe : FfnKind::dense;
    }
  }
  int moe_layers = 0;
  for (int i = 0; i < m.num_hidden_layers; ++i) moe_layers += is_moe(i) ? 1 : 0;
  if (moe_layers == 0) {
    r.fail("moe_layer_start_index", fmt::format("with moe_layer_end_index {} and moe_layer_interval {} "
                                                "no layer is MoE", end, interval));
  } else if (moe_layers < m.num_hidden_layers && m.intermediate_size == 0) {
    r.fail("intermediate_size", "missing: the dense layers need their width");
  }
}

// MoE from moe_layer_start_index to the last layer.
void write(const ModelConfig& m, std::string_view, nlohmann::ordered_json& j) {
  if (m.is_moe()) {
    j["moe_num_experts"] = m.n_routed_experts;
    j["moe_k"] = m.num_experts_per_tok;
    j["moe_intermediate_size"] = m.moe_intermediate_size;
    j["moe_num_shared_experts"] = m.n_shared_experts;  // one MLP of moe_intermediate_size x this
    j["moe_layer_start_index"] = m.first_k_dense_replace;
    j["moe_layer_end_index"] = m.num_hidden_layers - 1;
    j["moe_layer_interval"] = 1;
  }
  j["use_bias"] = m.extras.qkv_bias;  // every projection's bias, MLPs' and lm_head's too
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "moe_intermediate_size", "moe_num_experts", "moe_k", "moe_num_shared_experts", "moe_layer_start_index",
    "moe_layer_end_index", "moe_layer_interval"};

}  // namespace ernie4_5_moe_parts

// num_key_value_heads (class default 4) must be written; head_dim defaults to
// hidden_size / num_attention_heads (LlamaAttention's getattr); tie_word_embeddings defaults
// to true in Ernie4_5_MoeConfig.
extern const FamilyRule k_ernie4_5_moe_rule{
    .model_types = {"ernie4_5_moe"},
    .read = ernie4_5_moe_parts::read,
    .tied_by_default = true,
    .layout_keys = ernie4_5_moe_parts::k_layout_keys,
    .classes = {{"ernie4_5_moe", "Ernie4_5_MoeForCausalLM"}},  // remote code: tried for its own configs only
    .write = ernie4_5_moe_parts::write,
};

}  // namespace moeplan::hf
