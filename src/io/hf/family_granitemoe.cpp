// granitemoe, granitemoeshared: transformers modular_granitemoe.py and
// modular_granitemoeshared.py (GraniteMoeForCausalLM, GraniteMoeSharedForCausalLM).
#include "family_rule.hpp"

namespace moeplan::hf {
namespace granitemoe_parts {  // named: a unity build compiles the family files together

// Every layer MoE: GraniteMoeMoE holds num_local_experts experts of intermediate_size
// (input_linear E x 2I x d, gate and up fused; output_linear E x d x I) and a router
// (E x d, no bias). GraniteMoeAttention is LlamaAttention (q, k, v, o biases with
// attention_bias), two RMSNorms per layer. The multipliers (embedding_multiplier,
// attention_multiplier, residual_multiplier, logits_scaling) are floats, not weights.
// granitemoeshared adds GraniteMoeSharedMLP in every layer, always on, no gate: input_linear
// (d x 2S) and output_linear (S x d) with S = shared_intermediate_size; none when S is 0.
void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  m.n_routed_experts = r.required(c.j, c.take("num_local_experts"), 1);
  m.num_experts_per_tok = r.required(c.j, c.take("num_experts_per_tok"), 1);
  m.moe_intermediate_size = r.required(c.j, "intermediate_size", 1);
  m.intermediate_size = 0;  // no dense FFN
  if (c.family == "granitemoeshared") {
    // GraniteMoeSharedConfig's default is 0 in its code but 1024 in its docstring, so the key
    // must be written. 0: GraniteMoeSharedDecoderLayer builds no shared MLP (shared_mlp = None).
    if ((!c.j.contains("shared_intermediate_size") || c.j["shared_intermediate_size"].is_null()) && !r.failed()) {
      r.fail("shared_intermediate_size", "missing: GraniteMoeSharedConfig's default is 0 in its code and 1024 "
                                         "in its docstring; write the shared MLP's width (0: none)");
    }
    if (const int s = r.integer(c.j, c.take("shared_intermediate_size"), 0).value_or(0); s > 0) {
      m.n_shared_experts = 1;
      m.shared_expert_intermediate_size = s;
    }
  }
  c.attention_bias(false, false);
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "num_local_experts", "num_experts_per_tok", "shared_intermediate_size"};

}  // namespace granitemoe_parts

// GraniteMoeConfig: num_key_value_heads None means N_q.
extern const FamilyRule k_granitemoe_rule{
    .model_types = {"granitemoe", "granitemoeshared"},
    .read = granitemoe_parts::read,
    .kv_heads_default_to_query_heads = true,
    .layout_keys = granitemoe_parts::k_layout_keys,
    // Mixtral's layout: MixtralForCausalLM builds it when the biases and widths agree.
    .built_by = {{"granitemoe", "mixtral"}, {"granitemoeshared", "mixtral"}},
};

}  // namespace moeplan::hf
