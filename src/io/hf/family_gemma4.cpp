// gemma4 and gemma4_text: transformers modeling_gemma4.py and configuration_gemma4.py
// (huggingface/transformers commit 0246b4f3335464614ef1de66531f9131a44ec801; the 31B checkpoint's
// config printout names transformers 5.7.0). The vision (and audio) towers of gemma4 are not
// counted (the reader's description says so); layer_scalar (one a layer) is a buffer, not a
// parameter. tests/data/hf/recount/gemma4_count.py recounts both fixtures independently.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace gemma4_parts {  // named: a unity build compiles the family files together

bool set(const FamilyContext& c, const char* key) { return c.j.contains(key) && !c.j[key].is_null(); }

// Gemma 4 E2B/E4B build what moeplan does not count: per-layer input embeddings (Gemma4TextModel:
// embed_tokens_per_layer of vocab_size_per_layer_input x L·hidden_size_per_layer_input,
// per_layer_model_projection, per_layer_projection_norm; in each layer per_layer_input_gate,
// per_layer_projection, post_per_layer_input_norm) and layers that reuse an earlier layer's K
// and V (the last num_kv_shared_layers: no k_proj, v_proj, k_norm; use_double_wide_mlp doubles
// their MLP). Gemma4TextConfig's default hidden_size_per_layer_input is 256: a file without the
// key builds them. use_bidirectional_attention "all" makes every layer bidirectional (and halves
// the window): moeplan's attention FLOPs are causal. Each is refused by name.
void refuse_what_is_not_counted(FamilyContext& c) {
  JsonReader& r = c.r;
  if (!c.j.contains(c.take("hidden_size_per_layer_input"))) {
    r.fail("hidden_size_per_layer_input", "missing: Gemma4TextConfig's default (256) builds per-layer input "
                                          "embeddings; write 0 (or null) for a model without them");
    return;
  }
  if (r.integer(c.j, "hidden_size_per_layer_input", 0).value_or(0) > 0 && !r.failed()) {
    r.fail("hidden_size_per_layer_input", "per-layer input embeddings (Gemma 4 E2B/E4B: embed_tokens_per_layer "
                                          "and a gate and projection in every layer) are not counted by moeplan; "
                                          "it refuses the file rather than miscount it");
    return;
  }
  if (r.integer(c.j, c.take("num_kv_shared_layers"), 0).value_or(0) > 0 && !r.failed()) {
    r.fail("num_kv_shared_layers", "layers that reuse an earlier layer's K and V (Gemma 4 E2B/E4B, with "
                                   "use_double_wide_mlp's wider MLP there) are not counted by moeplan; it refuses "
                                   "the file rather than miscount it");
    return;
  }
  if (r.string(c.j, "use_bidirectional_attention").value_or("") == "all" && !r.failed()) {
    r.fail("use_bidirectional_attention", "\"all\": every layer attends both ways (and the window is halved); "
                                          "moeplan counts causal attention, so it refuses the file");
  }
}

// Which layers are full attention: layer_types, else Gemma4TextConfig's default (layer i is
// sliding_attention when (i + 1) % 6 != 0); either way the class makes the last layer
// full_attention ("Last layer must use `full_attention` ... Forcing"). Empty on failure.
std::vector<bool> full_attention_layers(FamilyContext& c, int layers) {
  std::vector<bool> full(static_cast<std::size_t>(layers), false);
  if (set(c, c.take("layer_types"))) {
    const nlohmann::json& types = c.j["layer_types"];
    if (!types.is_array() || static_cast<long long>(types.size()) != layers) {
      c.r.fail("layer_types", fmt::format("must list num_hidden_layers ({}) layer kinds", layers));
      return {};
    }
    for (std::size_t i = 0; i < types.size(); ++i) {
      const bool known = types[i] == "full_attention" || types[i] == "sliding_attention";
      if (!known) {
        c.r.fail("layer_types", fmt::format("lists {}: Gemma 4 builds full_attention and sliding_attention layers",
                                            types[i].dump()));
        return {};
      }
      full[i] = types[i] == "full_attention";
    }
  } else {
    for (int i = 0; i < layers; ++i) full[static_cast<std::size_t>(i)] = (i + 1) % 6 == 0;
  }
  full.back() = true;
  return full;
}

