// gemma4 and gemma4_text: transformers modeling_gemma4.py (huggingface/transformers commit
// 0246b4f3335464614ef1de66531f9131a44ec801; the 31B checkpoint's config printout names
// transformers 5.7.0). Read only to refuse it, naming the key and the reason.
#include <string>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace gemma4_parts {  // named: a unity build compiles the family files together

// Gemma4TextAttention sizes each layer by its type: full_attention layers take global_head_dim
// (512 in Gemma 4 31B and 26B-A4B) where sliding ones take head_dim (256), and with
// attention_k_eq_v they have num_global_key_value_heads and no v_proj (the keys are the values).
// moeplan's layers share one head_dim and always build K and V, so the attention weights, the
// attention FLOPs and the serving section's KV cache of the full layers would all be wrong: the
// file is refused, naming the key, rather than miscounted. (Gemma 4 E2B/E4B add per-layer input
// embeddings, hidden_size_per_layer_input, and layers that reuse an earlier layer's K and V,
// num_kv_shared_layers: refused by the same rule.) tests/data/hf/recount/gemma4_count.py counts
// the 31B text model exactly (30,697,345,280 with the tied embedding; with its vision tower and
// layer_scalar buffers, the checkpoint's 31,273,088,876 tensor elements).
void read(FamilyContext& c) {
  const auto set = [&](const char* key) { return c.j.contains(key) && !c.j[key].is_null(); };
  const auto positive = [&](const char* key) {
    return set(key) && c.j[key].is_number() && c.j[key].get<double>() > 0;
  };
  const bool own_global_dim = positive("global_head_dim") &&
                              (!set("head_dim") || c.j["head_dim"] != c.j["global_head_dim"]);
  const char* key = own_global_dim                                       ? "global_head_dim"
                    : set("attention_k_eq_v") && c.j["attention_k_eq_v"] == true ? "attention_k_eq_v"
                    : positive("hidden_size_per_layer_input")                  ? "hidden_size_per_layer_input"
                    : positive("num_kv_shared_layers")                         ? "num_kv_shared_layers"
                                                                               : "model_type";
  c.r.fail(key, "Gemma 4's full-attention layers have heads of their own size (global_head_dim), no v_proj "
                "with attention_k_eq_v (num_global_key_value_heads of keys that are also the values), and "
                "E2B/E4B add per-layer input embeddings and layers sharing an earlier layer's K and V; "
                "moeplan's layers share one head_dim and build K and V each, so it refuses the file rather "
                "than miscount its attention and KV cache");
}

const std::vector<std::string> k_layout_keys{"global_head_dim", "num_global_key_value_heads", "attention_k_eq_v",
                                             "enable_moe_block", "top_k_experts"};

}  // namespace gemma4_parts

extern const FamilyRule k_gemma4_text_rule{
    .model_types = {"gemma4_text"},
    .read = gemma4_parts::read,
    .standard_keys = false,
    .refused = true,
    .layout_keys = gemma4_parts::k_layout_keys,
};
// Gemma4ForConditionalGeneration: the language model is text_config (gemma4_text).
extern const FamilyRule k_gemma4_rule{.model_types = {"gemma4"},
                                      .text_config = "text_config",
                                      .text_model_type = "gemma4_text",
                                      .refused = true};

}  // namespace moeplan::hf
