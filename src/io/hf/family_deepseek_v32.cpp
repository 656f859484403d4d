// deepseek_v32: DeepSeek-V3.2-Exp / DeepSeek-V3.2 (transformers models/deepseek_v32,
// modular_deepseek_v32.py: DeepseekV32Attention = DeepSeek-V3's MLA + DeepseekV32Indexer; the
// MoE, MLP and decoder layer are DeepSeek-V3's; DeepSeek's inference/model.py, class Indexer,
// builds the same indexer tensors). The DeepSeek layout of family_deepseek.cpp plus the
// lightning indexer of every layer (ModelConfig::indexer: wq_b, wk, weights_proj, k_norm).
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace deepseek_v32_parts {  // named: a unity build compiles the family files together

void read(FamilyContext& c) {
  c.router_bias_buffer = true;  // DeepseekV3TopkRouter's e_score_correction_bias buffer (below)
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  c.take("kv_lora_rank");  // DeepseekV3Attention: MLA, read by the common keys
  // Experts: as DeepSeek-V3 (n_routed_experts of moe_intermediate_size, n_shared_experts of
  // that width, first_k_dense_replace leading dense layers). The class's defaults are
  // DeepSeek-V3's own: every key must be written.
  for (const char* key : {"n_routed_experts", "moe_intermediate_size", "num_experts_per_tok", "n_shared_experts",
                          "first_k_dense_replace"}) {
    if (!c.j.contains(key) || c.j[key].is_null()) {
      r.fail(key, "missing: DeepseekV32Config has a default of its own; write it");
      return;
    }
  }
  m.n_routed_experts = r.required(c.j, c.take("n_routed_experts"), 1);
  m.moe_intermediate_size = r.required(c.j, c.take("moe_intermediate_size"), 1);
  m.num_experts_per_tok = r.required(c.j, c.take("num_experts_per_tok"), 1);
  m.n_shared_experts = r.required(c.j, c.take("n_shared_experts"), 0);
  m.first_k_dense_replace = r.required(c.j, c.take("first_k_dense_replace"), 0);
  if (const auto freq = r.integer(c.j, c.take("moe_layer_freq"), 1); freq && *freq != 1) {
    r.fail("moe_layer_freq", fmt::format("only 1 (every layer after first_k_dense_replace is MoE) is "
                                        "supported, got {}", *freq));
    return;
  }
  // The lightning indexer (DeepseekV32Indexer) in every layer: wq_b reads the query's LoRA
  // residual, so it needs q_lora_rank (checked by ModelConfig::problem()).
  for (const char* key : {"index_n_heads", "index_head_dim", "index_topk"}) {
    if (!c.j.contains(key) || c.j[key].is_null()) {
      r.fail(key, "missing: DeepseekV32Config has a default of its own; write it");
      return;
    }
  }
  AttentionIndexer x;
  x.n_heads = r.required(c.j, c.take("index_n_heads"), 1);
  x.head_dim = r.required(c.j, c.take("index_head_dim"), 1);
  x.topk = r.required(c.j, c.take("index_topk"), 1);
  m.indexer = x;
  // The checkpoint's MTP module (model.layers.61: DeepSeek-V3's layout, its layer with an
  // indexer too), which transformers skips on load: counted beside the model (count_mtp).
  m.extras.num_nextn_predict_layers = r.integer(c.j, c.take("num_nextn_predict_layers"), 0).value_or(0);
  if (r.boolean(c.j, "attention_bias").value_or(false)) {
    r.fail("attention_bias", "biases of latent attention are not counted by moeplan");
  }
  // gate.e_score_correction_bias is a buffer in transformers (DeepseekV3TopkRouter), as in
  // deepseek_v3: not a parameter (inference/model.py makes it Gate.bias, one), stored in the
  // checkpoint: counted in total_params_in_checkpoint only (router_bias_buffer above).
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "n_routed_experts", "num_experts_per_tok", "moe_intermediate_size", "n_shared_experts",
    "first_k_dense_replace", "moe_layer_freq", "index_n_heads", "index_topk", "index_head_dim"};

}  // namespace deepseek_v32_parts

// MLA: num_key_value_heads defaults to N_q (no weight depends on it).
extern const FamilyRule k_deepseek_v32_rule{
    .model_types = {"deepseek_v32"},
    .read = deepseek_v32_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = deepseek_v32_parts::k_layout_keys,
};

}  // namespace moeplan::hf
