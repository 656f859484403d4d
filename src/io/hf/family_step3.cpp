// step3_vl (its text_config, step3_text): stepfun-ai/step3, counted as the checkpoint's remote
// code modeling_step3.py builds the language model (Step3vAttention, Step3vMoEMLP, Step3vMLP,
// Step3vDecoderLayer, Step3Model, lm_head). Its attention is MFA: softmax attention of
// num_attention_heads query heads over ONE shared K/V head of head_dim (num_key_value_heads = 1
// is hard-coded; num_attention_groups is not read), with a low-rank query:
// q_proj d -> share_q_dim, inter_norm RMSNorm(share_q_dim), wq share_q_dim -> N_q·head_dim
// (ModelConfig::gqa_q_lora_rank). The vision tower is not counted.
#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace step3_parts {  // named: a unity build compiles the family files together


void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  m.hidden_size = c.written("hidden_size", 1, "Step3's config class");
  m.num_hidden_layers = c.written("num_hidden_layers", 1, "Step3's config class");
  if (!c.layer_count_ok(m.num_hidden_layers, "num_hidden_layers")) return;
  m.num_attention_heads = c.written("num_attention_heads", 1, "Step3's config class");
  m.head_dim = c.written("head_dim", 1, "Step3's config class");
  m.intermediate_size = c.written("intermediate_size", 1, "Step3's config class");
  m.vocab_size = c.written("vocab_size", 1, "Step3's config class");
  if (r.failed()) return;
  // Step3vAttention: self.num_key_value_heads = 1, whatever num_attention_groups says.
  m.num_key_value_heads = 1;
  if (const auto g = r.integer(c.j, c.take("num_attention_groups"), 1); g && *g != 1) {
    r.fail("num_attention_groups", fmt::format("is {}: the remote Step3vAttention builds one shared K/V head "
                                              "whatever this says, so moeplan refuses rather than guess", *g));
    return;
  }
  // q_size = getattr(config, "share_q_dim", self.head_dim): the low-rank query's rank.
  m.gqa_q_lora_rank = r.integer(c.j, "share_q_dim", 1).value_or(m.head_dim);
  // The lm_head of Step3vForConditionalGeneration is tied when tie_word_embeddings says so;
  // the Step3 config classes leave it to PretrainedConfig (default true), which moeplan does
  // not guess: it must be written (in text_config or at the top level).
  const auto tied = r.boolean(c.j, "tie_word_embeddings");
  const auto tied_top = r.boolean(c.doc, "tie_word_embeddings");
  if (!tied && !tied_top) {
    r.fail("tie_word_embeddings", "missing: the Step3 config classes leave it to PretrainedConfig's default; "
                                  "write it");
    return;
  }
  m.tie_word_embeddings = tied ? *tied : *tied_top;

  // Experts: Step3vMoEMLP (moe_num_experts of moe_intermediate_size, router nn.Linear(d, E,
  // bias=False), moe_top_k per token) with a shared Step3vMLP of share_expert_dim, in the
  // layers moe_layers_enum lists; Step3vMLP(intermediate_size) in the others.
  m.n_routed_experts = c.written("moe_num_experts", 1, "Step3's config class");
  m.num_experts_per_tok = c.written("moe_top_k", 1, "Step3's config class");
  m.moe_intermediate_size = c.written("moe_intermediate_size", 1, "Step3's config class");
  m.n_shared_experts = 1;
  m.shared_expert_intermediate_size = c.written("share_expert_dim", 1, "Step3's config class");
  if (r.failed()) return;
  const int L = m.num_hidden_layers;
  std::set<int> moe;
  c.take("moe_layers_enum");
  if (const auto it = c.j.find("moe_layers_enum"); it == c.j.end() || it->is_null()) {
    // Step3vDecoderLayer: moe_layers_idx = range(1, num_hidden_layers) when it is None.
    for (int i = 1; i < L; ++i) moe.insert(i);
  } else if (!it->is_string()) {
    r.fail("moe_layers_enum", "must be a comma-separated string of layer indices (the remote code splits it on ',')");
    return;
  } else {
    // [int(i) for i in moe_layers_enum.strip().split(',')]
    const std::string s = it->get<std::string>();
    std::size_t from = 0;
    while (from <= s.size()) {
      const std::size_t comma = std::min(s.find(',', from), s.size());
      std::string item = s.substr(from, comma - from);
      const auto b = item.find_first_not_of(" \t\n");
      const auto e = item.find_last_not_of(" \t\n");
      item = b == std::string::npos ? "" : item.substr(b, e - b + 1);
      int v = -1;
      bool ok = !item.empty() && item.size() <= 9 && item.find_first_not_of("0123456789") == std::string::npos;
      if (ok) v = std::stoi(item);
      if (!ok || v >= L || !moe.insert(v).second) {
        r.fail("moe_layers_enum", fmt::format("lists \"{}\": not a new layer index in [0, {})", item, L));
        return;
      }
      from = comma + 1;
    }
  }
  m.layers.resize(static_cast<std::size_t>(L));
  for (int i = 0; i < L; ++i) {
    m.layers[static_cast<std::size_t>(i)].ffn = moe.contains(i) ? FfnKind::moe : FfnKind::dense;
  }
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{"moe_intermediate_size", "moe_num_experts", "moe_top_k",
                                             "moe_layers_enum", "share_expert_dim", "num_attention_groups"};

}  // namespace step3_parts

extern const FamilyRule k_step3_text_rule{
    .model_types = {"step3_text"},
    .read = step3_parts::read,
    .standard_keys = false,
    .layout_keys = step3_parts::k_layout_keys,
    .problem_keys = {{"num_key_value_heads", "num_attention_groups"}},
};
// The multimodal checkpoint: its language model is text_config.
extern const FamilyRule k_step3_vl_rule{
    .model_types = {"step3_vl"},
    .text_config = "text_config",
    .text_model_type = "step3_text",
    .layout_keys = step3_parts::k_layout_keys,
    .problem_keys = {{"num_key_value_heads", "num_attention_groups"}},
};

}  // namespace moeplan::hf