// enable_moe_block: beside every layer's MLP, Gemma4TextRouter (proj N_e x d, scale d,
// per_expert_scale N_e; softmax over all experts, top_k_experts, renormalised) and
// Gemma4TextExperts (gate_up N_e x 2f x d, down N_e x d x f, f = moe_intermediate_size), with
// post_feedforward_layernorm_1, pre_feedforward_layernorm_2 and post_feedforward_layernorm_2.
// False when no MoE block is built.
bool read_moe_block(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  if (!r.boolean(c.j, c.take("enable_moe_block")).value_or(false)) return false;
  const int experts = r.required(c.j, c.take("num_experts"), 1);
  const int top_k = r.required(c.j, c.take("top_k_experts"), 1);
  const int width = r.required(c.j, c.take("moe_intermediate_size"), 1);
  // vLLM's Gemma4MoE sizes the experts by expert_intermediate_size when the config has no
  // moe_intermediate_size; transformers reads moe_intermediate_size only. Both set and
  // different, the two codes build different models.
  if (const auto other = r.integer(c.j, c.take("expert_intermediate_size"), 1); other && *other != width && !r.failed()) {
    r.fail("expert_intermediate_size", fmt::format("is {} but moe_intermediate_size is {}: transformers sizes the "
                                                   "experts by moe_intermediate_size, so moeplan refuses the file",
                                                   *other, width));
  }
  if (r.failed()) return false;
  m.n_routed_experts = experts;
  m.num_experts_per_tok = top_k;
  m.moe_intermediate_size = width;
  m.extras.moe_block_norms = 3;
  m.extras.router_scales = true;
  return true;
}

void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  refuse_what_is_not_counted(c);
  if (r.failed()) return;
  // Gemma4TextConfig's intermediate_size default (9216) sizes every layer's MLP: written.
  if (!set(c, "intermediate_size")) r.fail("intermediate_size", "missing: Gemma4TextConfig has a default of its own; write it");
  c.attention_bias(false, false);        // q, k, v and o_proj: bias=config.attention_bias
  m.extras.qk_norm = QkNorm::per_head;   // q_norm, k_norm of the layer's head_dim (v_norm: no weight)
  m.extras.post_block_norms = true;      // input, post_attention, pre_ and post_feedforward_layernorm
  // Gemma4TextAttention: full_attention layers take global_head_dim when it is set (the class's
  // default is 512; null or 0: head_dim) and, with attention_k_eq_v, num_global_key_value_heads
  // of k_proj and no v_proj; sliding_attention layers take head_dim, num_key_value_heads and
  // the window sliding_window (Gemma4TextConfig default 512).
  if (!c.j.contains(c.take("global_head_dim"))) {
    r.fail("global_head_dim", "missing: Gemma4TextConfig has a default of its own (512); write it");
  }
  const int global_head = r.integer(c.j, "global_head_dim", 0).value_or(0);
  const bool k_eq_v = r.boolean(c.j, c.take("attention_k_eq_v")).value_or(false);
  const auto global_kv = r.integer(c.j, c.take("num_global_key_value_heads"), 1);
  if (k_eq_v && !global_kv && !r.failed()) {
    r.fail("num_global_key_value_heads", "missing: attention_k_eq_v sizes the full-attention layers' kv heads by it");
  }
  const int window = r.integer(c.j, "sliding_window", 1).value_or(512);
  const bool moe = read_moe_block(c);
  if (r.failed()) return;
  const std::vector<bool> full = full_attention_layers(c, m.num_hidden_layers);
  if (r.failed()) return;
  m.first_k_dense_replace = moe ? 0 : m.num_hidden_layers;
  m.layers.assign(full.size(), LayerSpec{});
  for (std::size_t i = 0; i < full.size(); ++i) {
    LayerSpec& l = m.layers[i];
    l.ffn = moe ? FfnKind::moe_and_dense : FfnKind::dense;
    if (!full[i]) {
      l.window = window;
      continue;
    }
    if (global_head > 0 && global_head != m.head_size()) l.head_dim = global_head;
    if (k_eq_v) {
      l.k_eq_v = true;
      if (*global_kv != m.num_key_value_heads) l.kv_heads = *global_kv;
    }
  }
}

const std::vector<std::string> k_layout_keys{
    "global_head_dim", "num_global_key_value_heads", "attention_k_eq_v", "enable_moe_block", "top_k_experts",
    "num_experts", "moe_intermediate_size", "expert_intermediate_size", "hidden_size_per_layer_input",
    "num_kv_shared_layers"};

}  // namespace gemma4_parts

// Gemma4TextConfig: num_key_value_heads 4 and head_dim 256 by default (must be written), tied.
extern const FamilyRule k_gemma4_text_rule{
    .model_types = {"gemma4_text"},
    .read = gemma4_parts::read,
    .head_dim_required = true,
    .tied_by_default = true,
    .layout_keys = gemma4_parts::k_layout_keys,
};
// Gemma4ForConditionalGeneration: the language model is text_config (gemma4_text).
extern const FamilyRule k_gemma4_rule{.model_types = {"gemma4"},
                                      .tied_by_default = true,
                                      .text_config = "text_config",
                                      .text_model_type = "gemma4_text"};

}  // namespace moeplan::hf
